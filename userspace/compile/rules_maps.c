// SPDX-License-Identifier: GPL-2.0
/*
 * Rules -> per-port maps (rules_maps.h): one class per distinct behaviour
 * of an (in-port, DSCP) pair, which is the minimum.
 *
 * A behaviour is (priority, new DSCP at out-port 0..n-1), n + 1 numbers,
 * found by the rules' own lookups (wildcard precedence included). The
 * behaviours of a switch go into a small open-addressing table keyed by
 * their hash, so a switch of n ports costs O(64 n^2) lookups and O(64 n)
 * table probes of O(n) each.
 */
#include <stdlib.h>
#include <string.h>

#include "compile/rules_maps.h"
#include "model/maps.h"
#include "lib/util.h"

struct behaviours {
	int width; /* nports + 1 */
	int n, cap; /* behaviours, room */
	int *v; /* n x width */
	uint64_t *hash;
	int *slot; /* table of behaviour index + 1, nslot a power of two */
	int nslot;
};

static uint64_t hash_ints(const int *v, int n)
{
	uint64_t h = 14695981039346656037ull;
	int i;

	for (i = 0; i < n; i++) {
		h ^= (uint64_t)(uint32_t)v[i];
		h *= 1099511628211ull;
	}
	return h;
}

static void table_put(struct behaviours *b, uint64_t h, int idx)
{
	int s = (int)(h & (uint64_t)(b->nslot - 1));

	while (b->slot[s])
		s = (s + 1) & (b->nslot - 1);
	b->slot[s] = idx + 1;
}

static void table_grow(struct behaviours *b)
{
	int i;

	free(b->slot);
	b->nslot = b->nslot ? b->nslot * 2 : 64;
	b->slot = xcalloc(b->nslot, sizeof(*b->slot));
	for (i = 0; i < b->n; i++)
		table_put(b, b->hash[i], i);
}

/* The index of behaviour v, added if new and there is room; else -1. */
static int behaviour_index(struct behaviours *b, const int *v)
{
	uint64_t h = hash_ints(v, b->width);
	int s, k;

	if (2 * (b->n + 1) > b->nslot)
		table_grow(b);
	for (s = (int)(h & (uint64_t)(b->nslot - 1)); b->slot[s];
	     s = (s + 1) & (b->nslot - 1)) {
		k = b->slot[s] - 1;
		if (b->hash[k] == h && !memcmp(b->v + (size_t)k * b->width, v,
					       sizeof(*v) * b->width))
			return k;
	}
	if (b->n == MAPS_COUNT_CAP)
		return -1;
	if (b->n == b->cap) {
		b->cap = b->cap ? 2 * b->cap : 16;
		b->v = xrealloc(b->v, sizeof(*b->v) * b->width * b->cap);
		b->hash = xrealloc(b->hash, sizeof(*b->hash) * b->cap);
	}
	memcpy(b->v + (size_t)b->n * b->width, v, sizeof(*v) * b->width);
	b->hash[b->n] = h;
	table_put(b, h, b->n);
	return b->n++;
}

/* The behaviour of (in, dscp) at switch sw into v (width nports + 1). */
static void behaviour(const struct rules *r, int sw, int in, int dscp, int *v)
{
	int n = r->sw[sw].nports, p, out, nt;

	p = rules_classify(r, sw, in, dscp, NULL);
	if (!maps_prio_lossless(r, p)) {
		/* Classified lossy: the data plane sends it on lossy. */
		v[0] = r->lossy_prio;
		for (out = 0; out < n; out++)
			v[1 + out] = r->lossy_tag;
		return;
	}
	v[0] = p;
	for (out = 0; out < n; out++) {
		nt = rules_rewrite(r, sw, dscp, in, out, NULL);
		v[1 + out] = nt >= 0 ? nt : r->lossy_tag;
	}
}

