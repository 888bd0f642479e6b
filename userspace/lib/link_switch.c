// SPDX-License-Identifier: GPL-2.0
/* A device's physical switch id by rtnetlink; see link_switch.h. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <libmnl/libmnl.h>
#include <linux/if_link.h>
#include <linux/rtnetlink.h>
#include <sys/socket.h>

#include "lib/link_switch.h"
#include "lib/tc_nl.h"

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

struct answer {
	char *id;
	size_t len;
	int r;
};

static int link_cb(const struct nlmsghdr *nlh, void *data)
{
	struct answer *a = data;

	a->r = link_switch_id_parse(nlh, a->id, a->len);
	return MNL_CB_OK;
}

/* One RTM_GETLINK through the bounded request of lib/tc_nl.h. */
int link_switch_id(int ifindex, char *id, size_t len)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct answer a = { .id = id, .len = len, .r = -EIO };
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct ifinfomsg *ifi;
	struct tc nl;
	int r;

	r = tc_open(&nl);
	if (r)
		return r;
	nlh->nlmsg_type = RTM_GETLINK;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
	nlh->nlmsg_seq = ++nl.seq;
	ifi = mnl_nlmsg_put_extra_header(nlh, sizeof(*ifi));
	ifi->ifi_family = AF_UNSPEC;
	ifi->ifi_index = ifindex;
	r = tc_talk(&nl, nlh, link_cb, &a);
	tc_close(&nl);
	return r ? r : a.r;
}
