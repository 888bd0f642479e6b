// SPDX-License-Identifier: GPL-2.0
/* A tc request over rtnetlink and its answer; see tc_nl.h. */
#include <errno.h>
#include <libmnl/libmnl.h>
#include <stdbool.h>
#include <stdio.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <string.h>
#include <time.h>

#include "lib/tc_nl.h"

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

struct nlmsghdr *tc_msg_start(struct tc *tc, char *buf, int type, int flags,
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
 * kernel's wait for its rtnl lock inside sendmsg (see tc_nl.h).
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
int tc_change(struct tc *tc, struct nlmsghdr *nlh)
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
