// SPDX-License-Identifier: GPL-2.0
/* Rule-set metrics (the paper's evaluation numbers); see stats.h. */
#include <stdlib.h>
#include <string.h>

#include "analyze/stats.h"
#include "lib/util.h"

static const struct rules *sort_rules;

/* Biggest switch first; ties by name so the output is stable. */
static int by_total(const void *a, const void *b)
{
	const struct switch_stats *x = a, *y = b;

	if (x->total != y->total)
		return x->total < y->total ? 1 : -1;
	return strcmp(sort_rules->sw[x->sw].name, sort_rules->sw[y->sw].name);
}

void rules_stats(const struct rules *r, struct rules_stats *s)
{
	int i, k;

	memset(s, 0, sizeof(*s));
	s->lossy_prio = r->lossy_prio;
	s->lossless_tags = r->ntags;
	s->classes = r->nclasses;
	s->nsw = r->nsw;
	s->per = xcalloc(r->nsw + 1, sizeof(*s->per));
	/* Egress queues (tag priorities) and ingress queues (classify answers). */
	for (i = 0; i < r->ntags; i++)
		s->prio_mask |= 1u << r->tags[i].prio;
	for (i = 0; i < r->nsw; i++) {
		const struct rules_switch *rs = &r->sw[i];
		struct switch_stats *p = &s->per[i];

		for (k = 0; k < rs->nclassify; k++) {
			if (rs->classify[k].prio != r->lossy_prio)
				s->prio_mask |= 1u << rs->classify[k].prio;
			s->wildcard += rs->classify[k].in == RULES_ANY;
		}
		for (k = 0; k < rs->nrewrite; k++)
			s->wildcard += rs->rewrite[k].in == RULES_ANY ||
				       rs->rewrite[k].out == RULES_ANY;
		p->sw = i;
		p->name = rs->name;
		p->classify = rs->nclassify;
		p->rewrite = rs->nrewrite;
		p->total = rs->nclassify + rs->nrewrite;
		s->classify += p->classify;
		s->rewrite += p->rewrite;
	}
	s->total = s->classify + s->rewrite;
	s->priorities = __builtin_popcount(s->prio_mask);
	s->avg = r->nsw ? (double)s->total / r->nsw : 0;
	sort_rules = r;
	qsort(s->per, r->nsw, sizeof(*s->per), by_total);
}

void rules_stats_free(struct rules_stats *s)
{
	free(s->per);
	memset(s, 0, sizeof(*s));
}

static json_t *prio_list(uint8_t mask)
{
	json_t *a = json_array();
	int p;

	for (p = 0; p < RULES_NPRIOS; p++)
		if (mask & (1u << p))
			json_array_append_new(a, json_integer(p));
	return a;
}

/* The biggest switch, or NULL if there is none. */
static const struct switch_stats *biggest(const struct rules_stats *s)
{
	return s->nsw ? &s->per[0] : NULL;
}

static const struct switch_stats *smallest(const struct rules_stats *s)
{
	return s->nsw ? &s->per[s->nsw - 1] : NULL;
}

static json_t *per_switch(const struct rules_stats *s)
{
	json_t *per = json_object();
	int i;

	for (i = 0; i < s->nsw; i++)
		json_object_set_new(per, s->per[i].name,
				    json_pack("{s:i,s:i,s:i}", "classify",
					      s->per[i].classify, "rewrite",
					      s->per[i].rewrite, "rules",
					      s->per[i].total));
	return per;
}

json_t *rules_stats_json(const struct rules_stats *s)
{
	const struct switch_stats *max = biggest(s), *min = smallest(s);
	json_t *o = json_object();

	json_object_set_new(o, "priorities", json_integer(s->priorities));
	json_object_set_new(o, "priority_list", prio_list(s->prio_mask));
	json_object_set_new(o, "lossless_tags", json_integer(s->lossless_tags));
	json_object_set_new(o, "classes", json_integer(s->classes));
	json_object_set_new(o, "rules", json_integer(s->total));
	json_object_set_new(o, "classify_rules", json_integer(s->classify));
	json_object_set_new(o, "rewrite_rules", json_integer(s->rewrite));
	json_object_set_new(o, "wildcard_rules", json_integer(s->wildcard));
	json_object_set_new(o, "switches", json_integer(s->nsw));
	json_object_set_new(o, "max_switch_rules",
			    json_integer(max ? max->total : 0));
	json_object_set_new(o, "avg_switch_rules", json_real(s->avg));
	json_object_set_new(o, "min_switch_rules",
			    json_integer(min ? min->total : 0));
	json_object_set_new(o, "per_switch", per_switch(s));
	json_object_set_new(o, "lossy_priority", json_integer(s->lossy_prio));
	json_object_set_new(o, "bottleneck",
			    max ? json_pack("{s:s,s:i}", "switch", max->name,
					    "rules", max->total) :
				  json_null());
	return o;
}

/* The longest switch name, at least as wide as the column title. */
static int name_width(const struct rules_stats *s)
{
	int w = 6, i;

	for (i = 0; i < s->nsw; i++)
		if ((int)strlen(s->per[i].name) > w)
			w = (int)strlen(s->per[i].name);
	return w;
}

static void print_table(FILE *f, const struct rules_stats *s, int top)
{
	int w = name_width(s), i;

	fprintf(f, "\n%-*s %8s %8s %8s\n", w, "switch", "classify", "rewrite",
		"rules");
	for (i = 0; i < s->nsw && (!top || i < top); i++)
		fprintf(f, "%-*s %8d %8d %8d\n", w, s->per[i].name,
			s->per[i].classify, s->per[i].rewrite, s->per[i].total);
	if (top && s->nsw > top)
		fprintf(f, "... %d more switches\n", s->nsw - top);
}

void rules_stats_print(FILE *f, const struct rules_stats *s, int top)
{
	const struct switch_stats *max = biggest(s), *min = smallest(s);
	int p, n = 0;

	fprintf(f, "lossless priorities: %d (", s->priorities);
	for (p = 0; p < RULES_NPRIOS; p++)
		if (s->prio_mask & (1u << p))
			fprintf(f, "%s%d", n++ ? " " : "", p);
	fprintf(f, "), lossy priority %d\n", s->lossy_prio);
	fprintf(f, "lossless tags: %d", s->lossless_tags);
	if (s->classes > 1)
		fprintf(f, ", %d classes", s->classes);
	fprintf(f,
		"\nrules: %lld (classify %lld, rewrite %lld), %lld with wildcards\n",
		(long long)s->total, (long long)s->classify,
		(long long)s->rewrite, (long long)s->wildcard);
	if (!max)
		return;
	fprintf(f,
		"per switch: min %d (%s), avg %.1f, max %d (%s, the bottleneck)\n",
		min->total, min->name, s->avg, max->total, max->name);
	print_table(f, s, top);
}
