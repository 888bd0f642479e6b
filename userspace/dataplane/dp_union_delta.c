// SPDX-License-Identifier: GPL-2.0
/*
 * The union check of a small change (dp_union.h): given that the old rules
 * alone are deadlock-free, only dependencies that the changed rules make
 * can close a cycle, so the search starts from those and generates the
 * union's dependencies only where it walks, instead of from every rule.
 */
#include <stdlib.h>
#include <string.h>

#include "dataplane/dp_union.h"
#include "lib/hmap.h"
#include "lib/strmap.h"
#include "lib/util.h"

struct frame;

struct dctx {
	const struct rules *rs[2];
	int *base; /* first port id of each switch */
	int *sw_of; /* switch of each port id */
	int *peer; /* linked port id, -1 */
	int nids;
	int64_t *heads; /* buffers the changed rules' dependencies enter */
	int64_t nheads, hcap;
	struct hmap seen_head;
	int64_t deps; /* dependencies generated */
	struct frame *cur; /* where collect() appends */
};

/* Same switches, ports, tags and lossy class: ids and lookups line up. */
static bool same_shape(const struct rules *a, const struct rules *b)
{
	int s, p;

	if (a->nsw != b->nsw || a->lossy_tag != b->lossy_tag ||
	    a->lossy_prio != b->lossy_prio || a->cnp_tag != b->cnp_tag ||
	    a->cnp_prio != b->cnp_prio ||
	    memcmp(a->prio, b->prio, sizeof(a->prio)))
		return false;
	for (s = 0; s < a->nsw; s++) {
		if (strcmp(a->sw[s].name, b->sw[s].name) ||
		    a->sw[s].nports != b->sw[s].nports)
			return false;
		for (p = 0; p < a->sw[s].nports; p++)
			if (strcmp(a->sw[s].ports[p], b->sw[s].ports[p]))
				return false;
	}
	return true;
}

static void add_head(struct dctx *d, int64_t v)
{
	bool fresh;

	d->deps++;
	hmap_slot(&d->seen_head, (uint64_t)v + 1, &fresh);
	if (fresh)
		VEC_PUSH(d->heads, d->nheads, d->hcap, v);
}

/* Union dependencies out of (s, i) for tag t towards o: call fn on each. */
static void triple(struct dctx *d, int s, int i, int t, int o,
		   void (*fn)(struct dctx *, int64_t, int64_t, int, int, int),
		   int64_t from_prio)
{
	int k, kd, pa, nt, pb, q, b;
	const struct rules *r;

	for (k = 0; k < 2; k++) {
		r = d->rs[k];
		pa = rules_classify(r, s, i, t, NULL);
		if (pa == RULES_LOSSY || (from_prio >= 0 && pa != from_prio))
			continue;
		nt = rules_rewrite(r, s, t, i, o, NULL);
		if (nt == RULES_LOSSY || !rules_tag_lossless(r, nt))
			continue;
		q = d->peer[d->base[s] + o];
		if (q < 0)
			continue;
		b = d->sw_of[q];
		for (kd = 0; kd < 2; kd++) {
			pb = rules_classify(d->rs[kd], b, q - d->base[b], nt,
					    NULL);
			if (pb != RULES_LOSSY)
				fn(d, (int64_t)(d->base[s] + i) * 8 + pa,
				   (int64_t)q * 8 + pb, t, nt, k);
		}
	}
}

static void to_head(struct dctx *d, int64_t u, int64_t v, int t, int nt, int k)
{
	add_head(d, v);
}

static void out_of(struct dctx *d, int s, int i, int t)
{
	int o;

	for (o = 0; o < d->rs[0]->sw[s].nports; o++)
		triple(d, s, i, t, o, to_head, -1);
}

/* Everything whose dependency may enter port i of s with any tag. */
static void into(struct dctx *d, int s, int i)
{
	int p = d->peer[d->base[s] + i], b, ib, t;

	if (p < 0)
		return;
	b = d->sw_of[p];
	for (ib = 0; ib < d->rs[0]->sw[b].nports; ib++)
		for (t = 0; t < RULES_NTAGS; t++)
			triple(d, b, ib, t, p - d->base[b], to_head, -1);
}

