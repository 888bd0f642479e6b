// SPDX-License-Identifier: GPL-2.0
/*
 * The pause machinery's data path, on the ports of one node (one netns):
 *
 *   pfc_ingress  tc ingress, attached last: consumes PFC frames (events to
 *                the agent), classifies by DSCP when no tagger classifier
 *                ran, and adds forwarded packets to the (in-port, priority)
 *                buffer counter; crossing XOFF asks the agent for a PAUSE.
 *   pfc_egress   tc egress, attached last: priority for locally sent
 *                packets, the watchdog's "drop" action, and the log of
 *                what enters each egress queue (the agent's recount).
 *   pfc_classify HTB filter: skb->priority 0..7 -> class 1:10+prio.
 *   pfc_xmit     tp_btf/net_dev_start_xmit: a packet leaves the node, its
 *                bytes return to its (in-port, priority) counter; falling
 *                to XON asks the agent for a resume.
 *   pfc_drop     tp_btf/kfree_skb: same for packets dropped on the way.
 *
 * The tracepoints fire for every device of every namespace, so they filter
 * on the netns inode first. See bpf/tagger_skb.h for the skb contract and
 * bpf/pfc_maps.h for the maps.
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/in.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/pkt_cls.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_endian.h>

#include "tagger_skb.h"
#include "pfc_maps.h"

char LICENSE[] SEC("license") = "GPL";

/* Configuration, fixed when the agent loads the programs. */
const volatile __u32 netns_ino;
const volatile __u32 lossless_mask;
const volatile __u64 xoff_bytes[PFC_PRIOS];
const volatile __u64 xon_bytes[PFC_PRIOS];
const volatile __u8 dscp_prio[64];
const volatile __u8 drop_kind[256];	/* enum pfc_drop_kind by drop reason */
const volatile __u32 forwarding = 1;	/* 0: a host, nothing to account */
const volatile __u16 pause_quanta = 0xffff;

/*
 * Set by the agent where a PAUSE frame can overtake the port's queues from
 * tc egress (HTB's direct queue): XOFF then sends the frame right away
 * instead of waiting for the agent to wake up.
 */
__u32 fast_pause;

/*
 * Egress queues the agent has reopened and whose next packet out it wants
 * to hear of (tx_watch in pfc_pp): so that a transmit looks further only
 * while one is pending.
 */
__u32 tx_watches;

/*
 * Which egress priorities each ingress priority was queued at (the data
 * plane may change it): the agent's resync needs to know which queues
 * hold an ingress priority's bytes.
 */
__u32 emap[PFC_PRIOS];

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, PFC_MAX_PORTS);
	__type(key, __u32);	/* ifindex */
	__type(value, __u32);	/* slot */
} ports SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, PFC_MAX_PORTS * PFC_PRIOS);
	__uint(map_flags, BPF_F_MMAPABLE);
	__type(key, __u32);
	__type(value, struct pfc_pp);
} pp SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, PFC_MAX_PORTS * PFC_PRIOS * PFC_RING);
	__uint(map_flags, BPF_F_MMAPABLE);
	__type(key, __u32);
	__type(value, __u64);
} ring SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 1 << 18);
} events SEC(".maps");

/* Minimal kernel types, relocated by CO-RE (no vmlinux.h needed). */
struct ns_common___pfc {
	unsigned int inum;
} __attribute__((preserve_access_index));

struct net___pfc {
	struct ns_common___pfc ns;
} __attribute__((preserve_access_index));

struct possible_net_t___pfc {
	struct net___pfc *net;
} __attribute__((preserve_access_index));

struct net_device___pfc {
	unsigned long state;
	int ifindex;
	struct possible_net_t___pfc nd_net;
} __attribute__((preserve_access_index));

struct sk_buff___pfc {
	struct net_device___pfc *dev;
	__u16 protocol;
	unsigned int len;
	int skb_iif;
	__u32 priority;
	__u32 mark;
} __attribute__((preserve_access_index));

static __always_inline struct pfc_pp *pp_get(__u32 slot, __u32 prio)
{
	__u32 k = PFC_SLOT(slot, prio & 7);

	return bpf_map_lookup_elem(&pp, &k);
}

