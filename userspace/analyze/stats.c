// SPDX-License-Identifier: GPL-2.0
/* Rule-set metrics (the paper's evaluation numbers); see stats.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/stats.h"
#include "model/flower_share.h"
#include "model/flower_table.h"
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

/*
 * A switch's flower filters with --shared-blocks (model/flower_share.h):
 * each block's once, the first port keeping its own as attach does.
 */
static void flower_shared(struct switch_stats *p, const struct flower_port *fp,
			  int n)
{
	int *rep = xcalloc(n + 1, sizeof(*rep)), d;

	p->flower_shared = 0;
	p->flower_blocks = 0;
	for (d = 0; d < 2; d++) {
		p->flower_blocks += flower_share(fp, n, d, 1, rep);
		p->flower_shared += flower_share_entries(fp, n, d, rep);
	}
	free(rep);
}

/* One switch's flower filters: all ports, and the largest port's. */
static int flower_switch(const struct rules *r, struct switch_stats *p,
			 int *big_port)
{
	int n = r->sw[p->sw].nports, port, err = 0;
	struct flower_port *fp = xcalloc(n + 1, sizeof(*fp));
	long e;

	p->flower = 0;
	p->flower_port = 0;
	*big_port = -1;
	for (port = 0; port < n && !err; port++) {
		if (flower_port_build(r, p->sw, port, &fp[port])) {
			err = -ENOMEM;
			break;
		}
		e = flower_list_entries(&fp[port].in) +
		    flower_list_entries(&fp[port].out);
		p->flower += e;
		if (*big_port < 0 || e > p->flower_port) {
			p->flower_port = e;
			*big_port = port;
		}
	}
	if (!err)
		flower_shared(p, fp, n);
	for (port = 0; port < n; port++)
		flower_port_free(&fp[port]);
	free(fp);
	return err;
}

int rules_stats_flower(const struct rules *r, struct rules_stats *s)
{
	int i, port;

	s->flower_total = 0;
	s->flower_shared_total = 0;
	s->flower_blocks = 0;
	for (i = 0; i < s->nsw; i++) {
		struct switch_stats *p = &s->per[i];

		if (flower_switch(r, p, &port))
			return -ENOMEM;
		s->flower_total += p->flower;
		s->flower_shared_total += p->flower_shared;
		s->flower_blocks += p->flower_blocks;
		if (!i || p->flower_shared > s->flower_shared_max)
			s->flower_shared_max = p->flower_shared;
		/* Ties go to the first in the table (biggest, then by name). */
		if (!i || p->flower > s->flower_max) {
			s->flower_max = p->flower;
			s->flower_max_name = p->name;
		}
		if (!i || p->flower < s->flower_min) {
			s->flower_min = p->flower;
			s->flower_min_name = p->name;
		}
		if (port >= 0 && (!s->flower_port_name ||
				  p->flower_port > s->flower_port_max)) {
			s->flower_port_max = p->flower_port;
			s->flower_port_sw = p->name;
			s->flower_port_name = r->sw[p->sw].ports[port];
		}
	}
	s->flower_avg = s->nsw ? (double)s->flower_total / s->nsw : 0;
	s->flower = true;
	return 0;
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
	json_t *o;
	int i;

	for (i = 0; i < s->nsw; i++) {
		o = json_pack("{s:i,s:i,s:i}", "classify", s->per[i].classify,
			      "rewrite", s->per[i].rewrite, "rules",
			      s->per[i].total);
		if (s->flower) {
			json_object_set_new(o, "flower_filters",
					    json_integer(s->per[i].flower));
			json_object_set_new(
				o, "flower_max_port_filters",
				json_integer(s->per[i].flower_port));
			if (s->shared)
				json_object_set_new(
					o, "flower_shared_filters",
					json_integer(s->per[i].flower_shared));
		}
		json_object_set_new(per, s->per[i].name, o);
	}
	return per;
}

/* --datapath flower: the tc flower filters (rules_stats_flower). */
static json_t *flower_json(const struct rules_stats *s)
{
	json_t *o = json_object();

	json_object_set_new(o, "filters", json_integer(s->flower_total));
	json_object_set_new(o, "filters_per_ip_rule",
			    json_integer(FLOWER_FAMILIES * FLOWER_ENCAPS));
	json_object_set_new(o, "max_switch_filters",
			    json_integer(s->flower_max));
	json_object_set_new(o, "avg_switch_filters", json_real(s->flower_avg));
	json_object_set_new(o, "min_switch_filters",
			    json_integer(s->flower_min));
	json_object_set_new(o, "bottleneck",
			    s->nsw ? json_pack("{s:s,s:I}", "switch",
					       s->flower_max_name, "filters",
					       (json_int_t)s->flower_max) :
				     json_null());
	json_object_set_new(o, "max_port",
			    s->flower_port_name ?
				    json_pack("{s:s,s:s,s:I}", "switch",
					      s->flower_port_sw, "port",
					      s->flower_port_name, "filters",
					      (json_int_t)s->flower_port_max) :
				    json_null());
	if (s->shared)
		json_object_set_new(
			o, "shared_blocks",
			json_pack("{s:I,s:I,s:I,s:I}", "filters",
				  (json_int_t)s->flower_shared_total, "saved",
				  (json_int_t)(s->flower_total -
					       s->flower_shared_total),
				  "blocks", (json_int_t)s->flower_blocks,
				  "max_switch_filters",
				  (json_int_t)s->flower_shared_max));
	return o;
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
	if (s->flower)
		json_object_set_new(o, "flower", flower_json(s));
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

	fprintf(f, "\n%-*s %8s %8s %8s", w, "switch", "classify", "rewrite",
		"rules");
	if (s->flower)
		fprintf(f, " %8s %8s", "flower", "max-port");
	fputc('\n', f);
	for (i = 0; i < s->nsw && (!top || i < top); i++) {
		fprintf(f, "%-*s %8d %8d %8d", w, s->per[i].name,
			s->per[i].classify, s->per[i].rewrite, s->per[i].total);
		if (s->flower)
			fprintf(f, " %8ld %8ld", s->per[i].flower,
				s->per[i].flower_port);
		fputc('\n', f);
	}
	if (top && s->nsw > top)
		fprintf(f, "... %d more switches\n", s->nsw - top);
}

static void print_flower(FILE *f, const struct rules_stats *s)
{
	fprintf(f,
		"flower filters: %lld (%d tc filters an IP rule: 2 families x untagged/802.1Q)\n",
		(long long)s->flower_total, FLOWER_FAMILIES * FLOWER_ENCAPS);
	if (!s->nsw)
		return;
	fprintf(f, "flower per switch: min %ld (%s), avg %.1f, max %ld (%s)\n",
		s->flower_min, s->flower_min_name, s->flower_avg, s->flower_max,
		s->flower_max_name);
	if (s->flower_port_name)
		fprintf(f, "flower largest port: %ld (%s port %s)\n",
			s->flower_port_max, s->flower_port_sw,
			s->flower_port_name);
	if (s->shared)
		fprintf(f,
			"flower with shared blocks: %lld (%lld fewer, %lld "
			"blocks), max per switch %ld\n",
			(long long)s->flower_shared_total,
			(long long)(s->flower_total - s->flower_shared_total),
			(long long)s->flower_blocks, s->flower_shared_max);
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
	if (max)
		fprintf(f,
			"per switch: min %d (%s), avg %.1f, max %d (%s, the bottleneck)\n",
			min->total, min->name, s->avg, max->total, max->name);
	if (s->flower)
		print_flower(f, s);
	if (max)
		print_table(f, s, top);
}
