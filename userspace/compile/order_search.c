// SPDX-License-Identifier: GPL-2.0
/*
 * Local search on the order of in-ports for the min-max objective of
 * order-based tagging (tag_order.h): the largest number of backward edges
 * on one path, then how many paths have that many, then the total.
 *
 * A move takes one in-port v out of the order and puts it back in the best
 * gap. Only paths through v change, and a path's count changes only where
 * v passes one of its neighbours on that path: +1 passing a successor
 * (that edge turns backward), -1 passing a predecessor. So one sweep of
 * sorted neighbour positions evaluates every gap: O(E_v log E_v) for E_v
 * (path, edge-at-v) pairs, O(total hops * log) for a pass over all ports.
 *
 * The search stops when a pass improves nothing or when it has processed
 * `budget` events: a work budget, not a clock, so a result never depends
 * on the machine's speed.
 */
#include <stdlib.h>
#include <string.h>

#include "lib/log.h"
#include "compile/tag_order.h"
#include "lib/util.h"

#define NC (TAG_MAX + 1) /* counts above TAG_MAX are clamped */

struct search {
	const struct tagging *tg;
	int *pos;
	int n;
	int64_t *pstart; /* distinct paths through each in-port (CSR) */
	int *plist;
	int *count; /* backward edges per path, clamped */
	int64_t hist[NC]; /* paths per count */
	uint64_t work;
	/* bucketing events by neighbour: per-port slot and stamp */
	int *slot;
	uint32_t *stamp;
	uint32_t epoch;
	int *nbr; /* distinct neighbours of the port being moved */
	int *first; /* bucket starts, one per neighbour + 1 */
	int nbr_cap;
};

struct event {
	int at; /* neighbour position */
	int path;
	int delta;
	int nbr; /* neighbour port */
};

static int clamp(int c)
{
	return c < NC - 1 ? c : NC - 1;
}

int order_backward(const struct tagging *tg, const int *pos, int i)
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

static void build(struct search *s)
{
	const struct topo *t = s->tg->t;
	const struct elp *e = s->tg->e;
	int64_t *fill;
	int i, k, n = t->nports, *last;

	s->n = n;
	s->pstart = xcalloc(n + 1, sizeof(int64_t));
	for (i = 0; i < e->npaths; i++)
		for (k = 0; k < elp_len(e, i); k++)
			s->pstart[t->ports[elp_hops(e, i)[k]].peer + 1]++;
	for (i = 0; i < n; i++)
		s->pstart[i + 1] += s->pstart[i];
	s->plist = xmalloc((s->pstart[n] + 1) * sizeof(int));
	fill = xmalloc((n + 1) * sizeof(int64_t));
	memcpy(fill, s->pstart, (n + 1) * sizeof(int64_t));
	last = xmalloc((n + 1) * sizeof(int));
	memset(last, -1, (n + 1) * sizeof(int));
	for (i = 0; i < e->npaths; i++)
		for (k = 0; k < elp_len(e, i); k++) {
			int v = t->ports[elp_hops(e, i)[k]].peer;

			/*
			 * A path through v many times is listed once: collect()
			 * walks the whole path per entry, so one entry per visit
			 * would make events (and memory) quadratic in its length
			 * and count its edges more than once.
			 */
			s->plist[fill[v]++] = last[v] != i ? i : -1;
			last[v] = i;
		}
	free(fill);
	free(last);
	s->count = xmalloc((e->npaths + 1) * sizeof(int));
	memset(s->hist, 0, sizeof(s->hist));
	for (i = 0; i < e->npaths; i++) {
		s->count[i] = clamp(order_backward(s->tg, s->pos, i));
		s->hist[s->count[i]]++;
	}
}

/* Lexicographic: max count first (fewest paths there), then the total. */
static int better(const int64_t *a, const int64_t *b)
{
	int64_t ta = 0, tb = 0;
	int c;

	for (c = NC - 1; c >= 0; c--) {
		if (a[c] != b[c])
			return a[c] < b[c];
	}
	for (c = 0; c < NC; c++) {
		ta += c * a[c];
		tb += c * b[c];
	}
	return ta < tb;
}

