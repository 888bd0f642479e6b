// SPDX-License-Identifier: GPL-2.0
/* Raw rtnetlink for qdiscs; see pfc_tc.h. */
#include <errno.h>
#include <libmnl/libmnl.h>
#include <stdbool.h>
#include <stdio.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <arpa/inet.h>
#include <linux/gen_stats.h>
#include <linux/if_ether.h>
#include <linux/pkt_cls.h>
#include <linux/netlink.h>
#include <linux/pkt_sched.h>
#include <linux/rtnetlink.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "pfc/pfc_tc.h"

#define PSCHED_SHIFT 6 /* kernel ticks are 64 ns (PSCHED_TICKS2NS) */

/* The requests go through lib/tc_nl.c. */
static struct nlmsghdr *msg_start(struct tc *tc, char *buf, int type, int flags,
				  int ifindex, uint32_t parent, uint32_t handle)
{
	return tc_msg_start(tc, buf, type, flags, ifindex, parent, handle);
}

static int change(struct tc *tc, struct nlmsghdr *nlh)
{
	return tc_change(tc, nlh);
}

int tc_qdisc_del_root(struct tc *tc, int ifindex)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh =
		msg_start(tc, buf, RTM_DELQDISC, 0, ifindex, TC_H_ROOT, 0);
	int r = tc_talk(tc, nlh, NULL, NULL);

	return r == -ENOENT || r == -EINVAL ? 0 : r;
}

static void put_rate(struct tc_ratespec *rs, uint64_t Bps)
{
	rs->rate = Bps >= (1ull << 32) ? ~0u : (uint32_t)Bps;
	rs->linklayer = TC_LINKLAYER_ETHERNET; /* no rate table needed */
}

/* Time to send `bytes` at `Bps`, in kernel ticks. */
static uint32_t xmit_ticks(uint64_t bytes, uint64_t Bps)
{
	uint64_t ns = bytes * 1000000000ull / (Bps ? Bps : 1);

	ns >>= PSCHED_SHIFT;
	return ns > 0xffffffffull ? 0xffffffffu : (uint32_t)ns;
}

int tc_htb_root(struct tc *tc, int ifindex, uint32_t handle)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh =
		msg_start(tc, buf, RTM_NEWQDISC, NLM_F_CREATE | NLM_F_REPLACE,
			  ifindex, TC_H_ROOT, handle);
	struct tc_htb_glob g = { .version = 3, .rate2quantum = 10 };
	struct nlattr *o;

	mnl_attr_put_strz(nlh, TCA_KIND, "htb");
	o = mnl_attr_nest_start(nlh, TCA_OPTIONS);
	mnl_attr_put(nlh, TCA_HTB_INIT, sizeof(g), &g);
	mnl_attr_put_u32(nlh, TCA_HTB_DIRECT_QLEN, 1000);
	mnl_attr_nest_end(nlh, o);
	return tc_talk(tc, nlh, NULL, NULL);
}

int tc_htb_class(struct tc *tc, int ifindex, uint32_t parent, uint32_t classid,
		 uint64_t rate_bps, uint64_t ceil_bps, uint32_t quantum,
		 uint32_t prio, uint32_t burst)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh =
		msg_start(tc, buf, RTM_NEWTCLASS, NLM_F_CREATE | NLM_F_REPLACE,
			  ifindex, parent, classid);
	uint64_t rate = rate_bps / 8, ceil = ceil_bps / 8;
	struct tc_htb_opt o = { 0 };
	struct nlattr *n;

	put_rate(&o.rate, rate);
	put_rate(&o.ceil, ceil);
	o.buffer = xmit_ticks(burst, rate);
	o.cbuffer = xmit_ticks(burst, ceil);
	o.quantum = quantum;
	o.prio = prio;
	mnl_attr_put_strz(nlh, TCA_KIND, "htb");
	n = mnl_attr_nest_start(nlh, TCA_OPTIONS);
	mnl_attr_put(nlh, TCA_HTB_PARMS, sizeof(o), &o);
	if (rate >= (1ull << 32))
		mnl_attr_put_u64(nlh, TCA_HTB_RATE64, rate);
	if (ceil >= (1ull << 32))
		mnl_attr_put_u64(nlh, TCA_HTB_CEIL64, ceil);
	mnl_attr_nest_end(nlh, n);
	return tc_talk(tc, nlh, NULL, NULL);
}

