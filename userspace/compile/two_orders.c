// SPDX-License-Identifier: GPL-2.0
/* Two priorities from two orders, searched locally; see two_orders.h. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "compile/tag_order.h"
#include "compile/two_orders.h"
#include "lib/log.h"
#include "lib/util.h"

#define MAX_EDGES 63 /* a path's backward edges are one 64-bit mask */
/* Events of each further pass of the order heuristic's search on pi0. */
#define ORDER_MORE_BUDGET 100000000ULL

struct event {
	int at; /* the neighbour's position */
	int visit; /* index into the moved port's visits */
	int flip; /* 2: its pred edge turns forward, 1: its succ edge backward */
};

struct tw {
	const struct sat_trie *tr;
	int n; /* in-ports */
	int64_t np; /* paths (distinct in-port sequences) */
	int64_t *pstart; /* per path: its trie nodes in seq[] */
	int *seq;
	uint64_t *mask[2]; /* per path: its backward edges in pi0, pi1 */
	uint8_t *cost;
	int64_t *vstart; /* per in-port: its visits (CSR) */
	int *vpath;
	uint8_t *vidx; /* the visit's index in its path */
	int *pos[2], *at[2];
	int64_t unfit, total;
	uint64_t work;
	int64_t moves;
	/* one move's scratch */
	struct event *ev, *evtmp;
	int *dist, *first; /* distinct event positions, bucket starts */
	uint32_t *pstamp; /* per position: seen in this move */
	int *pslot; /* per position: its bucket */
	uint32_t pepoch;
	uint8_t *state;
	uint8_t (*c4)[4];
	char *skip;
	int64_t scap;
	uint32_t *stamp; /* per path: paths that visit a port twice */
	uint32_t epoch;
	/* the paths that do not fit, and their breakout weights */
	int *ulist;
	int64_t *uidx; /* per path: its index in ulist, -1 if it fits */
	int64_t nul;
	uint32_t *weight;
	char *dirty[2]; /* per port: worth evaluating again in that order */
	int64_t wunfit; /* the weights of the paths that do not fit */
	/* the orders that left the fewest paths unfit so far */
	int *best_pos[2];
	int64_t best;
};

static int port_at(const struct tw *w, int64_t s)
{
	return w->tr->port[w->seq[s]];
}

static int nedges(const struct tw *w, int64_t p)
{
	return (int)(w->pstart[p + 1] - w->pstart[p] - 1);
}

static uint64_t back_mask(const struct tw *w, int64_t p, const int *pos)
{
	int64_t s = w->pstart[p];
	int m = nedges(w, p), i;
	uint64_t b = 0;

	for (i = 0; i < m; i++)
		if (pos[port_at(w, s + i)] > pos[port_at(w, s + i + 1)])
			b |= 1ULL << i;
	return b;
}

/* Set bits; backward edges are few, and no popcount instruction is assumed. */
static inline int ones(uint64_t b)
{
	int c = 0;

	for (; b; b &= b - 1)
		c++;
	return c;
}

/*
 * Switching on edge j: the edges before it in tag 0 (their pi0-backward
 * ones break it), those after it in tag 1 (pi1-backward ones break it).
 */
static int path_cost(uint64_t b0, uint64_t b1, int m)
{
	int j, best = m, c;

	if (!b0 || !b1)
		return 0;
	for (j = 0; j < m && best; j++) {
		c = ones(b0 & ((1ULL << j) - 1)) + ones(b1 >> j >> 1);
		if (c < best)
			best = c;
	}
	return best;
}

static void set_cost(struct tw *w, int64_t p)
{
	int c = path_cost(w->mask[0][p], w->mask[1][p], nedges(w, p));

	if (c && w->uidx[p] < 0) {
		w->uidx[p] = w->nul;
		w->ulist[w->nul++] = (int)p;
	} else if (!c && w->uidx[p] >= 0) {
		int last = w->ulist[--w->nul];

		w->ulist[w->uidx[p]] = last;
		w->uidx[last] = w->uidx[p];
		w->uidx[p] = -1;
	}
	w->wunfit += (int64_t)w->weight[p] * ((c > 0) - (w->cost[p] > 0));
	w->unfit += (c > 0) - (w->cost[p] > 0);
	w->total += c - w->cost[p];
	w->cost[p] = (uint8_t)c;
}

