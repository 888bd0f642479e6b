// SPDX-License-Identifier: GPL-2.0
/*
 * The pause machinery's data path, on the ports of one node (one netns):
 *
 *   pfc_ingress  tc ingress, attached last: consumes PFC frames (events to
 *                the agent), classifies by DSCP when no tagger classifier
 *                ran, and adds forwarded packets to the (in-port, priority)
 *                buffer counter; crossing XOFF sends a PAUSE (lib/pfc_frame.h)
 *                and tells the agent; the watchdog's drop action drops a
 *                storming port's ingress here.
 *   pfc_egress   tc egress, attached last: turns a PAUSE clone into the
 *                frame, priority for locally sent packets, the watchdog's
 *                "drop" action, and the log of what enters each egress
 *                queue (the agent's recount).
 *   pfc_classify HTB filter: skb->priority 0..7 -> class 1:10+prio.
 *   pfc_xmit     tp_btf/net_dev_start_xmit: a packet leaves the node, its
 *                bytes return to its (in-port, priority) counter; falling
 *                to XON asks the agent for a resume.
 *   pfc_drop     tp_btf/kfree_skb: same for packets dropped on the way.
 *
 * The entry points only dispatch; the parts are in bpf/lib/pfc_*.h. The
 * tracepoints fire for every device of every namespace, so they filter on
 * the netns inode first. See bpf/tagger_skb.h for the skb contract and
 * bpf/pfc_maps.h for the maps.
 */
#include <linux/bpf.h>
#include <linux/pkt_cls.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_endian.h>

#include "tagger_skb.h"
#include "pfc_maps.h"
#include "lib/parse.h"
#include "lib/pfc_account.h"
#include "lib/pfc_frame.h"
#include "lib/pfc_globals.h"
#include "lib/pfc_kernel.h"
#include "lib/pfc_queue.h"

char LICENSE[] SEC("license") = "GPL";

SEC("tc")
int pfc_ingress(struct __sk_buff *skb)
{
	__u32 slot, mark = skb->mark, prio = 0, lossless;
	struct tagger_pkt pkt = {};
	int kind;

	if (pfc_port_slot(skb->ifindex, &slot) < 0)
		return TAGGER_TC_NEXT;
	if (skb->protocol == bpf_htons(ETH_P_PFC))
		return pfc_rx(skb, slot);
	kind = tagger_parse(skb, &pkt);
	if (!(mark & TAGGER_MARK_VALID)) {
		/* No tagger classifier: an ordinary RoCE switch, DSCP -> prio. */
		if (kind == TAGGER_PKT_IP4 || kind == TAGGER_PKT_IP6)
			prio = pfc_dscp_to_prio(pkt.tos >> 2);
		lossless = (lossless_mask >> prio) & 1;
		mark = (mark & ~TAGGER_MARK_MASK) | TAGGER_MARK(lossless, prio);
		skb->mark = mark;
		skb->priority = prio;
	}
	if (pfc_account_in(skb, slot, mark, kind, &pkt))
		return TC_ACT_SHOT; /* the watchdog's drop (pfc_maps.h) */
	return TAGGER_TC_NEXT;
}

SEC("tc")
int pfc_egress(struct __sk_buff *skb)
{
	__u32 slot, mark = skb->mark, prio;
	struct pfc_pp *c;

	if (mark & TAGGER_MARK_PFC_FRAME)
		return pfc_make_pause(skb, mark & TAGGER_MARK_PRIO_MASK);
	if (pfc_port_slot(skb->ifindex, &slot) < 0)
		return TAGGER_TC_NEXT;
	if (!(mark & TAGGER_MARK_VALID) && skb->priority < PFC_PRIOS) {
		/* Sent by this node: queue by DSCP like a RoCE NIC does. */
		if (!pfc_dscp_prio(skb, &prio))
			skb->priority = prio;
	}
	prio = skb->priority;
	if (prio >= PFC_PRIOS) {
		int q = pfc_queue_of(prio);

		if (forwarding && q >= 0)
			pfc_log_queued(skb, slot, q, mark);
		return TAGGER_TC_NEXT;
	}
	if (mark & TAGGER_MARK_ACCT) {
		__u32 *m = &emap[mark & TAGGER_MARK_PRIO_MASK];

		if (!(*m & (1u << prio)))
			__sync_fetch_and_or(m, 1u << prio);
	}
	c = pfc_pp_get(slot, prio);
	if (c && c->drop_out) {
		__sync_fetch_and_add(&c->egress_drops, 1);
		return TC_ACT_SHOT;
	}
	if (forwarding)
		pfc_log_queued(skb, slot, prio, mark);
	return TAGGER_TC_NEXT;
}

/*
 * HTB filter (direct action): priority 0..7 -> class 1:10+prio. tc_classid
 * holds the minor only; the filter's own classid (1:) gives the major.
 */
SEC("tc")
int pfc_classify(struct __sk_buff *skb)
{
	__u32 prio = skb->priority;

	if (prio >= PFC_PRIOS)
		prio = 0;
	skb->tc_classid = PFC_CLASS_MINOR(prio);
	return TC_ACT_OK;
}

SEC("tp_btf/net_dev_start_xmit")
int pfc_xmit(__u64 *ctx)
{
	struct sk_buff___pfc *skb = (struct sk_buff___pfc *)ctx[0];

	if (tx_watches)
		pfc_first_out(skb);
	if (forwarding)
		pfc_give_back(skb, 0, 0);
	return 0;
}

SEC("tp_btf/kfree_skb")
int pfc_drop(__u64 *ctx)
{
	pfc_give_back((struct sk_buff___pfc *)ctx[0], 1, (__u32)ctx[2]);
	return 0;
}
