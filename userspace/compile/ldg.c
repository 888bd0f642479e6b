// SPDX-License-Identifier: GPL-2.0
/*
 * The weighted link dependency graph over in-ports and its Eades-Lin-Smyth
 * order (Eades, Lin, Smyth, IPL 1993): sinks go to the back, sources to the
 * front, otherwise the vertex with the largest out-weight minus in-weight
 * goes to the front. Weights count the paths that use an edge, so edges
 * many paths use (the up-down skeleton of a Clos) tend to stay forward.
 * O((n + m) log n) with a lazy max-heap.
 */
#include <stdlib.h>
#include <string.h>

#include "lib/hmap.h"
#include "compile/tag_order.h"
#include "lib/util.h"

void ldg_build(const struct tagging *tg, struct ldg *g)
{
	const struct topo *t = tg->t;
	const struct elp *e = tg->e;
	struct hmap w;
	int i, k;

	hmap_init(&w, 1024);
	for (i = 0; i < e->npaths; i++) {
		const int32_t *h = elp_hops(e, i);

		for (k = 1; k < elp_len(e, i); k++) {
			int u = t->ports[h[k - 1]].peer,
			    v = t->ports[h[k]].peer;

			if (tg->forwards[port_node(t, v)])
				(*hmap_slot(&w, key2(u, v), NULL))++;
		}
	}
	ldg_from_weights(&w, t->nports, g);
	hmap_free(&w);
}

void ldg_from_weights(const struct hmap *w, int n, struct ldg *g)
{
	struct hmap_entry *it;
	int64_t m = 0, *fo, *fi;
	int i;

	g->n = n;
	g->ostart = xcalloc(g->n + 1, sizeof(int64_t));
	g->istart = xcalloc(g->n + 1, sizeof(int64_t));
	HMAP_FOR_EACH(w, it)
	{
		g->ostart[(it->key >> 32) + 1]++;
		g->istart[(uint32_t)it->key + 1]++;
		m++;
	}
	for (i = 0; i < g->n; i++) {
		g->ostart[i + 1] += g->ostart[i];
		g->istart[i + 1] += g->istart[i];
	}
	g->oto = xmalloc((m + 1) * sizeof(int));
	g->ito = xmalloc((m + 1) * sizeof(int));
	g->ow = xmalloc((m + 1) * sizeof(int64_t));
	g->iw = xmalloc((m + 1) * sizeof(int64_t));
	fo = xmalloc((g->n + 1) * sizeof(int64_t));
	fi = xmalloc((g->n + 1) * sizeof(int64_t));
	memcpy(fo, g->ostart, (g->n + 1) * sizeof(int64_t));
	memcpy(fi, g->istart, (g->n + 1) * sizeof(int64_t));
	/* hmap order depends only on the keys inserted: reproducible runs */
	HMAP_FOR_EACH(w, it)
	{
		int u = (int)(it->key >> 32), v = (int)(uint32_t)it->key;
		int64_t a = fo[u]++, b = fi[v]++;

		g->oto[a] = v;
		g->ow[a] = (int64_t)it->val;
		g->ito[b] = u;
		g->iw[b] = (int64_t)it->val;
	}
	free(fo);
	free(fi);
}

void ldg_free(struct ldg *g)
{
	free(g->ostart);
	free(g->istart);
	free(g->oto);
	free(g->ito);
	free(g->ow);
	free(g->iw);
	memset(g, 0, sizeof(*g));
}

struct heap_item {
	int64_t delta;
	int v;
};

struct heap {
	struct heap_item *a;
	int n;
	int cap;
};

/* Larger delta first; equal deltas: smaller vertex id (deterministic). */
static int above(const struct heap_item *x, const struct heap_item *y)
{
	return x->delta > y->delta || (x->delta == y->delta && x->v < y->v);
}

static void heap_push(struct heap *h, int64_t delta, int v)
{
	struct heap_item it = { delta, v };
	int i;

	VEC_PUSH(h->a, h->n, h->cap, it);
	for (i = h->n - 1; i > 0 && above(&h->a[i], &h->a[(i - 1) / 2]);
	     i = (i - 1) / 2) {
		struct heap_item tmp = h->a[i];

		h->a[i] = h->a[(i - 1) / 2];
		h->a[(i - 1) / 2] = tmp;
	}
}

static struct heap_item heap_pop(struct heap *h)
{
	struct heap_item top = h->a[0];
	int i = 0;

	h->a[0] = h->a[--h->n];
	for (;;) {
		int l = 2 * i + 1, r = l + 1, m = i;

		if (l < h->n && above(&h->a[l], &h->a[m]))
			m = l;
		if (r < h->n && above(&h->a[r], &h->a[m]))
			m = r;
		if (m == i)
			break;
		struct heap_item tmp = h->a[i];

		h->a[i] = h->a[m];
		h->a[m] = tmp;
		i = m;
	}
	return top;
}

