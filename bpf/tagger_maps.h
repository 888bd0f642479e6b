/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The map ABI between the tagger tc programs (bpf/tagger_port.bpf.c,
 * bpf/tagger_host.bpf.c) and the loader (userspace/dp_*.c). Both sides
 * include this file; every struct has explicit padding and a size check so
 * the two compilers (clang -target bpf, gcc) agree on the layout.
 *
 * Switch port maps, pinned under <bpf root>/<switch>/:
 *   TAGGER_IFSLOT       array by ifindex (< TAGGER_MAX_IFINDEX): the port
 *                       slot of each of the switch's interfaces, 1..n (0:
 *                       not a port of the switch). Fixed at attach.
 *   TAGGER_RULES_OUTER  array-of-maps, 2 slots: the rule tables of two
 *                       generations. A rule table is one array of struct
 *                       tagger_rule_val, tagger_table_size(nslots) long:
 *                       classify entries by (in slot, dscp), rewrite
 *                       entries by (in slot, out slot, dscp), and entry 0
 *                       (slot 0 is no port) holding the lossy tag and
 *                       priority. Arrays of one size, so every lookup is
 *                       inlined by the verifier and costs the same at ten
 *                       rules or a million.
 *   TAGGER_GEN          array, 1 entry: the generation; new packets use the
 *                       table in slot gen % 2. An update fills the other
 *                       slot, then bumps this. Ingress records the slot in
 *                       skb->mark (TAGGER_MARK_GEN) and egress rewrites with
 *                       the same one, so one packet never mixes two rule
 *                       sets.
 *   TAGGER_COUNTERS     per-CPU array of struct tagger_counter, indexed by
 *                       tagger_counter_index(port slot, dir, dscp, lossless)
 *   TAGGER_PORT_STATS   per-CPU array of struct tagger_port_stats by port
 *                       slot: lossy demotions per reason, PFC frames, ...
 *   TAGGER_SAMPLES      ring buffer (TAGGER_SAMPLES_BYTES) of struct
 *                       tagger_sample: the 5-tuples of packets demoted
 *                       with reason no_rewrite, at most one per out port
 *                       per TAGGER_SAMPLE_GAP_NS (bpf/lib/sample.h).
 *                       Readers keep the last TAGGER_SAMPLES_KEPT records
 *                       in the ring itself (userspace/dataplane/
 *                       dp_samples.h), so every reader sees them.
 *   TAGGER_SAMPLE_GATE  array of struct tagger_sample_gate by out port
 *                       slot: the rate limit's clock, samples taken and
 *                       lost (ring full)
 * The program's read-only tagger_nslots (ports + 1) is set before load and
 * sizes the tables and counters.
 *
 * Host maps, pinned under <bpf root>/<host>/<ifname>/:
 *   TAGGER_HOST_TAGS    array, 65 entries of struct tagger_host_tag: by the
 *                       DSCP the application sent (0..63), and entry 64 for
 *                       packets the UDP selector picks
 *   TAGGER_HOST_CFG     array, 1 entry of struct tagger_host_cfg (the UDP
 *                       selector, the lossy class, the CNP class)
 *   TAGGER_HOST_COUNTERS per-CPU array of struct tagger_counter by the DSCP
 *                       the packet left with
 */
#ifndef __TAGGER_MAPS_H
#define __TAGGER_MAPS_H

#include <linux/types.h>

#define TAGGER_IFSLOT tagger_ifslot
#define TAGGER_RULES_OUTER tagger_rules
#define TAGGER_RULES_INNER tagger_rules_inner /* template only */
#define TAGGER_GEN tagger_gen
#define TAGGER_COUNTERS tagger_counters
#define TAGGER_PORT_STATS tagger_port_stats
#define TAGGER_SAMPLES tagger_samples
#define TAGGER_SAMPLE_GATE tagger_sample_gate
#define TAGGER_HOST_TAGS tagger_host_tags
#define TAGGER_HOST_CFG tagger_host_cfg
#define TAGGER_HOST_COUNTERS tagger_host_counters

#define __tagger_str(x) #x
#define tagger_str(x) __tagger_str(x)