static void changed_classify(struct dctx *d, int s,
			     const struct rules_classify *c)
{
	int n = d->rs[0]->sw[s].nports, i;

	for (i = 0; i < n; i++)
		if (c->in == RULES_ANY || c->in == i) {
			out_of(d, s, i, c->tag);
			into(d, s, i);
		}
}

static void changed_rewrite(struct dctx *d, int s,
			    const struct rules_rewrite *w)
{
	int n = d->rs[0]->sw[s].nports, i, o;

	for (i = 0; i < n; i++)
		for (o = 0; o < n; o++)
			if ((w->in == RULES_ANY || w->in == i) &&
			    (w->out == RULES_ANY || w->out == o))
				triple(d, s, i, w->tag, o, to_head, -1);
}

/*
 * The heads of the dependencies the changed rules make; false if the
 * change is not small (other lengths, or more than DP_UNION_DELTA_MAX
 * rules differ).
 */
static bool changed_heads(struct dctx *d)
{
	const struct rules *a = d->rs[0], *b = d->rs[1];
	int s, k, n = 0;

	for (s = 0; s < a->nsw; s++) {
		const struct rules_switch *x = &a->sw[s], *y = &b->sw[s];

		if (x->nclassify != y->nclassify || x->nrewrite != y->nrewrite)
			return false;
		for (k = 0; k < x->nclassify; k++)
			if (memcmp(&x->classify[k], &y->classify[k],
				   sizeof(x->classify[k]))) {
				if ((n += 2) > DP_UNION_DELTA_MAX)
					return false;
				changed_classify(d, s, &x->classify[k]);
				changed_classify(d, s, &y->classify[k]);
			}
		for (k = 0; k < x->nrewrite; k++)
			if (memcmp(&x->rewrite[k], &y->rewrite[k],
				   sizeof(x->rewrite[k]))) {
				if ((n += 2) > DP_UNION_DELTA_MAX)
					return false;
				changed_rewrite(d, s, &x->rewrite[k]);
				changed_rewrite(d, s, &y->rewrite[k]);
			}
	}
	return true;
}

static void number_ports(struct dctx *d, const struct dp_links *l)
{
	const struct rules *r = d->rs[0];
	struct strmap ids;
	char key[512];
	int s, p, k, a, b;

	d->base = xmalloc((r->nsw + 1) * sizeof(int));
	for (s = 0; s < r->nsw; s++) {
		d->base[s] = d->nids;
		d->nids += r->sw[s].nports;
	}
	d->sw_of = xmalloc((d->nids + 1) * sizeof(int));
	d->peer = xmalloc((d->nids + 1) * sizeof(int));
	memset(d->peer, -1, (d->nids + 1) * sizeof(int));
	strmap_init(&ids);
	for (s = 0; s < r->nsw; s++)
		for (p = 0; p < r->sw[s].nports; p++) {
			d->sw_of[d->base[s] + p] = s;
			snprintf(key, sizeof(key), "%s:%s", r->sw[s].name,
				 r->sw[s].ports[p]);
			strmap_add(&ids, key, d->base[s] + p);
		}
	for (k = 0; k < l->n; k++) {
		a = strmap_get(&ids, l->a[k]);
		b = strmap_get(&ids, l->b[k]);
		if (a >= 0 && b >= 0) {
			d->peer[a] = b;
			d->peer[b] = a;
		}
	}
	strmap_free(&ids);
}

/* A DFS frame: a buffer, the dependencies out of it, the one into it. */
struct frame {
	int64_t buf;
	struct dp_union_edge *out;
	int64_t n, cap, next;
	struct dp_union_edge via;
};

static void collect(struct dctx *d, int64_t u, int64_t v, int t, int nt, int k)
{
	struct frame *f = d->cur;

	d->deps++;
	VEC_PUSH(f->out, f->n, f->cap,
		 ((struct dp_union_edge){ (int)u, (int)v, (uint8_t)t,
					  (uint8_t)nt, (uint8_t)k }));
}

