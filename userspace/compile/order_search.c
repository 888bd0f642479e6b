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
 *
 * Memory layout: the search is bound by memory latency, since the paths
 * through one port lie anywhere among millions. Each path is one record
 * (its count, a scratch count and its in-ports, each marked with whether
 * its node forwards) in one array, so visiting a path costs one cache
 * miss instead of four (offset, hops, ports, count), and the records of
 * the next few paths are prefetched while one is walked.
 */
#include <stdlib.h>
#include <string.h>

#include "lib/log.h"
#include "compile/tag_order.h"
#include "lib/util.h"

#define NC (TAG_MAX + 1) /* counts above TAG_MAX are clamped */

/* A path's record in search.rec: header, then its in-ports. */
enum { REC_COUNT, REC_CUR, REC_LEN, REC_HOPS };
#define REC_SKIP UINT32_MAX /* a repeated visit of a path to one port */
#define PREFETCH_AHEAD 16

struct search {
	const struct tagging *tg;
	int *pos;
	int n;
	int64_t *pstart; /* records of the paths through each in-port (CSR) */
	uint32_t *plist; /* record offsets, or REC_SKIP */
	/*
	 * Per path: REC_COUNT backward edges (clamped), REC_CUR the sweep's
	 * count, REC_LEN hops, then the in-port of each hop, ~port where
	 * its node does not forward.
	 */
	int32_t *rec;
	int64_t hist[NC]; /* paths per count */
	uint64_t work;
	/* bucketing events by neighbour: per-port slot and stamp */
	int *slot;
	uint32_t *stamp;
	uint32_t epoch;
	int *nbr; /* distinct neighbours of the port being moved */
	int *first; /* bucket starts, one per neighbour + 1 */
	int nbr_cap;
	struct event *tmp; /* sort_events' scratch */
	int tmp_cap;
};