/* The holders' generation map (bpf/tagger_hold.bpf.c): entry 1, nonzero
 * while an update moves the ports to entry 0's generation. */
#define TAGGER_HOLD_FLUX 1

#define TAGGER_DSCP_MAX 64
#define TAGGER_RULE_SLOTS 2 /* generations alive at once */
#define TAGGER_MAX_PORTS 256 /* port slots 1..255 */
#define TAGGER_MAX_IFINDEX 65536

#define TAGGER_F_LOSSLESS 0x01 /* lossless answer */
#define TAGGER_F_RULE 0x02 /* a rule answers (lossless or lossy) */
#define TAGGER_F_CNP 0x04 /* TAGGER_CNP_ENTRY: the rules have a "cnp" */

/*
 * RoCEv2 congestion notifications (CNPs: UDP port 4791, BTH opcode 0x81)
 * are a class of their own when the rules have a "cnp" (tagger-formats(7)):
 * a DSCP no lossless tag and not the lossy tag, and a priority no lossless
 * tag has. Hosts send CNPs with it (bpf/tagger_host.bpf.c), whatever
 * selector picks the data; a switch port classifies that DSCP into the CNP
 * priority, never lossless (a PAUSE never holds it, it never pauses
 * anyone), and keeps the DSCP at egress instead of rewriting it to the
 * lossy tag. Its entry is TAGGER_CNP_ENTRY of the rule table (slot 0, no
 * port: no classify lookup reads it as a rule), flags TAGGER_F_CNP, so it
 * changes with the rules in one generation swap.
 */
#define TAGGER_CNP_ENTRY 1
#define TAGGER_ROCE_UDP_PORT 4791
#define TAGGER_BTH_OP_CNP 0x81 /* the BTH's first byte (RC: CNP) */

/*
 * classify: prio = ingress priority.
 * rewrite:  dscp = new tag, prio = egress priority (the priority the next
 *           hop classifies the new tag into).
 * entry 0:  dscp/prio = the lossy tag and priority (flags 0).
 * All zero: no rule, lossy.
 */
struct tagger_rule_val {
	__u8 prio;
	__u8 flags;
	__u8 dscp;
	__u8 pad;
};

static inline __u32 tagger_classify_index(__u32 slot, __u32 dscp)
{
	return slot * TAGGER_DSCP_MAX + dscp;
}

static inline __u32 tagger_rewrite_index(__u32 nslots, __u32 in, __u32 out,
					 __u32 dscp)
{
	return (nslots + in * nslots + out) * TAGGER_DSCP_MAX + dscp;
}

static inline __u32 tagger_table_size(__u32 nslots)
{
	return (nslots + nslots * nslots) * TAGGER_DSCP_MAX;
}

enum tagger_dir {
	TAGGER_DIR_IN = 0, /* ingress: the tag it came with, its verdict */
	TAGGER_DIR_OUT = 1, /* egress: the tag it left with, its verdict */
	TAGGER_DIRS = 2,
};

#define TAGGER_COUNTERS_PER_PORT (TAGGER_DIRS * TAGGER_DSCP_MAX * 2)

struct tagger_counter {
	__u64 packets;
	__u64 bytes;
};

static inline __u32 tagger_counter_index(__u32 slot, __u32 dir, __u32 dscp,
					 __u32 lossless)
{
	return ((slot * TAGGER_DIRS + dir) * TAGGER_DSCP_MAX + (dscp & 63)) *
		       2 +
	       !!lossless;
}

/* Why a packet became lossy at a port; see tagger_lossy() in bpf/lib/counters.h. */
enum tagger_lossy_reason {
	TAGGER_LOSSY_NO_CLASSIFY = 0, /* ingress: (port, tag) has no rule */
	TAGGER_LOSSY_NO_REWRITE, /* egress: (tag, in, out) off the ELP */
	TAGGER_LOSSY_REWRITE, /* egress: a rule maps to the lossy tag */
	TAGGER_LOSSY_BAD_HEADER, /* IP header truncated or malformed */
	TAGGER_LOSSY_NO_TABLE, /* no rule table loaded */
	TAGGER_LOSSY_UNCLASSIFIED, /* egress: no tagger ingress saw it */
	TAGGER_LOSSY_MULTICAST, /* ingress: broadcast or multicast */
	TAGGER_LOSSY_REASONS,
};

