/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Group-addressed packets are never lossless (the Flattened Clos paper's
 * safety rule 2): a broadcast or multicast is copied to many ports, so
 * one PAUSE can hold it on several paths at once, off the up-down routes
 * that the tags are built for (ARP broadcasts have deadlocked PFC
 * networks that way).
 *
 * Group addressed here: an Ethernet destination with the I/G bit set
 * (multicast and broadcast), IPv4 224.0.0.0/4 and 255.255.255.255, IPv6
 * ff00::/8. A directed (subnet) broadcast such as 10.0.0.255 is not
 * knowable here: that takes the prefix length of the destination subnet,
 * which only the router that owns it has. It leaves that router with a
 * broadcast MAC, so the next hop catches it by the Ethernet test.
 *
 * API:
 *   tagger_group_addressed(skb, &pkt, kind)   1 if group addressed, else 0
 */
#ifndef __TAGGER_LIB_MCAST_H
#define __TAGGER_LIB_MCAST_H

#include "parse.h"

#define TAGGER_IP4_MCAST_MASK 0xf0000000u /* 224.0.0.0/4 */
#define TAGGER_IP4_MCAST_NET 0xe0000000u
#define TAGGER_IP4_BCAST 0xffffffffu
#define TAGGER_IP6_MCAST 0xff /* ff00::/8: first byte */
/* Where tagger_parse can put the IP header: after two VLAN tags. */
#define TAGGER_L3_MAX (ETH_HLEN + TAGGER_VLAN_MAX * 4)

/*
 * Only for kind TAGGER_PKT_IP4/IP6 from tagger_parse: its header is then
 * linear, so direct reads (bounds still checked for the verifier).
 */
static __always_inline int tagger_group_addressed(struct __sk_buff *skb,
						  const struct tagger_pkt *p,
						  int kind)
{
	void *data = (void *)(long)skb->data;
	void *data_end = (void *)(long)skb->data_end;
	__u8 *eth = data;
	__u32 l3 = p->l3;

	if ((void *)(eth + 1) > data_end)
		return 0;
	if (eth[0] & 1) /* I/G bit: group (broadcast is all ones) */
		return 1;
	if (l3 > TAGGER_L3_MAX)
		return 0;
	if (kind == TAGGER_PKT_IP4) {
		struct iphdr *ip = data + l3;
		__u32 dst;

		if ((void *)(ip + 1) > data_end)
			return 0;
		dst = bpf_ntohl(ip->daddr);
		return (dst & TAGGER_IP4_MCAST_MASK) == TAGGER_IP4_MCAST_NET ||
		       dst == TAGGER_IP4_BCAST;
	}
	if (kind == TAGGER_PKT_IP6) {
		struct ipv6hdr *ip6 = data + l3;

		if ((void *)(ip6 + 1) > data_end)
			return 0;
		return ip6->daddr.in6_u.u6_addr8[0] == TAGGER_IP6_MCAST;
	}
	return 0;
}

#endif /* __TAGGER_LIB_MCAST_H */