struct event {
	int at; /* neighbour position */
	uint32_t path; /* its record */
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

static inline int rec_port(int32_t x)
{
	return x < 0 ? ~x : x;
}

/* order_backward() on a record. */
static int rec_backward(const struct search *s, uint32_t r)
{
	const int32_t *v = &s->rec[r + REC_HOPS];
	int k, b = 0, len = s->rec[r + REC_LEN];

	for (k = 1; k < len; k++)
		b += v[k] >= 0 && s->pos[rec_port(v[k - 1])] > s->pos[v[k]];
	return b;
}

static uint32_t build_records(struct search *s, uint32_t *roff)
{
	const struct topo *t = s->tg->t;
	const struct elp *e = s->tg->e;
	uint64_t size = (uint64_t)e->nhops + (uint64_t)REC_HOPS * e->npaths;
	uint32_t r = 0;
	int i, k;

	/* 4G hop slots would be tens of GB of paths: more than any input */
	if (size >= REC_SKIP) {
		p_err("order: %llu hops are too many for the order search",
		      (unsigned long long)size);
		abort();
	}
	s->rec = xmalloc((size + 1) * sizeof(int32_t));
	for (i = 0; i < e->npaths; i++) {
		const int32_t *h = elp_hops(e, i);
		int len = elp_len(e, i);

		roff[i] = r;
		s->rec[r + REC_LEN] = len;
		for (k = 0; k < len; k++) {
			int v = t->ports[h[k]].peer;

			s->rec[r + REC_HOPS + k] =
				s->tg->forwards[port_node(t, v)] ? v : ~v;
		}
		r += REC_HOPS + len;
	}
	return r;
}

static void build(struct search *s)
{
	const struct elp *e = s->tg->e;
	int64_t *fill;
	int i, k, n = s->tg->t->nports, *last;
	uint32_t *roff = xmalloc((e->npaths + 1) * sizeof(uint32_t));

	s->n = n;
	build_records(s, roff);
	s->pstart = xcalloc(n + 1, sizeof(int64_t));
	for (i = 0; i < e->npaths; i++)
		for (k = 0; k < elp_len(e, i); k++)
			s->pstart[rec_port(s->rec[roff[i] + REC_HOPS + k]) +
				  1]++;
	for (i = 0; i < n; i++)
		s->pstart[i + 1] += s->pstart[i];
	s->plist = xmalloc((s->pstart[n] + 1) * sizeof(uint32_t));
	fill = xmalloc((n + 1) * sizeof(int64_t));
	memcpy(fill, s->pstart, (n + 1) * sizeof(int64_t));
	last = xmalloc((n + 1) * sizeof(int));
	memset(last, -1, (n + 1) * sizeof(int));
	for (i = 0; i < e->npaths; i++)
		for (k = 0; k < elp_len(e, i); k++) {
			int v = rec_port(s->rec[roff[i] + REC_HOPS + k]);

			/*
			 * A path through v many times is listed once: collect()
			 * walks the whole path per entry, so one entry per visit
			 * would make events (and memory) quadratic in its length
			 * and count its edges more than once.
			 */
			s->plist[fill[v]++] = last[v] != i ? roff[i] : REC_SKIP;
			last[v] = i;
		}
	free(fill);
	free(last);
	memset(s->hist, 0, sizeof(s->hist));
	for (i = 0; i < e->npaths; i++) {
		int32_t *c = &s->rec[roff[i] + REC_COUNT];

		*c = clamp(rec_backward(s, roff[i]));
		s->hist[*c]++;
	}
	free(roff);
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

static int by_pos(const void *a, const void *b, void *pos)
{
	const int *p = pos;

	return p[*(const int *)a] - p[*(const int *)b];
}

/*
 * Sort events by neighbour position. A port has few distinct neighbours,
 * so bucket events per neighbour and sort only the neighbours: O(E + d log d).
 */
static void sort_events(struct search *s, struct event *ev, int n)
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
	qsort_r(s->nbr, d, sizeof(int), by_pos, s->pos);
	for (i = 0; i < d; i++) {
		s->slot[s->nbr[i]] = i;
		s->first[i + 1] = 0;
	}
	s->first[0] = 0;
	for (i = 0; i < n; i++)
		s->first[s->slot[ev[i].nbr] + 1]++;
	for (i = 0; i < d; i++)
		s->first[i + 1] += s->first[i];
	if (n > s->tmp_cap) {
		s->tmp_cap = 2 * n;
		s->tmp = xrealloc(s->tmp, s->tmp_cap * sizeof(*s->tmp));
	}
	for (i = 0; i < n; i++)
		s->tmp[s->first[s->slot[ev[i].nbr]]++] = ev[i];
	memcpy(ev, s->tmp, n * sizeof(*ev));
}

static void prefetch_record(const struct search *s, int64_t k)
{
	if (k < s->pstart[s->n] && s->plist[k] != REC_SKIP) {
		__builtin_prefetch(&s->rec[s->plist[k]]);
		__builtin_prefetch(&s->rec[s->plist[k]] + 8);
	}
}

/*
 * Events of v: for every path through it, where its count steps as v
 * moves, and (in REC_CUR) the count with v before every other port.
 */
static int collect(struct search *s, int v, struct event **ev, int *cap)
{
	int64_t k;
	int n = 0;

	for (k = s->pstart[v]; k < s->pstart[v + 1]; k++) {
		uint32_t r = s->plist[k];
		int j, base = 0, in_nbrs = 0, len;
		const int32_t *h;

		prefetch_record(s, k + PREFETCH_AHEAD);
		if (r == REC_SKIP)
			continue;
		h = &s->rec[r + REC_HOPS];
		len = s->rec[r + REC_LEN];
		for (j = 1; j < len; j++) {
			int a = rec_port(h[j - 1]), c = h[j];
			struct event ev1;

			if (c < 0 || (a != v && c != v)) {
				base += c >= 0 && s->pos[a] > s->pos[c];
				continue;
			}
			if (a == v)
				ev1 = (struct event){ s->pos[c], r, +1, c };
			else {
				ev1 = (struct event){ s->pos[a], r, -1, a };
				in_nbrs++;
			}
			if (n == *cap) {
				*cap = *cap ? 2 * *cap : 256;
				*ev = xrealloc(*ev, *cap * sizeof(**ev));
			}
			(*ev)[n++] = ev1;
		}
		s->rec[r + REC_CUR] = base + in_nbrs;
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

static bool improve(struct search *s, int v, struct event **ev, int *cap)
{
	int64_t h[NC], best[NC];
	int n, i, best_gap = -1;
	int64_t k;

	n = collect(s, v, ev, cap);
	if (!n)
		return false;
	s->work += n;
	sort_events(s, *ev, n);
	memcpy(h, s->hist, sizeof(h));
	memcpy(best, s->hist, sizeof(best));
	for (k = s->pstart[v]; k < s->pstart[v + 1]; k++) {
		uint32_t p = s->plist[k];
		int32_t *cur;

		if (p == REC_SKIP)
			continue;
		cur = &s->rec[p + REC_CUR];
		h[s->rec[p + REC_COUNT]]--;
		*cur = clamp(*cur);
		h[*cur]++;
	}
	/* gap 0: before everything; then after each group of equal positions */
	if (better(h, best)) {
		memcpy(best, h, sizeof(best));
		best_gap = 0;
	}
	for (i = 0; i < n;) {
		int at = (*ev)[i].at;

		for (; i < n && (*ev)[i].at == at; i++) {
			int32_t *cur = &s->rec[(*ev)[i].path + REC_CUR];

			h[*cur]--;
			*cur = clamp(*cur + (*ev)[i].delta);
			h[*cur]++;
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
		uint32_t p = s->plist[k];
		int32_t *c;

		if (p == REC_SKIP)
			continue;
		c = &s->rec[p + REC_COUNT];
		s->hist[*c]--;
		*c = clamp(rec_backward(s, p));
		s->hist[*c]++;
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
	int cap = 0, v, c;
	bool any = true;

	build(&s);
	s.slot = xmalloc(s.n * sizeof(int));
	s.stamp = xcalloc(s.n, sizeof(uint32_t));
	while (any && s.work < budget) {
		int before = top(s.hist);
		int64_t at = s.hist[before];

		any = false;
		for (v = 0; v < s.n && s.work < budget; v++)
			any |= improve(&s, v, &ev, &cap);
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
	free(s.tmp);
	free(s.pstart);
	free(s.plist);
	free(s.rec);
	free(s.slot);
	free(s.stamp);
	free(s.nbr);
	free(s.first);
	return c;
}
