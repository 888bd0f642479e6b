// SPDX-License-Identifier: GPL-2.0
/*
 * Tagger on a switch port: tc ingress classifies (port, tag) into a
 * priority, tc egress rewrites the tag by (tag, in port, out port) and
 * queues the packet at the priority the next hop will classify it into.
 * Anything no rule matches is lossy, and so is anything group addressed
 * (see lib/mcast.h), whatever its tag, except the CNP class (the "cnp" of
 * the rules, TAGGER_CNP_ENTRY in tagger_maps.h): its DSCP is queued at its
 * own priority, never lossless, and kept at egress. Both return TAGGER_TC_NEXT so the
 * pause machinery (attached after us) sees every packet; see tagger_skb.h.
 */
#include "lib/counters.h"
#include "lib/mcast.h"
#include "lib/parse.h"
#include "lib/rules.h"
#include "lib/sample.h"

char LICENSE[] SEC("license") = "GPL";

static __always_inline void
tagger_set_mark(struct __sk_buff *skb, __u32 lossless, __u32 prio, __u32 gen)
{
	__u32 keep = skb->mark & ~(TAGGER_MARK_MASK | TAGGER_MARK_GEN);

	skb->mark = keep | TAGGER_MARK(lossless, prio) |
		    (gen ? TAGGER_MARK_GEN : 0);
}

/* Frames that are not IP pass untouched; MAC control frames are counted. */
static __always_inline int tagger_l2(int kind, const struct tagger_pkt *p,
				     __u32 slot)
{
	struct tagger_port_stats *st = tagger_stats(slot);

	if (!st)
		return TAGGER_TC_NEXT;
	if (kind == TAGGER_PKT_OTHER)
		st->non_ip++;
	else if (p->opcode == PFC_OPCODE)
		st->pfc_frames++;
	else
		st->pause_frames++;
	return TAGGER_TC_NEXT;
}

/* A packet of the CNP class: its priority, not lossless, counted. */
static __always_inline int tagger_cnp_in(struct __sk_buff *skb, __u32 slot,
					 __u32 prio, __u32 gen, __u32 dscp)
{
	struct tagger_port_stats *st = tagger_stats(slot);

	skb->priority = prio;
	tagger_set_mark(skb, 0, prio, gen);
	tagger_count(slot, TAGGER_DIR_IN, dscp, 0, skb->len);
	if (st)
		st->cnp++;
	return TAGGER_TC_NEXT;
}

SEC("tc")
int tagger_ingress(struct __sk_buff *skb)
{
	__u32 slot = tagger_slot(skb->ifindex), gen, reason, prio, dscp;
	struct tagger_rule_val *v, *cfg;
	struct tagger_pkt p = {};
	void *tbl;
	int kind;

	kind = tagger_parse(skb, &p);
	if (kind == TAGGER_PKT_OTHER || kind == TAGGER_PKT_MACCTL)
		return tagger_l2(kind, &p, slot);
	gen = tagger_cur_slot();
	tbl = tagger_table(gen);
	dscp = p.tos >> 2;
	if (!tbl) {
		reason = TAGGER_LOSSY_NO_TABLE;
	} else if (kind == TAGGER_PKT_BAD_IP) {
		reason = TAGGER_LOSSY_BAD_HEADER;
	} else {
		v = tagger_entry(tbl, tagger_classify_index(slot, dscp));
		/* Only what would be lossless is tested: one reason per demotion. */
		if (v && (v->flags & TAGGER_F_LOSSLESS) &&
		    !tagger_group_addressed(skb, &p, kind)) {
			skb->priority = v->prio;
			tagger_set_mark(skb, 1, v->prio, gen);
			tagger_count(slot, TAGGER_DIR_IN, dscp, 1, skb->len);
			return TAGGER_TC_NEXT;
		}
		cfg = tagger_entry(tbl, 0);
		if (v && (v->flags & TAGGER_F_LOSSLESS))
			reason = TAGGER_LOSSY_MULTICAST;
		else if ((v = tagger_cnp(tbl, dscp)))
			return tagger_cnp_in(skb, slot, v->prio, gen, dscp);
		else if (cfg && dscp == cfg->dscp)
			reason = TAGGER_NOT_DEMOTED; /* arrived lossy */
		else
			reason = TAGGER_LOSSY_NO_CLASSIFY;
	}
	prio = tagger_lossy(skb, &p, kind, tbl, slot, reason, 0);
	tagger_set_mark(skb, 0, prio, gen);
	return TAGGER_TC_NEXT;
}

SEC("tc")
int tagger_egress(struct __sk_buff *skb)
{
	__u32 mark = skb->mark, out = tagger_slot(skb->ifindex), gen, reason,
	      idx;
	const __u32 ok = TAGGER_MARK_VALID | TAGGER_MARK_LOSSLESS;
	struct tagger_rule_val *v;
	struct tagger_pkt p = {};
	void *tbl;
	int kind;

	if (mark & TAGGER_MARK_PFC_FRAME)
		return TAGGER_TC_NEXT; /* becomes a PAUSE frame: see tagger_skb.h */
	kind = tagger_parse(skb, &p);
	if (kind == TAGGER_PKT_OTHER || kind == TAGGER_PKT_MACCTL)
		return TAGGER_TC_NEXT;
	/* The rule set that classified the packet also rewrites it. */
	if (mark & TAGGER_MARK_VALID)
		gen = (mark & TAGGER_MARK_GEN) ? 1 : 0;
	else
		gen = tagger_cur_slot();
	tbl = tagger_table(gen);
	if (!tbl) {
		reason = TAGGER_LOSSY_NO_TABLE;
	} else if (kind != TAGGER_PKT_BAD_IP && (mark & ok) == ok) {
		idx = tagger_rewrite_index(tagger_nslots,
					   tagger_slot(skb->ingress_ifindex),
					   out, p.tos >> 2);
		v = tagger_entry(tbl, idx);
		if (v && (v->flags & TAGGER_F_LOSSLESS)) {
			tagger_set_dscp(skb, &p, kind, v->dscp);
			skb->priority = v->prio;
			tagger_count(out, TAGGER_DIR_OUT, v->dscp, 1, skb->len);
			return TAGGER_TC_NEXT;
		}
		reason = v && (v->flags & TAGGER_F_RULE) ?
				 TAGGER_LOSSY_REWRITE :
				 TAGGER_LOSSY_NO_REWRITE;
		/* Off the ELP: name the flow (rate-limited, lib/sample.h). */
		if (reason == TAGGER_LOSSY_NO_REWRITE)
			tagger_sample(skb, p.l3, kind, p.tos, out, reason);
	} else if (kind != TAGGER_PKT_BAD_IP &&
		   (v = tagger_cnp(tbl, p.tos >> 2))) {
		/* The CNP class keeps its DSCP, at its priority. */
		skb->priority = v->prio;
		tagger_count(out, TAGGER_DIR_OUT, p.tos >> 2, 0, skb->len);
		return TAGGER_TC_NEXT;
	} else if (!(mark & TAGGER_MARK_VALID)) {
		reason = kind == TAGGER_PKT_BAD_IP ? TAGGER_LOSSY_BAD_HEADER :
						     TAGGER_LOSSY_UNCLASSIFIED;
	} else {
		reason = TAGGER_NOT_DEMOTED; /* lossy since ingress */
	}
	tagger_lossy(skb, &p, kind, tbl, out, reason, 1);
	return TAGGER_TC_NEXT;
}
