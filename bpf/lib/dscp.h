/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Rewrite the tag (DSCP) of a parsed IP packet in place, keeping the ECN
 * bits. IPv4 gets an incremental header checksum update (RFC 1624, eqn. 3)
 * over the 16-bit word that holds the TOS byte; IPv6 has no header
 * checksum. Direct packet writes: the verifier's tc prologue unclones the
 * skb first, so a tap's copy is never changed behind its back.
 *
 * API:
 *   tagger_set_dscp(skb, &pkt, kind, dscp)   0 on success, -1 if the header
 *                                            is no longer in reach
 */
#ifndef __TAGGER_LIB_DSCP_H
#define __TAGGER_LIB_DSCP_H

#include "parse.h"

static __always_inline __u16 tagger_csum_replace(__u16 check, __u16 old,
						 __u16 new)
{
	__u32 sum = (__u16)~check + (__u16)~old + (__u32) new;

	sum = (sum & 0xffff) + (sum >> 16);
	sum = (sum & 0xffff) + (sum >> 16);
	return ~sum;
}

static __always_inline int tagger_set_dscp(struct __sk_buff *skb,
					   struct tagger_pkt *p, int kind,
					   __u8 dscp)
{
	void *data = (void *)(long)skb->data;
	void *data_end = (void *)(long)skb->data_end;
	__u8 tos = (dscp << 2) | (p->tos & 3);

	if (tos == p->tos)
		return 0;
	if (kind == TAGGER_PKT_IP4) {
		struct iphdr *ip = data + p->l3;
		__u16 old, new;

		if ((void *)(ip + 1) > data_end)
			return -1;
		old = *(__u16 *)ip;
		ip->tos = tos;
		new = *(__u16 *)ip;
		ip->check = tagger_csum_replace(ip->check, old, new);
	} else {
		__u8 *b = data + p->l3;

		if ((void *)(b + 2) > data_end)
			return -1;
		b[0] = (b[0] & 0xf0) | (tos >> 4);
		b[1] = (b[1] & 0x0f) | (tos << 4);
	}
	p->tos = tos;
	return 0;
}

#endif /* __TAGGER_LIB_DSCP_H */
