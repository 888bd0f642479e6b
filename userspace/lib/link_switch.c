// SPDX-License-Identifier: GPL-2.0
/* A device's physical switch id by rtnetlink; see link_switch.h. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <libmnl/libmnl.h>
#include <linux/if_link.h>
#include <linux/rtnetlink.h>
#include <sys/socket.h>

#include "lib/link_switch.h"

struct found {
	const struct nlattr *id;
};

static int attr_cb(const struct nlattr *a, void *data)
{
	struct found *f = data;

	if (mnl_attr_get_type(a) == IFLA_PHYS_SWITCH_ID)
		f->id = a;
	return MNL_CB_OK;
}

int link_switch_id_parse(const struct nlmsghdr *nlh, char *id, size_t len)
{
	struct found f = { 0 };
	const unsigned char *b;
	size_t n, i;

	if (nlh->nlmsg_type != RTM_NEWLINK ||
	    nlh->nlmsg_len < mnl_nlmsg_size(sizeof(struct ifinfomsg)) ||
	    mnl_attr_parse(nlh, sizeof(struct ifinfomsg), attr_cb, &f) < 0)
		return -EINVAL;
	if (!f.id)
		return 0;
	n = mnl_attr_get_payload_len(f.id);
	if (!n || n > LINK_SWITCH_ID_MAX || len < 2 * n + 1)
		return -EINVAL;
	b = mnl_attr_get_payload(f.id);
	for (i = 0; i < n; i++)
		snprintf(id + 2 * i, 3, "%02x", b[i]);
	return 1;
}

int link_switch_id(int ifindex, char *id, size_t len)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct mnl_socket *nl;
	struct ifinfomsg *ifi;
	int n, r;

	nlh->nlmsg_type = RTM_GETLINK;
	nlh->nlmsg_flags = NLM_F_REQUEST;
	nlh->nlmsg_seq = time(NULL);
	ifi = mnl_nlmsg_put_extra_header(nlh, sizeof(*ifi));
	ifi->ifi_family = AF_UNSPEC;
	ifi->ifi_index = ifindex;
	nl = mnl_socket_open(NETLINK_ROUTE);
	if (!nl)
		return -errno;
	if (mnl_socket_bind(nl, 0, MNL_SOCKET_AUTOPID) < 0 ||
	    mnl_socket_sendto(nl, nlh, nlh->nlmsg_len) < 0) {
		r = -errno;
		goto out;
	}
	n = mnl_socket_recvfrom(nl, buf, sizeof(buf));
	if (n < 0) {
		r = -errno;
		goto out;
	}
	nlh = (struct nlmsghdr *)buf;
	if (!mnl_nlmsg_ok(nlh, n))
		r = -EIO;
	else if (nlh->nlmsg_type == NLMSG_ERROR)
		r = ((struct nlmsgerr *)mnl_nlmsg_get_payload(nlh))->error;
	else
		r = link_switch_id_parse(nlh, id, len);
out:
	mnl_socket_close(nl);
	return r;
}
