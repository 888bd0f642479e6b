// SPDX-License-Identifier: GPL-2.0
/*
 * A switch's rules as per-port filter lists (flower_table.h): built from
 * the same lookups the eBPF tables are expanded with (rules_classify and
 * rules_rewrite, most specific rule first), so both data paths answer from
 * one reading of the rules.
 */
#include <errno.h>
#include <stdlib.h>

#include "model/flower_table.h"
#include "tagger_maps.h"

static struct flower_filter *add(struct flower_list *l, int chain)
{
	struct flower_filter *f;

	if (l->n == l->cap) {
		int cap = l->cap ? 2 * l->cap : 16;

		f = realloc(l->f, cap * sizeof(*f));
		if (!f)
			return NULL;
		l->f = f;
		l->cap = cap;
	}
	f = &l->f[l->n++];
	*f = (struct flower_filter){ .chain = chain,
				     .dscp = FLOWER_ANY,
				     .indev = FLOWER_ANY,
				     .new_dscp = -1,
				     .reason = FLOWER_NO_REASON };
	return f;
}

/* A lossy filter of chain: match dscp (or any), write new_dscp (or keep). */
static int lossy(struct flower_list *l, const struct rules *r, int chain,
		 int dscp, int new_dscp, int reason)
{
	struct flower_filter *f = add(l, chain);

	if (!f)
		return -ENOMEM;
	f->act = FLOWER_LOSSY;
	f->dscp = dscp;
	f->new_dscp = new_dscp;
	f->prio = r->lossy_prio;
	f->reason = reason;
	return 0;
}

/* Packets behind two VLAN tags: lossy, their DSCP kept (flower_table.h). */
static int qinq(struct flower_list *l, const struct rules *r, int reason)
{
	if (lossy(l, r, FLOWER_MAIN, FLOWER_ANY, -1, reason))
		return -ENOMEM;
	l->f[l->n - 1].qinq = true;
	return 0;
}

static int go_to(struct flower_list *l, int chain, int indev, bool group,
		 int to)
{
	struct flower_filter *f = add(l, chain);

	if (!f)
		return -ENOMEM;
	f->act = FLOWER_GOTO;
	f->goto_chain = to;
	f->indev = indev;
	f->group = group;
	return 0;
}

static bool lossless_at(const struct rules *r, int sw, int in, int tag)
{
	return rules_classify(r, sw, in, tag, NULL) != RULES_LOSSY;
}

/* The tail both ingress chains end with: the lossy tag, then the rest. */
static int ingress_tail(struct flower_list *l, const struct rules *r, int chain)
{
	if (lossy(l, r, chain, r->lossy_tag, -1, FLOWER_NO_REASON))
		return -ENOMEM;
	return lossy(l, r, chain, FLOWER_ANY, r->lossy_tag,
		     TAGGER_LOSSY_NO_CLASSIFY);
}

static int ingress(const struct rules *r, int sw, int in, struct flower_list *l)
{
	struct flower_filter *f;
	int tag, prio;

	if (qinq(l, r, TAGGER_LOSSY_BAD_HEADER) ||
	    go_to(l, FLOWER_MAIN, FLOWER_ANY, true, FLOWER_GROUP))
		return -ENOMEM;
	for (tag = 0; tag < RULES_NTAGS; tag++) {
		prio = rules_classify(r, sw, in, tag, NULL);
		if (prio == RULES_LOSSY)
			continue;
		f = add(l, FLOWER_MAIN);
		if (!f)
			return -ENOMEM;
		f->act = FLOWER_LOSSLESS;
		f->dscp = tag;
		f->prio = prio;
	}
	if (ingress_tail(l, r, FLOWER_MAIN))
		return -ENOMEM;
	for (tag = 0; tag < RULES_NTAGS; tag++)
		if (lossless_at(r, sw, in, tag) &&
		    lossy(l, r, FLOWER_GROUP, tag, r->lossy_tag,
			  TAGGER_LOSSY_MULTICAST))
			return -ENOMEM;
	return ingress_tail(l, r, FLOWER_GROUP);
}

/* What egress does with (in, tag): -2 nothing (falls through), else a tag. */
static int answer(const struct rules *r, int sw, int in, int tag, int out)
{
	int rule, nt;

	if (!lossless_at(r, sw, in, tag))
		return -2;
	nt = rules_rewrite(r, sw, tag, in, out, &rule);
	if (nt == RULES_LOSSY && rule < 0)
		return -2;
	return nt;
}

static int rewrite_filter(struct flower_list *l, const struct rules *r,
			  int indev, int tag, int nt)
{
	struct flower_filter *f;

	if (nt == RULES_LOSSY) {
		if (lossy(l, r, FLOWER_REWRITE, tag, r->lossy_tag,
			  TAGGER_LOSSY_REWRITE))
			return -ENOMEM;
		l->f[l->n - 1].indev = indev;
		return 0;
	}
	f = add(l, FLOWER_REWRITE);
	if (!f)
		return -ENOMEM;
	f->act = FLOWER_LOSSLESS;
	f->indev = indev;
	f->dscp = tag;
	f->new_dscp = nt;
	f->prio = rules_tag_prio(r, nt);
	return 0;
}

