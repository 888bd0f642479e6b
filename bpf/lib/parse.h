/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Packet parsing for the tagger tc programs: Ethernet, at most two VLAN
 * tags (802.1Q, or QinQ: an 802.1ad or 802.1Q outer tag and an 802.1Q
 * inner one), IPv4 (with options) and IPv6, and the traffic class byte
 * that holds the tag (DSCP, upper six bits) and ECN (lower two bits). A
 * third tag is beyond it: such a frame is not IP to the programs.
 *
 * API:
 *   tagger_parse(skb, &pkt)   one of enum tagger_pkt_kind; fills pkt
 *   tagger_udp_dport(skb, &pkt, &port)   0 if pkt is a whole (unfragmented)
 *                             UDP datagram with a readable destination
 *                             port (host order in port). A fragment never
 *                             matches: only the first one holds the port,
 *                             so matching it would split one datagram
 *                             into a lossless and a lossy part. IPv6
 *                             extension headers are walked (at most
 *                             TAGGER_IP6_EXT_MAX of them).
 *   tagger_udp(skb, &pkt, &port, &payload)   the same, and the offset of
 *                             the UDP payload
 *   tagger_roce_cnp(skb, port, payload)   1 if that datagram is a RoCEv2
 *                             CNP (port 4791, BTH opcode 0x81)
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

#include "tagger_maps.h"
#include "tagger_skb.h"

enum tagger_pkt_kind {
	TAGGER_PKT_IP4,
	TAGGER_PKT_IP6,
	TAGGER_PKT_BAD_IP, /* IP ethertype, header short or malformed */
	TAGGER_PKT_MACCTL, /* MAC control: PFC or PAUSE */
	TAGGER_PKT_OTHER, /* not IP (ARP, LLDP, ...), or a short frame */
};

struct tagger_pkt {
	__u32 l3; /* offset of the IP header */
	__u32 l4; /* offset of the transport header */
	__u8 tos; /* IPv4 TOS / IPv6 traffic class */
	__u8 l4proto; /* IPv6: the fixed header's next header */
	__u16 opcode; /* MAC control opcode, host order */
	__u8 frag; /* IPv4: MF set or a fragment offset */
	__u8 ip6; /* IPv6: extension headers may follow */
	__u8 pad[2];
};

#define TAGGER_IP6_EXT_MAX 6
#define TAGGER_VLAN_MAX 2
#define TAGGER_IP_FRAG 0x3fff /* IPv4 MF flag and fragment offset */

struct tagger_vlan_hdr {
	__be16 tci;
	__be16 proto;
};

/*
 * skb->data and skb->data_end, read afresh every time: a 32-bit context
 * field, so with ALU32 code (-mcpu=v3, as bpf/pfc.bpf.c needs for its
 * atomics) the compiler may reuse an earlier load through a 32-bit move,
 * and the verifier then sees a number, not a packet pointer.
 */
static __always_inline void *tagger_data(struct __sk_buff *skb)
{
	return (void *)(long)*(volatile __u32 *)&skb->data;
}

static __always_inline void *tagger_data_end(struct __sk_buff *skb)
{
	return (void *)(long)*(volatile __u32 *)&skb->data_end;
}

/* Make the first len bytes linear; -1 if the packet is shorter. */
static __always_inline int tagger_linear(struct __sk_buff *skb, __u32 len)
{
	void *data = tagger_data(skb);
	void *data_end = tagger_data_end(skb);

	if (data + len <= data_end)
		return 0;
	if (skb->len < len || bpf_skb_pull_data(skb, len))
		return -1;
	data = tagger_data(skb);
	data_end = tagger_data_end(skb);
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
	data = tagger_data(skb);
	data_end = tagger_data_end(skb);
	ip = data + p->l3;
	if ((void *)(ip + 1) > data_end)
		return TAGGER_PKT_BAD_IP;
	ihl = ip->ihl * 4;
	if (ip->version != 4 || ihl < sizeof(*ip) || skb->len < p->l3 + ihl)
		return TAGGER_PKT_BAD_IP;
	p->tos = ip->tos;
	p->l4proto = ip->protocol;
	p->l4 = p->l3 + ihl;
	p->frag = !!(ip->frag_off & bpf_htons(TAGGER_IP_FRAG));
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
	data = tagger_data(skb);
	data_end = tagger_data_end(skb);
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
	p->ip6 = 1;
	return TAGGER_PKT_IP6;
}

static __always_inline int tagger_parse_slow(struct __sk_buff *skb,
					     struct tagger_pkt *p)
{
	void *data, *data_end;
	struct tagger_vlan_hdr *vh;
	struct ethhdr *eth;
	__be16 proto;
	int k;