struct els {
	const struct ldg *g;
	int64_t *win, *wout;
	int *indeg, *outdeg;
	char *gone;
	int *sinks, nsinks;
	int *sources, nsources;
	struct heap heap;
};

static void els_remove(struct els *s, int v)
{
	const struct ldg *g = s->g;
	int64_t k;

	s->gone[v] = 1;
	for (k = g->ostart[v]; k < g->ostart[v + 1]; k++) {
		int w = g->oto[k];

		if (s->gone[w])
			continue;
		s->win[w] -= g->ow[k];
		if (--s->indeg[w] == 0)
			s->sources[s->nsources++] = w;
		heap_push(&s->heap, s->wout[w] - s->win[w], w);
	}
	for (k = g->istart[v]; k < g->istart[v + 1]; k++) {
		int w = g->ito[k];

		if (s->gone[w])
			continue;
		s->wout[w] -= g->iw[k];
		if (--s->outdeg[w] == 0)
			s->sinks[s->nsinks++] = w;
		heap_push(&s->heap, s->wout[w] - s->win[w], w);
	}
}

void ldg_order_els(const struct ldg *g, int *pos)
{
	struct els s = { .g = g };
	int n = g->n, front = 0, back = n - 1, left = n, v;
	int64_t k;

	s.win = xcalloc(n, sizeof(int64_t));
	s.wout = xcalloc(n, sizeof(int64_t));
	s.indeg = xcalloc(n, sizeof(int));
	s.outdeg = xcalloc(n, sizeof(int));
	s.gone = xcalloc(n, 1);
	s.sinks = xmalloc(2 * (n + 1) * sizeof(int));
	s.sources = xmalloc(2 * (n + 1) * sizeof(int));
	for (v = 0; v < n; v++) {
		for (k = g->ostart[v]; k < g->ostart[v + 1]; k++) {
			s.wout[v] += g->ow[k];
			s.outdeg[v]++;
		}
		for (k = g->istart[v]; k < g->istart[v + 1]; k++) {
			s.win[v] += g->iw[k];
			s.indeg[v]++;
		}
	}
	for (v = n - 1; v >= 0; v--) {
		if (!s.outdeg[v])
			s.sinks[s.nsinks++] = v;
		else if (!s.indeg[v])
			s.sources[s.nsources++] = v;
		else
			heap_push(&s.heap, s.wout[v] - s.win[v], v);
	}
	while (left) {
		if (s.nsinks) {
			v = s.sinks[--s.nsinks];
			if (s.gone[v])
				continue;
			pos[v] = back--;
		} else if (s.nsources) {
			v = s.sources[--s.nsources];
			if (s.gone[v])
				continue;
			pos[v] = front++;
		} else {
			struct heap_item it = heap_pop(&s.heap);

			v = it.v;
			/* stale entries: the vertex is gone or its delta changed */
			if (s.gone[v] || it.delta != s.wout[v] - s.win[v])
				continue;
			pos[v] = front++;
		}
		els_remove(&s, v);
		left--;
	}
	free(s.win);
	free(s.wout);
	free(s.indeg);
	free(s.outdeg);
	free(s.gone);
	free(s.sinks);
	free(s.sources);
	free(s.heap.a);
}

static int by_mean(const void *a, const void *b, void *key)
{
	const double *mean = key;
	double x = mean[*(const int *)a], y = mean[*(const int *)b];

	if (x != y)
		return x < y ? -1 : 1;
	return *(const int *)a - *(const int *)b;
}

/*
 * Ports ordered by where they sit on the paths through them, on average
 * (relative hop index). Cheap, O(hops + n log n), and close to a
 * topological order wherever paths agree on direction.
 */
void ldg_order_mean(const struct tagging *tg, int *pos)
{
	const struct topo *t = tg->t;
	int n = t->nports, i, k;
	double *sum = xcalloc(n, sizeof(double)),
	       *cnt = xcalloc(n, sizeof(double));
	int *idx = xmalloc(n * sizeof(int));

	for (i = 0; i < tg->e->npaths; i++) {
		int m = elp_len(tg->e, i);

		for (k = 0; k < m; k++) {
			int v = t->ports[elp_hops(tg->e, i)[k]].peer;

			sum[v] += (double)k / m;
			cnt[v] += 1;
		}
	}
	for (i = 0; i < n; i++) {
		sum[i] = cnt[i] ? sum[i] / cnt[i] : 2;
		idx[i] = i;
	}
	qsort_r(idx, n, sizeof(int), by_mean, sum);
	for (i = 0; i < n; i++)
		pos[idx[i]] = i;
	free(sum);
	free(cnt);
	free(idx);
}
