// SPDX-License-Identifier: GPL-2.0
/*
 * Flower filters over rtnetlink (flower_nl.h). Each attribute goes where
 * iproute2 6.1 puts it for the words flower_tc.c writes: the tcmsg
 * carries pref and protocol in tcm_info; then TCA_CHAIN, TCA_KIND and
 * TCA_OPTIONS, whose keys come in the order of the words (VLAN ethertype,
 * indev, group address, TOS), then the actions, the flags and last the
 * ethertype (none for protocol all). Only an action's options nest and
 * pedit's extended keys carry NLA_F_NESTED, as tc sets it.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <linux/gen_stats.h>
#include <linux/if_ether.h>
#include <linux/pkt_cls.h>
#include <linux/pkt_sched.h>
#include <linux/rtnetlink.h>
#include <linux/tc_act/tc_csum.h>
#include <linux/tc_act/tc_gact.h>
#include <linux/tc_act/tc_pedit.h>
#include <linux/tc_act/tc_skbedit.h>
#include <stdio.h>
#include <string.h>

#include "dataplane/flower_nl.h"
#include "tagger_skb.h"

/* A nest as iproute2's addattr_nest makes it: without NLA_F_NESTED. */
static struct nlattr *nest(struct nlmsghdr *nlh, uint16_t type)
{
	struct nlattr *a = mnl_attr_nest_start(nlh, type);

	a->nla_type = type;
	return a;
}

static uint32_t parent_of(bool egress)
{
	return TC_H_MAKE(TC_H_CLSACT,
			 egress ? TC_H_MIN_EGRESS : TC_H_MIN_INGRESS);
}

/*
 * Where a filter request goes: a device's clsact hook, or a shared block
 * (FLOWER_NL_BLOCK), which tc addresses by a magic ifindex and the block
 * index in place of the parent, the direction being the binding's.
 */
static struct nlmsghdr *at_start(struct tc *tc, char *buf, int type, int flags,
				 int ifindex, bool egress, uint32_t handle)
{
	if (ifindex < 0)
		return tc_msg_start(tc, buf, type, flags,
				    (int)TCM_IFINDEX_MAGIC_BLOCK,
				    (uint32_t)-ifindex, handle);
	return tc_msg_start(tc, buf, type, flags, ifindex, parent_of(egress),
			    handle);
}

/*
 * A request in a zeroed buf: libmnl leaves an attribute's padding as it
 * finds it, iproute2 sends zeros.
 */
static struct nlmsghdr *msg_start(struct tc *tc, char *buf, int type, int flags,
				  int ifindex, bool egress, uint32_t handle)
{
	memset(buf, 0, MNL_SOCKET_BUFFER_SIZE);
	return at_start(tc, buf, type, flags, ifindex, egress, handle);
}

static struct nlmsghdr *filter_start(struct tc *tc, char *buf, int flags,
				     int ifindex, bool egress, uint32_t handle,
				     int chain, int pref, int proto)
{
	struct nlmsghdr *nlh = msg_start(tc, buf, RTM_NEWTFILTER, flags,
					 ifindex, egress, handle);
	struct tcmsg *tm = mnl_nlmsg_get_payload(nlh);

	tm->tcm_info = TC_H_MAKE((uint32_t)pref << 16, htons(proto));
	mnl_attr_put_u32(nlh, TCA_CHAIN, chain);
	mnl_attr_put_strz(nlh, TCA_KIND, "flower");
	return nlh;
}

/* Action number n of kind, its options nest left open. */
static struct nlattr *act_start(struct nlmsghdr *nlh, int n, const char *kind,
				struct nlattr **opts)
{
	struct nlattr *a = nest(nlh, n);

	mnl_attr_put_strz(nlh, TCA_ACT_KIND, kind);
	*opts = mnl_attr_nest_start(nlh, TCA_ACT_OPTIONS | NLA_F_NESTED);
	return a;
}

static void act_end(struct nlmsghdr *nlh, struct nlattr *a, struct nlattr *opts)
{
	mnl_attr_nest_end(nlh, opts);
	mnl_attr_nest_end(nlh, a);
}