static __always_inline int port_slot(__u32 ifindex, __u32 *slot)
{
	__u32 *s = bpf_map_lookup_elem(&ports, &ifindex);

	if (!s)
		return -1;
	*slot = *s;
	return 0;
}

/* sent: XOFF's "the BPF side sent the PAUSE"; since: RESUMED's crossing. */
static __always_inline void emit(__u32 type, __u32 slot, __u32 prio,
				 __u32 sent, __u64 since)
{
	struct pfc_event *e = bpf_ringbuf_reserve(&events, sizeof(*e), 0);

	if (!e)
		return;	/* the agent's periodic reconcile catches up */
	__builtin_memset(e, 0, sizeof(*e));
	e->type = type;
	e->slot = slot;
	e->prio = prio;
	e->vector = sent;
	e->ts = bpf_ktime_get_ns();
	e->since = since;
	bpf_ringbuf_submit(e, 0);
}

/*
 * The first packet from the upstream after an XON crossing: the resume
 * went out, the upstream's gate opened and its queue runs again. The time
 * since the crossing is how long the resume took, end to end (it is what
 * the benchmark calls XON -> flow resumed).
 */
static __always_inline void resumed(struct pfc_pp *c, __u32 slot, __u32 prio)
{
	__u64 since = __sync_lock_test_and_set(&c->xon_at, 0);

	if (since)	/* else another CPU's packet was first */
		emit(PFC_EV_RESUMED, slot, prio, 0, since);
}

/*
 * The fast XOFF path: a clone of the packet that crossed XOFF goes back out
 * of its in-port marked TAGGER_MARK_PFC_FRAME, and pfc_egress there turns
 * it into the PAUSE frame (make_pause). Returns 1 if the clone went.
 */
static __always_inline __u32 pause_now(struct __sk_buff *skb, __u32 mark,
				       __u32 prio)
{
	long r;

	if (!fast_pause)
		return 0;
	skb->mark = TAGGER_MARK_PFC_FRAME | (prio & TAGGER_MARK_PRIO_MASK);
	r = bpf_clone_redirect(skb, skb->ifindex, 0);
	skb->mark = mark;
	return r == 0;
}

/* A PFC frame: count it per enabled priority and hand it to the agent. */
static __always_inline int pfc_rx(struct __sk_buff *skb, __u32 slot)
{
	struct {
		__be16 opcode;
		__be16 vector;
		__be16 quanta[PFC_PRIOS];
	} f;
	struct pfc_event *e;
	__u32 vec;

	if (bpf_skb_load_bytes(skb, ETH_HLEN, &f, sizeof(f)) < 0)
		return TC_ACT_SHOT;
	if (bpf_ntohs(f.opcode) != PFC_OPCODE)
		return TC_ACT_SHOT;	/* 802.3x PAUSE and others: not ours */
	vec = bpf_ntohs(f.vector) & 0xff;
	if (!vec)
		return TC_ACT_SHOT;	/* a no-op frame (the gate kick) */
#pragma unroll
	for (int p = 0; p < PFC_PRIOS; p++) {
		struct pfc_pp *c;

		if (!(vec & (1u << p)))
			continue;
		c = pp_get(slot, p);
		if (!c)
			continue;
		__sync_fetch_and_add(&c->pfc_rx, 1);
		if (!f.quanta[p])
			__sync_fetch_and_add(&c->pfc_rx_resume, 1);
	}
	/* Straight-line reserve/submit: older verifiers (6.1) need it. */
	e = bpf_ringbuf_reserve(&events, sizeof(*e), 0);
	if (!e)
		return TC_ACT_SHOT;	/* the agent's expiry timer copes */
	e->type = PFC_EV_RX;
	e->slot = slot;
	e->prio = 0;
	e->vector = vec;
	e->ts = bpf_ktime_get_ns();
	e->since = 0;
#pragma unroll
	for (int p = 0; p < PFC_PRIOS; p++)
		e->quanta[p] = bpf_ntohs(f.quanta[p]);
	bpf_ringbuf_submit(e, 0);
	return TC_ACT_SHOT;	/* consumed */
}

/*
 * dscp_prio[] lookup. The mask is in asm because the compiler knows that
 * a DSCP is below 64 and drops it, and older verifiers (6.1) lose the
 * bound through the OR that built the DSCP.
 */
