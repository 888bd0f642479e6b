/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Samples of demoted packets: the 5-tuple of a packet the egress program
 * demotes with reason no_rewrite (its (tag, in port, out port) has no rule:
 * the routing took it off the ELP), written to the TAGGER_SAMPLES ring so
 * that the flow is named, not only counted.
 *
 * Rate limit: at most one sample per out port per TAGGER_SAMPLE_GAP_NS,
 * by the port's clock in TAGGER_SAMPLE_GATE, so a flood cannot fill the
 * ring. The clock is read and written without an atomic (the program is
 * built for every BPF CPU version): two CPUs demoting on one port in the
 * same instant may both take one, so a gap holds at most one sample per
 * CPU, never more. A full ring (nobody reads it) counts the sample lost.
 *
 * Only called on the demotion path: a packet that keeps its lossless tag
 * never gets here, so its cost does not change. The headers were parsed
 * by tagger_parse (kind IP4 or IP6, never BAD_IP); everything past them
 * is read with bpf_skb_load_bytes, which fails on a short packet instead
 * of reading past it: a truncated transport header leaves the ports 0.
 *
 * API:
 *   tagger_sample(skb, &pkt, kind, out, reason)   sample the packet
 *                                                  leaving out port out
 */
#ifndef __TAGGER_LIB_SAMPLE_H
#define __TAGGER_LIB_SAMPLE_H

#include <stddef.h>

#include "parse.h"
#include "rules.h"

#ifndef IPPROTO_DCCP
#define IPPROTO_DCCP 33
#endif

/* The protocols whose first four bytes are the source and destination port. */
static __always_inline int tagger_has_ports(__u8 proto)
{
	return proto == IPPROTO_TCP || proto == IPPROTO_UDP ||
	       proto == IPPROTO_UDPLITE || proto == IPPROTO_DCCP ||
	       proto == IPPROTO_SCTP;
}

static __always_inline void tagger_sample(struct __sk_buff *skb,
					  const struct tagger_pkt *p, int kind,
					  __u32 out, __u32 reason)
{
	struct tagger_sample_gate *g =
		bpf_map_lookup_elem(&TAGGER_SAMPLE_GATE, &out);
	struct tagger_sample s = {};
	__u32 l4 = p->l4;
	__u8 proto = p->l4proto;
	__be16 ports[2];
	__u64 now;
	int frag;

	if (!g)
		return;
	now = bpf_ktime_get_ns();
	if (now - g->last_ns < TAGGER_SAMPLE_GAP_NS)
		return;
	g->last_ns = now;
	s.ns = now;
	s.reason = reason;
	s.dscp = p->tos >> 2;
	s.in_slot = tagger_slot(skb->ingress_ifindex);
	s.out_slot = out;
	s.len = skb->len;
	if (kind == TAGGER_PKT_IP4) {
		s.family = 4;
		/* saddr, daddr: 8 bytes at 12 */
		if (bpf_skb_load_bytes(skb,
				       p->l3 + offsetof(struct iphdr, saddr),
				       s.saddr, 4) ||
		    bpf_skb_load_bytes(skb,
				       p->l3 + offsetof(struct iphdr, daddr),
				       s.daddr, 4))
			return;
		frag = p->frag;
	} else {
		s.family = 6;
		if (bpf_skb_load_bytes(skb,
				       p->l3 + offsetof(struct ipv6hdr, saddr),
				       s.saddr, 16) ||
		    bpf_skb_load_bytes(skb,
				       p->l3 + offsetof(struct ipv6hdr, daddr),
				       s.daddr, 16))
			return;
		frag = tagger_ip6_l4(skb, p, &l4, &proto);
	}
	s.proto = proto;
	if (!frag && tagger_has_ports(proto) &&
	    !bpf_skb_load_bytes(skb, l4, ports, sizeof(ports))) {
		s.sport = bpf_ntohs(ports[0]);
		s.dport = bpf_ntohs(ports[1]);
	}
	if (bpf_ringbuf_output(&TAGGER_SAMPLES, &s, sizeof(s),
			       BPF_RB_NO_WAKEUP))
		__sync_fetch_and_add(&g->lost, 1);
	else
		__sync_fetch_and_add(&g->taken, 1);
}

#endif /* __TAGGER_LIB_SAMPLE_H */