int tc_tbf(struct tc *tc, int ifindex, uint32_t parent, uint32_t handle,
	   uint64_t rate_Bps, uint32_t burst, uint32_t limit, bool create)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh =
		msg_start(tc, buf, RTM_NEWQDISC,
			  create ? NLM_F_CREATE | NLM_F_REPLACE : 0, ifindex,
			  parent, handle);
	struct tc_tbf_qopt q = { 0 };
	struct nlattr *n;

	put_rate(&q.rate, rate_Bps);
	q.limit = limit;
	q.buffer = xmit_ticks(burst, rate_Bps);
	mnl_attr_put_strz(nlh, TCA_KIND, "tbf");
	n = mnl_attr_nest_start(nlh, TCA_OPTIONS);
	mnl_attr_put(nlh, TCA_TBF_PARMS, sizeof(q), &q);
	if (rate_Bps >= (1ull << 32))
		mnl_attr_put_u64(nlh, TCA_TBF_RATE64, rate_Bps);
	mnl_attr_put_u32(nlh, TCA_TBF_BURST, burst);
	mnl_attr_nest_end(nlh, n);
	return create ? tc_talk(tc, nlh, NULL, NULL) : change(tc, nlh);
}

int tc_mqprio(struct tc *tc, int ifindex, uint32_t handle, int ntc)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh =
		msg_start(tc, buf, RTM_NEWQDISC, NLM_F_CREATE | NLM_F_REPLACE,
			  ifindex, TC_H_ROOT, handle);
	struct tc_mqprio_qopt q = { .num_tc = ntc, .hw = 0 };
	int i;

	for (i = 0; i < TC_QOPT_BITMASK + 1; i++)
		q.prio_tc_map[i] = i < ntc ? i : 0;
	for (i = 0; i < ntc; i++) {
		q.count[i] = 1;
		q.offset[i] = i;
	}
	mnl_attr_put_strz(nlh, TCA_KIND, "mqprio");
	mnl_attr_put(nlh, TCA_OPTIONS, sizeof(q), &q);
	return tc_talk(tc, nlh, NULL, NULL);
}

int tc_plug(struct tc *tc, int ifindex, uint32_t parent, uint32_t handle,
	    int action, uint32_t limit, bool create)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh =
		msg_start(tc, buf, RTM_NEWQDISC,
			  create ? NLM_F_CREATE | NLM_F_REPLACE : 0, ifindex,
			  parent, handle);
	struct tc_plug_qopt q = { .action = action, .limit = limit };

	mnl_attr_put_strz(nlh, TCA_KIND, "plug");
	mnl_attr_put(nlh, TCA_OPTIONS, sizeof(q), &q);
	return create ? tc_talk(tc, nlh, NULL, NULL) : change(tc, nlh);
}

/*
 * A fresh bfifo grafted under parent: the qdisc there is destroyed with
 * the packets it holds (the watchdog's flush). The kernel changes, rather
 * than replaces, a qdisc of the same kind and handle, and NLM_F_EXCL
 * refuses that: so the first of the two handles that is not the one there
 * now is taken.
 */
int tc_fifo_graft(struct tc *tc, int ifindex, uint32_t parent,
		  const uint32_t handle[2], uint32_t limit)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct tc_fifo_qopt q = { .limit = limit };
	struct nlmsghdr *nlh;
	int i, r = -EINVAL;

	for (i = 0; i < 2; i++) {
		nlh = msg_start(tc, buf, RTM_NEWQDISC,
				NLM_F_CREATE | NLM_F_REPLACE | NLM_F_EXCL,
				ifindex, parent, handle[i]);
		mnl_attr_put_strz(nlh, TCA_KIND, "bfifo");
		mnl_attr_put(nlh, TCA_OPTIONS, sizeof(q), &q);
		r = tc_talk(tc, nlh, NULL, NULL);
		if (r != -EEXIST)
			break;
	}
	return r;
}

/*
 * A direct-action program can set only the minor of the class (tc_classid
 * is 16 bits in the qdisc cb); the major comes from TCA_BPF_CLASSID, which
 * libbpf's bpf_tc_attach() does not set.
 */
int tc_bpf_classifier(struct tc *tc, int ifindex, uint32_t qdisc, int fd,
		      const char *name)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	/* Replace: a restarted agent puts its program over a dead one's. */
	struct nlmsghdr *nlh =
		msg_start(tc, buf, RTM_NEWTFILTER, NLM_F_CREATE | NLM_F_REPLACE,
			  ifindex, qdisc, 1);
	struct tcmsg *t = mnl_nlmsg_get_payload(nlh);
	struct nlattr *n;

	t->tcm_info = TC_H_MAKE(1u << 16, htons(ETH_P_ALL)); /* pref 1, all */
	mnl_attr_put_strz(nlh, TCA_KIND, "bpf");
	n = mnl_attr_nest_start(nlh, TCA_OPTIONS);
	mnl_attr_put_u32(nlh, TCA_BPF_FD, fd);
	mnl_attr_put_strz(nlh, TCA_BPF_NAME, name);
	mnl_attr_put_u32(nlh, TCA_BPF_FLAGS, TCA_BPF_FLAG_ACT_DIRECT);
	mnl_attr_put_u32(nlh, TCA_BPF_CLASSID, TC_H_MAJ(qdisc));
	mnl_attr_nest_end(nlh, n);
	return tc_talk(tc, nlh, NULL, NULL);
}

