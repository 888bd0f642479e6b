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
 *   tagger_sample(skb, l3, kind, tos, out, reason)   sample the packet
 *                    (IP header at l3, of kind IP4 or IP6, arrived with
 *                    traffic class tos) leaving port slot out
 */
#ifndef __TAGGER_LIB_SAMPLE_H
#define __TAGGER_LIB_SAMPLE_H

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

/*
 * The IP header is read again here, not taken from the parse: the fields
 * only a sample needs (fragment, protocol, addresses) stay out of the
 * programs' fast path, which would otherwise compute and keep them for
 * every packet.
 */
static __always_inline void tagger_sample(struct __sk_buff *skb, __u32 l3,
					  int kind, __u8 tos, __u32 out,
					  __u32 reason)
{
	struct tagger_sample_gate *g =
		bpf_map_lookup_elem(&TAGGER_SAMPLE_GATE, &out);
	struct tagger_sample s = {};
	struct tagger_pkt q = { .l3 = l3 };
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
	s.dscp = tos >> 2;
	s.in_slot = tagger_slot(skb->ingress_ifindex);
	s.out_slot = out;
	s.len = skb->len;
	if (kind == TAGGER_PKT_IP4) {
		struct iphdr ip;

		if (bpf_skb_load_bytes(skb, l3, &ip, sizeof(ip)))
			return;
		s.family = 4;
		__builtin_memcpy(s.saddr, &ip.saddr, 4);
		__builtin_memcpy(s.daddr, &ip.daddr, 4);
		q.l4proto = ip.protocol;
		q.l4 = l3 + ip.ihl * 4;
		frag = !!(ip.frag_off & bpf_htons(TAGGER_IP_FRAG));
	} else {
		struct ipv6hdr ip6;

		if (bpf_skb_load_bytes(skb, l3, &ip6, sizeof(ip6)))
			return;
		s.family = 6;
		__builtin_memcpy(s.saddr, &ip6.saddr, 16);
		__builtin_memcpy(s.daddr, &ip6.daddr, 16);
		q.l4proto = ip6.nexthdr;
		q.l4 = l3 + sizeof(ip6);
		frag = tagger_ip6_l4(skb, &q, &q.l4, &q.l4proto);
	}
	s.proto = q.l4proto;
	if (!frag && tagger_has_ports(q.l4proto) &&
	    !bpf_skb_load_bytes(skb, q.l4, ports, sizeof(ports))) {
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
