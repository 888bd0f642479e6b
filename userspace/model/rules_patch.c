// SPDX-License-Identifier: GPL-2.0
/* A rule set as a small change of another; see rules_patch.h. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"
#include "model/rules_blob.h"
#include "model/rules_patch.h"

#define BLOCK 64 /* rules compared at once before one by one */

struct diff {
	const uint8_t *a, *b;
	struct rules_change *ch;
	int n, max;
};

static bool same(const struct diff *d, size_t from, size_t to)
{
	return from == to || !memcmp(d->a + from, d->b + from, to - from);
}

/* The rules of one table (n of size bytes from at) that differ. */
static bool table_diff(struct diff *d, int sw, bool rewrite, size_t at, int n,
		       size_t size)
{
	int k, i, end;

	if (same(d, at, at + (size_t)n * size))
		return true;
	for (k = 0; k < n; k += BLOCK) {
		end = k + BLOCK < n ? k + BLOCK : n;
		if (same(d, at + k * size, at + end * size))
			continue;
		for (i = k; i < end; i++) {
			if (same(d, at + i * size, at + (i + 1) * size))
				continue;
			if (d->n == d->max)
				return false;
			d->ch[d->n++] = (struct rules_change){ sw, rewrite, i };
		}
	}
	return true;
}

int rules_blob_diff(const struct rules *r, const void *blob, const void *old,
		    size_t len, struct rules_change *ch, int max)
{
	struct diff d = { blob, old, ch, 0, max };
	size_t *cls = xcalloc(r->nsw + 1, sizeof(size_t));
	size_t *rw = xcalloc(r->nsw + 1, sizeof(size_t));
	size_t from = 0, csz = sizeof(struct rules_classify),
	       wsz = sizeof(struct rules_rewrite);
	bool ok = rules_blob_layout(r, cls, rw) == len;
	int k;

	if (ok && !memcmp(blob, old, len)) {
		free(cls);
		free(rw);
		return 0;
	}
	/* Between the tables (names, ports, counts) every byte is equal. */
	for (k = 0; ok && k < r->nsw; k++) {
		const struct rules_switch *s = &r->sw[k];

		ok = same(&d, from, cls[k]) &&
		     table_diff(&d, k, false, cls[k], s->nclassify, csz) &&
		     same(&d, cls[k] + s->nclassify * csz, rw[k]) &&
		     table_diff(&d, k, true, rw[k], s->nrewrite, wsz);
		from = rw[k] + s->nrewrite * wsz;
	}
	ok = ok && same(&d, from, len);
	free(cls);
	free(rw);
	return ok ? d.n : -1;
}

static bool known(const struct rules *r, int tag)
{
	return tag >= 0 && tag < RULES_NTAGS && r->rank[tag] >= 0;
}

/* Switch sw's table in o as old holds it: where it lies, not copied. */
static void own(struct rules *o, const uint8_t *old, size_t at, int sw,
		bool rewrite)
{
	if (rewrite)
		o->sw[sw].rewrite = (struct rules_rewrite *)(old + at);
	else
		o->sw[sw].classify = (struct rules_classify *)(old + at);
}

/*
 * One rule as old has it, at the same key as r's (so r's lookups find
 * it), and sound as rules_check would find it (its key is r's, which
 * passed: only the answer is new).
 */
static bool put_back(struct rules *o, const struct rules *r, const uint8_t *old,
		     const size_t *cls, const size_t *rw,
		     const struct rules_change *c)
{
	struct rules_switch *s = &o->sw[c->sw];
	const struct rules_switch *b = &r->sw[c->sw];

	own(o, old, c->rewrite ? rw[c->sw] : cls[c->sw], c->sw, c->rewrite);
	if (c->rewrite) {
		const struct rules_rewrite *w = &s->rewrite[c->k],
					   *x = &b->rewrite[c->k];

		return w->in == x->in && w->out == x->out && w->tag == x->tag &&
		       known(r, w->new_tag);
	}
	const struct rules_classify *l = &s->classify[c->k],
				    *y = &b->classify[c->k];

	return l->in == y->in && l->tag == y->tag &&
	       l->prio <= RULES_NPRIOS - 1 &&
	       (l->tag != r->lossy_tag || l->prio == r->lossy_prio);
}

struct rules *rules_patch(const struct rules *r, const void *old, void *mem,
			  size_t len, const struct rules_change *ch, int n)
{
	struct rules *o = xmalloc(sizeof(*o));
	size_t *cls = xcalloc(r->nsw + 1, sizeof(size_t));
	size_t *rw = xcalloc(r->nsw + 1, sizeof(size_t));
	bool ok = true;
	int k;

	*o = *r;
	o->base = r;
	o->tables_buf = mem;
	o->tables_len = (const char *)old + len - (const char *)mem;
	o->sw = xmalloc(((size_t)r->nsw + 1) * sizeof(*o->sw));
	memcpy(o->sw, r->sw, (size_t)r->nsw * sizeof(*o->sw));
	rules_blob_layout(r, cls, rw);
	for (k = 0; ok && k < n; k++)
		ok = put_back(o, r, old, cls, rw, &ch[k]);
	free(cls);
	free(rw);
	if (!ok) {
		rules_free(o); /* mem is the caller's again */
		return NULL;
	}
	o->tables_own = true;
	return o;
}

size_t rules_change_at(const struct rules *r, const struct rules_change *c)
{
	size_t *cls = xcalloc(r->nsw + 1, sizeof(size_t));
	size_t *rw = xcalloc(r->nsw + 1, sizeof(size_t)), at;

	rules_blob_layout(r, cls, rw);
	at = c->rewrite ? rw[c->sw] : cls[c->sw];
	free(cls);
	free(rw);
	return at;
}
