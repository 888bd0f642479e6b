// SPDX-License-Identifier: GPL-2.0
/*
 * The human table of compiled rules, one block per switch, laid out like
 * the paper's tables (Tag | Ingress | Egress | Newtag, then "others ->
 * lossy tag"), with the classification (Ingress | Tag | Priority) first.
 */
#include "compile/compile.h"

static const char *pname(const struct topo *t, int port)
{
	return port == RULE_ANY ? "*" : t->ports[port].name;
}

static void write_switch(FILE *f, const struct topo *t,
			 const struct sw_rules *s, const struct compile_opts *o)
{
	int i;

	fprintf(f, "switch %s: %d classify, %d rewrite\n",
		t->nodes[s->node].name, s->ncls, s->nrw);
	fprintf(f, "  %-10s %5s %9s\n", "Ingress", "Tag", "Priority");
	for (i = 0; i < s->ncls; i++) {
		const struct cls_rule *c = &s->cls[i];

		fprintf(f, "  %-10s %5d %9d%s\n", pname(t, c->in),
			o->dscp[c->tag],
			c->lossless ? o->prios[c->tag] : o->lossy_prio,
			c->lossless ? "" : " (lossy)");
	}
	fprintf(f, "  %-10s %5s %9s\n", "others", "others", "lossy");
	fprintf(f, "  %5s %-10s %-10s %7s\n", "Tag", "Ingress", "Egress",
		"Newtag");
	for (i = 0; i < s->nrw; i++) {
		const struct rw_rule *w = &s->rw[i];

		if (w->new_tag == RULE_LOSSY)
			fprintf(f, "  %5d %-10s %-10s %7d (lossy)\n",
				o->dscp[w->tag], pname(t, w->in),
				pname(t, w->out), o->lossy_dscp);
		else
			fprintf(f, "  %5d %-10s %-10s %7d\n", o->dscp[w->tag],
				pname(t, w->in), pname(t, w->out),
				o->dscp[w->new_tag]);
	}
	fprintf(f, "  %5s %-10s %-10s %7s\n\n", "others", "others", "others",
		"lossy");
}

int rules_write_table(FILE *f, const struct topo *t,
		      const struct compile_result *r,
		      const struct compile_opts *o)
{
	int i;

	fprintf(f, "tags: ");
	for (i = 0; i < r->nlossless; i++)
		fprintf(f, "%s%d->prio %d", i ? ", " : "", o->dscp[i],
			o->prios[i]);
	fprintf(f, "; lossy tag %d -> prio %d\n\n", o->lossy_dscp,
		o->lossy_prio);
	for (i = 0; i < r->nsw; i++)
		write_switch(f, t, &r->sw[i], o);
	return ferror(f) ? -1 : 0;
}
