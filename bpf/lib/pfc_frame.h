/* SPDX-License-Identifier: GPL-2.0 */
/*
 * 802.1Qbb priority flow control frames in and out of the pause programs:
 * a received frame is counted per enabled priority, handed to the agent
 * (PFC_EV_RX) and consumed; at an XOFF crossing a clone of the crossing
 * packet goes back out of its in-port and is rewritten at that port's
 * egress into the PAUSE frame, queued ahead of every gated class.
 *
 * API:
 *   pfc_rx(skb, slot)           a PFC frame arrived on slot: TC_ACT_SHOT
 *   pfc_pause_now(skb, mark, prio)  send the clone (fast_pause only): 1 if sent
 *   pfc_make_pause(skb, prio)   turn the clone into the frame
 *   PFC_FRAME_LEN               60: the minimum Ethernet frame, no FCS
 */
#ifndef __TAGGER_LIB_PFC_FRAME_H
#define __TAGGER_LIB_PFC_FRAME_H

#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/pkt_cls.h>
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>

#include "tagger_skb.h"
#include "lib/pfc_globals.h"

#define PFC_FRAME_LEN 60

struct pfc_frame_body {
	__be16 opcode;
	__be16 vector; /* class-enable vector */
	__be16 quanta[PFC_PRIOS]; /* 512 bit times each */
};

static __always_inline int pfc_rx(struct __sk_buff *skb, __u32 slot)
{
	struct pfc_frame_body f;
	struct pfc_event *e;
	__u32 vec;

	if (bpf_skb_load_bytes(skb, ETH_HLEN, &f, sizeof(f)) < 0)
		return TC_ACT_SHOT;
	if (bpf_ntohs(f.opcode) != PFC_OPCODE)
		return TC_ACT_SHOT; /* 802.3x PAUSE and others: not ours */
	vec = bpf_ntohs(f.vector) & 0xff;
	if (!vec)
		return TC_ACT_SHOT; /* a no-op frame (the gate kick) */
#pragma unroll
	for (int p = 0; p < PFC_PRIOS; p++) {
		struct pfc_pp *c;

		if (!(vec & (1u << p)))
			continue;
		c = pfc_pp_get(slot, p);
		if (!c)
			continue;
		__sync_fetch_and_add(&c->pfc_rx, 1);
		if (!f.quanta[p])
			__sync_fetch_and_add(&c->pfc_rx_resume, 1);
	}
	/* Straight-line reserve/submit: older verifiers (6.1) need it. */
	e = bpf_ringbuf_reserve(&events, sizeof(*e), 0);
	if (!e)
		return TC_ACT_SHOT; /* the agent's expiry timer copes */
	e->type = PFC_EV_RX;
	e->slot = slot;
	e->prio = 0;
	e->vector = vec;
	e->ts = bpf_ktime_get_ns();
	e->since = 0;
#pragma unroll
	for (int p = 0; p < PFC_PRIOS; p++)
		e->quanta[p] = bpf_ntohs(f.quanta[p]);
	pfc_submit(e);
	return TC_ACT_SHOT; /* consumed */
}

static __always_inline __u32 pfc_pause_now(struct __sk_buff *skb, __u32 mark,
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

/*
 * From this port's address (the clone's destination, since the packet
 * arrived here) to 01:80:c2:00:00:01, queued in HTB's direct queue (1:0),
 * which is sent before any class, the way the agent's frames bypass the
 * qdisc.
 */
static __always_inline int pfc_make_pause(struct __sk_buff *skb, __u32 prio)
{
	struct {
		__u8 dst[ETH_ALEN];
		__u8 src[ETH_ALEN];
		__be16 proto;
		struct pfc_frame_body body;
		__u8 pad[PFC_FRAME_LEN - ETH_HLEN -
			 sizeof(struct pfc_frame_body)];
	} f = {};

	if (bpf_skb_load_bytes(skb, 0, f.src, sizeof(f.src)) < 0)
		return TC_ACT_SHOT;
	f.dst[0] = 0x01;
	f.dst[1] = 0x80;
	f.dst[2] = 0xc2;
	f.dst[5] = 0x01;
	f.proto = bpf_htons(ETH_P_PFC);
	f.body.opcode = bpf_htons(PFC_OPCODE);
	f.body.vector = bpf_htons(1u << (prio & 7));
	f.body.quanta[prio & 7] = bpf_htons(pause_quanta);
	if (bpf_skb_change_tail(skb, sizeof(f), 0) < 0 ||
	    bpf_skb_store_bytes(skb, 0, &f, sizeof(f), 0) < 0)
		return TC_ACT_SHOT;
	skb->priority = PFC_TC_HANDLE(PFC_TC_MAJOR, 0);
	skb->mark = 0;
	return TAGGER_TC_NEXT;
}

#endif /* __TAGGER_LIB_PFC_FRAME_H */
