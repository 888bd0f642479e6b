// SPDX-License-Identifier: GPL-2.0
/*
 * Flower lists as tc filters (flower_tc.h): the walk, and the batch lines
 * made of it. The words are iproute2's tc-flower(8), tc-pedit(8),
 * tc-skbedit(8) and tc-csum(8).
 */
#include <errno.h>
#include <linux/if_ether.h>

#include "dataplane/flower_tc.h"
#include "tagger_skb.h"

/*
 * A filter's protocol and, after "flower", the keys that reach the IP
 * header behind VLAN tags, per encapsulation and family (0 IPv4, 1 IPv6).
 */
static const char *const protos[FLOWER_ENCAPS] = { NULL, "802.1q" };
static const char *const encaps[FLOWER_ENCAPS][FLOWER_FAMILIES] = {
	{ "ip", "ipv6" },
	{ "vlan_ethtype ip", "vlan_ethtype ipv6" },
};
static const int fam_proto[FLOWER_FAMILIES] = { ETH_P_IP, ETH_P_IPV6 };

/* Group addresses by family: IPv4 has two, IPv6 one, Ethernet one. */
static const char *const keys[] = {
	[FLOWER_TC_KEY_NONE] = NULL,
	[FLOWER_TC_KEY_GROUP_ETH] =
		"dst_mac 01:00:00:00:00:00/01:00:00:00:00:00",
	[FLOWER_TC_KEY_GROUP_IP4] = "dst_ip 224.0.0.0/4",
	[FLOWER_TC_KEY_BCAST_IP4] = "dst_ip 255.255.255.255",
	[FLOWER_TC_KEY_GROUP_IP6] = "dst_ip ff00::/8",
};

struct walk {
	struct flower_tc_filter t;
	flower_tc_cb cb;
	void *arg;
};

/*
 * The next tc filter: encapsulation e of family fam (e < 0: any protocol,
 * or with fl->qinq, 802.1ad), group key key.
 */
static int next(struct walk *w, int e, int fam, int key)
{
	int err;

	if (w->t.pref > FLOWER_TC_MAX_PREF)
		return -E2BIG;
	w->t.encap = e;
	w->t.fam = fam;
	w->t.key = key;
	w->t.goto_chain = w->t.chain - w->t.fl->chain + w->t.fl->goto_chain;
	err = w->cb(&w->t, w->arg);
	w->t.pref++;
	return err;
}

/* The group-address keys of a filter, each family and encapsulation. */
static int group_filters(struct walk *w)
{
	const struct flower_filter *fl = w->t.fl;
	int e, fam, err = 0;

	if (fl->act == FLOWER_GOTO && fl->dscp == FLOWER_ANY)
		err = next(w, -1, -1, FLOWER_TC_KEY_GROUP_ETH);
	for (e = 0; e < FLOWER_ENCAPS && !err; e++) {
		for (fam = 0;
		     fam < FLOWER_FAMILIES && fl->act != FLOWER_GOTO && !err;
		     fam++)
			err = next(w, e, fam, FLOWER_TC_KEY_GROUP_ETH);
		if (!err)
			err = next(w, e, 0, FLOWER_TC_KEY_GROUP_IP4);
		if (!err)
			err = next(w, e, 0, FLOWER_TC_KEY_BCAST_IP4);
		if (!err)
			err = next(w, e, 1, FLOWER_TC_KEY_GROUP_IP6);
	}
	return err;
}

static int filters(struct walk *w)
{
	const struct flower_filter *fl = w->t.fl;
	int e, fam, err = 0;

	if (fl->group)
		return group_filters(w);
	if (fl->qinq || (fl->act == FLOWER_GOTO && fl->dscp == FLOWER_ANY))
		return next(w, -1, -1, FLOWER_TC_KEY_NONE);
	for (e = 0; e < FLOWER_ENCAPS && !err; e++)
		for (fam = 0; fam < FLOWER_FAMILIES && !err; fam++)
			err = next(w, e, fam, FLOWER_TC_KEY_NONE);
	return err;
}

static int list_walk(struct walk *w, const struct flower_list *l, int gen)
{
	int c, i, err;

	for (c = 0; c < FLOWER_CHAINS; c++) {
		w->t.chain = FLOWER_TC_CHAIN(gen, c);
		w->t.pref = 1;
		for (i = 0; i < l->n; i++) {
			if (l->f[i].chain != c)
				continue;
			w->t.fl = &l->f[i];
			w->t.index = i;
			err = filters(w);
			if (err)
				return err;
		}
	}
	return 0;
}

int flower_tc_walk(const struct flower_port *fp, int gen, bool hw,
		   flower_tc_cb cb, void *arg)
{
	struct walk w = { .t = { .hw = hw }, .cb = cb, .arg = arg };
	int err = list_walk(&w, &fp->in, gen);

	if (!err) {
		w.t.egress = true;
		err = list_walk(&w, &fp->out, gen);
	}
	return err;
}

int flower_tc_proto(const struct flower_tc_filter *t)
{
	if (t->encap < 0)
		return t->fl->qinq ? ETH_P_8021AD : ETH_P_ALL;
	return t->encap ? ETH_P_8021Q : fam_proto[t->fam];
}

int flower_tc_vlan_proto(const struct flower_tc_filter *t)
{
	return t->encap > 0 ? fam_proto[t->fam] : 0;
}

