/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The few kernel types the pause tracepoints read, relocated by CO-RE (no
 * vmlinux.h needed: only these fields, by name), and what they mean.
 *
 * API:
 *   struct sk_buff___pfc, struct net_device___pfc (+ netns inode)
 *   pfc_dev_netns(dev)        the device's netns inode
 *   pfc_link_down(dev)        down or without carrier: its queue is flushed
 */
#ifndef __TAGGER_LIB_PFC_KERNEL_H
#define __TAGGER_LIB_PFC_KERNEL_H

#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

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

/* Bits of enum netdev_state_t, unchanged since 2.6. */
#define PFC_LINK_STATE_START (1ul << 0) /* up */
#define PFC_LINK_STATE_NOCARRIER (1ul << 2)

static __always_inline unsigned int pfc_dev_netns(struct net_device___pfc *dev)
{
	return dev->nd_net.net->ns.inum;
}

/* The packets then are lost with a failed link, not to a full buffer. */
static __always_inline int pfc_link_down(struct net_device___pfc *dev)
{
	unsigned long st = dev->state;

	return !(st & PFC_LINK_STATE_START) || (st & PFC_LINK_STATE_NOCARRIER);
}

#endif /* __TAGGER_LIB_PFC_KERNEL_H */
