// SPDX-License-Identifier: GPL-2.0
/* One move of the two-order search; see two_orders_move.h. */
#include <stdlib.h>
#include <string.h>

#include "compile/two_orders_move.h"
#include "lib/util.h"

/*
 * Switching on edge j: the edges before it in tag 0 (their pi0-backward
 * ones break it), those after it in tag 1 (pi1-backward ones break it).
 */
int tw_path_cost(uint64_t b0, uint64_t b1, int m)
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

void tw_set_cost(struct tw *w, int64_t p)
{
	int c = tw_path_cost(w->mask[0][p], w->mask[1][p], nedges(w, p));

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

uint64_t tw_back_mask(const struct tw *w, int64_t p, const int *pos)
{
	int64_t s = w->pstart[p];
	int m = nedges(w, p), i;
	uint64_t b = 0;

	for (i = 0; i < m; i++)
		if (pos[port_at(w, s + i)] > pos[port_at(w, s + i + 1)])
			b |= 1ULL << i;
	return b;
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
				(uint8_t)(x ? tw_path_cost(w->mask[0][p], mm,
							   m) :
					  w->tied ?
					      tw_path_cost(mm, mm, m) :
					      tw_path_cost(mm, w->mask[1][p],
							   m));
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

void tw_mark_path(struct tw *w, int p)
{
	int64_t s;

	for (s = w->pstart[p]; s < w->pstart[p + 1]; s++)
		w->dirty[0][port_at(w, s)] = w->dirty[1][port_at(w, s)] = 1;
}

/* The breakout wanders: remember where it was best. */
void tw_keep_best(struct tw *w)
{
	int x;

	if (w->unfit >= w->best)
		return;
	w->best = w->unfit;
	for (x = 0; x < 2; x++)
		memcpy(w->best_pos[x], w->pos[x], w->n * sizeof(int));
}

/*
 * Move v within order x to its best gap, if that lowers (the weights of
 * the paths that do not fit, the total cost).
 */
bool tw_improve(struct tw *w, int v, int x)
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
	if (w->tied)
		move_to(w->pos[1], w->at[1], v, gap);
	for (k = a; k < b; k++) {
		int p = w->vpath[k];

		w->mask[x][p] = tw_back_mask(w, p, w->pos[x]);
		if (w->tied)
			w->mask[1][p] = w->mask[0][p];
		tw_set_cost(w, p);
		tw_mark_path(w, p);
	}
	w->moves++;
	tw_keep_best(w);
	return true;
}
