/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the tagger tc programs tell each other through the skb, so that the
 * data plane (tag classify/rewrite) and the pause machinery (buffer
 * accounting, PFC) compose on one port without sharing maps.
 *
 * - Every tagger tc program returns TAGGER_TC_NEXT for packets it does not
 *   drop (TC_ACT_UNSPEC for cls_bpf, TCX_NEXT for tcx: both -1), so the
 *   next program on the hook runs. The data plane attaches first on a
 *   hook, the pause machinery last.
 * - skb->priority carries the 802.1p priority (0..7) the packet is queued
 *   in. At ingress it is the ingress (buffer) priority; at egress the data
 *   plane overwrites it with the egress priority, which is the priority
 *   the next hop will classify the packet into (Tagger section 6.3). The
 *   egress qdisc maps priority 0..7 to its per-priority queues.
 * - skb->mark keeps the ingress classification until the packet leaves the
 *   switch (marks survive forwarding inside one namespace), so the pause
 *   machinery can return the bytes to the right (in-port, priority)
 *   counter when the packet is transmitted or dropped.
 *   TAGGER_MARK_GEN, outside TAGGER_MARK_MASK, is the data plane's own: the
 *   rule generation that classified the packet, so egress rewrites it with
 *   the same rule set (atomic live update). Others must ignore it.
 *   TAGGER_MARK_ACCT is the pause machinery's: set (at ingress, after the
 *   classifier) on the packets whose bytes it counted, those the node
 *   forwards. Egress programs must leave it alone. TAGGER_MARK_QUEUED,
 *   also the pause machinery's, is set at egress when such a packet is
 *   logged into its egress queue (see bpf/pfc_maps.h, "ring").
 *   TAGGER_MARK_PFC_FRAME marks a clone the pause machinery sends out of
 *   an ingress port to become a PAUSE frame in its own egress program
 *   (the fast XOFF path); egress programs before it return
 *   TAGGER_TC_NEXT for it without looking.
 * - PFC frames (ethertype 0x8808) are counted by the data plane and
 *   consumed (dropped after processing) by the pause machinery.
 * - A data path made of tc filters (the flower data path's software
 *   filters) cannot return TAGGER_TC_NEXT: tc ends a hook's classification
 *   at a filter's pass, and a goto chain never comes back to chain 0, so
 *   the pause machinery's filters behind it there would see no packet.
 *   Such a data path hands every packet of its chains on with "goto chain
 *   TAGGER_TC_CHAIN_PFC" (its last action, and a last filter for the
 *   packets none of its filters matched); the pause machinery attaches its
 *   programs in chain 0 and in that chain. An empty chain ends like an
 *   unmatched one (the packet passes), so either runs without the other.
 */
#ifndef __TAGGER_SKB_H
#define __TAGGER_SKB_H

#define TAGGER_TC_NEXT (-1)
#define TAGGER_TC_CHAIN_PFC 0x7467 /* "tg"; below 2^28, a goto's limit */

#define TAGGER_MARK_VALID 0x80000000u /* a tagger classifier ran */
#define TAGGER_MARK_LOSSLESS 0x40000000u /* ingress queue is lossless */
#define TAGGER_MARK_ACCT \
	0x10000000u /* pause machinery: bytes counted
						 * in the (in-port, prio) buffer */
#define TAGGER_MARK_QUEUED \
	0x08000000u /* pause machinery: the packet
						 * entered its egress queue */
#define TAGGER_MARK_PFC_FRAME \
	0x04000000u /* pause machinery: a clone it
						 * turns into a PFC frame at
						 * egress; others pass it */
#define TAGGER_MARK_PRIO_MASK 0x00000007u /* ingress priority */
#define TAGGER_MARK_GEN 0x20000000u /* data plane: rule slot */
#define TAGGER_MARK_MASK                                               \
	(TAGGER_MARK_VALID | TAGGER_MARK_LOSSLESS | TAGGER_MARK_ACCT | \
	 TAGGER_MARK_QUEUED | TAGGER_MARK_PRIO_MASK)

#define TAGGER_MARK(lossless, prio)                                    \
	(TAGGER_MARK_VALID | ((lossless) ? TAGGER_MARK_LOSSLESS : 0) | \
	 ((prio)&TAGGER_MARK_PRIO_MASK))

#define ETH_P_PFC 0x8808
#define PFC_OPCODE 0x0101

#endif /* __TAGGER_SKB_H */