static __always_inline __u32 dscp_to_prio(int dscp)
{
	__u32 i = dscp;

	asm volatile("%0 &= 63" : "+r"(i));
	return dscp_prio[i] & 7;
}

/* DSCP of an IPv4/IPv6 packet, or -1. */
static __always_inline int pkt_dscp(struct __sk_buff *skb, __u16 proto)
{
	__u8 b[2];

	if (proto == bpf_htons(ETH_P_IP)) {
		if (bpf_skb_load_bytes(skb, ETH_HLEN + 1, b, 1) < 0)
			return -1;
		return b[0] >> 2;
	}
	if (proto == bpf_htons(ETH_P_IPV6)) {
		if (bpf_skb_load_bytes(skb, ETH_HLEN, b, 2) < 0)
			return -1;
		return ((b[0] & 0x0f) << 2) | (b[1] >> 6);
	}
	return -1;
}

/*
 * Will the stack forward this packet? Only forwarded packets occupy the
 * switch buffer until they leave it (locally delivered ones are consumed
 * by sockets, where no tracepoint would return them).
 */
static __always_inline int forwarded(struct __sk_buff *skb, __u16 proto)
{
	struct bpf_fib_lookup fib = {};
	int rc;

	fib.ifindex = skb->ingress_ifindex;
	if (proto == bpf_htons(ETH_P_IP)) {
		struct iphdr ip;

		if (bpf_skb_load_bytes(skb, ETH_HLEN, &ip, sizeof(ip)) < 0)
			return 0;
		fib.family = 2;	/* AF_INET */
		fib.tos = ip.tos;
		fib.l4_protocol = ip.protocol;
		fib.ipv4_src = ip.saddr;
		fib.ipv4_dst = ip.daddr;
	} else if (proto == bpf_htons(ETH_P_IPV6)) {
		struct ipv6hdr ip6;

		if (bpf_skb_load_bytes(skb, ETH_HLEN, &ip6, sizeof(ip6)) < 0)
			return 0;
		fib.family = 10;	/* AF_INET6 */
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

static __always_inline void track_peak(struct pfc_pp *c, __u64 v)
{
	if (v > c->peak)
		c->peak = v;
}

SEC("tc")
int pfc_ingress(struct __sk_buff *skb)
{
	__u32 slot, mark = skb->mark, len = skb->len, prio, lossless;
	__u16 proto = skb->protocol;
	struct pfc_pp *c;
	__u64 now_b;
	int dscp;

	if (port_slot(skb->ifindex, &slot) < 0)
		return TAGGER_TC_NEXT;
	if (proto == bpf_htons(ETH_P_PFC))
		return pfc_rx(skb, slot);
	if (!(mark & TAGGER_MARK_VALID)) {
		/* No tagger classifier: an ordinary RoCE switch, DSCP -> prio. */
		dscp = pkt_dscp(skb, proto);
		prio = dscp < 0 ? 0 : dscp_to_prio(dscp);
		lossless = (lossless_mask >> prio) & 1;
		mark = (mark & ~TAGGER_MARK_MASK) | TAGGER_MARK(lossless, prio);
		skb->mark = mark;
		skb->priority = prio;
	}
	prio = mark & TAGGER_MARK_PRIO_MASK;
	if (!forwarding || !forwarded(skb, proto))
		return TAGGER_TC_NEXT;	/* delivered here: not buffered */
	c = pp_get(slot, prio);
	if (!c)
		return TAGGER_TC_NEXT;
	mark |= TAGGER_MARK_ACCT;
	skb->mark = mark;
	__sync_fetch_and_add(&c->pkts, 1);
	__sync_fetch_and_add(&c->in_bytes, len);
	now_b = __sync_fetch_and_add(&c->bytes, len) + len;
	track_peak(c, now_b);
	if (!(mark & TAGGER_MARK_LOSSLESS))
		return TAGGER_TC_NEXT;	/* lossy priorities never pause */
	if (c->xon_at)
		resumed(c, slot, prio);
	if (!c->xoff && pfc_xoff_next(0, now_b, xoff_bytes[prio], xon_bytes[prio]) &&
	    __sync_val_compare_and_swap(&c->xoff, 0, 1) == 0) {
		__sync_fetch_and_add(&c->xoff_crossings, 1);
		emit(PFC_EV_XOFF, slot, prio, pause_now(skb, mark, prio), 0);
	}
	return TAGGER_TC_NEXT;
}

/*
 * Log a packet entering egress queue (slot, q) with the (in-port, prio)
 * it was counted at, if any; see "ring" in pfc_maps.h. Logged packets
 * that were counted are marked so that a later drop is known to have
 * happened in (or after) the queue.
 */
static __always_inline void log_queued(struct __sk_buff *skb, __u32 slot,
				       __u32 q, __u32 mark)
{
	__u32 in_slot = PFC_RE_NONE, in_prio = 0, len = skb->len, k;
	struct pfc_pp *qc = pp_get(slot, q), *c = 0;
	__u64 idx, *e;

	if (!qc)
		return;
	if ((mark & TAGGER_MARK_ACCT) &&
	    port_slot(skb->ingress_ifindex, &in_slot) == 0) {
		in_prio = mark & TAGGER_MARK_PRIO_MASK;
		c = pp_get(in_slot, in_prio);
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
 * The egress queue of an skb->priority of 8 or more: HTB takes 1:10+p as
 * its class for priority p and 1:0 and 1:1 as its direct queue (the
 * agent's kick frames, no gate); pfc_classify puts anything else at 0.
 */
static __always_inline int queue_of(__u32 priority)
{
	__u32 minor = (priority & 0xffff) - 0x10;

	if ((priority >> 16) != 1)
		return 0;
	return minor < PFC_PRIOS ? (int)minor : -1;
}

/*
 * Turn a TAGGER_MARK_PFC_FRAME clone (see pause_now) into an 802.1Qbb
 * frame pausing its priority: from this port's address (the packet's
 * destination, since it arrived here) to 01:80:c2:00:00:01, queued in
 * HTB's direct queue (priority 1:0), which is sent before any class, the
 * way the agent's frames bypass the qdisc.
 */
static __always_inline int make_pause(struct __sk_buff *skb, __u32 prio)
{
	struct {
		__u8 dst[6];
		__u8 src[6];
		__be16 proto;
		__be16 opcode;
		__be16 vector;
		__be16 quanta[PFC_PRIOS];
		__u8 pad[26];
	} f = {};

	if (bpf_skb_load_bytes(skb, 0, f.src, sizeof(f.src)) < 0)
		return TC_ACT_SHOT;
	f.dst[0] = 0x01;
	f.dst[1] = 0x80;
	f.dst[2] = 0xc2;
	f.dst[5] = 0x01;
	f.proto = bpf_htons(ETH_P_PFC);
	f.opcode = bpf_htons(PFC_OPCODE);
	f.vector = bpf_htons(1u << (prio & 7));
	f.quanta[prio & 7] = bpf_htons(pause_quanta);
	if (bpf_skb_change_tail(skb, sizeof(f), 0) < 0 ||
	    bpf_skb_store_bytes(skb, 0, &f, sizeof(f), 0) < 0)
		return TC_ACT_SHOT;
	skb->priority = 0x10000;	/* TC_H_MAKE(1:, 0): HTB's direct queue */
	skb->mark = 0;
	return TAGGER_TC_NEXT;
}

SEC("tc")
int pfc_egress(struct __sk_buff *skb)
{
	__u32 slot, mark = skb->mark, prio;
	struct pfc_pp *c;
	int dscp;

	if (mark & TAGGER_MARK_PFC_FRAME)
		return make_pause(skb, mark & TAGGER_MARK_PRIO_MASK);
	if (port_slot(skb->ifindex, &slot) < 0)
		return TAGGER_TC_NEXT;
	if (!(mark & TAGGER_MARK_VALID) && skb->priority < PFC_PRIOS) {
		/* Sent by this node: queue by DSCP like a RoCE NIC does. */
		dscp = pkt_dscp(skb, skb->protocol);
		if (dscp >= 0)
			skb->priority = dscp_to_prio(dscp);
	}
	prio = skb->priority;
	if (prio >= PFC_PRIOS) {
		int q = queue_of(prio);

		if (forwarding && q >= 0)
			log_queued(skb, slot, q, mark);
		return TAGGER_TC_NEXT;
	}
	if (mark & TAGGER_MARK_ACCT) {
		__u32 *m = &emap[mark & TAGGER_MARK_PRIO_MASK];

		if (!(*m & (1u << prio)))
			__sync_fetch_and_or(m, 1u << prio);
	}
	c = pp_get(slot, prio);
	if (c && c->drop_out) {
		__sync_fetch_and_add(&c->egress_drops, 1);
		return TC_ACT_SHOT;
	}
	if (forwarding)
		log_queued(skb, slot, prio, mark);
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
	skb->tc_classid = 0x10 + prio;
	return TC_ACT_OK;
}

/*
 * Is the device down or without carrier? Its queue is then flushed: the
 * packets are lost with a failed link, not to a full buffer. Bits of
 * enum netdev_state_t, unchanged since 2.6: __LINK_STATE_START (0, up)
 * and __LINK_STATE_NOCARRIER (2).
 */
static __always_inline int link_down(struct net_device___pfc *dev)
{
	unsigned long st = dev->state;

	return !(st & 1) || (st & 4);
}

/* Return an accounted packet's bytes to its (in-port, priority). */
static __always_inline void give_back(struct sk_buff___pfc *skb, int dropped,
				      __u32 reason)
{
	struct net_device___pfc *dev = skb->dev;
	__u32 mark = skb->mark, slot, prio, len = skb->len;
	struct pfc_pp *c;
	__u64 old, now_b;

	if (!(mark & TAGGER_MARK_ACCT) || !dev)
		return;
	if (dev->nd_net.net->ns.inum != netns_ino)
		return;
	if (port_slot(skb->skb_iif, &slot) < 0)
		return;
	prio = mark & TAGGER_MARK_PRIO_MASK;
	c = pp_get(slot, prio);
	if (!c)
		return;
	__sync_fetch_and_add(&c->returned, 1);
	if (dropped) {
		__u8 kind = drop_kind[reason & 0xff];

		if (kind == PFC_DROP_FAILURE || link_down(dev)) {
			__sync_fetch_and_add(&c->failure_drops, 1);
		} else if (kind != PFC_DROP_QDISC) {
			__sync_fetch_and_add(&c->drops, 1);
			c->last_drop_reason = reason;
		}
	}
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
	if (c->xoff && !pfc_xoff_next(1, now_b, xoff_bytes[prio], xon_bytes[prio]) &&
	    __sync_val_compare_and_swap(&c->xoff, 1, 0) == 1) {
		c->xon_at = bpf_ktime_get_ns();
		emit(PFC_EV_XON, slot, prio, 0, 0);
	}
}

/*
 * A packet leaves one of this node's ports: if its egress queue was just
 * reopened, it is the first one out, the upstream side of "the flow
 * resumed" (the agent traces it against the gate's opening).
 */
static __always_inline void first_out(struct sk_buff___pfc *skb)
{
	struct net_device___pfc *dev = skb->dev;
	__u32 slot, prio = skb->priority;
	struct pfc_pp *c;
	int q;

	if (!dev || dev->nd_net.net->ns.inum != netns_ino)
		return;
	if (skb->protocol == bpf_htons(ETH_P_PFC))
		return;	/* frames of the pause machinery itself */
	if (port_slot(dev->ifindex, &slot) < 0)
		return;
	q = prio < PFC_PRIOS ? (int)prio : queue_of(prio);
	if (q < 0)
		return;
	c = pp_get(slot, q);
	if (!c || !c->tx_watch || !__sync_lock_test_and_set(&c->tx_watch, 0))
		return;
	__sync_fetch_and_sub(&tx_watches, 1);
	emit(PFC_EV_SENT, slot, q, 0, 0);
}

SEC("tp_btf/net_dev_start_xmit")
int pfc_xmit(__u64 *ctx)
{
	struct sk_buff___pfc *skb = (struct sk_buff___pfc *)ctx[0];

	if (tx_watches)
		first_out(skb);
	if (forwarding)
		give_back(skb, 0, 0);
	return 0;
}

SEC("tp_btf/kfree_skb")
int pfc_drop(__u64 *ctx)
{
	give_back((struct sk_buff___pfc *)ctx[0], 1, (__u32)ctx[2]);
	return 0;
}
