/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Per (in-port, priority) buffer accounting: a forwarded packet's bytes are
 * added at ingress and given back when it leaves the node or is dropped
 * (the tracepoints); XOFF and XON crossings are decided here (the rule is
 * pfc_xoff_next() in bpf/pfc_maps.h) and reported to the agent. Every
 * packet entering an egress queue is logged for the agent's exact recount.
 *
 * API:
 *   pfc_account_in(skb, slot, mark, kind, pkt)   ingress: count, XOFF, and
 *                                                its refresh, ECN; 1: drop
 *                                                it (the watchdog's drop)
 *   pfc_ecn(skb, c, kind, pkt, bytes, prio)      mark CE by the occupancy
 *   pfc_log_queued(skb, slot, q, mark)           egress: the queue's log
 *   pfc_give_back(skb, dropped, reason)          tracepoints: return, XON
 *                                                (and XON near, first)
 *   pfc_first_out(skb)                           tracepoint: a reopened
 *                                                queue's first packet
 */
#ifndef __TAGGER_LIB_PFC_ACCOUNT_H
#define __TAGGER_LIB_PFC_ACCOUNT_H

#include "tagger_skb.h"
#include "lib/parse.h"
#include "lib/pfc_frame.h"
#include "lib/pfc_globals.h"
#include "lib/pfc_kernel.h"
#include "lib/pfc_queue.h"

/* Address families of struct bpf_fib_lookup (linux/socket.h). */
#define PFC_AF_INET 2
#define PFC_AF_INET6 10

/*
 * Will the stack forward this packet? Only forwarded packets occupy the
 * switch buffer until they leave it (locally delivered ones are consumed
 * by sockets, where no tracepoint would return them).
 */
static __always_inline int pfc_forwarded(struct __sk_buff *skb, int kind,
					 const struct tagger_pkt *pkt)
{
	struct bpf_fib_lookup fib = {};
	int rc;

	fib.ifindex = skb->ingress_ifindex;
	if (kind == TAGGER_PKT_IP4) {
		struct iphdr ip;

		if (bpf_skb_load_bytes(skb, pkt->l3, &ip, sizeof(ip)) < 0)
			return 0;
		fib.family = PFC_AF_INET;
		fib.tos = ip.tos;
		fib.l4_protocol = ip.protocol;
		fib.ipv4_src = ip.saddr;
		fib.ipv4_dst = ip.daddr;
	} else if (kind == TAGGER_PKT_IP6) {
		struct ipv6hdr ip6;

		if (bpf_skb_load_bytes(skb, pkt->l3, &ip6, sizeof(ip6)) < 0)
			return 0;
		fib.family = PFC_AF_INET6;
		fib.l4_protocol = ip6.nexthdr;
		__builtin_memcpy(fib.ipv6_src, &ip6.saddr, 16);
		__builtin_memcpy(fib.ipv6_dst, &ip6.daddr, 16);
	} else {
		return 0;
	}
	rc = bpf_fib_lookup(skb, &fib, sizeof(fib), BPF_FIB_LOOKUP_SKIP_NEIGH);
	return rc == BPF_FIB_LKUP_RET_SUCCESS ||
	       rc == BPF_FIB_LKUP_RET_NO_NEIGH ||
	       rc == BPF_FIB_LKUP_RET_FRAG_NEEDED;
}

static __always_inline void pfc_track_peak(struct pfc_pp *c, __u64 v)
{
	if (v > c->peak)
		c->peak = v; /* approximate under races: statistics only */
}

/*
 * The first packet from the upstream after an XON crossing: the resume
 * went out, the upstream's gate opened and its queue runs again. The time
 * since the crossing is how long the resume took, end to end (what the
 * benchmark calls XON -> flow resumed).
 */
static __always_inline void pfc_resumed(struct pfc_pp *c, __u32 slot,
					__u32 prio)
{
	__u64 since = __sync_lock_test_and_set(&c->xon_at, 0);

	if (since) /* else another CPU's packet was first */
		pfc_emit(PFC_EV_RESUMED, slot, prio, 0, since);
}

/*
 * A buffer still above XON (xoff set) whose last PAUSE upstream is older
 * than refresh_after_ns: send another from here, so that the upstream
 * does not resume into a full buffer while the agent (whose timer refreshes
 * PAUSEs) is frozen or starved. A paused upstream sends nothing, so the
 * packet that gets here is the first one after its pause expired: one
 * round trip late, which the headroom covers as it covers the crossing's
 * own PAUSE. While the agent runs it refreshes first and this stays quiet.
 * One CPU wins the exchange; the others see the new time.
 */
static __always_inline void pfc_refresh_xoff(struct __sk_buff *skb, __u32 slot,
					     __u32 mark, __u32 prio)
{
	__u64 *at = pfc_xoff_sent_at(slot, prio), last = *at, now;
	__u64 after = refresh_after_ns[slot & (PFC_MAX_PORTS - 1)];

	if (!after)
		return;
	now = bpf_ktime_get_ns();
	if (now - last < after ||
	    __sync_val_compare_and_swap(at, last, now) != last)
		return;
	if (pfc_pause_now(skb, mark, prio))
		__sync_fetch_and_add(&bpf_refreshes, 1);
}

/*
 * ECN where the occupancy is known, so that kernels without RED mark too:
 * an ECN-capable packet (ECT(0) or ECT(1)) of a lossless priority with
 * marking on is marked CE with probability pfc_ecn_p() of the buffer it
 * was just counted in; Not-ECT is never marked (RFC 3168: it would be
 * dropped instead, and lossless traffic is not) and CE stays CE. IPv4:
 * the TOS byte and the header checksum (bpf_l3_csum_replace over the
 * 16-bit word that holds it); IPv6: the traffic class's two ECN bits in
 * the second byte, the flow label untouched. The tag (DSCP) is not
 * changed, so the data plane's rewrite at egress keeps the mark.
 */
static __always_inline void pfc_ecn(struct __sk_buff *skb, struct pfc_pp *c,
				    int kind, const struct tagger_pkt *pkt,
				    __u64 bytes, __u32 prio)
{
	__u8 w[2], n[2];
	__u64 p;

	prio &= PFC_PRIOS - 1;
	if (!((ecn_mask >> prio) & 1))
		return;
	if ((pkt->tos & 3) == 0 || (pkt->tos & 3) == 3)
		return; /* Not-ECT, or CE already */
	p = pfc_ecn_p(bytes, ecn_kmin[prio], ecn_kmax[prio], ecn_pmax[prio]);
	if (!p || (p < PFC_ECN_ONE && bpf_get_prandom_u32() >= p))
		return;
	if (bpf_skb_load_bytes(skb, pkt->l3, w, sizeof(w)))
		return;
	n[0] = w[0];
	n[1] = w[1];
	if (kind == TAGGER_PKT_IP4) {
		n[1] |= 3;
		if (bpf_skb_store_bytes(skb, pkt->l3, n, sizeof(n), 0) ||
		    bpf_l3_csum_replace(skb, pkt->l3 + 10, *(__u16 *)w,
					*(__u16 *)n, sizeof(n)))
			return;
	} else if (kind == TAGGER_PKT_IP6) {
		n[1] |= 3 << 4;
		if (bpf_skb_store_bytes(skb, pkt->l3, n, sizeof(n), 0))
			return;
	} else {
		return;
	}
	__sync_fetch_and_add(&c->ecn_marked, 1);
}

static __always_inline int pfc_account_in(struct __sk_buff *skb, __u32 slot,
					  __u32 mark, int kind,
					  const struct tagger_pkt *pkt)
{
	__u32 prio = mark & TAGGER_MARK_PRIO_MASK, len = skb->len;
	struct pfc_pp *c;
	__u64 now_b;

	if (!forwarding || !pfc_forwarded(skb, kind, pkt))
		return 0; /* delivered here: not buffered */
	c = pfc_pp_get(slot, prio);
	if (!c)
		return 0;
	if (c->drop_in) {
		/* A storm from this port's peer: nothing of it is buffered,
		 * so nothing crosses XOFF and no PAUSE goes to the peer. */
		__sync_fetch_and_add(&c->in_drops, 1);
		return 1;
	}
	mark |= TAGGER_MARK_ACCT;
	skb->mark = mark;
	__sync_fetch_and_add(&c->pkts, 1);
	__sync_fetch_and_add(&c->in_bytes, len);
	now_b = __sync_fetch_and_add(&c->bytes, len) + len;
	pfc_track_peak(c, now_b);
	/* After the add (a full barrier): see pfc_idle.h for the pairing. */
	if (agent_asleep && __sync_lock_test_and_set(&agent_asleep, 0))
		pfc_emit(PFC_EV_WAKE, slot, prio, 0, 0);
	if (!(mark & TAGGER_MARK_LOSSLESS))
		return 0; /* lossy priorities never pause */
	if (ecn_mask)
		pfc_ecn(skb, c, kind, pkt, now_b, prio);
	if (c->xon_at)
		pfc_resumed(c, slot, prio);
	if (c->xoff) {
		pfc_refresh_xoff(skb, slot, mark, prio);
	} else if (pfc_xoff_next(0, now_b, xoff_bytes[prio], xon_bytes[prio]) &&
		   __sync_val_compare_and_swap(&c->xoff, 0, 1) == 0) {
		__u32 sent = pfc_pause_now(skb, mark, prio);

		if (sent)
			*pfc_xoff_sent_at(slot, prio) = bpf_ktime_get_ns();
		*pfc_xon_near_flag(slot, prio) = 0;
		__sync_fetch_and_add(&c->xoff_crossings, 1);
		pfc_emit(PFC_EV_XOFF, slot, prio, sent, 0);
	}
	return 0;
}

/*
 * Log a packet entering egress queue (slot, q) with the (in-port, prio)
 * it was counted at, if any; see "ring" in pfc_maps.h. Logged packets
 * that were counted are marked so that a later drop is known to have
 * happened in (or after) the queue.
 */
static __always_inline void pfc_log_queued(struct __sk_buff *skb, __u32 slot,
					   __u32 q, __u32 mark)
{
	__u32 in_slot = PFC_RE_NONE, in_prio = 0, len = skb->len, k;
	struct pfc_pp *qc = pfc_pp_get(slot, q), *c = 0;
	__u64 idx, *e;

	if (!qc)
		return;
	if ((mark & TAGGER_MARK_ACCT) &&
	    pfc_port_slot(skb->ingress_ifindex, &in_slot) == 0) {
		in_prio = mark & TAGGER_MARK_PRIO_MASK;
		c = pfc_pp_get(in_slot, in_prio);
	}
	if (!c)
		in_slot = PFC_RE_NONE;
	idx = __sync_fetch_and_add(&qc->ring_head, 1);
	k = PFC_RING_SLOT(slot, q, idx);
	e = bpf_map_lookup_elem(&ring, &k);
	if (e)
		*e = pfc_ring_entry(idx, in_slot, in_prio, len);
	if (c) {
		__sync_fetch_and_add(&c->queued_bytes, len);
		skb->mark = mark | TAGGER_MARK_QUEUED;
	}
}

/*
 * Whether the storm watchdog's drop action holds the packet's egress queue:
 * then the drop is the watchdog's (its egress drops or a flush of the
 * queue, both counted by the watchdog), not a loss of the lossless class.
 */
static __always_inline int pfc_wd_dropping(struct sk_buff___pfc *skb,
					   struct net_device___pfc *dev)
{
	__u32 slot, prio = skb->priority;
	struct pfc_pp *q;
	int n;

	if (pfc_port_slot(dev->ifindex, &slot) < 0)
		return 0;
	n = prio < PFC_PRIOS ? (int)prio : pfc_queue_of(prio);
	if (n < 0)
		return 0;
	q = pfc_pp_get(slot, n);
	return q && q->drop_out;
}

/*
 * Where a drop is filed: failure_drops, drops, or elsewhere (the qdisc's
 * own count, the watchdog's).
 */
static __always_inline void pfc_file_drop(struct sk_buff___pfc *skb,
					  struct pfc_pp *c,
					  struct net_device___pfc *dev,
					  __u32 reason)
{
	__u8 kind = drop_kind[reason & 0xff];

	if (pfc_wd_dropping(skb, dev))
		return;
	if (kind == PFC_DROP_FAILURE || pfc_link_down(dev)) {
		__sync_fetch_and_add(&c->failure_drops, 1);
	} else if (kind != PFC_DROP_QDISC) {
		__sync_fetch_and_add(&c->drops, 1);
		c->last_drop_reason = reason;
	}
}

/* Tell the agent once per pause episode that XON is near. */
static __always_inline void pfc_near_xon(struct pfc_pp *c, __u32 slot,
					 __u32 prio, __u64 now_b)
{
	__u8 *n = pfc_xon_near_flag(slot, prio);

	if (!*n && pfc_xon_near(c->xoff, now_b, xon_bytes[prio & 7],
				xon_near_bytes[prio & 7])) {
		*n = 1;
		pfc_emit(PFC_EV_XON_NEAR, slot, prio,
			 PFC_EV_CPU(bpf_get_smp_processor_id()), 0);
	}
}

/* Return an accounted packet's bytes to its (in-port, priority). */
static __always_inline void pfc_give_back(struct sk_buff___pfc *skb,
					  int dropped, __u32 reason)
{
	struct net_device___pfc *dev = skb->dev;
	__u32 mark = skb->mark, slot, prio, len = skb->len;
	struct pfc_pp *c;
	__u64 old, now_b;

	if (!(mark & TAGGER_MARK_ACCT) || !dev)
		return;
	if (pfc_dev_netns(dev) != netns_ino)
		return;
	if (pfc_port_slot(skb->skb_iif, &slot) < 0)
		return;
	prio = mark & TAGGER_MARK_PRIO_MASK;
	c = pfc_pp_get(slot, prio);
	if (!c)
		return;
	__sync_fetch_and_add(&c->returned, 1);
	if (dropped)
		pfc_file_drop(skb, c, dev, reason);
	if (dropped && !(mark & TAGGER_MARK_QUEUED))
		__sync_fetch_and_add(&c->early_drop_bytes, len);
	old = __sync_fetch_and_add(&c->bytes, -(__u64)len);
	if (old < len) {
		/*
		 * Already taken off by the agent's resync (see pfc_loop.c):
		 * stop at zero, and say so.
		 */
		__sync_fetch_and_add(&c->bytes, len - old);
		__sync_fetch_and_add(&c->underflow, 1);
		old = len;
	}
	now_b = old - len;
	pfc_near_xon(c, slot, prio, now_b);
	if (c->xoff &&
	    !pfc_xoff_next(1, now_b, xoff_bytes[prio], xon_bytes[prio]) &&
	    __sync_val_compare_and_swap(&c->xoff, 1, 0) == 1) {
		c->xon_at = bpf_ktime_get_ns();
		pfc_emit(PFC_EV_XON, slot, prio,
			 PFC_EV_CPU(bpf_get_smp_processor_id()), 0);
	}
}

/*
 * A packet leaves one of this node's ports: if its egress queue was just
 * reopened, it is the first one out, the upstream side of "the flow
 * resumed" (the agent traces it against the gate's opening).
 */
static __always_inline void pfc_first_out(struct sk_buff___pfc *skb)
{
	struct net_device___pfc *dev = skb->dev;
	__u32 slot, prio = skb->priority;
	struct pfc_pp *c;
	int q;

	if (!dev || pfc_dev_netns(dev) != netns_ino)
		return;
	if (skb->protocol == bpf_htons(ETH_P_PFC))
		return; /* frames of the pause machinery itself */
	if (pfc_port_slot(dev->ifindex, &slot) < 0)
		return;
	q = prio < PFC_PRIOS ? (int)prio : pfc_queue_of(prio);
	if (q < 0)
		return;
	c = pfc_pp_get(slot, q);
	if (!c || !c->tx_watch || !__sync_lock_test_and_set(&c->tx_watch, 0))
		return;
	__sync_fetch_and_sub(&tx_watches, 1);
	pfc_emit(PFC_EV_SENT, slot, q, 0, 0);
}

#endif /* __TAGGER_LIB_PFC_ACCOUNT_H */
