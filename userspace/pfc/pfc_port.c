// SPDX-License-Identifier: GPL-2.0
/* Port preparation and program attachment; see pfc_port.h. */
#include <bpf/libbpf.h>
#include <errno.h>
#include <linux/ethtool.h>
#include <linux/sockios.h>
#include <net/if.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include "pfc/pfc_backend.h"
#include "pfc/pfc_port.h"
#include "pfc/pfc_tc.h"
#include "tagger_skb.h"

static int ethtool_val(int fd, const char *ifname, uint32_t cmd, uint32_t *v)
{
	struct ethtool_value ev = { .cmd = cmd, .data = v ? *v : 0 };
	struct ifreq ifr = { 0 };

	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", ifname);
	ifr.ifr_data = (void *)&ev;
	if (ioctl(fd, SIOCETHTOOL, &ifr) < 0)
		return -errno;
	if (v)
		*v = ev.data;
	return 0;
}

/*
 * Accounting adds skb->len at ingress and subtracts it per transmitted
 * frame. A GRO super-packet re-segmented at egress would return more
 * bytes than it brought, so the ports carry plain frames.
 */
int pfc_port_offloads(const char *ifname, int off, struct pfc_offloads *saved)
{
	static const uint32_t get[] = { ETHTOOL_GGRO, ETHTOOL_GTSO,
					ETHTOOL_GGSO };
	static const uint32_t set[] = { ETHTOOL_SGRO, ETHTOOL_STSO,
					ETHTOOL_SGSO };
	uint32_t *val[] = { &saved->gro, &saved->tso, &saved->gso };
	int fd, i, r = 0;

	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	for (i = 0; i < 3; i++) {
		uint32_t v;

		if (off) {
			if (ethtool_val(fd, ifname, get[i], val[i]) < 0)
				continue;
			saved->valid = 1;
			if (off == PFC_OFFLOADS_READ)
				continue;
			v = 0;
		} else {
			if (!saved->valid)
				break;
			v = *val[i];
		}
		if (ethtool_val(fd, ifname, set[i], &v) < 0 && off)
			r = -errno;
	}
	close(fd);
	return r;
}

int pfc_port_mtu(const char *ifname)
{
	struct ifreq ifr = { 0 };
	int fd, r;

	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", ifname);
	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	r = ioctl(fd, SIOCGIFMTU, &ifr) < 0 ? -errno : ifr.ifr_mtu;
	close(fd);
	return r;
}

/*
 * In chain 0 behind the data plane's programs, and in TAGGER_TC_CHAIN_PFC,
 * where a data path of tc filters hands its packets on (tagger_skb.h):
 * without that one the flower data path's packets never reach us.
 */
static int attach_one(struct tc *tc, int ifindex,
		      enum bpf_tc_attach_point where, int fd)
{
	DECLARE_LIBBPF_OPTS(bpf_tc_hook, hook, .ifindex = ifindex,
			    .attach_point = where);
	DECLARE_LIBBPF_OPTS(bpf_tc_opts, opts, .prog_fd = fd, .handle = 1,
			    .priority = PFC_TC_PREF, .flags = BPF_TC_F_REPLACE);
	bool egress = where == BPF_TC_EGRESS;
	int r;

	r = bpf_tc_hook_create(&hook);
	if (r && r != -EEXIST)
		return r;
	r = bpf_tc_attach(&hook, &opts);
	return r     ?:
		       tc_bpf_chain(tc, ifindex, egress, TAGGER_TC_CHAIN_PFC,
				    PFC_TC_PREF, fd,
				    egress ? "pfc_egress" : "pfc_ingress");
}

int pfc_port_attach(int ifindex, int in_fd, int out_fd)
{
	struct tc tc;
	int r = tc_open(&tc);

	if (r)
		return r;
	if (in_fd >= 0)
		r = attach_one(&tc, ifindex, BPF_TC_INGRESS, in_fd);
	if (!r && out_fd >= 0)
		r = attach_one(&tc, ifindex, BPF_TC_EGRESS, out_fd);
	tc_close(&tc);
	return r;
}

/*
 * Only our filters go; the clsact hook stays for the data plane's. One
 * that is not there (an agent killed half-way through its start) is no
 * error: libbpf is kept from printing the kernel's complaint about it.
 */
void pfc_port_detach(int ifindex)
{
	enum bpf_tc_attach_point pts[] = { BPF_TC_INGRESS, BPF_TC_EGRESS };
	libbpf_print_fn_t was = libbpf_set_print(NULL);
	struct tc tc;
	int i, have_tc = !tc_open(&tc);

	for (i = 0; i < 2; i++) {
		DECLARE_LIBBPF_OPTS(bpf_tc_hook, hook, .ifindex = ifindex,
				    .attach_point = pts[i]);
		DECLARE_LIBBPF_OPTS(bpf_tc_opts, opts, .handle = 1,
				    .priority = PFC_TC_PREF);

		bpf_tc_detach(&hook, &opts);
		if (have_tc)
			tc_bpf_chain_del(&tc, ifindex, i, TAGGER_TC_CHAIN_PFC,
					 PFC_TC_PREF);
	}
	if (have_tc)
		tc_close(&tc);
	libbpf_set_print(was);
}