/* Distinct in-port sequences, as chains of trie nodes; false if too long. */
static bool build_paths(struct tw *w)
{
	const struct sat_trie *tr = w->tr;
	char *seen = xcalloc(tr->n + 1, 1);
	int64_t len = 0;
	int i, n, d;

	w->pstart = xmalloc((tr->npaths + 1) * sizeof(int64_t));
	w->pstart[0] = 0;
	for (i = 0; i < tr->npaths; i++) {
		n = tr->path_end[i];
		if (n < 0 || seen[n])
			continue;
		seen[n] = 1;
		for (d = 0; n >= 0; n = tr->parent[n])
			d++;
		if (d - 1 > MAX_EDGES) {
			free(seen);
			return false;
		}
		len += d;
		w->pstart[++w->np] = len;
	}
	w->seq = xmalloc((len + 1) * sizeof(int));
	memset(seen, 0, tr->n + 1);
	w->np = 0;
	for (i = 0; i < tr->npaths; i++) {
		int64_t at;

		n = tr->path_end[i];
		if (n < 0 || seen[n])
			continue;
		seen[n] = 1;
		at = w->pstart[w->np + 1];
		for (; n >= 0; n = tr->parent[n])
			w->seq[--at] = n;
		w->np++;
	}
	free(seen);
	return true;
}

static void build_visits(struct tw *w)
{
	int64_t p, s, *fill;
	int v;

	w->vstart = xcalloc(w->n + 1, sizeof(int64_t));
	for (s = 0; s < w->pstart[w->np]; s++)
		w->vstart[port_at(w, s) + 1]++;
	for (v = 0; v < w->n; v++)
		w->vstart[v + 1] += w->vstart[v];
	fill = xmalloc((w->n + 1) * sizeof(int64_t));
	memcpy(fill, w->vstart, (w->n + 1) * sizeof(int64_t));
	w->vpath = xmalloc((w->vstart[w->n] + 1) * sizeof(int));
	w->vidx = xmalloc(w->vstart[w->n] + 1);
	for (p = 0; p < w->np; p++)
		for (s = w->pstart[p]; s < w->pstart[p + 1]; s++) {
			v = port_at(w, s);
			w->vpath[fill[v]] = (int)p;
			w->vidx[fill[v]++] = (uint8_t)(s - w->pstart[p]);
		}
	free(fill);
}

/*
 * pi0: the order heuristic's (tag_order.c); of its starts the one that
 * leaves the fewest paths with two backward edges or more.
 */
static void first_order(struct tw *w, const struct topo *t, const struct elp *e)
{
	struct tagging tg = { .t = t, .e = e };
	int *pos = xmalloc((w->n + 1) * sizeof(int)), start;
	int64_t best = INT64_MAX, p, u;

	tg.forwards = elp_forwarding(t, e);
	/* both starts whatever the size: the search pays for them */
	for (start = 0; start < 2; start++) {
		int64_t was = INT64_MAX;

		order_start(&tg, start, pos);
		/* the heuristic stops while a pass still pays a little */
		for (;;) {
			for (u = p = 0; p < w->np; p++)
				u += ones(back_mask(w, p, pos)) > 1;
			if (u >= was)
				break;
			was = u;
			order_search(&tg, pos, ORDER_MORE_BUDGET);
		}
		u = was;
		pr_debug("two orders: start %d: %lld paths do not fit\n", start,
			 (long long)u);
		if (u < best) {
			best = u;
			memcpy(w->pos[0], pos, w->n * sizeof(int));
		}
	}
	free(pos);
	free(tg.forwards);
}

/*
 * A pi1 of its own: the Eades-Lin-Smyth order of the tag-1 graph that
 * pi0 implies (each path's edges after its first pi0-backward edge,
 * weighted by the paths using them), which only has to hold for those
 * suffixes, where pi0 has to hold everywhere.
 */
