// SPDX-License-Identifier: GPL-2.0
/* Rule-set metrics (the paper's evaluation numbers); see stats.h. */
#include <stdlib.h>
#include <string.h>

#include "analyze/stats.h"
#include "lib/json_get.h"
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

json_t *rules_stats_json(const struct rules *r, const struct rules_stats *s)
{
	json_t *per = json_object(), *o;
	int i;

	for (i = 0; i < s->nsw; i++)
		json_object_set_new(per, r->sw[s->per[i].sw].name,
				    json_pack("{s:i,s:i,s:i}", "classify",
					      s->per[i].classify, "rewrite",
					      s->per[i].rewrite, "rules",
					      s->per[i].total));
	o = json_pack("{s:i,s:o,s:i,s:i,s:I,s:I,s:I,s:I,s:i,s:i,s:f,s:i,s:o}",
		      "priorities", s->priorities, "priority_list",
		      prio_list(s->prio_mask), "lossless_tags",
		      s->lossless_tags, "classes", s->classes, "rules",
		      (json_int_t)s->total, "classify_rules",
		      (json_int_t)s->classify, "rewrite_rules",
		      (json_int_t)s->rewrite, "wildcard_rules",
		      (json_int_t)s->wildcard, "switches", s->nsw,
		      "max_switch_rules", s->nsw ? s->per[0].total : 0,
		      "avg_switch_rules", s->avg, "min_switch_rules",
		      s->nsw ? s->per[s->nsw - 1].total : 0, "per_switch", per);
	json_object_set_new(o, "lossy_priority", json_integer(r->lossy_prio));
	json_object_set_new(o, "bottleneck",
			    s->nsw ? json_pack("{s:s,s:i}", "switch",
					       r->sw[s->per[0].sw].name,
					       "rules", s->per[0].total) :
				     json_null());
	return o;
}

/* The longest switch name, at least as wide as the column title. */
static int name_width(const json_t *per)
{
	const char *name;
	json_t *v;
	int w = 6;

	json_object_foreach((json_t *)per, name, v)
		if ((int)strlen(name) > w)
			w = (int)strlen(name);
	return w;
}

static void print_table(FILE *f, const json_t *per, int top)
{
	int w = name_width(per), i = 0, n = (int)json_object_size(per);
	const char *name;
	json_t *v;

	fprintf(f, "\n%-*s %8s %8s %8s\n", w, "switch", "classify", "rewrite",
		"rules");
	json_object_foreach((json_t *)per, name, v) {
		if (top && i++ >= top)
			break;
		fprintf(f, "%-*s %8lld %8lld %8lld\n", w, name,
			jget_int(v, "classify"), jget_int(v, "rewrite"),
			jget_int(v, "rules"));
	}
	if (top && n > top)
		fprintf(f, "... %d more switches\n", n - top);
}

/* The last switch of per_switch: the smallest. */
static const char *smallest(const json_t *per)
{
	const char *name, *last = "";
	json_t *v;

	json_object_foreach((json_t *)per, name, v)
		last = name;
	return last;
}

void rules_stats_print(FILE *f, const json_t *o, int top)
{
	const json_t *per = json_object_get(o, "per_switch"), *p;
	size_t i;

	fprintf(f, "lossless priorities: %lld (", jget_int(o, "priorities"));
	json_array_foreach(json_object_get(o, "priority_list"), i, p)
		fprintf(f, "%s%lld", i ? " " : "", json_integer_value(p));
	fprintf(f, "), lossy priority %lld\n", jget_int(o, "lossy_priority"));
	fprintf(f, "lossless tags: %lld", jget_int(o, "lossless_tags"));
	if (jget_int(o, "classes") > 1)
		fprintf(f, ", %lld classes", jget_int(o, "classes"));
	fprintf(f,
		"\nrules: %lld (classify %lld, rewrite %lld), %lld with wildcards\n",
		jget_int(o, "rules"), jget_int(o, "classify_rules"),
		jget_int(o, "rewrite_rules"), jget_int(o, "wildcard_rules"));
	if (!jget_int(o, "switches"))
		return;
	fprintf(f,
		"per switch: min %lld (%s), avg %.1f, max %lld (%s, the bottleneck)\n",
		jget_int(o, "min_switch_rules"), smallest(per),
		jget_real(o, "avg_switch_rules"),
		jget_int(o, "max_switch_rules"),
		jget_str(json_object_get(o, "bottleneck"), "switch"));
	print_table(f, per, top);
}