static void act_goto(struct nlmsghdr *nlh, int n, int chain)
{
	struct tc_gact p = { .action = TC_ACT_GOTO_CHAIN | chain };
	struct nlattr *opts, *a = act_start(nlh, n, "gact", &opts);

	mnl_attr_put(nlh, TCA_GACT_PARMS, sizeof(p), &p);
	act_end(nlh, a, opts);
}

/*
 * pedit ex munge ip dsfield / ip6 traffic_class set (dscp << 2) retain
 * 0xfc pipe: one 32-bit key at offset 0 of the IP header, which pedit
 * applies as word = (word & mask) ^ val. The DSCP is bits 18-23 of that
 * word in IPv4 (the TOS byte's upper six), bits 22-27 in IPv6 (the
 * traffic class's upper six, behind the 4-bit version).
 */
static void act_dscp(struct nlmsghdr *nlh, int n, int fam, int dscp)
{
	int shift = fam ? 20 : 16;
	struct {
		struct tc_pedit_sel sel;
		struct tc_pedit_key key;
	} p = { .sel = { .action = TC_ACT_PIPE, .nkeys = 1 } };
	struct nlattr *opts, *keys, *key,
		*a = act_start(nlh, n, "pedit", &opts);

	p.key.mask = htonl(~(0xfcu << shift));
	p.key.val = htonl((uint32_t)(dscp << 2) << shift);
	mnl_attr_put(nlh, TCA_PEDIT_PARMS_EX, sizeof(p), &p);
	keys = mnl_attr_nest_start(nlh, TCA_PEDIT_KEYS_EX | NLA_F_NESTED);
	key = mnl_attr_nest_start(nlh, TCA_PEDIT_KEY_EX | NLA_F_NESTED);
	mnl_attr_put_u16(nlh, TCA_PEDIT_KEY_EX_HTYPE,
			 fam ? TCA_PEDIT_KEY_EX_HDR_TYPE_IP6 :
			       TCA_PEDIT_KEY_EX_HDR_TYPE_IP4);
	mnl_attr_put_u16(nlh, TCA_PEDIT_KEY_EX_CMD, TCA_PEDIT_KEY_EX_CMD_SET);
	mnl_attr_nest_end(nlh, key);
	mnl_attr_nest_end(nlh, keys);
	act_end(nlh, a, opts);
}

/* csum ip4h pipe */
static void act_csum(struct nlmsghdr *nlh, int n)
{
	struct tc_csum p = { .action = TC_ACT_PIPE,
			     .update_flags = TCA_CSUM_UPDATE_FLAG_IPV4HDR };
	struct nlattr *opts, *a = act_start(nlh, n, "csum", &opts);

	mnl_attr_put(nlh, TCA_CSUM_PARMS, sizeof(p), &p);
	act_end(nlh, a, opts);
}

/*
 * skbedit priority P [mark M/MASK], then pass (hardware) or, in software,
 * goto chain TAGGER_TC_CHAIN_PFC: on to the pause machinery (tagger_skb.h).
 */
static void act_skbedit(struct nlmsghdr *nlh, int n, int prio, bool mark,
			bool lossless, bool sw)
{
	struct tc_skbedit p = { .action = sw ? TC_ACT_GOTO_CHAIN |
							  TAGGER_TC_CHAIN_PFC :
					       TC_ACT_OK };
	struct nlattr *opts, *a = act_start(nlh, n, "skbedit", &opts);

	mnl_attr_put(nlh, TCA_SKBEDIT_PARMS, sizeof(p), &p);
	mnl_attr_put_u32(nlh, TCA_SKBEDIT_PRIORITY, prio);
	if (mark) {
		mnl_attr_put_u32(nlh, TCA_SKBEDIT_MARK,
				 TAGGER_MARK(lossless, prio));
		mnl_attr_put_u32(nlh, TCA_SKBEDIT_MASK,
				 TAGGER_MARK_VALID | TAGGER_MARK_LOSSLESS |
					 TAGGER_MARK_PRIO_MASK);
	}
	act_end(nlh, a, opts);
}

