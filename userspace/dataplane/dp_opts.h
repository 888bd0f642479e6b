/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a data-plane subcommand (tagger switch, tagger host) is given and
 * what it reports. A report is typed: the plain text is printed from its
 * member for the subcommand, and the -j document (dp_report.h) is made
 * from the same member, so the two read one struct.
 *
 * API:
 *   struct dp_opts                       what the command line gave
 *   struct dp_dcb_model                  the dcb data path's headroom
 *                                        model
 *   enum dp_datapath                     where a switch's rules run
 *                                        (dp_paths.h: by name)
 *   struct dp_table_counts               a rule table's counts
 *   struct dp_attach_report, dp_union_report, dp_update_report,
 *   dp_detach_report, dp_host_report     what each subcommand did
 *   struct dp_report                     one of them, and its -j document
 */
#ifndef __TAGGER_DP_OPTS_H
#define __TAGGER_DP_OPTS_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <jansson.h>

#include "dataplane/dp_attach.h"

/* Where a switch's rules run (dp_flower.h says how the second one works). */
enum dp_datapath {
	DP_DATAPATH_BPF, /* the tc programs of bpf/tagger_port.bpf.c */
	DP_DATAPATH_FLOWER, /* tc flower filters, offloadable */
	DP_DATAPATH_DCB, /* the ports' DCB app, rewr and PFC tables */
};

/*
 * switch attach --datapath dcb: the headroom model of its ports (tagger
 * pfc headroom's, with a hardware sender's PAUSE processing), turned by
 * the command line into what DCB takes: PFC's delay and the size of a
 * lossless priority's buffer. Recorded at attach (dp_dcb.h), so that
 * update and repair write the same.
 */
struct dp_dcb_model {
	bool set; /* an option was given: write the delay and buffers */
	uint64_t speed_bps;
	uint32_t cable_m;
	int mtu;
	uint32_t delay_bits; /* 2 r t_wire, 16 bits */
	uint32_t buffer_bytes; /* xon + headroom */
};

struct dp_opts {
	const char *name;
	const char *ifname; /* host */
	const char *rules_file;
	char **maps; /* PORT=IFNAME */
	int nmaps;
	enum dp_mode mode;
	enum dp_datapath datapath; /* switch attach */
	bool offload; /* switch attach --datapath flower: skip_sw */
	bool shared_blocks; /* ... flower: alike ports share a tc block */
	struct dp_dcb_model dcb; /* switch attach --datapath dcb */
	const char *topo_file;
	bool force;
	bool packed; /* show: the attached rules, packed (dp_packed.h) */
	const char *class_dscp; /* host: "26,34" */
	const char *udp_dport; /* host: "4791" or "4791-4792" */
	int class_id; /* host: -1 unless --class */
};

/* A rule table's counts, as the reports and the record give them. */
struct dp_table_counts {
	long long entries; /* not counting the default entry */
	long long classify, rewrite; /* lossless entries of each kind */
};

struct dp_attach_report {
	const char *datapath; /* its name (dp_paths.h) */
	enum dp_mode mode; /* the one the ports got */
	long long filters, in_hw; /* flower: tc filters, those in hardware */
	int blocks; /* flower: shared tc blocks (--shared-blocks) */
	int ports;
	long long generation;
	struct dp_table_counts table;
	char pins[PATH_MAX]; /* where pinned; "": held by the kernel only */
	bool sysctl_changed; /* ip_forward_update_priority set to 0 */
	int sysctl_was;
};

/* The union check of an update (checked false: skipped, --force). */
struct dp_union_report {
	bool checked, acyclic, incremental;
	long long buffers, dependencies;
	/* cyclic: its edges, as -j prints them (owned by dp_report.json) */
	const json_t *cycle;
};

struct dp_update_report {
	bool gated; /* the union gate ran: union says what it found */
	struct dp_union_report union_;
	bool updated; /* the new rules are live */
	long long generation;
	struct dp_table_counts table;
	bool in_place;
	double swap_seconds, seconds;
};

struct dp_detach_report {
	bool detached;
	int ports;
	bool leftover; /* only what an interrupted command left was removed */
	bool restored; /* the sysctl was put back */
};

struct dp_host_report {
	enum dp_mode mode;
	int tag, priority;
	char selects[256]; /* which packets are the class */
	int cnp_tag, cnp_prio; /* the rules' CNP class, -1 if none */
	/* the RDMA device told the tag, NULL if none (owned by json) */
	const json_t *rdma;
	bool detached;
};

/*
 * json: what -j prints, NULL for nothing (an error was printed), made by
 * dp_report.c from the member of the subcommand that ran, which the plain
 * text is printed from: the two read one struct.
 */
struct dp_report {
	json_t *json;
	union {
		struct dp_attach_report attach;
		struct dp_update_report update;
		struct dp_detach_report detach;
		struct dp_host_report host;
	};
};

#endif /* __TAGGER_DP_OPTS_H */