static const int *nbr_pos;

static int by_pos(const void *a, const void *b)
{
	return nbr_pos[*(const int *)a] - nbr_pos[*(const int *)b];
}

/*
 * Sort events by neighbour position. A port has few distinct neighbours,
 * so bucket events per neighbour and sort only the neighbours: O(E + d log d).
 */
static void sort_events(struct search *s, struct event *ev, int n,
			struct event **tmp, int *tmp_cap)
{
	int i, d = 0;

	if (++s->epoch == 0) {
		memset(s->stamp, 0, s->n * sizeof(*s->stamp));
		s->epoch = 1;
	}
	for (i = 0; i < n; i++) {
		int w = ev[i].nbr;

		if (s->stamp[w] != s->epoch) {
			s->stamp[w] = s->epoch;
			if (d + 1 >= s->nbr_cap) {
				s->nbr_cap = 2 * (d + 1);
				s->nbr = xrealloc(s->nbr,
						  s->nbr_cap * sizeof(int));
				s->first =
					xrealloc(s->first, (s->nbr_cap + 1) *
								   sizeof(int));
			}
			s->nbr[d++] = w;
		}
	}
	nbr_pos = s->pos;
	qsort(s->nbr, d, sizeof(int), by_pos);
	for (i = 0; i < d; i++) {
		s->slot[s->nbr[i]] = i;
		s->first[i + 1] = 0;
	}
	s->first[0] = 0;
	for (i = 0; i < n; i++)
		s->first[s->slot[ev[i].nbr] + 1]++;
	for (i = 0; i < d; i++)
		s->first[i + 1] += s->first[i];
	if (n > *tmp_cap) {
		*tmp_cap = 2 * n;
		*tmp = xrealloc(*tmp, *tmp_cap * sizeof(**tmp));
	}
	for (i = 0; i < n; i++)
		(*tmp)[s->first[s->slot[ev[i].nbr]]++] = ev[i];
	memcpy(ev, *tmp, n * sizeof(*ev));
}

/*
 * Events of v: for every path through it, where its count steps as v
 * moves, and the count with v before every other port (start).
 */
static int collect(struct search *s, int v, struct event **ev, int *cap,
		   int *start)
{
	const struct topo *t = s->tg->t;
	const struct elp *e = s->tg->e;
	int64_t k;
	int n = 0;

	for (k = s->pstart[v]; k < s->pstart[v + 1]; k++) {
		int i = s->plist[k], j, base = 0, in_nbrs = 0;
		const int32_t *h;

		if (i < 0)
			continue;
		h = elp_hops(e, i);
		for (j = 1; j < elp_len(e, i); j++) {
			int a = t->ports[h[j - 1]].peer,
			    c = t->ports[h[j]].peer;
			struct event ev1;

			if (!s->tg->forwards[port_node(t, c)] ||
			    (a != v && c != v)) {
				base += s->tg->forwards[port_node(t, c)] &&
					s->pos[a] > s->pos[c];
				continue;
			}
			if (a == v)
				ev1 = (struct event){ s->pos[c], i, +1, c };
			else {
				ev1 = (struct event){ s->pos[a], i, -1, a };
				in_nbrs++;
			}
			if (n == *cap) {
				*cap = *cap ? 2 * *cap : 256;
				*ev = xrealloc(*ev, *cap * sizeof(**ev));
			}
			(*ev)[n++] = ev1;
		}
		start[i] = base + in_nbrs;
	}
	return n;
}

static void move_to(struct search *s, int v, int gap)
{
	int old = s->pos[v], u;

	/* v leaves its place and enters before the port now at position gap */
	for (u = 0; u < s->n; u++) {
		if (u == v)
			continue;
		if (old < gap && s->pos[u] > old && s->pos[u] < gap)
			s->pos[u]--;
		else if (gap <= old && s->pos[u] >= gap && s->pos[u] < old)
			s->pos[u]++;
	}
	s->pos[v] = old < gap ? gap - 1 : gap;
}