/*
 * One tag's rewrite filters at out: a single one without indev when every
 * port answers alike (a wildcard's masked match), else one per in-port.
 */
static int rewrite_tag(const struct rules *r, int sw, int out, int tag,
		       struct flower_list *l)
{
	int nports = r->sw[sw].nports, in, first, nt;
	bool alike = true;

	if (!nports)
		return 0;
	first = answer(r, sw, 0, tag, out);
	for (in = 1; in < nports && alike; in++)
		alike = answer(r, sw, in, tag, out) == first;
	if (alike) {
		if (first == -2)
			return 0;
		return rewrite_filter(l, r, FLOWER_ANY, tag, first);
	}
	for (in = 0; in < nports; in++) {
		nt = answer(r, sw, in, tag, out);
		if (nt != -2 && rewrite_filter(l, r, in, tag, nt))
			return -ENOMEM;
	}
	return 0;
}

static int egress(const struct rules *r, int sw, int out, struct flower_list *l)
{
	int p, tag;

	if (qinq(l, r, FLOWER_NO_REASON))
		return -ENOMEM;
	for (p = 0; p < r->sw[sw].nports; p++)
		if (go_to(l, FLOWER_MAIN, p, false, FLOWER_REWRITE))
			return -ENOMEM;
	if (lossy(l, r, FLOWER_MAIN, FLOWER_ANY, r->lossy_tag,
		  TAGGER_LOSSY_UNCLASSIFIED))
		return -ENOMEM;
	/*
	 * Ingress already gave group-addressed packets the lossy tag; an ASIC
	 * whose egress stage matches the DSCP as it arrived must not rewrite
	 * them to a lossless one either.
	 */
	if (lossy(l, r, FLOWER_REWRITE, FLOWER_ANY, r->lossy_tag,
		  FLOWER_NO_REASON))
		return -ENOMEM;
	l->f[l->n - 1].group = true;
	for (tag = 0; tag < RULES_NTAGS; tag++)
		if (tag != r->lossy_tag && rewrite_tag(r, sw, out, tag, l))
			return -ENOMEM;
	if (lossy(l, r, FLOWER_REWRITE, r->lossy_tag, -1, FLOWER_NO_REASON))
		return -ENOMEM;
	return lossy(l, r, FLOWER_REWRITE, FLOWER_ANY, r->lossy_tag,
		     TAGGER_LOSSY_NO_REWRITE);
}

int flower_port_build(const struct rules *r, int sw, int port,
		      struct flower_port *fp)
{
	*fp = (struct flower_port){ 0 };
	if (ingress(r, sw, port, &fp->in) || egress(r, sw, port, &fp->out)) {
		flower_port_free(fp);
		return -ENOMEM;
	}
	return 0;
}

void flower_port_free(struct flower_port *fp)
{
	free(fp->in.f);
	free(fp->out.f);
	*fp = (struct flower_port){ 0 };
}

static bool matches(const struct flower_filter *f, const struct flower_pkt *p)
{
	if (f->qinq != p->qinq)
		return false;
	if (f->group && !p->group)
		return false;
	if (f->dscp != FLOWER_ANY && f->dscp != p->dscp)
		return false;
	return f->indev == FLOWER_ANY || f->indev == p->indev;
}

int flower_eval(const struct flower_list *l, const struct flower_pkt *pkt,
		struct flower_verdict *v)
{
	int chain = FLOWER_MAIN, i, hops = 0;

	if (!pkt->ip)
		return -1;
	for (i = 0; i < l->n; i++) {
		const struct flower_filter *f = &l->f[i];

		if (f->chain != chain || !matches(f, pkt))
			continue;
		if (f->act == FLOWER_GOTO) {
			/* Chains only go forward (tc refuses loops, too). */
			if (++hops >= FLOWER_CHAINS || f->goto_chain <= chain)
				return -1;
			chain = f->goto_chain;
			i = -1;
			continue;
		}
		v->act = f->act;
		v->prio = f->prio;
		v->dscp = f->new_dscp >= 0 ? f->new_dscp : pkt->dscp;
		v->reason = f->reason;
		return i;
	}
	return -1;
}

/* tc filters for one logical filter. */
static long entries(const struct flower_filter *f)
{
	long ip = FLOWER_FAMILIES * FLOWER_ENCAPS;

	if (f->qinq)
		return 1; /* protocol 802.1ad, no key */

	/* An Ethernet group match needs no IP key unless it rewrites. */
	if (f->group && f->act == FLOWER_GOTO)
		return 1 + (FLOWER_GROUP_KEYS - 1) * FLOWER_ENCAPS;
	if (f->group)
		return ip + (FLOWER_GROUP_KEYS - 1) * FLOWER_ENCAPS;
	if (f->act == FLOWER_GOTO)
		return 1; /* indev alone: one filter for every protocol */
	return ip;
}

long flower_list_entries(const struct flower_list *l)
{
	long n = 0;
	int i;

	for (i = 0; i < l->n; i++)
		n += entries(&l->f[i]);
	return n;
}
