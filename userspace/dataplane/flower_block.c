// SPDX-License-Identifier: GPL-2.0
/* Shared tc blocks of the flower data path; see flower_block.h. */
#include <errno.h>
#include <linux/pkt_sched.h>
#include <linux/rtnetlink.h>
#include <stdlib.h>
#include <string.h>

#include "dataplane/flower_block.h"
#include "lib/util.h"

struct scan {
	struct flower_block_use *u;
	int n, cap;
};

static int qdisc_attr(const struct nlattr *a, void *data)
{
	struct flower_block_use *u = data;

	if (mnl_attr_get_payload_len(a) < sizeof(uint32_t))
		return MNL_CB_OK;
	if (mnl_attr_get_type(a) == TCA_INGRESS_BLOCK)
		u->in = mnl_attr_get_u32(a);
	else if (mnl_attr_get_type(a) == TCA_EGRESS_BLOCK)
		u->eg = mnl_attr_get_u32(a);
	return MNL_CB_OK;
}

static int scan_msg(const struct nlmsghdr *nlh, void *data)
{
	const struct tcmsg *tm = mnl_nlmsg_get_payload(nlh);
	struct flower_block_use u = { .ifindex = tm->tcm_ifindex };
	struct scan *s = data;

	if (nlh->nlmsg_type != RTM_NEWQDISC)
		return MNL_CB_OK;
	mnl_attr_parse(nlh, sizeof(*tm), qdisc_attr, &u);
	if (!u.in && !u.eg)
		return MNL_CB_OK;
	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 16;
		s->u = xrealloc(s->u, s->cap * sizeof(*s->u));
	}
	s->u[s->n++] = u;
	return MNL_CB_OK;
}

int flower_block_scan(struct tc *tc, struct flower_block_use **used, int *n)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh;
	struct scan s = { 0 };
	int err;

	memset(buf, 0, sizeof(buf));
	nlh = tc_msg_start(tc, buf, RTM_GETQDISC, NLM_F_DUMP, 0, 0, 0);
	nlh->nlmsg_flags &= ~NLM_F_ACK;
	err = tc_talk(tc, nlh, scan_msg, &s);
	if (err) {
		free(s.u);
		return err;
	}
	*used = s.u;
	*n = s.n;
	return 0;
}

bool flower_block_of(const struct flower_block_use *used, int n, int ifindex,
		     uint32_t *in, uint32_t *eg)
{
	int i;

	*in = *eg = 0;
	for (i = 0; i < n; i++)
		if (used[i].ifindex == ifindex) {
			*in = used[i].in;
			*eg = used[i].eg;
			return true;
		}
	return false;
}

/* One bit an index of the range: a scan of the qdiscs, then of the bits. */
static void mark(uint8_t *bits, uint32_t b)
{
	if (flower_block_ours(b))
		bits[(b - FLOWER_BLOCK_BASE) / 8] |= 1u << (b % 8);
}

int flower_block_pick(const struct flower_block_use *used, int n, uint32_t *out,
		      int k)
{
	uint8_t *bits = xcalloc(FLOWER_BLOCK_RANGE / 8, 1);
	uint32_t b = 0;
	int i, err = 0;

	for (i = 0; i < n; i++) {
		mark(bits, used[i].in);
		mark(bits, used[i].eg);
	}
	for (i = 0; i < k && !err; i++, b++) {
		while (b < FLOWER_BLOCK_RANGE && bits[b / 8] & (1u << (b % 8)))
			b++;
		if (b == FLOWER_BLOCK_RANGE)
			err = -ENOSPC;
		else
			out[i] = FLOWER_BLOCK_BASE + b;
	}
	free(bits);
	return err;
}

bool flower_block_ours(uint32_t index)
{
	return index >= FLOWER_BLOCK_BASE &&
	       index < FLOWER_BLOCK_BASE + FLOWER_BLOCK_RANGE;
}

int flower_block_bind(struct tc *tc, int ifindex, uint32_t in, uint32_t eg)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh;

	memset(buf, 0, sizeof(buf));
	nlh = tc_msg_start(tc, buf, RTM_NEWQDISC, NLM_F_CREATE | NLM_F_EXCL,
			   ifindex, TC_H_CLSACT, TC_H_MAKE(TC_H_CLSACT, 0));
	mnl_attr_put_strz(nlh, TCA_KIND, "clsact");
	if (in)
		mnl_attr_put_u32(nlh, TCA_INGRESS_BLOCK, in);
	if (eg)
		mnl_attr_put_u32(nlh, TCA_EGRESS_BLOCK, eg);
	return tc_talk(tc, nlh, NULL, NULL);
}

int flower_block_unbind(struct tc *tc, int ifindex)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh;

	memset(buf, 0, sizeof(buf));
	nlh = tc_msg_start(tc, buf, RTM_DELQDISC, 0, ifindex, TC_H_CLSACT,
			   TC_H_MAKE(TC_H_CLSACT, 0));
	return tc_talk(tc, nlh, NULL, NULL);
}