struct origin {
	bool egress;
	int chain, pref;
};

static int origin_of(const struct flower_tc_filter *t, void *arg)
{
	const struct origin *o = arg;

	if (t->egress == o->egress && t->chain == o->chain &&
	    t->pref == o->pref)
		return 1 + t->index;
	return 0;
}

int flower_tc_origin(const struct flower_port *fp, int gen, bool egress,
		     int chain, int pref)
{
	struct origin o = { egress, chain, pref };
	int r = flower_tc_walk(fp, gen, false, origin_of, &o);

	return r > 0 ? r - 1 : -1;
}

struct out {
	FILE *f;
	const char *dev;
	char *const *ifnames;
};

static const char *proto_word(const struct flower_tc_filter *t)
{
	if (t->encap >= 0)
		return protos[t->encap] ? protos[t->encap] :
					  encaps[t->encap][t->fam];
	return t->fl->qinq ? "802.1ad" : "all";
}

static void actions(struct out *o, const struct flower_tc_filter *t)
{
	const struct flower_filter *fl = t->fl;

	if (fl->act == FLOWER_GOTO) {
		fprintf(o->f, " action goto chain %d", t->goto_chain);
		return;
	}
	if (fl->new_dscp >= 0 && t->fam == 0)
		fprintf(o->f,
			" action pedit ex munge ip dsfield set 0x%02x retain 0xfc pipe",
			fl->new_dscp << 2);
	if (fl->new_dscp >= 0 && t->fam == 1)
		fprintf(o->f,
			" action pedit ex munge ip6 traffic_class set 0x%02x retain 0xfc pipe",
			fl->new_dscp << 2);
	if (fl->new_dscp >= 0 && t->fam == 0 && !t->hw)
		fprintf(o->f, " action csum ip4h pipe");
	fprintf(o->f, " action skbedit priority %u", fl->prio);
	/* The mark carries the ingress verdict; egress leaves it alone. */
	if (!t->hw && !t->egress)
		fprintf(o->f, " mark 0x%08x/0x%08x",
			TAGGER_MARK(fl->act == FLOWER_LOSSLESS, fl->prio),
			TAGGER_MARK_VALID | TAGGER_MARK_LOSSLESS |
				TAGGER_MARK_PRIO_MASK);
	if (t->hw)
		fprintf(o->f, " pass");
	else
		fprintf(o->f, " goto chain %d", TAGGER_TC_CHAIN_PFC);
}

static int line(const struct flower_tc_filter *t, void *arg)
{
	struct out *o = arg;
	const struct flower_filter *fl = t->fl;

	fprintf(o->f,
		"filter add dev %s %s chain %d pref %d protocol %s flower %s",
		o->dev, t->egress ? "egress" : "ingress", t->chain, t->pref,
		proto_word(t), t->hw ? "skip_sw" : "skip_hw");
	if (t->encap > 0)
		fprintf(o->f, " %s", encaps[t->encap][t->fam]);
	if (fl->indev != FLOWER_ANY)
		fprintf(o->f, " indev %s", o->ifnames[fl->indev]);
	if (keys[t->key])
		fprintf(o->f, " %s", keys[t->key]);
	if (fl->dscp != FLOWER_ANY)
		fprintf(o->f, " ip_tos 0x%02x/0xfc", fl->dscp << 2);
	actions(o, t);
	fputc('\n', o->f);
	return 0;
}

int flower_tc_write(FILE *f, const struct flower_port *fp, char *const *ifnames,
		    int port, int gen, bool hw)
{
	struct out o = { .f = f, .dev = ifnames[port], .ifnames = ifnames };
	int err = flower_tc_walk(fp, gen, hw, line, &o), d, c;

	for (d = 0; d < 2 && !err && !hw; d++)
		for (c = 0; c < FLOWER_CHAINS; c++)
			if (flower_tc_chain_used(d, c))
				fprintf(f,
					"filter add dev %s %s chain %d pref %d protocol all flower skip_hw action goto chain %d\n",
					o.dev, d ? "egress" : "ingress",
					FLOWER_TC_CHAIN(gen, c),
					FLOWER_TC_HANDOFF_PREF,
					TAGGER_TC_CHAIN_PFC);

	if (!err && ferror(f))
		err = -EIO;
	return err;
}
bool flower_tc_chain_used(bool egress, int c)
{
	return c == FLOWER_MAIN ||
	       c == (egress ? FLOWER_REWRITE : FLOWER_GROUP);
}

int flower_tc_chain_entry(FILE *f, const char *ifname, int gen, bool egress,
			  bool replace)
{
	/* A handle, so that replace finds the filter instead of adding one. */
	fprintf(f,
		"filter %s dev %s %s chain 0 pref %d handle 1 protocol all flower action goto chain %d\n",
		replace ? "replace" : "add", ifname,
		egress ? "egress" : "ingress", FLOWER_TC_ENTRY_PREF,
		FLOWER_TC_CHAIN(gen, FLOWER_MAIN));
	return ferror(f) ? -EIO : 0;
}

int flower_tc_handoffs(bool egress, bool hw)
{
	int c, n = 0;

	for (c = 0; c < FLOWER_CHAINS && !hw; c++)
		n += flower_tc_chain_used(egress, c);
	return n;
}
