// SPDX-License-Identifier: GPL-2.0
/*
 * Lookups in a rule set; see rules.h. The parser (rules_parse.c) fills one
 * hash map per table with packed keys whose port fields may hold RULES_ANY,
 * so a wildcard rule is found by probing the same map with "*" in place of
 * the port. Switches without wildcard rules answer with one probe.
 */
#include <stdio.h>
#include <stdlib.h>

#include "model/rules.h"
#include "lib/util.h"

int rules_find_switch(const struct rules *r, const char *name)
{
	return strmap_get(&r->sw_names, name);
}

int rules_find_host(const struct rules *r, const char *name)
{
	return strmap_get(&r->host_names, name);
}

int rules_find_port(const struct rules *r, int sw, const char *name)
{
	char key[512];

	if (snprintf(key, sizeof(key), "%s:%s", r->sw[sw].name, name) >=
	    (int)sizeof(key))
		return -1;
	return strmap_get(&r->port_names, key);
}

const char *rules_port_name(const struct rules *r, int sw, int port)
{
	return port == RULES_ANY ? "*" : r->sw[sw].ports[port];
}

/* A dense switch's entry (rule index + 1, 0: none); see rules.h. */
static bool dense_get(const int32_t *d, uint32_t at, uint64_t *v)
{
	*v = d[at] - 1;
	return d[at] != 0;
}

/*
 * Where (in, tag) / (in, out, tag) lie in a dense switch's arrays, or
 * false when no rule can have the key (a port out of range, a tag no key
 * of the switch uses).
 */
static bool dense_classify_at(const struct rules_switch *s, int in, int tag,
			      uint32_t *at)
{
	int slot;

	if ((unsigned int)in >= (unsigned int)s->nports ||
	    (unsigned int)tag >= RULES_NTAGS || !(slot = s->dense_slot[tag]))
		return false;
	*at = (uint32_t)in * s->dense_ntags + slot - 1;
	return true;
}

static bool dense_rewrite_at(const struct rules_switch *s, int in, int out,
			     int tag, uint32_t *at)
{
	int slot;

	if ((unsigned int)in >= (unsigned int)s->nports ||
	    (unsigned int)out >= (unsigned int)s->nports ||
	    (unsigned int)tag >= RULES_NTAGS || !(slot = s->dense_slot[tag]))
		return false;
	*at = ((uint32_t)in * s->nports + out) * s->dense_ntags + slot - 1;
	return true;
}

static bool classify_find(const struct rules *r, int sw, int in, int tag,
			  uint64_t *v)
{
	const struct rules_switch *s = &r->sw[sw];
	uint32_t at;

	if (s->dense_classify)
		return dense_classify_at(s, in, tag, &at) &&
		       dense_get(s->dense_classify, at, v);
	return hmap_get(&r->classify, rules_classify_key(sw, in, tag), v) ||
	       (s->wild_classify &&
		hmap_get(&r->classify, rules_classify_key(sw, RULES_ANY, tag),
			 v));
}

int rules_classify(const struct rules *r, int sw, int in, int tag, int *rule)
{
	const struct rules_switch *s = &r->sw[sw];
	uint64_t v;

	if (!classify_find(r, sw, in, tag, &v)) {
		if (rule)
			*rule = -1;
		return RULES_LOSSY;
	}
	if (rule)
		*rule = (int)v;
	if (s->classify[v].prio == r->lossy_prio)
		return RULES_LOSSY;
	return s->classify[v].prio;
}

int rules_rewrite(const struct rules *r, int sw, int tag, int in, int out,
		  int *rule)
{
	const struct rules_switch *s = &r->sw[sw];
	uint64_t v;
	uint32_t at;
	bool hit;

	if (s->dense_rewrite)
		hit = dense_rewrite_at(s, in, out, tag, &at) &&
		      dense_get(s->dense_rewrite, at, &v);
	else
		hit = hmap_get(&r->rewrite, rules_rewrite_key(sw, tag, in, out),
			       &v);
	if (!hit && s->wild_rewrite)
		hit = hmap_get(&r->rewrite,
			       rules_rewrite_key(sw, tag, in, RULES_ANY), &v) ||
		      hmap_get(&r->rewrite,
			       rules_rewrite_key(sw, tag, RULES_ANY, out),
			       &v) ||
		      hmap_get(&r->rewrite,
			       rules_rewrite_key(sw, tag, RULES_ANY, RULES_ANY),
			       &v);
	if (rule)
		*rule = hit ? (int)v : -1;
	if (!hit || s->rewrite[v].new_tag == r->lossy_tag)
		return RULES_LOSSY;
	return s->rewrite[v].new_tag;
}

int rules_classify_at(const struct rules *r, int sw, int in, int tag)
{
	const struct rules_switch *s = &r->sw[sw];
	uint64_t v;
	uint32_t at;

	if (s->dense_classify)
		return dense_classify_at(s, in, tag, &at) &&
				       dense_get(s->dense_classify, at, &v) ?
			       (int)v :
			       -1;
	return hmap_get(&r->classify, rules_classify_key(sw, in, tag), &v) ?
		       (int)v :
		       -1;
}

int rules_rewrite_at(const struct rules *r, int sw, int tag, int in, int out)
{
	const struct rules_switch *s = &r->sw[sw];
	uint64_t v;
	uint32_t at;

	if (s->dense_rewrite)
		return dense_rewrite_at(s, in, out, tag, &at) &&
				       dense_get(s->dense_rewrite, at, &v) ?
			       (int)v :
			       -1;
	return hmap_get(&r->rewrite, rules_rewrite_key(sw, tag, in, out), &v) ?
		       (int)v :
		       -1;
}

/* A table of r's own: neither in its tables' blob nor (a patch's) base's. */
static bool own_table(const struct rules *r, const void *t, const void *base)
{
	const char *b = r->tables_buf;

	/* an empty table at the very end of the blob points at its end */
	return t != base && !(b && (const char *)t >= b &&
			      (const char *)t <= b + r->tables_len);
}

static void free_tables(struct rules *r, int i)
{
	const struct rules_switch *b = r->base ? &r->base->sw[i] : NULL;

	if (own_table(r, r->sw[i].classify, b ? b->classify : NULL))
		free(r->sw[i].classify);
	if (own_table(r, r->sw[i].rewrite, b ? b->rewrite : NULL))
		free(r->sw[i].rewrite);
}

void rules_free(struct rules *r)
{
	int i, k;

	if (!r)
		return;
	if (r->base) {
		for (i = 0; i < r->nsw; i++)
			free_tables(r, i);
		if (r->tables_own)
			free(r->tables_buf);
		free(r->sw);
		free(r);
		return;
	}
	for (i = 0; i < r->nsw; i++) {
		struct rules_switch *s = &r->sw[i];

		for (k = 0; !s->port_buf && k < s->nports; k++)
			free(s->ports[k]);
		free(s->port_buf);
		free(s->ports);
		free_tables(r, i);
		free(s->dense_classify);
		free(s->dense_rewrite);
		free(s->dense_slot);
		free(s->name);
	}
	for (i = 0; i < r->nhosts; i++) {
		free(r->hosts[i].name);
		free(r->hosts[i].classes);
	}
	free(r->sw);
	free(r->hosts);
	free(r->tags);
	free(r->class_ids);
	free(r->class_tags);
	strmap_free(&r->sw_names);
	strmap_free(&r->host_names);
	strmap_free(&r->port_names);
	hmap_free(&r->classify);
	hmap_free(&r->rewrite);
	if (r->tables_own)
		free(r->tables_buf);
	free(r->file);
	free(r);
}
