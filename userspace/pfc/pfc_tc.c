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

static uint64_t mono_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000000000ull + t.tv_nsec;
}

int tc_open(struct tc *tc)
{
	int one = 1;

	memset(tc, 0, sizeof(*tc));
	tc->nl = mnl_socket_open(NETLINK_ROUTE);
	if (!tc->nl)
		return -errno;
	mnl_socket_setsockopt(tc->nl, NETLINK_EXT_ACK, &one, sizeof(one));
	if (mnl_socket_bind(tc->nl, 0, MNL_SOCKET_AUTOPID) < 0) {
		int e = errno;

		mnl_socket_close(tc->nl);
		tc->nl = NULL;
		return -e;
	}
	tc->portid = mnl_socket_get_portid(tc->nl);
	tc->seq = time(NULL);
	tc_set_timeout(tc, TC_REPLY_TIMEOUT_MS);
	return 0;
}

/*
 * The kernel answers a request before its sendmsg returns, and the rest
 * of a dump from within the recvmsg that reads it: a reply not there
 * within this time was lost (a full receive buffer) and never comes.
 */
int tc_set_timeout(struct tc *tc, int ms)
{
	struct timeval tv = { ms / 1000, (ms % 1000) * 1000 };

	tc->timeout_ms = ms;
	return setsockopt(mnl_socket_get_fd(tc->nl), SOL_SOCKET, SO_RCVTIMEO,
			  &tv, sizeof(tv)) < 0 ?
		       -errno :
		       0;
}

/*
 * A socket inherited from a process that died mid-request may hold its
 * reply: drop whatever is queued so the next answer read is ours. (Not a
 * new socket: closing the last reference to one waits for an RCU grace
 * period, which takes a busy machine hundreds of milliseconds.)
 */
void tc_drain(struct tc *tc)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];

	while (recv(mnl_socket_get_fd(tc->nl), buf, sizeof(buf), MSG_DONTWAIT) >
	       0)
		;
	tc->seq += 1000;
}

void tc_close(struct tc *tc)
{
	if (tc->nl)
		mnl_socket_close(tc->nl);
	tc->nl = NULL;
}

static struct nlmsghdr *msg_start(struct tc *tc, char *buf, int type, int flags,
				  int ifindex, uint32_t parent, uint32_t handle)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct tcmsg *t;

	nlh->nlmsg_type = type;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK | flags;
	nlh->nlmsg_seq = ++tc->seq;
	t = mnl_nlmsg_put_extra_header(nlh, sizeof(*t));
	t->tcm_family = AF_UNSPEC;
	t->tcm_ifindex = ifindex;
	t->tcm_parent = parent;
	t->tcm_handle = handle;
	return nlh;
}

static int ext_ack(const struct nlattr *a, void *data)
{
	struct tc *tc = data;

	if (mnl_attr_get_type(a) == NLMSGERR_ATTR_MSG)
		snprintf(tc->err, sizeof(tc->err), "%s", mnl_attr_get_str(a));
	return MNL_CB_OK;
}

/*
 * Reading the answer failed: ENOBUFS (the receive buffer overflowed, our
 * answer may be what was lost: keep reading until it or the timeout), or
 * nothing came in time. Then whatever is still queued is not ours.
 */
static int talk_failed(struct tc *tc, int e, bool *lost, uint64_t began)
{
	if (e == ENOBUFS) {
		*lost = true;
		return 0; /* read on */
	}
	if (e == EINTR && mono_ns() - began < tc->timeout_ms * 1000000ull)
		return 0;
	if (e == EAGAIN || e == EWOULDBLOCK || e == EINTR) {
		snprintf(tc->err, sizeof(tc->err),
			 "no answer from the kernel in %d ms%s", tc->timeout_ms,
			 *lost ? " (receive buffer overrun)" : "");
		tc_drain(tc);
		return *lost ? -ENOBUFS : -ETIMEDOUT;
	}
	return -e;
}