static void build_switch(const struct rules *r, int sw, struct maps_switch *ms)
{
	struct behaviours b = { .width = r->sw[sw].nports + 1 };
	int n = r->sw[sw].nports, in, d, k, out, *v;

	ms->sw = sw;
	ms->nports = n;
	ms->cls = xcalloc((size_t)(n ? n : 1) * RULES_NTAGS, sizeof(*ms->cls));
	ms->rep = xmalloc(MAPS_COUNT_CAP * sizeof(*ms->rep));
	memset(ms->rep, 0xff, MAPS_COUNT_CAP * sizeof(*ms->rep));
	v = xmalloc(sizeof(*v) * b.width);
	/* Class 0: the lossy behaviour, first. */
	v[0] = r->lossy_prio;
	for (out = 0; out < n; out++)
		v[1 + out] = r->lossy_tag;
	behaviour_index(&b, v);
	for (in = 0; in < n && !ms->saturated; in++) {
		for (d = 0; d < RULES_NTAGS; d++) {
			behaviour(r, sw, in, d, v);
			k = behaviour_index(&b, v);
			if (k < 0) {
				/* Refused: the classes found are the witness. */
				ms->saturated = true;
				break;
			}
			ms->cls[in * RULES_NTAGS + d] = k;
			if (ms->rep[k] == UINT32_MAX)
				ms->rep[k] = in * RULES_NTAGS + d;
		}
	}
	ms->nclasses = b.n + ms->saturated;
	ms->prio = xcalloc(b.n, sizeof(*ms->prio));
	ms->rw = xcalloc((size_t)b.n * (n ? n : 1), sizeof(*ms->rw));
	for (k = 0; k < b.n; k++) {
		ms->prio[k] = b.v[(size_t)k * b.width];
		for (out = 0; out < n; out++)
			ms->rw[k * n + out] =
				b.v[(size_t)k * b.width + 1 + out];
	}
	free(v);
	free(b.v);
	free(b.hash);
	free(b.slot);
}

int maps_build(const struct rules *r, int max_classes, int max_prios,
	       struct maps *m)
{
	int s;

	memset(m, 0, sizeof(*m));
	m->r = r;
	m->nsw = r->nsw;
	m->sw = xcalloc(r->nsw ? r->nsw : 1, sizeof(*m->sw));
	for (s = 0; s < r->nsw; s++)
		build_switch(r, s, &m->sw[s]);
	return maps_set_limits(m, max_classes, max_prios) ? 1 : 0;
}

/*
 * The witness: max_classes + 1 pairs of distinct classes (each class's
 * first pair; the lossy class may have none when "tags" fill all 64
 * DSCPs), into w; how many, 0 unless too many classes.
 */
static int witness(const struct maps *m, const struct maps_switch *ms,
		   uint32_t *w)
{
	int k, n = 0;

	if (ms->nclasses <= m->max_classes)
		return 0;
	for (k = 0;
	     k < ms->nclasses && k < MAPS_COUNT_CAP && n <= m->max_classes; k++)
		if (ms->rep[k] != UINT32_MAX)
			w[n++] = ms->rep[k];
	return n;
}

void maps_refusal(const struct maps *m, const struct maps_switch *ms, FILE *f)
{
	const struct rules *r = m->r;
	const char *name = r->sw[ms->sw].name;
	uint32_t wit[MAPS_COUNT_CAP];
	int k, w = witness(m, ms, wit), p;

	if (w) {
		fprintf(f,
			"switch %s needs %s%d traffic classes, at most %d are allowed:"
			" these %d (in-port, DSCP) pairs pairwise differ in"
			" priority or in the new DSCP at some out-port:",
			name, ms->saturated ? "more than " : "",
			ms->nclasses - ms->saturated, m->max_classes, w);
		for (k = 0; k < w; k++)
			fprintf(f, "%s (%s, %u)", k ? "," : "",
				r->sw[ms->sw].ports[wit[k] / RULES_NTAGS],
				wit[k] % RULES_NTAGS);
		fprintf(f, "\n");
	}
	if (ms->nprios > m->max_prios) {
		fprintf(f,
			"switch %s uses %d lossless priorities, at most %d are allowed:",
			name, ms->nprios, m->max_prios);
		for (p = 0; p < RULES_NPRIOS; p++)
			if (ms->prio_mask & (1u << p))
				fprintf(f, " %d", p);
		fprintf(f, "\n");
	}
}

json_t *maps_refusal_json(const struct maps *m, const struct maps_switch *ms)
{
	const struct rules *r = m->r;
	json_t *o, *wj = json_array(), *pr = json_array();
	uint32_t wit[MAPS_COUNT_CAP];
	int k, w = witness(m, ms, wit), p;

	for (k = 0; k < w; k++)
		json_array_append_new(
			wj, json_pack("{s:s,s:i}", "in",
				      r->sw[ms->sw].ports[wit[k] / RULES_NTAGS],
				      "tag", (int)(wit[k] % RULES_NTAGS)));
	for (p = 0; p < RULES_NPRIOS; p++)
		if (ms->prio_mask & (1u << p))
			json_array_append_new(pr, json_integer(p));
	o = json_pack("{s:s,s:i,s:b,s:i,s:i,s:i,s:o,s:o}", "switch",
		      r->sw[ms->sw].name, "classes", ms->nclasses,
		      "classes_at_least", ms->saturated, "max_classes",
		      m->max_classes, "lossless_priorities", ms->nprios,
		      "max_priorities", m->max_prios, "priorities", pr,
		      "witness", wj);
	return o;
}