	p->l3 = sizeof(*eth);
	if (tagger_linear(skb, sizeof(*eth)))
		return TAGGER_PKT_OTHER;
	data = tagger_data(skb);
	data_end = tagger_data_end(skb);
	eth = data;
	if ((void *)(eth + 1) > data_end)
		return TAGGER_PKT_OTHER;
	proto = eth->h_proto;
#pragma unroll
	for (k = 0; k < TAGGER_VLAN_MAX; k++) {
		/* 802.1ad only outside: the inner tag of QinQ is 802.1Q. */
		if (proto != bpf_htons(ETH_P_8021Q) &&
		    (k || proto != bpf_htons(ETH_P_8021AD)))
			break;
		if (tagger_linear(skb, p->l3 + sizeof(*vh)))
			return TAGGER_PKT_OTHER;
		data = tagger_data(skb);
		data_end = tagger_data_end(skb);
		vh = data + p->l3;
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
	void *data = tagger_data(skb);
	void *data_end = tagger_data_end(skb);
	struct ethhdr *eth = data;
	struct iphdr *ip = (void *)(eth + 1);
	__u32 ihl;

	if ((void *)(ip + 1) > data_end || eth->h_proto != bpf_htons(ETH_P_IP))
		return -1;
	ihl = ip->ihl * 4;
	if (ip->version != 4 || ihl < sizeof(*ip) ||
	    skb->len < sizeof(*eth) + ihl)
		return -1;
	p->l3 = sizeof(*eth);
	p->l4 = sizeof(*eth) + ihl;
	p->tos = ip->tos;
	p->l4proto = ip->protocol;
	p->frag = !!(ip->frag_off & bpf_htons(TAGGER_IP_FRAG));
	return TAGGER_PKT_IP4;
}

static __always_inline int tagger_parse(struct __sk_buff *skb,
					struct tagger_pkt *p)
{
	int kind = tagger_parse_fast(skb, p);

	return kind >= 0 ? kind : tagger_parse_slow(skb, p);
}

/*
 * Past IPv6 extension headers to the transport header: its offset in
 * *l4, or -1 for a fragment (but an atomic one), an unknown chain or one
 * longer than TAGGER_IP6_EXT_MAX.
 */
static __always_inline int tagger_ip6_l4(struct __sk_buff *skb,
					 const struct tagger_pkt *p, __u32 *l4,
					 __u8 *proto)
{
	__u32 off = p->l4;
	__u8 nh = p->l4proto, h[2];
	__be16 frag;
	int k;

#pragma unroll
	for (k = 0; k < TAGGER_IP6_EXT_MAX; k++) {
		if (nh != IPPROTO_HOPOPTS && nh != IPPROTO_ROUTING &&
		    nh != IPPROTO_DSTOPTS && nh != IPPROTO_FRAGMENT &&
		    nh != IPPROTO_AH)
			break;
		if (bpf_skb_load_bytes(skb, off, h, sizeof(h)))
			return -1;
		if (nh == IPPROTO_FRAGMENT) {
			if (bpf_skb_load_bytes(skb, off + 2, &frag,
					       sizeof(frag)) ||
			    (frag & bpf_htons(0xfff9))) /* offset or M */
				return -1;
			off += 8;
		} else if (nh == IPPROTO_AH) {
			off += ((__u32)h[1] + 2) * 4;
		} else {
			off += ((__u32)h[1] + 1) * 8;
		}
		nh = h[0];
	}
	*l4 = off;
	*proto = nh;
	return 0;
}

static __always_inline int tagger_udp(struct __sk_buff *skb,
				      const struct tagger_pkt *p, __u16 *port,
				      __u32 *payload)
{
	struct udphdr udp;
	__u32 l4 = p->l4;
	__u8 proto = p->l4proto;

	if (p->frag)
		return -1;
	if (p->ip6 && tagger_ip6_l4(skb, p, &l4, &proto))
		return -1;
	if (proto != IPPROTO_UDP)
		return -1;
	if (bpf_skb_load_bytes(skb, l4, &udp, sizeof(udp)))
		return -1;
	*port = bpf_ntohs(udp.dest);
	*payload = l4 + sizeof(udp);
	return 0;
}

static __always_inline int
tagger_udp_dport(struct __sk_buff *skb, const struct tagger_pkt *p, __u16 *port)
{
	__u32 payload;

	return tagger_udp(skb, p, port, &payload);
}

/*
 * A RoCEv2 CNP: UDP to port 4791 whose BTH (the first 12 bytes of the
 * payload) has opcode 0x81. The port was read already (port, at payload).
 */
static __always_inline int tagger_roce_cnp(struct __sk_buff *skb, __u16 port,
					   __u32 payload)
{
	__u8 op;

	return port == TAGGER_ROCE_UDP_PORT &&
	       !bpf_skb_load_bytes(skb, payload, &op, sizeof(op)) &&
	       op == TAGGER_BTH_OP_CNP;
}

#endif /* __TAGGER_LIB_PARSE_H */
