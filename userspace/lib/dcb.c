// SPDX-License-Identifier: GPL-2.0
/* Hardware PFC through DCB netlink; see pfc_dcb.h. */
#include <errno.h>
#include <libmnl/libmnl.h>
#include <linux/dcbnl.h>
#include <linux/rtnetlink.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

#include "lib/dcb.h"

static int dcb_talk(int cmd, int type, const char *ifname,
		    void (*fill)(struct nlmsghdr *nlh, const void *arg),
		    const void *arg)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct mnl_socket *nl;
	struct dcbmsg *d;
	int n, r = -EIO;

	nlh->nlmsg_type = type;
	nlh->nlmsg_flags = NLM_F_REQUEST;
	nlh->nlmsg_seq = time(NULL);
	d = mnl_nlmsg_put_extra_header(nlh, sizeof(*d));
	d->dcb_family = AF_UNSPEC;
	d->cmd = cmd;
	mnl_attr_put_strz(nlh, DCB_ATTR_IFNAME, ifname);
	if (fill)
		fill(nlh, arg);
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
	if (nlh->nlmsg_type == NLMSG_ERROR)
		r = ((struct nlmsgerr *)mnl_nlmsg_get_payload(nlh))->error;
	else
		r = 0;
out:
	mnl_socket_close(nl);
	return r;
}

int pfc_dcb_probe(const char *ifname, char *msg, size_t len)
{
	int r = dcb_talk(DCB_CMD_IEEE_GET, RTM_GETDCB, ifname, NULL, NULL);

	if (!r) {
		snprintf(msg, len, "supported");
		return 1;
	}
	snprintf(msg, len, "%s",
		 r == -EOPNOTSUPP ? "unsupported" : strerror(-r));
	return r == -EOPNOTSUPP || r == -ENODEV ? 0 : r;
}

struct dcb_cfg {
	uint8_t mask;
	const uint8_t *dscp;
};

static void fill_ieee(struct nlmsghdr *nlh, const void *arg)
{
	const struct dcb_cfg *c = arg;
	struct ieee_pfc pfc = { .pfc_cap = 8, .pfc_en = c->mask };
	struct nlattr *ieee, *apps;
	int d;

	ieee = mnl_attr_nest_start(nlh, DCB_ATTR_IEEE);
	mnl_attr_put(nlh, DCB_ATTR_IEEE_PFC, sizeof(pfc), &pfc);
	apps = mnl_attr_nest_start(nlh, DCB_ATTR_IEEE_APP_TABLE);
	for (d = 0; d < 64; d++) {
		struct dcb_app app = {
			.selector = IEEE_8021QAZ_APP_SEL_DSCP,
			.priority = c->dscp[d],
			.protocol = d,
		};

		mnl_attr_put(nlh, DCB_ATTR_IEEE_APP, sizeof(app), &app);
	}
	mnl_attr_nest_end(nlh, apps);
	mnl_attr_nest_end(nlh, ieee);
}

int pfc_dcb_apply(const char *ifname, uint8_t lossless_mask,
		  const uint8_t dscp_prio[64])
{
	struct dcb_cfg c = { lossless_mask, dscp_prio };

	return dcb_talk(DCB_CMD_IEEE_SET, RTM_SETDCB, ifname, fill_ieee, &c);
}