static void suffix_order(const struct tw *w, int *pos)
{
	struct hmap wm;
	struct ldg g;
	int64_t p, s;

	hmap_init(&wm, 1024);
	for (p = 0; p < w->np; p++) {
		uint64_t b0 = w->mask[0][p];
		int m = nedges(w, p), i;

		if (!b0)
			continue;
		s = w->pstart[p];
		for (i = __builtin_ctzll(b0) + 1; i < m; i++)
			(*hmap_slot(
				&wm,
				key2(port_at(w, s + i), port_at(w, s + i + 1)),
				NULL))++;
	}
	ldg_from_weights(&wm, w->n, &g);
	ldg_order_els(&g, pos);
	ldg_free(&g);
	hmap_free(&wm);
}

static int by_pos_then_id(const void *a, const void *b, void *pos)
{
	const int *p = pos, x = *(const int *)a, y = *(const int *)b;

	if (p[x] != p[y])
		return p[x] < p[y] ? -1 : 1;
	return (x > y) - (x < y);
}

static void permutation(int n, int *pos, int *at)
{
	int i;

	for (i = 0; i < n; i++)
		at[i] = i;
	qsort_r(at, n, sizeof(int), by_pos_then_id, pos);
	for (i = 0; i < n; i++)
		pos[at[i]] = i;
}

/* v leaves its place and enters before the port now at position gap. */
static void move_to(int *pos, int *at, int v, int gap)
{
	int old = pos[v], q;

	if (old < gap) {
		for (q = old + 1; q < gap; q++) {
			pos[at[q]] = q - 1;
			at[q - 1] = at[q];
		}
		pos[v] = gap - 1;
		at[gap - 1] = v;
		return;
	}
	for (q = old - 1; q >= gap; q--) {
		pos[at[q]] = q + 1;
		at[q + 1] = at[q];
	}
	pos[v] = gap;
	at[gap] = v;
}