/* The actions of flower_tc.c's actions(), in its order. */
static void actions(struct nlmsghdr *nlh, const struct flower_tc_filter *t)
{
	const struct flower_filter *fl = t->fl;
	struct nlattr *acts = nest(nlh, TCA_FLOWER_ACT);
	int n = 1;

	if (fl->act == FLOWER_GOTO) {
		act_goto(nlh, n, t->goto_chain);
	} else {
		if (fl->new_dscp >= 0 && t->fam >= 0)
			act_dscp(nlh, n++, t->fam, fl->new_dscp);
		if (fl->new_dscp >= 0 && t->fam == 0 && !t->hw)
			act_csum(nlh, n++);
		act_skbedit(nlh, n, fl->prio, !t->hw && !t->egress,
			    fl->act == FLOWER_LOSSLESS, !t->hw);
	}
	mnl_attr_nest_end(nlh, acts);
}

static void group_key(struct nlmsghdr *nlh, int key)
{
	static const uint8_t mac[ETH_ALEN] = { 0x01 };
	static const uint8_t ip6[16] = { 0xff };
	uint32_t a;

	switch (key) {
	case FLOWER_TC_KEY_GROUP_ETH:
		mnl_attr_put(nlh, TCA_FLOWER_KEY_ETH_DST, sizeof(mac), mac);
		mnl_attr_put(nlh, TCA_FLOWER_KEY_ETH_DST_MASK, sizeof(mac),
			     mac);
		break;
	case FLOWER_TC_KEY_GROUP_IP4:
		mnl_attr_put_u32(nlh, TCA_FLOWER_KEY_IPV4_DST,
				 htonl(0xe0000000));
		mnl_attr_put_u32(nlh, TCA_FLOWER_KEY_IPV4_DST_MASK,
				 htonl(0xf0000000));
		break;
	case FLOWER_TC_KEY_BCAST_IP4:
		a = htonl(0xffffffff);
		mnl_attr_put_u32(nlh, TCA_FLOWER_KEY_IPV4_DST, a);
		mnl_attr_put_u32(nlh, TCA_FLOWER_KEY_IPV4_DST_MASK, a);
		break;
	case FLOWER_TC_KEY_GROUP_IP6:
		mnl_attr_put(nlh, TCA_FLOWER_KEY_IPV6_DST, sizeof(ip6), ip6);
		mnl_attr_put(nlh, TCA_FLOWER_KEY_IPV6_DST_MASK, sizeof(ip6),
			     ip6);
		break;
	}
}

struct nlmsghdr *flower_nl_filter_msg(struct tc *tc, char *buf,
				      const struct flower_tc_filter *t,
				      int ifindex, char *const *ifnames)
{
	const struct flower_filter *fl = t->fl;
	int proto = flower_tc_proto(t);
	struct nlmsghdr *nlh =
		filter_start(tc, buf, NLM_F_EXCL | NLM_F_CREATE, ifindex,
			     t->egress, 0, t->chain, t->pref, proto);
	struct nlattr *o = nest(nlh, TCA_OPTIONS);

	if (flower_tc_vlan_proto(t))
		mnl_attr_put_u16(nlh, TCA_FLOWER_KEY_VLAN_ETH_TYPE,
				 htons(flower_tc_vlan_proto(t)));
	if (fl->indev != FLOWER_ANY)
		mnl_attr_put_strz(nlh, TCA_FLOWER_INDEV, ifnames[fl->indev]);
	group_key(nlh, t->key);
	if (fl->dscp != FLOWER_ANY) {
		mnl_attr_put_u8(nlh, TCA_FLOWER_KEY_IP_TOS, fl->dscp << 2);
		mnl_attr_put_u8(nlh, TCA_FLOWER_KEY_IP_TOS_MASK, 0xfc);
	}
	actions(nlh, t);
	mnl_attr_put_u32(nlh, TCA_FLOWER_FLAGS,
			 t->hw ? TCA_CLS_FLAGS_SKIP_SW : TCA_CLS_FLAGS_SKIP_HW);
	if (proto != ETH_P_ALL)
		mnl_attr_put_u16(nlh, TCA_FLOWER_KEY_ETH_TYPE, htons(proto));
	mnl_attr_nest_end(nlh, o);
	return nlh;
}

