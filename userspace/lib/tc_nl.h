/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A tc request over rtnetlink (libmnl) and its answer, bounded in time,
 * with the kernel's own words on a refusal: what the pause agent's qdiscs
 * (pfc/pfc_tc.h) and the flower filters (dataplane/flower_nl.h) are sent
 * through.
 *
 * API:
 *   tc_open/tc_close                     one NETLINK_ROUTE socket
 *   tc_drain(tc)                         drop replies queued on it
 *   tc_msg_start(tc, buf, type, flags, ifindex, parent, handle)
 *                                        a request (NLM_F_REQUEST|ACK|flags)
 *                                        with its tcmsg, in buf (at least
 *                                        MNL_SOCKET_BUFFER_SIZE)
 *   tc_talk(tc, nlh, cb, arg)            send a request, read its answer
 *                                        (data messages to cb) until the ACK
 *   tc_change(tc, nlh)                   send a change without asking for
 *                                        an ACK; an error is still read
 *   tc_set_timeout(tc, ms)               how long an answer may take
 *                                        (default TC_REPLY_TIMEOUT_MS)
 * All return 0 or -errno; tc->err holds the kernel's extack message, or
 * why no answer came. tc->last_ns is how long the last request took.
 *
 * Bounded waits: the kernel answers within the sendmsg of a request (and
 * a dump's later parts within the recvmsg that reads them), so an answer
 * still missing after the timeout was lost to a full receive buffer:
 * -ETIMEDOUT or -ENOBUFS, and what is queued is dropped. The one wait no
 * socket option bounds is the kernel's own for its rtnl lock, taken in
 * sendmsg for every qdisc request and every part of a dump: another
 * process holding it holds the caller as long, seconds on a busy
 * machine, so a caller must not depend on a request returning soon: the
 * pause agent keeps its PAUSEs refreshed from another thread meanwhile
 * (pfc_keeper.h) and logs such calls.
 */
#ifndef __TAGGER_TC_NL_H
#define __TAGGER_TC_NL_H

#include <stdbool.h>
#include <stdint.h>

#include <libmnl/libmnl.h>

#define TC_REPLY_TIMEOUT_MS 1000

struct tc {
	struct mnl_socket *nl;
	unsigned int seq;
	unsigned int portid;
	int timeout_ms;
	uint64_t last_ns; /* the last request's duration */
	char err[256];
};

int tc_open(struct tc *tc);
void tc_close(struct tc *tc);
void tc_drain(struct tc *tc);
struct nlmsghdr *tc_msg_start(struct tc *tc, char *buf, int type, int flags,
			      int ifindex, uint32_t parent, uint32_t handle);
int tc_talk(struct tc *tc, struct nlmsghdr *nlh, mnl_cb_t cb, void *arg);
int tc_change(struct tc *tc, struct nlmsghdr *nlh);
int tc_set_timeout(struct tc *tc, int ms);

#endif /* __TAGGER_TC_NL_H */
