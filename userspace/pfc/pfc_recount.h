/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The exact recount of a switch's (in-port, priority) buffers, which the
 * pause agent uses to correct the fast-path counters.
 *
 * The fast path adds a packet's bytes at tc ingress and gives them back
 * from the net_dev_start_xmit / kfree_skb tracepoints. Under sustained
 * congestion on veth a small fraction of packets leave without a
 * tracepoint event this agent can attribute, and the bytes left behind
 * keep a pause on forever. The recount needs no tracepoint:
 *
 *   buffered(in, p) = in_bytes - queued_bytes - early_drop_bytes
 *                     (still in the stack, between ingress and a queue)
 *                   + bytes of logged packets still in an egress queue
 *
 * The second term comes from the per-queue logs (bpf/pfc_maps.h, "ring")
 * and each queue's own count of packets it has sent or dropped: a queue
 * is FIFO, so its log entries from index (sent + dropped + offset) on are
 * still queued. The offset aligns a log with its qdisc (packets the qdisc
 * saw before the log started); it is measured while the queue is empty,
 * and only trusted once two such measurements agree.
 *
 * Every value is read so that the result can only overestimate the buffer
 * at the moment the counter was read (queue statistics first, then the
 * counters, then the totals and logs), so lowering a counter to it never
 * takes off bytes that are really buffered.
 *
 * API:
 *   struct pfc_recount, struct pfc_qsnap
 *   pfc_recount_mark(rc, pp, nports)       log heads, before the queue stats
 *   pfc_recount_targets(rc, pp, ring, qs, nports, target)
 *                                          0 with target[in][prio] filled,
 *                                          -EAGAIN when a log cannot be read
 *                                          completely this time
 */
#ifndef __TAGGER_PFC_RECOUNT_H
#define __TAGGER_PFC_RECOUNT_H

#include <stdint.h>

#include "pfc_maps.h"

struct pfc_recount {
	uint64_t head0[PFC_MAX_PORTS][PFC_PRIOS];
	int64_t offset[PFC_MAX_PORTS][PFC_PRIOS];
	int64_t candidate[PFC_MAX_PORTS][PFC_PRIOS];
	uint8_t seen[PFC_MAX_PORTS][PFC_PRIOS]; /* 0, 1: candidate, 2: offset */
};

/* One egress queue's statistics, from the qdisc. */
struct pfc_qsnap {
	uint64_t done; /* packets sent + dropped */
	uint64_t qlen; /* packets queued */
};

void pfc_recount_mark(struct pfc_recount *rc, const struct pfc_pp *pp,
		      int nports);
int pfc_recount_targets(struct pfc_recount *rc, const struct pfc_pp *pp,
			const uint64_t *ring,
			const struct pfc_qsnap qs[][PFC_PRIOS], int nports,
			uint64_t target[][PFC_PRIOS]);

#endif /* __TAGGER_PFC_RECOUNT_H */
