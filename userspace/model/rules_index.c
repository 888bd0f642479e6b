// SPDX-License-Identifier: GPL-2.0
/*
 * The lookups of rules whose arrays a reader filled (rules.h: rules_index):
 * the compact form's reader (rules_blob.c) and the compiler, which hands
 * its rules to the verifier without a document (compile/rules_model.c).
 * The document's parser indexes rule by rule as it reads instead.
 *
 * Memory: a switch gets arrays by key only when they are not much bigger
 * than its rules, so the rules in memory stay within a small multiple of
 * their compact form (C8: 3,000 rule-less switches of 256 ports took 160
 * times their 4.6 MB in dense arrays); the others share two hash maps
 * sized once for all of their rules.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "lib/util.h"
#include "model/rules.h"

#define PREFETCH 8 /* rules ahead whose map slot is fetched */
#define DENSE_MAX_PORTS 256 /* dense lookups: at most 16 MiB a switch */
#define DENSE_PER_RULE 16 /* and at most this many entries per rule */

static bool tag_ok(int t)
{
	return t >= 0 && t < RULES_NTAGS;
}

static bool port_ok(const struct rules_switch *s, uint16_t p)
{
	return p == RULES_ANY || p < s->nports;
}

/*
 * No "*" in any rule, few enough ports for arrays by key, and enough
 * rules to fill them: arrays of a switch with many ports and few rules
 * would cost memory out of proportion to the rules.
 */
static bool exact_switch(const struct rules_switch *s)
{
	size_t n = (size_t)s->nports, entries = (n + n * n) * RULES_NTAGS;
	int k;

	if (s->nports > DENSE_MAX_PORTS ||
	    entries > DENSE_PER_RULE * ((size_t)s->nclassify + s->nrewrite))
		return false;
	for (k = 0; k < s->nclassify; k++)
		if (s->classify[k].in == RULES_ANY)
			return false;
	for (k = 0; k < s->nrewrite; k++)
		if (s->rewrite[k].in == RULES_ANY ||
		    s->rewrite[k].out == RULES_ANY)
			return false;
	return true;
}

/* One slot of a dense index; the first rule of a key keeps it. */
static void dense_put(int32_t *d, size_t at, int k)
{
	if (!d[at])
		d[at] = k + 1;
}

/*
 * A switch without wildcards: its lookups are arrays by key, filled in
 * rule order (a hash map of 100,000 rules costs several times more).
 */
static void index_dense(struct rules_switch *s)
{
	size_t n = (size_t)s->nports;
	int k;

	s->dense_classify = xcalloc(n * RULES_NTAGS + 1, sizeof(int32_t));
	s->dense_rewrite = xcalloc(n * n * RULES_NTAGS + 1, sizeof(int32_t));
	for (k = 0; k < s->nclassify; k++) {
		const struct rules_classify *c = &s->classify[k];

		if (port_ok(s, c->in) && tag_ok(c->tag))
			dense_put(s->dense_classify,
				  (size_t)c->in * RULES_NTAGS + c->tag, k);
	}
	for (k = 0; k < s->nrewrite; k++) {
		const struct rules_rewrite *w = &s->rewrite[k];

		if (port_ok(s, w->in) && port_ok(s, w->out) && tag_ok(w->tag))
			dense_put(s->dense_rewrite,
				  ((size_t)w->in * n + w->out) * RULES_NTAGS +
					  w->tag,
				  k);
	}
}

/* The lookups of switch sw, as the JSON reader builds them. */
static void index_switch(struct rules *r, int sw)
{
	struct rules_switch *s = &r->sw[sw];
	char key[512];
	uint64_t *slot;
	bool fresh;
	int k;

	/* rules_check refuses names too long for a key, and a name twice */
	for (k = 0; k < s->nports; k++)
		if (snprintf(key, sizeof(key), "%s:%s", s->name, s->ports[k]) <
		    (int)sizeof(key))
			strmap_add(&r->port_names, key, k);
	if (exact_switch(s)) {
		index_dense(s);
		return;
	}
	for (k = 0; k < s->nclassify; k++) {
		const struct rules_classify *c = &s->classify[k];

		if (!port_ok(s, c->in) || !tag_ok(c->tag))
			continue;
		slot = hmap_slot(&r->classify,
				 rules_classify_key(sw, c->in, c->tag), &fresh);
		if (fresh)
			*slot = k;
		s->wild_classify |= c->in == RULES_ANY;
	}
	for (k = 0; k < s->nrewrite; k++) {
		const struct rules_rewrite *w = &s->rewrite[k], *ahead;

		/* Scattered slots of a big map: fetch a few rules ahead. */
		if (k + PREFETCH < s->nrewrite) {
			ahead = &s->rewrite[k + PREFETCH];
			__builtin_prefetch(
				hmap_slot_addr(&r->rewrite,
					       rules_rewrite_key(sw, ahead->tag,
								 ahead->in,
								 ahead->out)),
				1);
		}

		if (!port_ok(s, w->in) || !port_ok(s, w->out) ||
		    !tag_ok(w->tag))
			continue;
		slot = hmap_slot(&r->rewrite,
				 rules_rewrite_key(sw, w->tag, w->in, w->out),
				 &fresh);
		if (fresh)
			*slot = k;
		s->wild_rewrite |= w->in == RULES_ANY || w->out == RULES_ANY;
	}
}

/* Every switch's lookups, in maps sized once for all of their rules. */
void rules_index(struct rules *r)
{
	size_t nc = 0, nw = 0;
	int k;

	for (k = 0; k < r->nsw; k++) {
		if (exact_switch(&r->sw[k]))
			continue;
		nc += r->sw[k].nclassify;
		nw += r->sw[k].nrewrite;
	}
	hmap_free(&r->classify);
	hmap_free(&r->rewrite);
	hmap_init(&r->classify, nc);
	hmap_init(&r->rewrite, nw);
	for (k = 0; k < r->nsw; k++)
		index_switch(r, k);
}
