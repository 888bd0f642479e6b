/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Counting, and the one way a packet becomes lossy at a switch port.
 *
 * API:
 *   tagger_count(slot, dir, dscp, lossless, len)   per (port, tag, verdict)
 *   tagger_stats(slot)                              per-port stats or NULL
 *   tagger_lossy(skb, &pkt, kind, tbl, slot, reason, rewrite)
 *       every lossy verdict goes through here: the lossy priority and, when
 *       rewrite is set (egress), the lossy tag, both from entry 0 of the
 *       rule table tbl; the per-reason counter of the port when reason is a
 *       demotion (not for packets that arrived lossy).
 */
#ifndef __TAGGER_LIB_COUNTERS_H
#define __TAGGER_LIB_COUNTERS_H

#include "dscp.h"
#include "rules.h"

#define TAGGER_NOT_DEMOTED TAGGER_LOSSY_REASONS

static __always_inline void tagger_count(__u32 slot, __u32 dir, __u32 dscp,
					 __u32 lossless, __u32 len)
{
	__u32 idx = tagger_counter_index(slot, dir, dscp, lossless);
	struct tagger_counter *c = bpf_map_lookup_elem(&TAGGER_COUNTERS, &idx);

	if (c) {
		c->packets++;
		c->bytes += len;
	}
}

static __always_inline struct tagger_port_stats *tagger_stats(__u32 slot)
{
	return bpf_map_lookup_elem(&TAGGER_PORT_STATS, &slot);
}

/* Returns the lossy priority it set. */
static __always_inline __u32 tagger_lossy(struct __sk_buff *skb,
					  struct tagger_pkt *p, int kind,
					  void *tbl, __u32 slot, __u32 reason,
					  int rewrite)
{
	struct tagger_rule_val *cfg = tbl ? tagger_entry(tbl, 0) : NULL;
	__u32 prio = cfg ? cfg->prio : 0;
	struct tagger_port_stats *st;

	if (rewrite && cfg && kind != TAGGER_PKT_BAD_IP)
		tagger_set_dscp(skb, p, kind, cfg->dscp);
	skb->priority = prio;
	if (reason < TAGGER_LOSSY_REASONS) {
		st = tagger_stats(slot);
		if (st)
			st->lossy[reason]++;
	}
	if (kind != TAGGER_PKT_BAD_IP)
		tagger_count(slot, rewrite ? TAGGER_DIR_OUT : TAGGER_DIR_IN,
			     p->tos >> 2, 0, skb->len);
	return prio;
}

#endif /* __TAGGER_LIB_COUNTERS_H */
