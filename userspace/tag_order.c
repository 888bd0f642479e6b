// SPDX-License-Identifier: GPL-2.0
/* Experimental: order-based tagging (bump on backward edges). */
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "hmap.h"
#include "tagging.h"
#include "util.h"

struct order {
	int *pos;	/* position of each in-port in the order */
};

/* Weighted link dependency graph over in-ports, as adjacency lists. */
struct wgraph {
	int n;
	int64_t *ostart, *istart;
	int *oto, *ito;
	int64_t *ow, *iw;
};

static void build_wgraph(const struct tagging *tg, struct wgraph *g, const int64_t *pw)
{
	const struct topo *t = tg->t;
	const struct elp *e = tg->e;
	struct hmap w;
	struct hmap_entry *it;
	int64_t m = 0, *fo, *fi;
	int i, k;

	hmap_init(&w, 1024);
	for (i = 0; i < e->npaths; i++) {
		const int32_t *h = elp_hops(e, i);

		for (k = 1; k < elp_len(e, i); k++) {
			int u = t->ports[h[k - 1]].peer, v = t->ports[h[k]].peer;

			if (tg->forwards[port_node(t, v)])
				*hmap_slot(&w, key2(u, v), NULL) += pw ? pw[i] : 1;
		}
	}
	g->n = t->nports;
	g->ostart = xcalloc(g->n + 1, sizeof(int64_t));
	g->istart = xcalloc(g->n + 1, sizeof(int64_t));
	HMAP_FOR_EACH(&w, it) {
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
	HMAP_FOR_EACH(&w, it) {
		int u = (int)(it->key >> 32), v = (int)(uint32_t)it->key;
		int64_t a = fo[u]++, b = fi[v]++;

		g->oto[a] = v;
		g->ow[a] = (int64_t)it->val;
		g->ito[b] = u;
		g->iw[b] = (int64_t)it->val;
	}
	free(fo);
	free(fi);
	hmap_free(&w);
}

static void free_wgraph(struct wgraph *g)
{
	free(g->ostart);
	free(g->istart);
	free(g->oto);
	free(g->ito);
	free(g->ow);
	free(g->iw);
}

/*
 * Eades-Lin-Smyth: peel sinks to the back, sources to the front, else the
 * node with the largest out-weight minus in-weight to the front. Simple
 * O(n^2) selection for the experiment.
 */
static void els_order(const struct wgraph *g, int *pos)
{
	int n = g->n, front = 0, back = n - 1, left = n, i;
	int64_t *win = xcalloc(n, sizeof(int64_t)), *wout = xcalloc(n, sizeof(int64_t));
	int *indeg = xcalloc(n, sizeof(int)), *outdeg = xcalloc(n, sizeof(int));
	char *gone = xcalloc(n, 1);
	int64_t k;

	for (i = 0; i < n; i++) {
		for (k = g->ostart[i]; k < g->ostart[i + 1]; k++) {
			wout[i] += g->ow[k];
			outdeg[i]++;
		}
		for (k = g->istart[i]; k < g->istart[i + 1]; k++) {
			win[i] += g->iw[k];
			indeg[i]++;
		}
	}
	while (left) {
		int pick = -1, where = 0;
		int64_t best = INT64_MIN;

		for (i = 0; i < n && pick < 0; i++)
			if (!gone[i] && !outdeg[i]) {
				pick = i;
				where = 1;
			}
		for (i = 0; i < n && pick < 0; i++)
			if (!gone[i] && !indeg[i])
				pick = i;
		for (i = 0; i < n && pick < 0 ? 1 : 0; i++)
			;
		if (pick < 0) {
			for (i = 0; i < n; i++)
				if (!gone[i] && wout[i] - win[i] > best) {
					best = wout[i] - win[i];
					pick = i;
				}
		}
		gone[pick] = 1;
		left--;
		pos[pick] = where ? back-- : front++;
		for (k = g->ostart[pick]; k < g->ostart[pick + 1]; k++) {
			indeg[g->oto[k]]--;
			win[g->oto[k]] -= g->ow[k];
		}
		for (k = g->istart[pick]; k < g->istart[pick + 1]; k++) {
			outdeg[g->ito[k]]--;
			wout[g->ito[k]] -= g->iw[k];
		}
	}
	free(win);
	free(wout);
	free(indeg);
	free(outdeg);
	free(gone);
}

/* Backward edges of path i under an order. */
static int backward(const struct tagging *tg, const int *pos, int i)
{
	const struct topo *t = tg->t;
	const int32_t *h = elp_hops(tg->e, i);
	int k, b = 0;

	for (k = 1; k < elp_len(tg->e, i); k++) {
		int u = t->ports[h[k - 1]].peer, v = t->ports[h[k]].peer;

		if (tg->forwards[port_node(t, v)] && pos[u] > pos[v])
			b++;
	}
	return b;
}


/*
 * Local search on the order for the real objective: the largest number of
 * backward edges on one path (tags - 1), then how many paths reach it,
 * then the total. A move takes one in-port out of the order and puts it
 * back at the best gap; only paths through that port change.
 */
struct lsearch {
	int n;			/* ports */
	int npaths;
	int64_t *pstart;	/* paths through each port (CSR) */
	int *plist;
	int *count;		/* backward edges per path */
	int64_t *hist;		/* paths per count */
	int maxc;
};

static void ls_build(const struct tagging *tg, struct lsearch *L, const int *pos)
{
	const struct topo *t = tg->t;
	const struct elp *e = tg->e;
	int i, k, n = t->nports;
	int64_t *fill;

	L->n = n;
	L->npaths = e->npaths;
	L->pstart = xcalloc(n + 1, sizeof(int64_t));
	for (i = 0; i < e->npaths; i++)
		for (k = 0; k < elp_len(e, i); k++)
			L->pstart[t->ports[elp_hops(e, i)[k]].peer + 1]++;
	for (i = 0; i < n; i++)
		L->pstart[i + 1] += L->pstart[i];
	L->plist = xmalloc((L->pstart[n] + 1) * sizeof(int));
	fill = xmalloc((n + 1) * sizeof(int64_t));
	memcpy(fill, L->pstart, (n + 1) * sizeof(int64_t));
	for (i = 0; i < e->npaths; i++)
		for (k = 0; k < elp_len(e, i); k++) {
			int v = t->ports[elp_hops(e, i)[k]].peer;

			/* a port twice on one path is listed twice: harmless */
			L->plist[fill[v]++] = i;
		}
	free(fill);
	L->count = xmalloc(e->npaths * sizeof(int));
	L->hist = xcalloc(TAG_MAX + 2, sizeof(int64_t));
	L->maxc = 0;
	for (i = 0; i < e->npaths; i++) {
		int b = backward(tg, pos, i);

		if (b > TAG_MAX)
			b = TAG_MAX;
		L->count[i] = b;
		L->hist[b]++;
		if (b > L->maxc)
			L->maxc = b;
	}
}

static void ls_free(struct lsearch *L)
{
	free(L->pstart);
	free(L->plist);
	free(L->count);
	free(L->hist);
}

/* Backward edges of path i if port v sat at fractional position x. */
static int count_with(const struct tagging *tg, const int *pos, int i, int v, double x)
{
	const struct topo *t = tg->t;
	const int32_t *h = elp_hops(tg->e, i);
	int k, b = 0;

	for (k = 1; k < elp_len(tg->e, i); k++) {
		int a = t->ports[h[k - 1]].peer, c = t->ports[h[k]].peer;
		double pa = a == v ? x : pos[a], pc = c == v ? x : pos[c];

		if (tg->forwards[port_node(t, c)] && pa > pc)
			b++;
	}
	return b > TAG_MAX ? TAG_MAX : b;
}

/* Lexicographic objective of a histogram: max, paths at max, total. */
static int ls_better(const int64_t *h1, const int64_t *h2)
{
	int c;

	for (c = TAG_MAX; c >= 0; c--)
		if (h1[c] != h2[c])
			return h1[c] < h2[c];
	return 0;
}

static bool ls_move(const struct tagging *tg, struct lsearch *L, int *pos, int v)
{
	int64_t *h = xmalloc((TAG_MAX + 2) * sizeof(int64_t));
	int64_t *best_h = xmalloc((TAG_MAX + 2) * sizeof(int64_t));
	int64_t k;
	int q, n = L->n;
	double best_x = pos[v];
	bool moved = false;

	memcpy(best_h, L->hist, (TAG_MAX + 2) * sizeof(int64_t));
	for (q = 0; q <= n; q++) {
		double x = q - 0.5;

		if (q == pos[v] || q == pos[v] + 1)
			continue;
		memcpy(h, L->hist, (TAG_MAX + 2) * sizeof(int64_t));
		for (k = L->pstart[v]; k < L->pstart[v + 1]; k++) {
			int i = L->plist[k];

			if (k > L->pstart[v] && L->plist[k - 1] == i)
				continue;
			h[L->count[i]]--;
			h[count_with(tg, pos, i, v, x)]++;
		}
		if (ls_better(h, best_h)) {
			memcpy(best_h, h, (TAG_MAX + 2) * sizeof(int64_t));
			best_x = x;
			moved = true;
		}
	}
	if (moved) {
		int old = pos[v], u;
		int nq = (int)(best_x + 0.5);

		for (k = L->pstart[v]; k < L->pstart[v + 1]; k++) {
			int i = L->plist[k];

			if (k > L->pstart[v] && L->plist[k - 1] == i)
				continue;
			L->count[i] = count_with(tg, pos, i, v, best_x);
		}
		/* renumber: v leaves old, enters before the node at nq */
		for (u = 0; u < n; u++) {
			if (u == v)
				continue;
			if (old < nq && pos[u] > old && pos[u] < nq)
				pos[u]--;
			else if (nq <= old && pos[u] >= nq && pos[u] < old)
				pos[u]++;
		}
		pos[v] = old < nq ? nq - 1 : nq;
		memcpy(L->hist, best_h, (TAG_MAX + 2) * sizeof(int64_t));
	}
	free(h);
	free(best_h);
	return moved;
}

static void local_search(const struct tagging *tg, int *pos)
{
	struct lsearch L;
	int sweep, v;
	bool any = true;

	ls_build(tg, &L, pos);
	for (sweep = 0; sweep < 20 && any; sweep++) {
		any = false;
		for (v = 0; v < L.n; v++)
			if (L.pstart[v + 1] > L.pstart[v])
				any |= ls_move(tg, &L, pos, v);
		if (getenv("VERBOSE")) {
			int c = TAG_MAX;

			while (c > 0 && !L.hist[c])
				c--;
			fprintf(stderr, "sweep %d: max %d (%lld paths)\n", sweep, c,
				(long long)L.hist[c]);
		}
	}
	ls_free(&L);
}

static int order_begin(struct tagging *tg)
{
	struct order *o = xcalloc(1, sizeof(*o));
	int n = tg->e->npaths, i, round, rounds = getenv("ROUNDS") ? atoi(getenv("ROUNDS")) : 1;
	int64_t *pw = xmalloc(n * sizeof(int64_t)), best_sum = INT64_MAX;
	int *pos = xmalloc(tg->t->nports * sizeof(int)), best = 1 << 30;

	for (i = 0; i < n; i++)
		pw[i] = 1;
	o->pos = xmalloc(tg->t->nports * sizeof(int));
	for (round = 0; round < rounds; round++) {
		struct wgraph g;
		int mx = 0;
		int64_t sum = 0;

		build_wgraph(tg, &g, pw);
		els_order(&g, pos);
		free_wgraph(&g);
		for (i = 0; i < n; i++) {
			int b = backward(tg, pos, i);

			sum += b;
			if (b > mx)
				mx = b;
		}
		if (getenv("VERBOSE"))
			fprintf(stderr, "round %d: max %d sum %lld\n", round, mx, (long long)sum);
		if (mx < best || (mx == best && sum < best_sum)) {
			best = mx;
			best_sum = sum;
			memcpy(o->pos, pos, tg->t->nports * sizeof(int));
		}
		for (i = 0; i < n; i++)
			if (backward(tg, pos, i) == mx)
				pw[i] *= 2;
	}
	free(pw);
	free(pos);
	if (!getenv("NOLS"))
		local_search(tg, o->pos);
	tg->priv = o;
	return 0;
}

static void order_decide(struct tagging *tg, const struct tag_unit *u, uint8_t *tags)
{
	struct order *o = tg->priv;
	int k;

	for (k = 0; k < u->nkeys; k++) {
		struct tag_unit one = *u;
		int in = rule_key_in(u->keys[k]);
		int bump = o->pos[in] > o->pos[u->port];

		one.keys = &u->keys[k];
		one.nkeys = 1;
		tags[k] = (uint8_t)rule_key_tag(u->keys[k]);
		if (getenv("TRYSTAY") || !bump) {
			if (!tagging_add_edges(tg, &one, &tags[k]))
				tags[k]++;
		} else {
			tags[k]++;
		}
	}
}

static void order_end(struct tagging *tg)
{
	struct order *o = tg->priv;

	free(o->pos);
}

const struct tag_algo tag_algo_order = {
	.name = "order",
	.begin = order_begin,
	.decide = order_decide,
	.end = order_end,
};