static void insertion_sort(int *a, int n)
{
	int i, j, v;

	for (i = 1; i < n; i++) {
		v = a[i];
		for (j = i; j > 0 && a[j - 1] > v; j--)
			a[j] = a[j - 1];
		a[j] = v;
	}
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

/*
 * Events by position, stable: a port has few neighbours, so bucket the
 * events per distinct position and sort only those.
 */
static void sort_events(struct tw *w, int nev)
{
	int i, d = 0, *first;

	if (++w->pepoch == 0) {
		memset(w->pstamp, 0, w->n * sizeof(*w->pstamp));
		w->pepoch = 1;
	}
	for (i = 0; i < nev; i++) {
		int at = w->ev[i].at;

		if (w->pstamp[at] != w->pepoch) {
			w->pstamp[at] = w->pepoch;
			w->dist[d++] = at;
		}
	}
	if (d < 32)
		insertion_sort(w->dist, d);
	else
		qsort(w->dist, d, sizeof(int), cmp_int);
	first = w->first;
	for (i = 0; i < d; i++) {
		w->pslot[w->dist[i]] = i;
		first[i + 1] = 0;
	}
	first[0] = 0;
	for (i = 0; i < nev; i++)
		first[w->pslot[w->ev[i].at] + 1]++;
	for (i = 0; i < d; i++)
		first[i + 1] += first[i];
	for (i = 0; i < nev; i++)
		w->evtmp[first[w->pslot[w->ev[i].at]]++] = w->ev[i];
	memcpy(w->ev, w->evtmp, nev * sizeof(*w->ev));
}

static void scratch(struct tw *w, int64_t nv)
{
	if (nv <= w->scap)
		return;
	w->scap = 2 * nv;
	w->ev = xrealloc(w->ev, 2 * w->scap * sizeof(*w->ev));
	w->evtmp = xrealloc(w->evtmp, 2 * w->scap * sizeof(*w->ev));
	w->dist = xrealloc(w->dist, 2 * w->scap * sizeof(int));
	w->first = xrealloc(w->first, (2 * w->scap + 1) * sizeof(int));
	w->state = xrealloc(w->state, w->scap);
	w->c4 = xrealloc(w->c4, w->scap * sizeof(*w->c4));
	w->skip = xrealloc(w->skip, w->scap);
}

/*
 * Paths through v more than once are left out of the sweep (their cost
 * is recomputed after the move, so the totals stay exact).
 */
static void mark_returning(struct tw *w, int v)
{
	int64_t a = w->vstart[v], k;
	uint32_t once, twice;

	if (w->epoch > UINT32_MAX - 3) {
		memset(w->stamp, 0, w->np * sizeof(*w->stamp));
		w->epoch = 0;
	}
	w->epoch += 2;
	once = w->epoch;
	twice = once + 1;
	for (k = a; k < w->vstart[v + 1]; k++) {
		uint32_t *st = &w->stamp[w->vpath[k]];

		*st = *st == once || *st == twice ? twice : once;
	}
	for (k = a; k < w->vstart[v + 1]; k++)
		w->skip[k - a] = w->stamp[w->vpath[k]] == twice;
}

static bool lower(int64_t u, int64_t c, int64_t bu, int64_t bc)
{
	return u < bu || (u == bu && c < bc);
}

/* One visit's costs for its two edges at v, and its events. */
static int visit_events(struct tw *w, int v, int x, int64_t k, int nev)
{
	int64_t a = w->vstart[v], p = w->vpath[k], s = w->pstart[p];
	int i = w->vidx[k], m = nedges(w, p), bp, bs;
	uint64_t bit_p = i >= 1 ? 1ULL << (i - 1) : 0;
	uint64_t bit_s = i < m ? 1ULL << i : 0;
	uint64_t base = w->mask[x][p] & ~(bit_p | bit_s);

	for (bp = 0; bp < 2; bp++)
		for (bs = 0; bs < 2; bs++) {
			uint64_t mm =
				base | (bp ? bit_p : 0) | (bs ? bit_s : 0);

			w->c4[k - a][bp * 2 + bs] =
				(uint8_t)(x ? path_cost(w->mask[0][p], mm, m) :
					      path_cost(mm, w->mask[1][p], m));
		}
	/* v before every port: its pred edge backward, its succ edge not */
	w->state[k - a] = bit_p ? 2 : 0;
	if (bit_p)
		w->ev[nev++] = (struct event){ w->pos[x][port_at(w, s + i - 1)],
					       (int)(k - a), 2 };
	if (bit_s)
		w->ev[nev++] = (struct event){ w->pos[x][port_at(w, s + i + 1)],
					       (int)(k - a), 1 };
	return nev;
}

static void mark_path(struct tw *w, int p)
{
	int64_t s;

	for (s = w->pstart[p]; s < w->pstart[p + 1]; s++)
		w->dirty[0][port_at(w, s)] = w->dirty[1][port_at(w, s)] = 1;
}

/* The breakout wanders: remember where it was best. */
static void keep_best(struct tw *w)
{
	int x;

	if (w->unfit >= w->best)
		return;
	w->best = w->unfit;
	for (x = 0; x < 2; x++)
		memcpy(w->best_pos[x], w->pos[x], w->n * sizeof(int));
}

/* Back to the best orders seen, when the search ended above them. */
static void restore_best(struct tw *w)
{
	int64_t p;
	int x, v;

	if (w->unfit <= w->best)
		return;
	for (x = 0; x < 2; x++) {
		memcpy(w->pos[x], w->best_pos[x], w->n * sizeof(int));
		for (v = 0; v < w->n; v++)
			w->at[x][w->pos[x][v]] = v;
	}
	for (p = 0; p < w->np; p++) {
		w->mask[0][p] = back_mask(w, p, w->pos[0]);
		w->mask[1][p] = back_mask(w, p, w->pos[1]);
		set_cost(w, p);
	}
}

/*
 * Move v within order x to its best gap, if that lowers (the weights of
 * the paths that do not fit, the total cost).
 */
static bool improve(struct tw *w, int v, int x)
{
	int64_t a = w->vstart[v], b = w->vstart[v + 1], k;
	int64_t u = w->wunfit, c = w->total, bu = u, bc = c;
	int nev = 0, i, gap = -1;

	w->dirty[x][v] = 0;
	if (a == b)
		return false;
	scratch(w, b - a);
	mark_returning(w, v);
	for (k = a; k < b; k++) {
		int p = w->vpath[k], nc;

		if (w->skip[k - a])
			continue;
		nev = visit_events(w, v, x, k, nev);
		nc = w->c4[k - a][w->state[k - a]];
		u += (int64_t)w->weight[p] * ((nc > 0) - (w->cost[p] > 0));
		c += nc - w->cost[p];
	}
	w->work += (uint64_t)(nev + (b - a));
	sort_events(w, nev);
	if (lower(u, c, bu, bc)) {
		bu = u;
		bc = c;
		gap = 0;
	}
	for (i = 0; i < nev;) {
		int at = w->ev[i].at;

		for (; i < nev && w->ev[i].at == at; i++) {
			int j = w->ev[i].visit, o = w->c4[j][w->state[j]], nc;

			w->state[j] ^= (uint8_t)w->ev[i].flip;
			nc = w->c4[j][w->state[j]];
			u += (int64_t)w->weight[w->vpath[a + j]] *
			     ((nc > 0) - (o > 0));
			c += nc - o;
		}
		if (lower(u, c, bu, bc)) {
			bu = u;
			bc = c;
			gap = at + 1;
		}
	}
	if (gap < 0)
		return false;
	move_to(w->pos[x], w->at[x], v, gap);
	for (k = a; k < b; k++) {
		int p = w->vpath[k];

		w->mask[x][p] = back_mask(w, p, w->pos[x]);
		set_cost(w, p);
		mark_path(w, p);
	}
	w->moves++;
	keep_best(w);
	return true;
}

static bool past(double deadline)
{
	return deadline > 0 && now_seconds() > deadline;
}

/*
 * Breakout (Morris 1993): rounds over the in-ports of the paths that do
 * not fit, moving each in each order where that lowers the objective; a
 * round that moves nothing is a local minimum, and every path that does
 * not fit then weighs one more, which reshapes the objective until a
 * move pays. A port is evaluated again only once something on its paths
 * changed (a move, a weight). No randomness: the same walk on every run.
 */
static void breakout(struct tw *w, uint64_t budget, double deadline,
		     struct two_orders *res)
{
	int *ports = xmalloc((w->n + 1) * sizeof(int));
	uint32_t *seen = xcalloc(w->n + 1, sizeof(uint32_t));
	int64_t i, s;
	int n, j, x;

	while (w->nul && w->work < budget && !past(deadline)) {
		bool any = false;

		/* each port of a path left once, in the order met */
		res->rounds++;
		for (n = 0, i = 0; i < w->nul; i++)
			for (s = w->pstart[w->ulist[i]];
			     s < w->pstart[w->ulist[i] + 1]; s++) {
				int v = port_at(w, s);

				if (seen[v] != (uint32_t)res->rounds) {
					seen[v] = (uint32_t)res->rounds;
					ports[n++] = v;
				}
			}
		for (j = 0; j < n && w->nul && w->work < budget; j++) {
			for (x = 1; x >= 0; x--)
				if (w->dirty[x][ports[j]])
					any |= improve(w, ports[j], x);
			if (!(j & 63) && past(deadline))
				break;
		}
		if (!any) {
			for (i = 0; i < w->nul; i++) {
				w->weight[w->ulist[i]]++;
				mark_path(w, w->ulist[i]);
			}
			w->wunfit += w->nul;
			res->bumps++;
		}
		if (!(res->rounds & 63))
			pr_debug("two orders: round %d: %lld paths do not fit, "
				 "%d weight bumps, %llu events\n",
				 res->rounds, (long long)w->unfit, res->bumps,
				 (unsigned long long)w->work);
	}
	free(ports);
	free(seen);
}

static void search(struct tw *w, uint64_t budget, double deadline,
		   struct two_orders *res)
{
	bool any = true;
	int v, x;

	while (any && w->unfit && w->work < budget && !past(deadline)) {
		int64_t before = w->unfit;

		any = false;
		for (x = 1; x >= 0; x--)
			for (v = 0; v < w->n && w->unfit && w->work < budget;
			     v++) {
				any |= improve(w, v, x);
				if (!(v & 255) && past(deadline))
					break;
			}
		res->passes++;
		pr_debug(
			"two orders: pass %d: %lld paths do not fit (were %lld), "
			"cost %lld, %lld moves, %llu events\n",
			res->passes, (long long)w->unfit, (long long)before,
			(long long)w->total, (long long)w->moves,
			(unsigned long long)w->work);
	}
	breakout(w, budget, deadline, res);
}

/*
 * The tagging of two_orders.h: F = each path's edges before its last
 * pi1-backward edge stay in tag 0, every other transition switches.
 */
static int *tags_from_orders(const struct tw *w)
{
	const struct sat_trie *tr = w->tr;
	char *in_f = xcalloc(tr->ntr + 1, 1);
	int *tag = xcalloc(tr->n + 1, sizeof(int));
	int64_t p;
	int n, i;

	for (p = 0; p < w->np; p++) {
		uint64_t b1 = w->mask[1][p];
		int last = b1 ? 64 - __builtin_clzll(b1) : 0; /* 1-based */

		for (i = 0; i + 1 < last; i++)
			in_f[tr->tr[w->seq[w->pstart[p] + i + 1]]] = 1;
	}
	/* parents come before their children in the trie */
	for (n = 0; n < tr->n; n++) {
		int par = tr->parent[n];

		tag[n] = par < 0 ? 0 : tag[par] ? 1 : !in_f[tr->tr[n]];
	}
	free(in_f);
	return tag;
}

/* Every same-tag edge forward in its tag's order: both graphs acyclic. */
static bool tags_ok(const struct tw *w, const int *tag)
{
	int64_t p, s;

	for (p = 0; p < w->np; p++)
		for (s = w->pstart[p] + 1; s < w->pstart[p + 1]; s++) {
			int a = w->seq[s - 1], b = w->seq[s];

			if (tag[a] == tag[b] &&
			    w->pos[tag[a]][w->tr->port[a]] >
				    w->pos[tag[a]][w->tr->port[b]])
				return false;
		}
	return true;
}

static void tags_to_keys(const struct topo *t, const struct sat_trie *tr,
			 const int *tag, struct hmap *keys)
{
	int n;

	hmap_init(keys, 1024);
	for (n = 0; n < tr->n; n++) {
		int par = tr->parent[n];

		if (par >= 0)
			hmap_put(keys,
				 rule_key(tag[par], tr->port[par],
					  t->ports[tr->port[n]].peer),
				 (uint64_t)tag[n]);
	}
}

/* pi1: pi0 itself, or the suffixes' own order if fewer paths then fail. */
static void second_order(struct tw *w)
{
	int *pos = xmalloc((w->n + 1) * sizeof(int));
	int *at = xmalloc((w->n + 1) * sizeof(int));
	int64_t p, u = 0;

	suffix_order(w, pos);
	permutation(w->n, pos, at);
	for (p = 0; p < w->np; p++)
		u += path_cost(w->mask[0][p], back_mask(w, p, pos),
			       nedges(w, p)) > 0;
	pr_debug("two orders: pi1 = pi0: %lld paths do not fit; the suffixes' "
		 "order: %lld\n",
		 (long long)w->unfit, (long long)u);
	if (u < w->unfit) {
		memcpy(w->pos[1], pos, w->n * sizeof(int));
		memcpy(w->at[1], at, w->n * sizeof(int));
		for (p = 0; p < w->np; p++) {
			w->mask[1][p] = back_mask(w, p, w->pos[1]);
			set_cost(w, p);
		}
	}
	free(pos);
	free(at);
}

static void tw_free(struct tw *w)
{
	int x;

	for (x = 0; x < 2; x++) {
		free(w->mask[x]);
		free(w->pos[x]);
		free(w->at[x]);
		free(w->dirty[x]);
		free(w->best_pos[x]);
	}
	free(w->weight);
	free(w->ulist);
	free(w->uidx);
	free(w->pstart);
	free(w->seq);
	free(w->cost);
	free(w->vstart);
	free(w->vpath);
	free(w->vidx);
	free(w->ev);
	free(w->evtmp);
	free(w->dist);
	free(w->first);
	free(w->pstamp);
	free(w->pslot);
	free(w->state);
	free(w->c4);
	free(w->skip);
	free(w->stamp);
}

static void finish(const struct topo *t, struct tw *w, struct two_orders *res)
{
	int *tag;

	restore_best(w);
	res->unfit = w->unfit;
	res->moves = w->moves;
	res->work = w->work;
	if (w->unfit) {
		/* a start for the solver: cycles only near the paths left */
		if (!res->skipped)
			res->tag = tags_from_orders(w);
		res->result = 0;
		return;
	}
	tag = tags_from_orders(w);
	if (!tags_ok(w, tag)) {
		pr_warn("two orders: the tagging has a backward same-tag edge: a bug\n");
		free(tag);
		res->result = 0;
		return;
	}
	res->tag = tag;
	tags_to_keys(t, w->tr, tag, &res->keys);
	res->result = 1;
}

void two_orders_opts_init(struct two_orders_opts *o)
{
	*o = (struct two_orders_opts){ .work_per_visit =
					       TWO_ORDERS_WORK_PER_VISIT,
				       .max_share = TWO_ORDERS_MAX_SHARE };
}

int two_orders_search(const struct topo *t, const struct elp *e,
		      const struct sat_trie *tr,
		      const struct two_orders_opts *o, struct two_orders *res)
{
	struct tw w = { .tr = tr, .n = t->nports };
	double t0 = now_seconds();
	clock_t c0 = clock();
	int64_t p;
	int x;

	memset(res, 0, sizeof(*res));
	res->result = -1;
	if (!build_paths(&w)) {
		tw_free(&w);
		return res->result;
	}
	build_visits(&w);
	for (x = 0; x < 2; x++) {
		w.pos[x] = xmalloc((w.n + 1) * sizeof(int));
		w.at[x] = xmalloc((w.n + 1) * sizeof(int));
		w.mask[x] = xmalloc((w.np + 1) * sizeof(uint64_t));
		w.dirty[x] = xmalloc(w.n + 1);
		memset(w.dirty[x], 1, w.n + 1);
		w.best_pos[x] = xmalloc((w.n + 1) * sizeof(int));
	}
	first_order(&w, t, e);
	permutation(w.n, w.pos[0], w.at[0]);
	memcpy(w.pos[1], w.pos[0], w.n * sizeof(int));
	memcpy(w.at[1], w.at[0], w.n * sizeof(int));
	w.cost = xcalloc(w.np + 1, 1);
	w.ulist = xmalloc((w.np + 1) * sizeof(int));
	w.uidx = xmalloc((w.np + 1) * sizeof(int64_t));
	memset(w.uidx, -1, (w.np + 1) * sizeof(int64_t));
	w.weight = xmalloc((w.np + 1) * sizeof(uint32_t));
	for (p = 0; p < w.np; p++)
		w.weight[p] = 1;
	w.stamp = xcalloc(w.np + 1, sizeof(uint32_t));
	w.pstamp = xcalloc(w.n + 1, sizeof(uint32_t));
	w.pslot = xmalloc((w.n + 1) * sizeof(int));
	for (p = 0; p < w.np; p++) {
		w.mask[0][p] = w.mask[1][p] = back_mask(&w, p, w.pos[0]);
		set_cost(&w, p);
	}
	second_order(&w);
	w.best = INT64_MAX;
	keep_best(&w);
	res->paths = w.np;
	res->unfit_start = w.unfit;
	pr_info("two orders: %lld paths, %lld do not fit one order (%.2f s)\n",
		(long long)w.np, (long long)w.unfit, now_seconds() - t0);
	res->skipped = (double)w.unfit > o->max_share * (double)w.np;
	if (!res->skipped)
		search(&w, o->work_per_visit * (uint64_t)w.vstart[w.n],
		       o->deadline, res);
	finish(t, &w, res);
	tw_free(&w);
	res->seconds = now_seconds() - t0;
	res->cpu_seconds = (double)(clock() - c0) / CLOCKS_PER_SEC;
	pr_info("two orders: %s: %lld paths do not fit, %d passes, %lld moves "
		"(%.2f s)\n",
		res->result > 0 ? "2 tags" :
		res->skipped	? "not tried" :
				  "not found",
		(long long)res->unfit, res->passes, (long long)res->moves,
		res->seconds);
	return res->result;
}

void two_orders_free(struct two_orders *res)
{
	free(res->tag);
	if (res->result == 1)
		hmap_free(&res->keys);
	memset(res, 0, sizeof(*res));
}
