/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A DCB netlink request (lib/dcb_msg.h builds them) and its answer over
 * one NETLINK_ROUTE socket, bounded in time, with the kernel's own words
 * on a refusal. The socket is the caller's network namespace's.
 *
 * The kernel answers a DCB request with its RTM_GETDCB or RTM_SETDCB
 * message and the ACK, or with an NLMSG_ERROR alone; the read ends at
 * the ACK or error of the request's sequence number, bounded by
 * DCB_REPLY_TIMEOUT_MS a read. An NLMSG_ERROR of -EOPNOTSUPP is the kernel's answer
 * for a device whose driver has no DCB operations (veth, lo, dummy), said
 * so in err.
 *
 * API:
 *   dcb_nl_open(d)                     one socket, extended ACKs on
 *   dcb_nl_close(d)
 *   dcb_nl_talk(d, nlh, cb, arg)       send a request, its answer to cb
 *                                      (cb's negative return is returned);
 *                                      0 or -errno, d->err says why
 *   dcb_ifname(ifindex, name, out)     the device's name: name itself
 *                                      (checked) or ifindex's, into out
 *                                      (IF_NAMESIZE); 0 or -ENODEV,
 *                                      -EINVAL
 */
#ifndef __TAGGER_DCB_NL_H
#define __TAGGER_DCB_NL_H

#include <libmnl/libmnl.h>

#define DCB_REPLY_TIMEOUT_MS 1000

struct dcb_nl {
	struct mnl_socket *nl;
	unsigned int seq;
	int timeout_ms;
	char err[256];
};

int dcb_nl_open(struct dcb_nl *d);
void dcb_nl_close(struct dcb_nl *d);
int dcb_nl_talk(struct dcb_nl *d, struct nlmsghdr *nlh, mnl_cb_t cb, void *arg);
int dcb_ifname(int ifindex, const char *name, char *out);

#endif /* __TAGGER_DCB_NL_H */
