// SPDX-License-Identifier: GPL-2.0
/* A DCB netlink request and its answer; see dcb_nl.h. */
#include <errno.h>
#include <libmnl/libmnl.h>
#include <net/if.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <linux/dcbnl.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>

#include "lib/dcb_msg.h"
#include "lib/dcb_nl.h"

int dcb_nl_open(struct dcb_nl *d)
{
	struct timeval tv = { DCB_REPLY_TIMEOUT_MS / 1000,
			      DCB_REPLY_TIMEOUT_MS % 1000 * 1000 };
	int one = 1, e;

	memset(d, 0, sizeof(*d));
	d->nl = mnl_socket_open(NETLINK_ROUTE);
	if (!d->nl)
		return -errno;
	mnl_socket_setsockopt(d->nl, NETLINK_EXT_ACK, &one, sizeof(one));
	if (mnl_socket_bind(d->nl, 0, MNL_SOCKET_AUTOPID) < 0 ||
	    setsockopt(mnl_socket_get_fd(d->nl), SOL_SOCKET, SO_RCVTIMEO, &tv,
		       sizeof(tv)) < 0) {
		e = errno;
		mnl_socket_close(d->nl);
		d->nl = NULL;
		return -e;
	}
	d->seq = time(NULL);
	d->timeout_ms = DCB_REPLY_TIMEOUT_MS;
	return 0;
}

void dcb_nl_close(struct dcb_nl *d)
{
	if (d->nl)
		mnl_socket_close(d->nl);
	d->nl = NULL;
}

static int ext_ack(const struct nlattr *a, void *data)
{
	struct dcb_nl *d = data;

	if (mnl_attr_get_type(a) == NLMSGERR_ATTR_MSG &&
	    mnl_attr_validate(a, MNL_TYPE_NUL_STRING) == 0)
		snprintf(d->err, sizeof(d->err), "%s", mnl_attr_get_str(a));
	return MNL_CB_OK;
}

/* The device's name from the request, for the messages. */
static const char *req_ifname(const struct nlmsghdr *nlh)
{
	const struct nlattr *a;

	mnl_attr_for_each(a, nlh, sizeof(struct dcbmsg)) if (
		mnl_attr_get_type(a) ==
		DCB_ATTR_IFNAME) return mnl_attr_get_str(a);
	return "?";
}

/* An NLMSG_ERROR: the kernel's words, or ours for the common refusals. */
static int refused(struct dcb_nl *d, const struct nlmsghdr *req,
		   const struct nlmsghdr *h)
{
	const struct nlmsgerr *e = mnl_nlmsg_get_payload(h);
	const char *dev = req_ifname(req);
	size_t off = sizeof(*e);

	if (h->nlmsg_len < MNL_NLMSG_HDRLEN + sizeof(*e)) {
		snprintf(d->err, sizeof(d->err), "%s: a short error answer",
			 dev);
		return -EIO;
	}
	if (!e->error)
		return 0;
	if (h->nlmsg_flags & NLM_F_ACK_TLVS) {
		if (!(h->nlmsg_flags & NLM_F_CAPPED))
			off += e->msg.nlmsg_len - sizeof(e->msg);
		if (MNL_NLMSG_HDRLEN + off <= h->nlmsg_len)
			mnl_attr_parse(h, off, ext_ack, d);
	}
	if (d->err[0])
		return e->error;
	if (e->error == -EOPNOTSUPP)
		snprintf(d->err, sizeof(d->err),
			 "%s does not support DCB (its driver has no DCB "
			 "operations)",
			 dev);
	else if (e->error == -ENODEV)
		snprintf(d->err, sizeof(d->err), "%s: no such device", dev);
	else if (e->error == -EPERM)
		snprintf(d->err, sizeof(d->err),
			 "%s: changing DCB needs CAP_NET_ADMIN", dev);
	else
		snprintf(d->err, sizeof(d->err), "%s: %s", dev,
			 strerror(-e->error));
	return e->error;
}

int dcb_nl_talk(struct dcb_nl *d, struct nlmsghdr *nlh, mnl_cb_t cb, void *arg)
{
	char buf[DCB_MSG_BUF * 2];
	int n, r = 0;
	bool answered = false;

	d->err[0] = '\0';
	nlh->nlmsg_seq = ++d->seq;
	if (mnl_socket_sendto(d->nl, nlh, nlh->nlmsg_len) < 0) {
		snprintf(d->err, sizeof(d->err), "%s: sending: %s",
			 req_ifname(nlh), strerror(errno));
		return -errno;
	}
	for (;;) {
		n = mnl_socket_recvfrom(d->nl, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int e = errno == EAGAIN ? ETIMEDOUT : errno;

			snprintf(d->err, sizeof(d->err),
				 "%s: no answer from the kernel%s: %s",
				 req_ifname(nlh),
				 e == ETIMEDOUT ? " in time" : "", strerror(e));
			return -e;
		}
		for (struct nlmsghdr *h = (struct nlmsghdr *)buf;
		     dcb_msg_whole(h, n); h = mnl_nlmsg_next(h, &n)) {
			if (h->nlmsg_seq != nlh->nlmsg_seq)
				continue; /* an earlier request's, or a notice */
			if (h->nlmsg_type == NLMSG_ERROR) {
				int e = refused(d, nlh, h);

				if (e || answered)
					return e ? e : r;
				snprintf(d->err, sizeof(d->err),
					 "%s: the kernel acknowledged without "
					 "an answer",
					 req_ifname(nlh));
				return -EBADMSG;
			}
			if (answered || (h->nlmsg_type != RTM_GETDCB &&
					 h->nlmsg_type != RTM_SETDCB))
				continue;
			answered = true;
			r = cb ? cb(h, arg) : 0;
			r = r < 0 ? r : 0; /* kept until the ACK */
		}
	}
}

int dcb_ifname(int ifindex, const char *name, char *out)
{
	if (name) {
		if (!*name || strlen(name) >= IF_NAMESIZE)
			return -EINVAL;
		strcpy(out, name);
		return 0;
	}
	return if_indextoname(ifindex, out) ? 0 : -ENODEV;
}
