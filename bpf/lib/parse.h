/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Packet parsing for the tagger tc programs: Ethernet, at most one 802.1Q
 * tag, IPv4 (with options) and IPv6, and the traffic class byte that holds
 * the tag (DSCP, upper six bits) and ECN (lower two bits).
 *
 * API:
 *   tagger_parse(skb, &pkt)   one of enum tagger_pkt_kind; fills pkt
 *   tagger_udp_dport(skb, &pkt, &port)   0 if pkt is UDP with a readable
 *                             destination port (network order in port)
 *
 * Headers outside the linear area are pulled in (bpf_skb_pull_data) only
 * when skb->len says they exist, so a short frame is reported, never read
 * past. Only offsets are returned: a pull moves the data, so users take
 * fresh data pointers (see dscp.h).
 */
#ifndef __TAGGER_LIB_PARSE_H
#define __TAGGER_LIB_PARSE_H

#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/in.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/udp.h>
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>

#include "tagger_skb.h"

enum tagger_pkt_kind {
	TAGGER_PKT_IP4,
	TAGGER_PKT_IP6,
	TAGGER_PKT_BAD_IP,	/* IP ethertype, header short or malformed */
	TAGGER_PKT_MACCTL,	/* MAC control: PFC or PAUSE */
	TAGGER_PKT_OTHER,	/* not IP (ARP, LLDP, ...), or a short frame */
};

struct tagger_pkt {
	__u32 l3;		/* offset of the IP header */
	__u32 l4;		/* offset of the transport header */
	__u8 tos;		/* IPv4 TOS / IPv6 traffic class */
	__u8 l4proto;
	__u16 opcode;		/* MAC control opcode, host order */
};

struct tagger_vlan_hdr {
	__be16 tci;
	__be16 proto;
};

/* Make the first len bytes linear; -1 if the packet is shorter. */
static __always_inline int tagger_linear(struct __sk_buff *skb, __u32 len)
{
	void *data = (void *)(long)skb->data;
	void *data_end = (void *)(long)skb->data_end;

	if (data + len <= data_end)
		return 0;
	if (skb->len < len || bpf_skb_pull_data(skb, len))
		return -1;
	data = (void *)(long)skb->data;
	data_end = (void *)(long)skb->data_end;
	return data + len <= data_end ? 0 : -1;
}

static __always_inline int tagger_parse_ip4(struct __sk_buff *skb,
					    struct tagger_pkt *p)
{
	void *data, *data_end;
	struct iphdr *ip;
	__u32 ihl;

	if (tagger_linear(skb, p->l3 + sizeof(*ip)))
		return TAGGER_PKT_BAD_IP;
	data = (void *)(long)skb->data;
	data_end = (void *)(long)skb->data_end;
	ip = data + p->l3;
	if ((void *)(ip + 1) > data_end)
		return TAGGER_PKT_BAD_IP;
	ihl = ip->ihl * 4;
	if (ip->version != 4 || ihl < sizeof(*ip) || skb->len < p->l3 + ihl)
		return TAGGER_PKT_BAD_IP;
	p->tos = ip->tos;
	p->l4proto = ip->protocol;
	p->l4 = p->l3 + ihl;
	return TAGGER_PKT_IP4;
}

static __always_inline int tagger_parse_ip6(struct __sk_buff *skb,
					    struct tagger_pkt *p)
{
	void *data, *data_end;
	struct ipv6hdr *ip6;
	__u8 *b;

	if (tagger_linear(skb, p->l3 + sizeof(*ip6)))
		return TAGGER_PKT_BAD_IP;
	data = (void *)(long)skb->data;
	data_end = (void *)(long)skb->data_end;
	ip6 = data + p->l3;
	if ((void *)(ip6 + 1) > data_end)
		return TAGGER_PKT_BAD_IP;
	b = (__u8 *)ip6;
	if ((b[0] >> 4) != 6)
		return TAGGER_PKT_BAD_IP;
	/* version:4 traffic class:8 flow label:20 */
	p->tos = (b[0] << 4) | (b[1] >> 4);
	p->l4proto = ip6->nexthdr;
	p->l4 = p->l3 + sizeof(*ip6);
	return TAGGER_PKT_IP6;
}

static __always_inline int tagger_parse_slow(struct __sk_buff *skb,
					     struct tagger_pkt *p)
{
	void *data, *data_end;
	struct tagger_vlan_hdr *vh;
	struct ethhdr *eth;
	__be16 proto;

	p->l3 = sizeof(*eth);
	if (tagger_linear(skb, sizeof(*eth)))
		return TAGGER_PKT_OTHER;
	data = (void *)(long)skb->data;
	data_end = (void *)(long)skb->data_end;
	eth = data;
	if ((void *)(eth + 1) > data_end)
		return TAGGER_PKT_OTHER;
	proto = eth->h_proto;
	if (proto == bpf_htons(ETH_P_8021Q)) {
		if (tagger_linear(skb, sizeof(*eth) + sizeof(*vh)))
			return TAGGER_PKT_OTHER;
		data = (void *)(long)skb->data;
		data_end = (void *)(long)skb->data_end;
		vh = data + sizeof(*eth);
		if ((void *)(vh + 1) > data_end)
			return TAGGER_PKT_OTHER;
		proto = vh->proto;
		p->l3 += sizeof(*vh);
	}
	if (proto == bpf_htons(ETH_P_IP))
		return tagger_parse_ip4(skb, p);
	if (proto == bpf_htons(ETH_P_IPV6))
		return tagger_parse_ip6(skb, p);
	if (proto == bpf_htons(ETH_P_PFC)) {
		__be16 op = 0;

		bpf_skb_load_bytes(skb, p->l3, &op, sizeof(op));
		p->opcode = bpf_ntohs(op);
		return TAGGER_PKT_MACCTL;
	}
	return TAGGER_PKT_OTHER;
}

/*
 * The common case first: untagged IPv4 with the header in the linear area,
 * as forwarded packets have it; everything else takes the general path.
 */
static __always_inline int tagger_parse_fast(struct __sk_buff *skb,
					     struct tagger_pkt *p)
{
	void *data = (void *)(long)skb->data;
	void *data_end = (void *)(long)skb->data_end;
	struct ethhdr *eth = data;
	struct iphdr *ip = (void *)(eth + 1);
	__u32 ihl;

	if ((void *)(ip + 1) > data_end || eth->h_proto != bpf_htons(ETH_P_IP))
		return -1;
	ihl = ip->ihl * 4;
	if (ip->version != 4 || ihl < sizeof(*ip) || skb->len < sizeof(*eth) + ihl)
		return -1;
	p->l3 = sizeof(*eth);
	p->l4 = sizeof(*eth) + ihl;
	p->tos = ip->tos;
	p->l4proto = ip->protocol;
	return TAGGER_PKT_IP4;
}

static __always_inline int tagger_parse(struct __sk_buff *skb,
					struct tagger_pkt *p)
{
	int kind = tagger_parse_fast(skb, p);

	return kind >= 0 ? kind : tagger_parse_slow(skb, p);
}

static __always_inline int tagger_udp_dport(struct __sk_buff *skb,
					    const struct tagger_pkt *p,
					    __u16 *port)
{
	struct udphdr udp;

	if (p->l4proto != IPPROTO_UDP)
		return -1;
	if (bpf_skb_load_bytes(skb, p->l4, &udp, sizeof(udp)))
		return -1;
	*port = bpf_ntohs(udp.dest);
	return 0;
}

#endif /* __TAGGER_LIB_PARSE_H */
