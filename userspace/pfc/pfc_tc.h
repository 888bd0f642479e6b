/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Raw rtnetlink (libmnl) for the qdiscs the pause gates are made of. The
 * tc command cannot express the tiny bursts a closed gate needs, and a
 * gate change must cost microseconds, not a fork.
 *
 * API:
 *   tc_qdisc_del_root(tc, ifindex)       remove a root qdisc (absent: ok)
 *   tc_htb_root/tc_htb_class             HTB qdisc and classes
 *   tc_tbf(tc, ifindex, parent, handle, rate, burst, limit, create)
 *                                        (create false, a gate change: no
 *                                        ACK asked, an error still read;
 *                                        the same for tc_plug)
 *   tc_mqprio(tc, ifindex, handle, ntc)  prio i -> tc i -> tx queue i
 *   tc_plug(tc, ifindex, parent, handle, action, limit, create)
 *   tc_fifo_graft(tc, ifindex, parent, handle[2], limit)
 *                                        a new bfifo under parent (one of
 *                                        two handles), the qdisc there
 *                                        and its packets gone
 *   tc_bpf_classifier(tc, ifindex, qdisc, fd, name)
 *                                        cls_bpf (direct action) on a qdisc,
 *                                        its classid major = the qdisc's
 *   tc_bpf_chain(tc, ifindex, egress, chain, pref, fd, name)
 *                                        cls_bpf (direct action, handle 1,
 *                                        any protocol) in a chain of the
 *                                        clsact hook, replacing one there
 *   tc_bpf_chain_del(tc, ifindex, egress, chain, pref)
 *                                        remove it (absent: 0)
 *   tc_qdisc_stats(tc, cb, arg)          dump every qdisc's queue stats
 * All return 0 or -errno, and are bounded as lib/tc_nl.h says: tc->err
 * holds the kernel's extack message, or why no answer came.
 */
#ifndef __TAGGER_PFC_TC_H
#define __TAGGER_PFC_TC_H

#include <stdbool.h>
#include <stdint.h>

#include "lib/tc_nl.h"

struct tc_qstats {
	int ifindex;
	uint32_t handle, parent;
	char kind[16];
	uint32_t qlen, backlog, drops;
	uint64_t bytes, packets;
};

int tc_qdisc_del_root(struct tc *tc, int ifindex);
int tc_htb_root(struct tc *tc, int ifindex, uint32_t handle);
int tc_htb_class(struct tc *tc, int ifindex, uint32_t parent, uint32_t classid,
		 uint64_t rate_bps, uint64_t ceil_bps, uint32_t quantum,
		 uint32_t prio, uint32_t burst);
int tc_tbf(struct tc *tc, int ifindex, uint32_t parent, uint32_t handle,
	   uint64_t rate_Bps, uint32_t burst, uint32_t limit, bool create);
int tc_mqprio(struct tc *tc, int ifindex, uint32_t handle, int ntc);
int tc_plug(struct tc *tc, int ifindex, uint32_t parent, uint32_t handle,
	    int action, uint32_t limit, bool create);
int tc_fifo_graft(struct tc *tc, int ifindex, uint32_t parent,
		  const uint32_t handle[2], uint32_t limit);
int tc_bpf_classifier(struct tc *tc, int ifindex, uint32_t qdisc, int fd,
		      const char *name);
int tc_bpf_chain(struct tc *tc, int ifindex, bool egress, uint32_t chain,
		 uint16_t pref, int fd, const char *name);
int tc_bpf_chain_del(struct tc *tc, int ifindex, bool egress, uint32_t chain,
		     uint16_t pref);
int tc_qdisc_stats(struct tc *tc,
		   void (*cb)(const struct tc_qstats *s, void *arg), void *arg);

#endif /* __TAGGER_PFC_TC_H */