struct nlmsghdr *flower_nl_entry_msg(struct tc *tc, char *buf, int ifindex,
				     int gen, bool egress, bool replace)
{
	struct nlmsghdr *nlh = filter_start(
		tc, buf, replace ? NLM_F_CREATE : NLM_F_EXCL | NLM_F_CREATE,
		ifindex, egress, FLOWER_TC_ENTRY_HANDLE, 0,
		FLOWER_TC_ENTRY_PREF, ETH_P_ALL);
	struct nlattr *o = nest(nlh, TCA_OPTIONS);
	struct nlattr *acts = nest(nlh, TCA_FLOWER_ACT);

	act_goto(nlh, 1, FLOWER_TC_CHAIN(gen, FLOWER_MAIN));
	mnl_attr_nest_end(nlh, acts);
	mnl_attr_put_u32(nlh, TCA_FLOWER_FLAGS, 0);
	mnl_attr_nest_end(nlh, o);
	return nlh;
}

struct nlmsghdr *flower_nl_chain_del_msg(struct tc *tc, char *buf, int ifindex,
					 bool egress, int chain)
{
	struct nlmsghdr *nlh =
		msg_start(tc, buf, RTM_DELCHAIN, 0, ifindex, egress, 0);

	mnl_attr_put_u32(nlh, TCA_CHAIN, chain);
	return nlh;
}

struct nlmsghdr *flower_nl_clsact_msg(struct tc *tc, char *buf, int ifindex)
{
	struct nlmsghdr *nlh;

	/* replace, not add: add fails on an existing clsact */
	memset(buf, 0, MNL_SOCKET_BUFFER_SIZE);
	nlh = tc_msg_start(tc, buf, RTM_NEWQDISC, NLM_F_CREATE | NLM_F_REPLACE,
			   ifindex, TC_H_CLSACT, TC_H_MAKE(TC_H_CLSACT, 0));

	mnl_attr_put_strz(nlh, TCA_KIND, "clsact");
	return nlh;
}

int flower_nl_clsact(struct tc *tc, int ifindex)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];

	return tc_talk(tc, flower_nl_clsact_msg(tc, buf, ifindex), NULL, NULL);
}

struct install {
	struct tc *tc;
	int ifindex;
	char *const *ifnames;
	int dirs;
};

static bool has_dir(int dirs, bool egress)
{
	return dirs & (egress ? FLOWER_NL_EGRESS : FLOWER_NL_INGRESS);
}

static int install_one(const struct flower_tc_filter *t, void *arg)
{
	struct install *in = arg;
	char buf[MNL_SOCKET_BUFFER_SIZE];

	if (!has_dir(in->dirs, t->egress))
		return 0;
	return tc_talk(
		in->tc,
		flower_nl_filter_msg(in->tc, buf, t, in->ifindex, in->ifnames),
		NULL, NULL);
}

/*
 * The last filter of a software chain: what none of its filters matched
 * (PFC frames, ARP) goes on to the pause machinery too (tagger_skb.h).
 */
static int handoff(struct tc *tc, int ifindex, bool egress, int chain)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh = filter_start(tc, buf, NLM_F_EXCL | NLM_F_CREATE,
					    ifindex, egress, 0, chain,
					    FLOWER_TC_HANDOFF_PREF, ETH_P_ALL);
	struct nlattr *o = nest(nlh, TCA_OPTIONS);
	struct nlattr *acts = nest(nlh, TCA_FLOWER_ACT);

	act_goto(nlh, 1, TAGGER_TC_CHAIN_PFC);
	mnl_attr_nest_end(nlh, acts);
	mnl_attr_put_u32(nlh, TCA_FLOWER_FLAGS, TCA_CLS_FLAGS_SKIP_HW);
	mnl_attr_nest_end(nlh, o);
	return tc_talk(tc, nlh, NULL, NULL);
}

int flower_nl_install_dirs(struct tc *tc, const struct flower_port *fp,
			   char *const *ifnames, int ifindex, int gen, bool hw,
			   int dirs)
{
	struct install in = { tc, ifindex, ifnames, dirs };
	int err = flower_tc_walk(fp, gen, hw, install_one, &in), d, c;

	for (d = 0; d < 2 && !err && !hw; d++)
		if (has_dir(dirs, d))
			for (c = 0; c < FLOWER_CHAINS && !err; c++)
				if (flower_tc_chain_used(d, c))
					err = handoff(tc, ifindex, d,
						      FLOWER_TC_CHAIN(gen, c));
	return err;
}

int flower_nl_install(struct tc *tc, const struct flower_port *fp,
		      char *const *ifnames, int ifindex, int gen, bool hw)
{
	return flower_nl_install_dirs(tc, fp, ifnames, ifindex, gen, hw,
				      FLOWER_NL_BOTH);
}