static bool improve(struct search *s, int v, struct event **ev, int *cap,
		    int *cur)
{
	static struct event *tmp;
	static int tmp_cap;
	int64_t h[NC], best[NC];
	int n, i, best_gap = -1;
	int64_t k;

	n = collect(s, v, ev, cap, cur);
	if (!n)
		return false;
	s->work += n;
	sort_events(s, *ev, n, &tmp, &tmp_cap);
	memcpy(h, s->hist, sizeof(h));
	memcpy(best, s->hist, sizeof(best));
	for (k = s->pstart[v]; k < s->pstart[v + 1]; k++) {
		int p = s->plist[k];

		if (p < 0)
			continue;
		h[s->count[p]]--;
		cur[p] = clamp(cur[p]);
		h[cur[p]]++;
	}
	/* gap 0: before everything; then after each group of equal positions */
	if (better(h, best)) {
		memcpy(best, h, sizeof(best));
		best_gap = 0;
	}
	for (i = 0; i < n;) {
		int at = (*ev)[i].at;

		for (; i < n && (*ev)[i].at == at; i++) {
			int p = (*ev)[i].path;

			h[cur[p]]--;
			cur[p] = clamp(cur[p] + (*ev)[i].delta);
			h[cur[p]]++;
		}
		if (better(h, best)) {
			memcpy(best, h, sizeof(best));
			best_gap = at + 1;
		}
	}
	if (best_gap < 0)
		return false;
	move_to(s, v, best_gap);
	/*
	 * Recount rather than take `best`: the sweep clamps at every step, so
	 * on a path with more than TAG_MAX backward edges its prediction can
	 * be off, and a drifting histogram would never let the search stop.
	 */
	for (k = s->pstart[v]; k < s->pstart[v + 1]; k++) {
		int p = s->plist[k];

		if (p < 0)
			continue;
		s->hist[s->count[p]]--;
		s->count[p] = clamp(order_backward(s->tg, s->pos, p));
		s->hist[s->count[p]]++;
	}
	return true;
}

static int top(const int64_t *h)
{
	int c;

	for (c = NC - 1; c > 0 && !h[c]; c--)
		;
	return c;
}

/*
 * Passes continue while they pay: the largest count drops, or the paths at
 * it drop by at least 25%. Moves that only lower the total keep improving
 * for a long time on large graphs and do not change the tags needed.
 */
int order_search(const struct tagging *tg, int *pos, uint64_t budget)
{
	struct search s = { .tg = tg, .pos = pos };
	struct event *ev = NULL;
	int *cur, cap = 0, v, c;
	bool any = true;

	build(&s);
	s.slot = xmalloc(s.n * sizeof(int));
	s.stamp = xcalloc(s.n, sizeof(uint32_t));
	cur = xmalloc((tg->e->npaths + 1) * sizeof(int));
	while (any && s.work < budget) {
		int before = top(s.hist);
		int64_t at = s.hist[before];

		any = false;
		for (v = 0; v < s.n && s.work < budget; v++)
			any |= improve(&s, v, &ev, &cap, cur);
		pr_debug(
			"order: pass: %d backward edges on %lld paths (was %d on %lld), "
			"%llu events\n",
			top(s.hist), (long long)s.hist[top(s.hist)], before,
			(long long)at, (unsigned long long)s.work);
		if (top(s.hist) == before && s.hist[before] * 4 > at * 3)
			break;
	}
	for (c = NC - 1; c > 0 && !s.hist[c]; c--)
		;
	free(ev);
	free(cur);
	free(s.pstart);
	free(s.plist);
	free(s.count);
	free(s.slot);
	free(s.stamp);
	free(s.nbr);
	free(s.first);
	return c;
}