struct tagger_port_stats {
	__u64 lossy[TAGGER_LOSSY_REASONS]; /* demotions by reason */
	__u64 pfc_frames; /* 802.1Qbb PFC (0x8808, opcode 0x0101) */
	__u64 pause_frames; /* other MAC control (802.3x PAUSE) */
	__u64 non_ip; /* passed untouched */
	__u64 cnp; /* ingress: packets of the CNP class (TAGGER_F_CNP) */
};

/*
 * A packet demoted with reason no_rewrite, as the egress program saw it
 * before it rewrote the tag. Addresses in network order (IPv4 in the first
 * four bytes); ports in host order, 0 when the packet has none (not TCP,
 * UDP, UDP-Lite, DCCP or SCTP, a fragment, or too short to hold them).
 */
struct tagger_sample {
	__u64 ns; /* bpf_ktime_get_ns(): CLOCK_MONOTONIC */
	__u8 saddr[16];
	__u8 daddr[16];
	__u16 sport;
	__u16 dport;
	__u8 family; /* 4 or 6 */
	__u8 proto; /* IPPROTO_* (IPv6: after the extension headers) */
	__u8 dscp; /* the tag it arrived with */
	__u8 reason; /* enum tagger_lossy_reason */
	__u8 in_slot; /* port slots (0: not a port of the switch) */
	__u8 out_slot;
	__u8 pad[2];
	__u32 len; /* skb->len */
};

struct tagger_sample_gate {
	__u64 last_ns; /* when this port last took a sample */
	__u64 taken; /* samples written to the ring */
	__u64 lost; /* samples the full ring refused */
};

/*
 * One sample per out port per TAGGER_SAMPLE_GAP_NS: 10 a second, so a
 * flood of demoted packets costs the ring 640 bytes a second per port. A
 * 16 KiB ring holds 256 records of 64 bytes (8 of header).
 */
#define TAGGER_SAMPLE_GAP_NS 100000000ULL
#define TAGGER_SAMPLES_BYTES (16 << 10)
#define TAGGER_SAMPLES_KEPT 16

/* Entry TAGGER_HOST_UDP_ENTRY of TAGGER_HOST_TAGS: the UDP selector's tag. */
#define TAGGER_HOST_UDP_ENTRY TAGGER_DSCP_MAX
#define TAGGER_HOST_TAG_ENTRIES (TAGGER_DSCP_MAX + 1)

struct tagger_host_tag {
	__u8 set; /* 0: leave the packet as the application sent it */
	__u8 dscp; /* tag to send with */
	__u8 prio; /* priority the first switch classifies it into */
	__u8 pad;
};

struct tagger_host_cfg {
	__u16 udp_lo; /* UDP destination ports picked by the selector */
	__u16 udp_hi; /* (inclusive); udp_hi == 0: no UDP selector */
	__u8 lossy_set; /* 1: group-addressed packets of the class */
	__u8 lossy_dscp; /* leave with the lossy tag and priority */
	__u8 lossy_prio; /* instead (see bpf/lib/mcast.h) */
	__u8 cnp_set; /* 1: RoCEv2 CNPs leave with cnp_dscp, cnp_prio; */
	__u8 cnp_dscp; /* 0: as sent (never with a tag of the class) */
	__u8 cnp_prio;
	__u8 pad[2];
};

_Static_assert(sizeof(struct tagger_rule_val) == 4, "tagger_rule_val ABI");
_Static_assert(sizeof(struct tagger_counter) == 16, "tagger_counter ABI");
_Static_assert(sizeof(struct tagger_port_stats) == 88, "tagger_port_stats ABI");
_Static_assert(sizeof(struct tagger_sample) == 56, "tagger_sample ABI");
_Static_assert(sizeof(struct tagger_sample_gate) == 24,
	       "tagger_sample_gate ABI");
_Static_assert(sizeof(struct tagger_host_tag) == 4, "tagger_host_tag ABI");
_Static_assert(sizeof(struct tagger_host_cfg) == 12, "tagger_host_cfg ABI");

#endif /* __TAGGER_MAPS_H */