int flower_nl_entry(struct tc *tc, int ifindex, int gen, bool egress,
		    bool replace)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];

	return tc_talk(
		tc, flower_nl_entry_msg(tc, buf, ifindex, gen, egress, replace),
		NULL, NULL);
}

static int chain_del(struct tc *tc, int ifindex, bool egress, int chain)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];

	return tc_talk(tc,
		       flower_nl_chain_del_msg(tc, buf, ifindex, egress, chain),
		       NULL, NULL);
}

int flower_nl_chains_del(struct tc *tc, int ifindex, int gen)
{
	int d, c, err = 0;

	for (d = 0; d < 2 && !err; d++)
		for (c = 0; c < FLOWER_CHAINS && !err; c++)
			if (flower_tc_chain_used(d, c))
				err = chain_del(tc, ifindex, d,
						FLOWER_TC_CHAIN(gen, c));
	return err;
}

int flower_nl_gen(int chain)
{
	return chain >= 1 ? (chain - 1) / FLOWER_CHAINS : -1;
}

/* What of tagger's a direction has: its entry filter, its chains. */
struct present {
	bool entry;
	bool chain[FLOWER_TC_CHAIN(2, 0)];
};

static void note(const struct flower_nl_filter *f, void *arg)
{
	struct present *p = arg;

	if (f->chain == 0 && f->pref == FLOWER_TC_ENTRY_PREF &&
	    f->handle == FLOWER_TC_ENTRY_HANDLE && !strcmp(f->kind, "flower"))
		p->entry = true;
	if (f->chain > 0 && f->chain < (int)sizeof(p->chain))
		p->chain[f->chain] = true;
}

static int entry_del(struct tc *tc, int ifindex, bool egress)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh = filter_start(tc, buf, 0, ifindex, egress,
					    FLOWER_TC_ENTRY_HANDLE, 0,
					    FLOWER_TC_ENTRY_PREF, ETH_P_ALL);

	nlh->nlmsg_type = RTM_DELTFILTER;
	return tc_talk(tc, nlh, NULL, NULL);
}

/*
 * Only what a dump shows is deleted: a request for an absent filter or
 * chain fails in ways (ENOENT, EINVAL without clsact) that would also
 * hide a real refusal.
 */
int flower_nl_remove_dirs(struct tc *tc, int ifindex, int dirs)
{
	int d, c, err = 0;

	for (d = 0; d < 2 && !err; d++) {
		struct present p = { 0 };

		if (!has_dir(dirs, d))
			continue;
		err = flower_nl_dump(tc, ifindex, d, note, &p);
		if (!err && p.entry)
			err = entry_del(tc, ifindex, d);
		for (c = 1; c < (int)sizeof(p.chain) && !err; c++)
			if (p.chain[c])
				err = chain_del(tc, ifindex, d, c);
	}
	return err;
}

int flower_nl_remove(struct tc *tc, int ifindex)
{
	return flower_nl_remove_dirs(tc, ifindex, FLOWER_NL_BOTH);
}

int flower_nl_gen_remove_dirs(struct tc *tc, int ifindex, int gen, int dirs)
{
	int d, c, err = 0;

	for (d = 0; d < 2 && !err; d++) {
		struct present p = { 0 };

		if (!has_dir(dirs, d))
			continue;
		err = flower_nl_dump(tc, ifindex, d, note, &p);
		for (c = 1; c < (int)sizeof(p.chain) && !err; c++)
			if (p.chain[c] && flower_nl_gen(c) == gen)
				err = chain_del(tc, ifindex, d, c);
	}
	return err;
}

int flower_nl_gen_remove(struct tc *tc, int ifindex, int gen)
{
	return flower_nl_gen_remove_dirs(tc, ifindex, gen, FLOWER_NL_BOTH);
}

struct dump {
	bool egress;
	flower_nl_cb cb;
	void *arg;
};

static int stats_attr(const struct nlattr *a, void *data)
{
	struct flower_nl_filter *f = data;
	struct gnet_stats_basic b;

	if (mnl_attr_get_type(a) == TCA_STATS_BASIC &&
	    mnl_attr_get_payload_len(a) >= sizeof(b)) {
		memcpy(&b, mnl_attr_get_payload(a), sizeof(b));
		f->bytes = b.bytes;
		f->packets = b.packets;
	}
	return MNL_CB_OK;
}

