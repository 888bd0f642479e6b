/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The state a running pause agent shares with `tagger pfc show`, `stop`
 * and the lab: a file <dir>/state that the agent maps and updates in place
 * (a sequence count, odd while an update is in progress), plus <dir>/pid.
 * A file under /run, not a bpffs pin, because `ip netns exec` mounts a
 * private /sys in which another process's pins are invisible.
 *
 * API:
 *   struct pfc_state (+ pfc_state_port, pfc_state_prio)
 *   pfc_state_create(dir, &st)     agent: create and map (0 or -errno)
 *   pfc_state_open(dir, &st)       reader: map read-only
 *   pfc_state_snapshot(st, copy)   consistent copy (retries while updated)
 *   pfc_state_begin/end(st)        agent: bracket an update
 *   pfc_state_unmap(st)
 *   pfc_dir(node, buf)             $TAGGER_PFC_DIR/<node> or /run/tagger/pfc/<node>
 */
#ifndef __TAGGER_PFC_STATE_H
#define __TAGGER_PFC_STATE_H

#include <stdint.h>

#include "pfc_config.h"

#define PFC_STATE_MAGIC 0x54504643u	/* "TPFC" */
#define PFC_STATE_VERSION 4

struct pfc_state_prio {
	/* this port as an ingress port (from the BPF counters) */
	uint64_t bytes, peak, pkts, returned, drops, xoff_crossings, underflow;
	uint32_t xoff;		/* above XOFF: pausing the upstream */
	uint32_t gate_closed;	/* the upstream paused this egress queue */
	uint64_t pfc_tx, pfc_tx_resume;	/* frames sent enabling this prio */
	uint64_t pfc_tx_fast;		/* ... of pfc_tx, sent by BPF at XOFF */
	/* this port's egress queue */
	uint64_t pfc_rx, pfc_rx_resume, pfc_rx_ignored;
	uint64_t pauses;		/* gate closures */
	uint64_t paused_ns;		/* total closed time, closed episodes */
	uint64_t paused_since;		/* CLOCK_MONOTONIC ns, 0 when open */
	uint64_t q_backlog, q_qlen, q_drops, q_packets, q_bytes;
	uint64_t egress_drops;		/* by the watchdog's drop action */
	uint64_t failure_drops;		/* lost to a failure: link down, no route */
	uint32_t last_drop_reason;	/* skb_drop_reason of the last of drops */
	uint32_t pad;
	uint64_t resynced;		/* bytes whose return the tracepoints missed */
	uint64_t wd_events, wd_last_ns;	/* detections, paused time at the last */
	uint64_t wd_until;		/* restoration ends (0: not acting) */
	/* this port as an ingress port: XON crossing -> first packet back */
	uint64_t resumes, resume_ns, resume_max_ns;
};

struct pfc_state_port {
	char name[16], ifname[16];
	int32_t ifindex;
	uint32_t pad;
	uint64_t rate_bps;
	char dcb[32];
	struct pfc_state_prio prio[PFC_PRIOS];
};

struct pfc_state {
	uint32_t magic, version;
	uint32_t seq, pid;
	uint64_t started, updated;	/* CLOCK_MONOTONIC ns */
	uint64_t tick_began;		/* when the tick that set updated began */
	char node[64];
	char backend[32];
	char note[512];
	uint64_t rate_bps;
	uint32_t lossless_mask, quanta;
	uint64_t xoff[PFC_PRIOS], xon[PFC_PRIOS], headroom[PFC_PRIOS];
	uint64_t lossless_limit, lossy_limit;
	uint32_t sched, wd_action, wd_detect_ms, wd_restore_ms;
	uint32_t nports, frame;
	int32_t cpu_latency_us;		/* PM QoS request held, or
					 * PFC_CPU_LATENCY_NONE */
	uint32_t rt_prio;		/* SCHED_FIFO priority in force, 0: none */
	uint64_t wd_events, events_lost, resyncs;
	struct pfc_state_port ports[PFC_MAX_PORTS];
};

int pfc_state_create(const char *dir, struct pfc_state **st);
int pfc_state_open(const char *dir, struct pfc_state **st);
int pfc_state_snapshot(const struct pfc_state *st, struct pfc_state *copy);
void pfc_state_begin(struct pfc_state *st);
void pfc_state_end(struct pfc_state *st);
void pfc_state_unmap(struct pfc_state *st);
int pfc_dir(const char *node, char *buf, size_t len);

#endif /* __TAGGER_PFC_STATE_H */