/*
 * Send, then read until the ACK; data messages go to cb. Bounded: a
 * reply lost to a full receive buffer ends in -ETIMEDOUT or -ENOBUFS
 * after tc->timeout_ms instead of a recv that never returns, and a dump
 * that lost messages returns -ENOBUFS. What it cannot bound is the
 * kernel's wait for its rtnl lock inside sendmsg (see pfc_tc.h).
 */
static int talk(struct tc *tc, struct nlmsghdr *nlh, mnl_cb_t cb, void *arg);

int tc_talk(struct tc *tc, struct nlmsghdr *nlh, mnl_cb_t cb, void *arg)
{
	uint64_t began = mono_ns();
	int r = talk(tc, nlh, cb, arg);

	tc->last_ns = mono_ns() - began;
	return r;
}

static int talk(struct tc *tc, struct nlmsghdr *nlh, mnl_cb_t cb, void *arg)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	unsigned int seq = nlh->nlmsg_seq;
	uint64_t began = mono_ns();
	bool lost = false;
	int n, r;

	tc->err[0] = '\0';
	if (mnl_socket_sendto(tc->nl, nlh, nlh->nlmsg_len) < 0)
		return -errno;
	for (;;) {
		n = mnl_socket_recvfrom(tc->nl, buf, sizeof(buf));
		if (n < 0) {
			r = talk_failed(tc, errno, &lost, began);
			if (r)
				return r;
			continue;
		}
		for (struct nlmsghdr *h = (struct nlmsghdr *)buf;
		     mnl_nlmsg_ok(h, n); h = mnl_nlmsg_next(h, &n)) {
			if (h->nlmsg_seq != seq)
				continue;
			if (h->nlmsg_type == NLMSG_ERROR) {
				struct nlmsgerr *e = mnl_nlmsg_get_payload(h);

				if (e->error &&
				    (h->nlmsg_flags & NLM_F_ACK_TLVS)) {
					size_t off = sizeof(*e);

					if (!(h->nlmsg_flags & NLM_F_CAPPED))
						off += e->msg.nlmsg_len -
						       sizeof(e->msg);
					mnl_attr_parse(h, off + 0, ext_ack, tc);
				}
				return e->error;
			}
			if (h->nlmsg_type == NLMSG_DONE)
				return lost ? -ENOBUFS : 0;
			if (cb) {
				r = cb(h, arg);
				if (r < 0)
					return r;
			}
		}
	}
}

/*
 * A change with no ACK asked for: the kernel handles the request inside
 * the sendmsg, so when it returns the change is done, or its error is
 * queued on the socket (errors are always sent). Reading that without
 * waiting saves the ACK's allocation, queueing and wake-up on the path
 * of a gate opening. A receive buffer that overflowed may have lost the
 * error: -ENOBUFS, the outcome is unknown.
 */
static int change(struct tc *tc, struct nlmsghdr *nlh)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	unsigned int seq = nlh->nlmsg_seq;
	int fd = mnl_socket_get_fd(tc->nl), n;
	uint64_t began = mono_ns();

	tc->err[0] = '\0';
	nlh->nlmsg_flags &= ~NLM_F_ACK;
	if (mnl_socket_sendto(tc->nl, nlh, nlh->nlmsg_len) < 0)
		return -errno;
	tc->last_ns = mono_ns() - began;
	while ((n = recv(fd, buf, sizeof(buf), MSG_DONTWAIT)) > 0) {
		for (struct nlmsghdr *h = (struct nlmsghdr *)buf;
		     mnl_nlmsg_ok(h, n); h = mnl_nlmsg_next(h, &n)) {
			struct nlmsgerr *e = mnl_nlmsg_get_payload(h);

			if (h->nlmsg_seq != seq || h->nlmsg_type != NLMSG_ERROR)
				continue;
			if (e->error && (h->nlmsg_flags & NLM_F_ACK_TLVS)) {
				size_t off = sizeof(*e);

				if (!(h->nlmsg_flags & NLM_F_CAPPED))
					off += e->msg.nlmsg_len -
					       sizeof(e->msg);
				mnl_attr_parse(h, off, ext_ack, tc);
			}
			return e->error;
		}
	}
	return n < 0 && errno == ENOBUFS ? -ENOBUFS : 0;
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