static int gact_attr(const struct nlattr *a, void *data)
{
	struct flower_nl_filter *f = data;
	struct tc_gact p;

	if (mnl_attr_get_type(a) == TCA_GACT_PARMS &&
	    mnl_attr_get_payload_len(a) >= sizeof(p)) {
		memcpy(&p, mnl_attr_get_payload(a), sizeof(p));
		if (TC_ACT_EXT_CMP(p.action, TC_ACT_GOTO_CHAIN))
			f->goto_chain = p.action & TC_ACT_EXT_VAL_MASK;
	}
	return MNL_CB_OK;
}

/* The kind comes first in an action (tcf_action_dump_1), its options later. */
static int act_attr(const struct nlattr *a, void *data)
{
	struct flower_nl_filter *f = data;

	switch (mnl_attr_get_type(a)) {
	case TCA_ACT_KIND:
		f->gact = !strcmp(mnl_attr_get_str(a), "gact");
		break;
	case TCA_ACT_OPTIONS:
		if (f->gact)
			mnl_attr_parse_nested(a, gact_attr, f);
		break;
	case TCA_ACT_STATS:
		mnl_attr_parse_nested(a, stats_attr, f);
		break;
	}
	return MNL_CB_OK;
}

/* Every action counts the packets its filter matched: the first's. */
static int acts_attr(const struct nlattr *a, void *data)
{
	struct flower_nl_filter *f = data;

	if (f->nact++ == 0)
		mnl_attr_parse_nested(a, act_attr, f);
	return MNL_CB_OK;
}

static int flower_attr(const struct nlattr *a, void *data)
{
	struct flower_nl_filter *f = data;

	if (mnl_attr_get_type(a) == TCA_FLOWER_FLAGS &&
	    mnl_attr_get_payload_len(a) >= sizeof(uint32_t))
		f->flags = mnl_attr_get_u32(a);
	else if (mnl_attr_get_type(a) == TCA_FLOWER_ACT)
		mnl_attr_parse_nested(a, acts_attr, f);
	return MNL_CB_OK;
}

static int filter_attr(const struct nlattr *a, void *data)
{
	const struct nlattr **tb = data;
	int type = mnl_attr_get_type(a);

	if (type <= TCA_MAX)
		tb[type] = a;
	return MNL_CB_OK;
}

static int dump_msg(const struct nlmsghdr *nlh, void *data)
{
	struct dump *d = data;
	const struct tcmsg *tm = mnl_nlmsg_get_payload(nlh);
	const struct nlattr *tb[TCA_MAX + 1] = { 0 };
	struct flower_nl_filter f = { .egress = d->egress, .goto_chain = -1 };

	/* a handle 0 message only says the kind of a pref's filters */
	if (nlh->nlmsg_type != RTM_NEWTFILTER || !tm->tcm_handle)
		return MNL_CB_OK;
	mnl_attr_parse(nlh, sizeof(*tm), filter_attr, tb);
	f.pref = TC_H_MAJ(tm->tcm_info) >> 16;
	f.proto = ntohs(TC_H_MIN(tm->tcm_info));
	f.handle = tm->tcm_handle;
	if (tb[TCA_CHAIN])
		f.chain = mnl_attr_get_u32(tb[TCA_CHAIN]);
	if (tb[TCA_KIND])
		snprintf(f.kind, sizeof(f.kind), "%s",
			 mnl_attr_get_str(tb[TCA_KIND]));
	if (tb[TCA_OPTIONS] && !strcmp(f.kind, "flower"))
		mnl_attr_parse_nested(tb[TCA_OPTIONS], flower_attr, &f);
	d->cb(&f, d->arg);
	return MNL_CB_OK;
}

int flower_nl_dump(struct tc *tc, int ifindex, bool egress, flower_nl_cb cb,
		   void *arg)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh = at_start(tc, buf, RTM_GETTFILTER, NLM_F_DUMP,
					ifindex, egress, 0);
	struct dump d = { egress, cb, arg };

	nlh->nlmsg_flags &= ~NLM_F_ACK;
	return tc_talk(tc, nlh, dump_msg, &d);
}
