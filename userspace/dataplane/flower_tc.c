// SPDX-License-Identifier: GPL-2.0
/*
 * Flower lists as tc batch lines (flower_tc.h). The words are iproute2's
 * tc-flower(8), tc-pedit(8), tc-skbedit(8) and tc-csum(8).
 */
#include <errno.h>

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

/* Group addresses by family: IPv4 has two, IPv6 one, Ethernet one. */
static const char *const group_ip4[] = { "dst_ip 224.0.0.0/4",
					 "dst_ip 255.255.255.255" };
#define GROUP_ETH "dst_mac 01:00:00:00:00:00/01:00:00:00:00:00"
#define GROUP_IP6 "dst_ip ff00::/8"

struct out {
	FILE *f;
	const char *dev;
	const char *dir;
	bool egress;
	int chain;
	int pref;
	bool hw;
	char *const *ifnames;
};

static void actions(struct out *o, const struct flower_filter *fl, int fam)
{
	if (fl->act == FLOWER_GOTO) {
		fprintf(o->f, " action goto chain %d",
			o->chain - fl->chain + fl->goto_chain);
		return;
	}
	if (fl->new_dscp >= 0 && fam == 0)
		fprintf(o->f,
			" action pedit ex munge ip dsfield set 0x%02x retain 0xfc pipe",
			fl->new_dscp << 2);
	if (fl->new_dscp >= 0 && fam == 1)
		fprintf(o->f,
			" action pedit ex munge ip6 traffic_class set 0x%02x retain 0xfc pipe",
			fl->new_dscp << 2);
	if (fl->new_dscp >= 0 && fam == 0 && !o->hw)
		fprintf(o->f, " action csum ip4h pipe");
	fprintf(o->f, " action skbedit priority %u", fl->prio);
	/* The mark carries the ingress verdict; egress leaves it alone. */
	if (!o->hw && !o->egress)
		fprintf(o->f, " mark 0x%08x/0x%08x",
			TAGGER_MARK(fl->act == FLOWER_LOSSLESS, fl->prio),
			TAGGER_MARK_VALID | TAGGER_MARK_LOSSLESS |
				TAGGER_MARK_PRIO_MASK);
	fprintf(o->f, " pass");
}

static const char *proto_of(const struct flower_filter *fl, int e, int fam)
{
	if (e >= 0)
		return protos[e] ? protos[e] : encaps[e][fam];
	return fl->qinq ? "802.1ad" : "all";
}

/*
 * One tc filter: encapsulation e of family fam (e < 0: any protocol, or
 * with fl->qinq, 802.1ad).
 */
static int line(struct out *o, const struct flower_filter *fl, int e, int fam,
		const char *key)
{
	if (o->pref > FLOWER_TC_MAX_PREF)
		return -E2BIG;
	fprintf(o->f,
		"filter add dev %s %s chain %d pref %d protocol %s flower %s",
		o->dev, o->dir, o->chain, o->pref++, proto_of(fl, e, fam),
		o->hw ? "skip_sw" : "skip_hw");
	if (e > 0)
		fprintf(o->f, " %s", encaps[e][fam]);
	if (fl->indev != FLOWER_ANY)
		fprintf(o->f, " indev %s", o->ifnames[fl->indev]);
	if (key)
		fprintf(o->f, " %s", key);
	if (fl->dscp != FLOWER_ANY)
		fprintf(o->f, " ip_tos 0x%02x/0xfc", fl->dscp << 2);
	actions(o, fl, fam);
	fputc('\n', o->f);
	return 0;
}

/* The group-address keys of a filter, each family and encapsulation. */
static int group_lines(struct out *o, const struct flower_filter *fl)
{
	int e, k, fam, err = 0;

	if (fl->act == FLOWER_GOTO && fl->dscp == FLOWER_ANY)
		err = line(o, fl, -1, -1, GROUP_ETH);
	for (e = 0; e < FLOWER_ENCAPS && !err; e++) {
		for (fam = 0;
		     fam < FLOWER_FAMILIES && fl->act != FLOWER_GOTO && !err;
		     fam++)
			err = line(o, fl, e, fam, GROUP_ETH);
		for (k = 0; k < 2 && !err; k++)
			err = line(o, fl, e, 0, group_ip4[k]);
		if (!err)
			err = line(o, fl, e, 1, GROUP_IP6);
	}
	return err;
}

static int filter_lines(struct out *o, const struct flower_filter *fl)
{
	int e, fam, err = 0;

	if (fl->group)
		return group_lines(o, fl);
	if (fl->qinq)
		return line(o, fl, -1, -1, NULL);
	if (fl->act == FLOWER_GOTO && fl->dscp == FLOWER_ANY)
		return line(o, fl, -1, -1, NULL);
	for (e = 0; e < FLOWER_ENCAPS && !err; e++)
		for (fam = 0; fam < FLOWER_FAMILIES && !err; fam++)
			err = line(o, fl, e, fam, NULL);
	return err;
}

static int list_lines(struct out *o, const struct flower_list *l, int gen)
{
	int c, i, err;

	for (c = 0; c < FLOWER_CHAINS; c++) {
		o->chain = FLOWER_TC_CHAIN(gen, c);
		o->pref = 1;
		for (i = 0; i < l->n; i++) {
			if (l->f[i].chain != c)
				continue;
			err = filter_lines(o, &l->f[i]);
			if (err)
				return err;
		}
	}
	return 0;
}

int flower_tc_write(FILE *f, const struct flower_port *fp, char *const *ifnames,
		    int port, int gen, bool hw)
{
	struct out o = {
		.f = f, .dev = ifnames[port], .hw = hw, .ifnames = ifnames
	};
	int err;

	o.dir = "ingress";
	err = list_lines(&o, &fp->in, gen);
	if (!err) {
		o.dir = "egress";
		o.egress = true;
		err = list_lines(&o, &fp->out, gen);
	}
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
