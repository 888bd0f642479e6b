/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Which priority and which egress queue a packet belongs to, for the pause
 * programs: a packet no tagger classifier saw gets its priority from its
 * DSCP (dscp_prio[], as a RoCE switch or NIC does), parsed with
 * lib/parse.h so that VLAN-tagged frames are read like the data plane
 * reads them; a queue is priority p (0..7) or HTB class 1:10+p.
 *
 * API:
 *   pfc_dscp_prio(skb, &prio)   0 and the priority of an IP packet, else -1
 *   pfc_queue_of(priority)      the queue of an skb->priority of 8 or more:
 *                               p for class 1:10+p, -1 for the direct queue
 *                               (1:0, 1:1), 0 for anything else
 */
#ifndef __TAGGER_LIB_PFC_QUEUE_H
#define __TAGGER_LIB_PFC_QUEUE_H

#include "lib/parse.h"
#include "lib/pfc_globals.h"

/*
 * dscp_prio[] lookup. The mask is in asm because the compiler knows that
 * a DSCP is below 64 and drops it, and older verifiers (6.1) lose the
 * bound through the shift that made the DSCP.
 */
static __always_inline __u32 pfc_dscp_to_prio(__u32 dscp)
{
	__u32 i = dscp;

	asm volatile("%0 &= 63" : "+r"(i));
	return dscp_prio[i] & 7;
}

static __always_inline int pfc_dscp_prio(struct __sk_buff *skb, __u32 *prio)
{
	struct tagger_pkt pkt = {};
	int kind = tagger_parse(skb, &pkt);

	if (kind != TAGGER_PKT_IP4 && kind != TAGGER_PKT_IP6)
		return -1;
	*prio = pfc_dscp_to_prio(pkt.tos >> 2);
	return 0;
}

static __always_inline int pfc_queue_of(__u32 priority)
{
	__u32 minor = (priority & 0xffff) - PFC_CLASS_MINOR(0);

	if ((priority >> 16) != PFC_TC_MAJOR)
		return 0;
	return minor < PFC_PRIOS ? (int)minor : -1;
}

#endif /* __TAGGER_LIB_PFC_QUEUE_H */