static void expand(struct dctx *d, struct frame *f)
{
	int x = (int)(f->buf / 8), s = d->sw_of[x], i = x - d->base[s], t, o;

	d->cur = f;
	for (t = 0; t < RULES_NTAGS; t++)
		for (o = 0; o < d->rs[0]->sw[s].nports; o++)
			triple(d, s, i, t, o, collect, f->buf % 8);
}

static void cycle_out(struct frame *st, int top, int from,
		      const struct dp_union_edge *back,
		      struct dp_union_result *res)
{
	int k;

	res->len = top - from + 1;
	res->cycle = xmalloc(res->len * sizeof(*res->cycle));
	for (k = from + 1; k <= top; k++)
		res->cycle[k - from - 1] = st[k].via;
	res->cycle[res->len - 1] = *back;
}

/*
 * Depth-first from each head, marking buffers 1 while on the stack and 2
 * when done: a dependency to a buffer marked 1 closes a cycle. -1 if it
 * would visit more than DP_UNION_DELTA_VISIT buffers.
 */
static int search(struct dctx *d, struct dp_union_result *res)
{
	struct frame *st = xcalloc(DP_UNION_DELTA_VISIT + 1, sizeof(*st));
	struct hmap mark;
	int64_t h, visited = 0;
	int top, k, ret = 1;
	uint64_t *m;
	bool fresh;

	hmap_init(&mark, 1024);
	for (h = 0; ret == 1 && h < d->nheads; h++) {
		m = hmap_slot(&mark, (uint64_t)d->heads[h] + 1, &fresh);
		if (*m)
			continue;
		*m = 1;
		top = 0;
		st[0] = (struct frame){ .buf = d->heads[h] };
		expand(d, &st[0]);
		visited++;
		while (top >= 0 && ret == 1) {
			struct frame *f = &st[top];
			struct dp_union_edge e;

			if (f->next == f->n) {
				*hmap_slot(&mark, (uint64_t)f->buf + 1,
					   &fresh) = 2;
				free(f->out);
				f->out = NULL;
				top--;
				continue;
			}
			e = f->out[f->next++];
			m = hmap_slot(&mark, (uint64_t)e.to + 1, &fresh);
			if (*m == 1) {
				for (k = top; st[k].buf != e.to; k--)
					;
				cycle_out(st, top, k, &e, res);
				ret = 0;
			} else if (!*m) {
				if (++visited > DP_UNION_DELTA_VISIT) {
					ret = -1;
					break;
				}
				*m = 1;
				st[++top] =
					(struct frame){ .buf = e.to, .via = e };
				expand(d, &st[top]);
			}
		}
		for (; top >= 0; top--)
			free(st[top].out);
	}
	res->buffers = visited;
	hmap_free(&mark);
	free(st);
	return ret;
}

static void name_ports(const struct dctx *d, struct dp_union_result *res)
{
	const struct rules *r = d->rs[0];
	char key[512];
	int s, p;

	res->nports = d->nids;
	res->port_names = xcalloc(d->nids + 1, sizeof(char *));
	for (s = 0; s < r->nsw; s++)
		for (p = 0; p < r->sw[s].nports; p++) {
			snprintf(key, sizeof(key), "%s:%s", r->sw[s].name,
				 r->sw[s].ports[p]);
			res->port_names[d->base[s] + p] = xstrdup(key);
		}
}

int dp_union_check_delta(const struct rules *old, const struct rules *new,
			 const struct dp_links *l, struct dp_union_result *res)
{
	struct dctx d = { .rs = { old, new } };
	int ret = -1;

	memset(res, 0, sizeof(*res));
	if (!same_shape(old, new))
		return -1;
	number_ports(&d, l);
	hmap_init(&d.seen_head, 64);
	if (changed_heads(&d)) {
		d.deps = 0;
		ret = search(&d, res);
		res->deps = d.deps;
	}
	if (ret >= 0)
		name_ports(&d, res);
	else
		dp_union_free(res);
	hmap_free(&d.seen_head);
	free(d.heads);
	free(d.base);
	free(d.sw_of);
	free(d.peer);
	return ret;
}
