/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Counting, and the one way a packet becomes lossy at a switch port.
 *
 * API:
 *   tagger_count(slot, dir, dscp, lossless, len)   per (port, tag, verdict)
 *   tagger_stats(slot)                              per-port stats or NULL
 *   tagger_lossy(skb, &pkt, kind, port, reason, rewrite)
 *       every lossy verdict goes through here: lossy priority, the lossy
 *       tag when rewrite is set (egress), the per-reason counter of the port
 *       when reason is a demotion (not for packets that arrived lossy).
 */
#ifndef __TAGGER_LIB_COUNTERS_H
#define __TAGGER_LIB_COUNTERS_H

#include "dscp.h"
#include "port_maps.h"

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
					  const struct tagger_rule_val *port,
					  __u32 reason, int rewrite)
{
	__u32 slot = port ? port->slot : 0;
	__u32 prio = port ? port->prio : 0;
	struct tagger_port_stats *st;

	if (rewrite && port && kind != TAGGER_PKT_BAD_IP)
		tagger_set_dscp(skb, p, kind, port->dscp);
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
