// SPDX-License-Identifier: GPL-2.0
/* The agent's ports' link notifications; see pfc_links.h. */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <linux/rtnetlink.h>
#include <libmnl/libmnl.h>

#include "pfc/pfc_links.h"

int pfc_links_open(struct mnl_socket **nl)
{
	int fd;

	*nl = mnl_socket_open2(NETLINK_ROUTE, SOCK_CLOEXEC | SOCK_NONBLOCK);
	if (!*nl)
		return -errno;
	if (mnl_socket_bind(*nl, RTMGRP_LINK, MNL_SOCKET_AUTOPID) < 0) {
		fd = -errno;
		mnl_socket_close(*nl);
		*nl = NULL;
		return fd;
	}
	return mnl_socket_get_fd(*nl);
}

struct gone {
	const struct pfc_config *cfg;
	int port;
};

static int on_link(const struct nlmsghdr *h, void *data)
{
	const struct ifinfomsg *ifi = mnl_nlmsg_get_payload(h);
	struct gone *g = data;
	int i;

	if (h->nlmsg_type != RTM_DELLINK ||
	    h->nlmsg_len < NLMSG_LENGTH(sizeof(*ifi)))
		return MNL_CB_OK;
	for (i = 0; i < g->cfg->nports; i++)
		if (g->cfg->ports[i].ifindex == ifi->ifi_index && g->port < 0)
			g->port = i;
	return MNL_CB_OK;
}

/* The port's interface is not there, or another has its index now. */
static bool port_gone(const struct pfc_port_cfg *p)
{
	char name[IF_NAMESIZE];

	return !if_indextoname(p->ifindex, name) ||
	       strncmp(name, p->ifname, sizeof(name));
}

int pfc_links_gone(struct mnl_socket *nl, const struct pfc_config *cfg)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct gone g = { cfg, -1 };
	ssize_t n;
	int i;

	/*
	 * Every message queued, not just the first: a burst of others'
	 * changes must not hide ours. ENOBUFS (the socket overran while the
	 * agent slept): which links went is unknown, so look them up.
	 */
	while ((n = mnl_socket_recvfrom(nl, buf, sizeof(buf))) > 0)
		mnl_cb_run(buf, n, 0, 0, on_link, &g);
	if (n < 0 && errno == ENOBUFS)
		for (i = 0; g.port < 0 && i < cfg->nports; i++)
			if (port_gone(&cfg->ports[i]))
				g.port = i;
	return g.port;
}

void pfc_links_close(struct mnl_socket *nl)
{
	if (nl)
		mnl_socket_close(nl);
}