static uint32_t clsact_parent(bool egress)
{
	return TC_H_MAKE(TC_H_CLSACT,
			 egress ? TC_H_MIN_EGRESS : TC_H_MIN_INGRESS);
}

int tc_bpf_chain(struct tc *tc, int ifindex, bool egress, uint32_t chain,
		 uint16_t pref, int fd, const char *name)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	/* Replace: a restarted agent puts its program over a dead one's. */
	struct nlmsghdr *nlh =
		msg_start(tc, buf, RTM_NEWTFILTER, NLM_F_CREATE | NLM_F_REPLACE,
			  ifindex, clsact_parent(egress), 1);
	struct tcmsg *t = mnl_nlmsg_get_payload(nlh);
	struct nlattr *n;

	t->tcm_info = TC_H_MAKE((uint32_t)pref << 16, htons(ETH_P_ALL));
	mnl_attr_put_u32(nlh, TCA_CHAIN, chain);
	mnl_attr_put_strz(nlh, TCA_KIND, "bpf");
	n = mnl_attr_nest_start(nlh, TCA_OPTIONS);
	mnl_attr_put_u32(nlh, TCA_BPF_FD, fd);
	mnl_attr_put_strz(nlh, TCA_BPF_NAME, name);
	mnl_attr_put_u32(nlh, TCA_BPF_FLAGS, TCA_BPF_FLAG_ACT_DIRECT);
	mnl_attr_nest_end(nlh, n);
	return tc_talk(tc, nlh, NULL, NULL);
}

int tc_bpf_chain_del(struct tc *tc, int ifindex, bool egress, uint32_t chain,
		     uint16_t pref)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh = msg_start(tc, buf, RTM_DELTFILTER, 0, ifindex,
					 clsact_parent(egress), 1);
	struct tcmsg *t = mnl_nlmsg_get_payload(nlh);
	int r;

	t->tcm_info = TC_H_MAKE((uint32_t)pref << 16, htons(ETH_P_ALL));
	mnl_attr_put_u32(nlh, TCA_CHAIN, chain);
	mnl_attr_put_strz(nlh, TCA_KIND, "bpf");
	r = tc_talk(tc, nlh, NULL, NULL);
	/* Not there (no clsact, no chain, no filter): nothing to remove. */
	return r == -ENOENT || r == -EINVAL ? 0 : r;
}

struct stats_ctx {
	void (*cb)(const struct tc_qstats *s, void *arg);
	void *arg;
};

static int stats_attr(const struct nlattr *a, void *data)
{
	struct tc_qstats *s = data;

	if (mnl_attr_get_type(a) == TCA_STATS_QUEUE &&
	    mnl_attr_get_payload_len(a) >= sizeof(struct gnet_stats_queue)) {
		const struct gnet_stats_queue *q = mnl_attr_get_payload(a);

		s->qlen = q->qlen;
		s->backlog = q->backlog;
		s->drops = q->drops;
	} else if (mnl_attr_get_type(a) == TCA_STATS_BASIC &&
		   mnl_attr_get_payload_len(a) >=
			   sizeof(struct gnet_stats_basic)) {
		struct gnet_stats_basic b;

		memcpy(&b, mnl_attr_get_payload(a), sizeof(b));
		s->bytes = b.bytes;
		s->packets = b.packets;
	}
	return MNL_CB_OK;
}

static int qdisc_attr(const struct nlattr *a, void *data)
{
	struct tc_qstats *s = data;

	if (mnl_attr_get_type(a) == TCA_KIND)
		snprintf(s->kind, sizeof(s->kind), "%s", mnl_attr_get_str(a));
	else if (mnl_attr_get_type(a) == TCA_STATS2)
		mnl_attr_parse_nested(a, stats_attr, s);
	return MNL_CB_OK;
}

static int qdisc_msg(const struct nlmsghdr *nlh, void *data)
{
	struct stats_ctx *ctx = data;
	const struct tcmsg *t = mnl_nlmsg_get_payload(nlh);
	struct tc_qstats s = { 0 };

	if (nlh->nlmsg_type != RTM_NEWQDISC)
		return MNL_CB_OK;
	s.ifindex = t->tcm_ifindex;
	s.handle = t->tcm_handle;
	s.parent = t->tcm_parent;
	mnl_attr_parse(nlh, sizeof(*t), qdisc_attr, &s);
	ctx->cb(&s, ctx->arg);
	return MNL_CB_OK;
}

int tc_qdisc_stats(struct tc *tc,
		   void (*cb)(const struct tc_qstats *s, void *arg), void *arg)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh =
		msg_start(tc, buf, RTM_GETQDISC, NLM_F_DUMP, 0, 0, 0);
	struct stats_ctx ctx = { cb, arg };

	nlh->nlmsg_flags &= ~NLM_F_ACK;
	return tc_talk(tc, nlh, qdisc_msg, &ctx);
}
