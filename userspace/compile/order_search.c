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
 * through one port lie anywhere among millions. A path's count changes
 * only at the edges at v, so each visit of v by a path is one entry of v's
 * list (the path, the in-ports just before and after v): collecting v's
 * events reads its list in order and one small per-path count, which the
 * list lets the CPU fetch ahead, instead of walking every path through v.
 * A path that visits v more than once, or whose count is near the clamp,
 * is walked whole as before, so the events are the same either way.
 */
#include <stdlib.h>
#include <string.h>

#include "lib/log.h"
#include "compile/tag_order.h"
#include "lib/util.h"
#include "compile/order_search_int.h"

#define PREFETCH_AHEAD 48

struct event {
	int at; /* neighbour position */
	int path;
	int delta;
	int nbr; /* neighbour port */
};

static inline int in_port(const struct topo *t, const int32_t *h, int k)
{
	return t->ports[h[k]].peer;
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

/* Paths that enter some in-port more than once. */
static uint8_t *find_returning(struct search *s, int *last)
{
	const struct topo *t = s->tg->t;
	const struct elp *e = s->tg->e;
	uint8_t *multi = xcalloc(e->npaths + 1, 1);
	int i, k;

	for (i = 0; i < e->npaths; i++)
		for (k = 0; k < elp_len(e, i); k++) {
			int v = in_port(t, elp_hops(e, i), k);

			multi[i] |= last[v] == i;
			last[v] = i;
		}
	return multi;
}

static struct visit make_visit(const struct search *s, int i, int k, bool multi)
{
	const struct topo *t = s->tg->t;
	const int32_t *h = elp_hops(s->tg->e, i);
	const bool *fw = s->tg->forwards;
	int v = in_port(t, h, k), len = elp_len(s->tg->e, i), c;
	struct visit x = { .path = i | (multi ? MULTI : 0), -1, -1 };

	if (k > 0 && fw[port_node(t, v)])
		x.pred = in_port(t, h, k - 1);
	if (k + 1 < len) {
		c = in_port(t, h, k + 1);
		if (fw[port_node(t, c)])
			x.succ = c;
	}
	return x;
}

static void build(struct search *s)
{
	const struct topo *t = s->tg->t;
	const struct elp *e = s->tg->e;
	const bool *fw = s->tg->forwards;
	int64_t *fill;
	int i, k, n = t->nports, *last;
	uint8_t *multi;

	s->n = n;
	s->vstart = xcalloc(n + 1, sizeof(int64_t));
	/*
	 * A port of a node that does not forward (a destination host's)
	 * is only ever a path's last in-port: its visits have neither
	 * predecessor nor successor, so they would give no event and no
	 * count; such ports get no visits at all.
	 */
	for (i = 0; i < e->npaths; i++)
		for (k = 0; k < elp_len(e, i); k++) {
			int v = in_port(t, elp_hops(e, i), k);

			s->vstart[v + 1] += fw[port_node(t, v)];
		}
	for (i = 0; i < n; i++)
		s->vstart[i + 1] += s->vstart[i];
	s->visits = xmalloc((s->vstart[n] + 1) * sizeof(*s->visits));
	fill = xmalloc((n + 1) * sizeof(int64_t));
	memcpy(fill, s->vstart, (n + 1) * sizeof(int64_t));
	last = xmalloc((n + 1) * sizeof(int));
	memset(last, -1, (n + 1) * sizeof(int));
	multi = find_returning(s, last);
	memset(last, -1, (n + 1) * sizeof(int));
	for (i = 0; i < e->npaths; i++)
		for (k = 0; k < elp_len(e, i); k++) {
			int v = in_port(t, elp_hops(e, i), k);

			if (!fw[port_node(t, v)])
				continue;
			/*
			 * A path through v many times is listed once: it is
			 * walked whole, and one entry per visit would make
			 * events quadratic in its length and count its edges
			 * more than once.
			 */
			if (last[v] == i)
				s->visits[fill[v]++] =
					(struct visit){ SKIP, -1, -1 };
			else
				s->visits[fill[v]++] =
					make_visit(s, i, k, multi[i]);
			last[v] = i;
		}
	free(fill);
	free(last);
	free(multi);
	s->pc = xmalloc((e->npaths + 1) * sizeof(*s->pc));
	memset(s->hist, 0, sizeof(s->hist));
	for (i = 0; i < e->npaths; i++) {
		s->pc[i].count = clamp(order_backward(s->tg, s->pos, i));
		s->hist[s->pc[i].count]++;
	}
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

static void push_event(struct event **ev, int *n, int *cap, struct event e1)
{
	if (*n == *cap) {
		*cap = *cap ? 2 * *cap : 256;
		*ev = xrealloc(*ev, *cap * sizeof(**ev));
	}
	(*ev)[(*n)++] = e1;
}

/* Walk a whole path: its events at v and its count with v before all. */
static void walk_events(struct search *s, int v, int i, struct event **ev,
			int *n, int *cap)
{
	const struct topo *t = s->tg->t;
	const int32_t *h = elp_hops(s->tg->e, i);
	int j, base = 0, in_nbrs = 0;

	for (j = 1; j < elp_len(s->tg->e, i); j++) {
		int a = in_port(t, h, j - 1), c = in_port(t, h, j);
		bool fc = s->tg->forwards[port_node(t, c)];

		if (!fc || (a != v && c != v)) {
			base += fc && s->pos[a] > s->pos[c];
			continue;
		}
		if (a == v)
			push_event(ev, n, cap,
				   (struct event){ s->pos[c], i, +1, c });
		else {
			push_event(ev, n, cap,
				   (struct event){ s->pos[a], i, -1, a });
			in_nbrs++;
		}
	}
	s->pc[i].cur = base + in_nbrs;
}

/*
 * Events of v: for every path through it, where its count steps as v
 * moves, and (in cur) the count with v before every other port. The
 * events of one path are in hop order, the paths in path order.
 */
static int collect(struct search *s, int v, struct event **ev, int *cap)
{
	int64_t k, all = s->vstart[s->n];
	int n = 0;

	for (k = s->vstart[v]; k < s->vstart[v + 1]; k++) {
		const struct visit *x = &s->visits[k];
		int p, in_nbrs = 0;

		/*
		 * Written out here: GCC drops a helper whose only effect is a
		 * prefetch as a call without side effects. The next port's
		 * visits follow this one's, and are read next.
		 */
		if (k + PREFETCH_AHEAD < all) {
			uint32_t ahead = s->visits[k + PREFETCH_AHEAD].path;

			if (ahead != SKIP)
				__builtin_prefetch(&s->pc[ahead & ~MULTI]);
		}
		if (x->path == SKIP)
			continue;
		p = x->path & ~MULTI;
		if (walked(s, x)) {
			walk_events(s, v, p, ev, &n, cap);
			continue;
		}
		if (x->pred >= 0) {
			push_event(ev, &n, cap,
				   (struct event){ s->pos[x->pred], p, -1,
						   x->pred });
			in_nbrs++;
		}
		if (x->succ >= 0)
			push_event(ev, &n, cap,
				   (struct event){ s->pos[x->succ], p, +1,
						   x->succ });
		s->pc[p].cur = s->pc[p].count - backward_at(s, v, x) + in_nbrs;
	}
	return n;
}

/* at[]: the port at each position, if pos is a permutation (else NULL). */
static void build_at(struct search *s)
{
	int u;

	s->at = xmalloc((s->n + 1) * sizeof(int));
	memset(s->at, -1, (s->n + 1) * sizeof(int));
	for (u = 0; u < s->n; u++) {
		if (s->pos[u] < 0 || s->pos[u] >= s->n ||
		    s->at[s->pos[u]] >= 0) {
			free(s->at);
			s->at = NULL;
			return;
		}
		s->at[s->pos[u]] = u;
	}
}

static void move_to(struct search *s, int v, int gap)
{
	int old = s->pos[v], u, q;

	/* v leaves its place and enters before the port now at position gap */
	if (s->at && old < gap) {
		for (q = old + 1; q < gap; q++) {
			s->pos[s->at[q]] = q - 1;
			s->at[q - 1] = s->at[q];
		}
		s->pos[v] = gap - 1;
		s->at[gap - 1] = v;
		return;
	}
	if (s->at) {
		for (q = old - 1; q >= gap; q--) {
			s->pos[s->at[q]] = q + 1;
			s->at[q + 1] = s->at[q];
		}
		s->pos[v] = gap;
		s->at[gap] = v;
		return;
	}
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

/* Counts after v moved: exact, as a walk of each path would give them. */
void os_recount(struct search *s, int v, int gap)
{
	int64_t k;

	/* the count without v's edges, while v is still where it was */
	for (k = s->vstart[v]; k < s->vstart[v + 1]; k++) {
		const struct visit *x = &s->visits[k];

		if (x->path != SKIP && !walked(s, x))
			s->pc[x->path].cur =
				s->pc[x->path].count - backward_at(s, v, x);
	}
	move_to(s, v, gap);
	for (k = s->vstart[v]; k < s->vstart[v + 1]; k++) {
		const struct visit *x = &s->visits[k];
		int p = x->path & ~MULTI, c;

		if (x->path == SKIP)
			continue;
		/*
		 * Near the clamp, recount rather than add: the sweep clamps at
		 * every step, so on a path with more than TAG_MAX backward
		 * edges its prediction can be off, and a drifting histogram
		 * would never let the search stop.
		 */
		c = walked(s, x) ? clamp(order_backward(s->tg, s->pos, p)) :
				   s->pc[p].cur + backward_at(s, v, x);
		s->hist[s->pc[p].count]--;
		s->pc[p].count = c;
		s->hist[c]++;
	}
}

static bool improve(struct search *s, int v, struct event **ev, int *cap)
{
	int64_t h[NC], best[NC];
	int n, i, best_gap = -1;
	int64_t k;

	n = os_improve_source(s, v);
	if (n >= 0)
		return n;
	n = collect(s, v, ev, cap);
	if (!n)
		return false;
	s->work += n;
	sort_events(s, *ev, n);
	memcpy(h, s->hist, sizeof(h));
	memcpy(best, s->hist, sizeof(best));
	for (k = s->vstart[v]; k < s->vstart[v + 1]; k++) {
		struct pcount *pc;

		if (s->visits[k].path == SKIP)
			continue;
		pc = &s->pc[s->visits[k].path & ~MULTI];
		h[pc->count]--;
		pc->cur = clamp(pc->cur);
		h[pc->cur]++;
	}
	/* gap 0: before everything; then after each group of equal positions */
	if (better(h, best)) {
		memcpy(best, h, sizeof(best));
		best_gap = 0;
	}
	for (i = 0; i < n;) {
		int at = (*ev)[i].at;

		for (; i < n && (*ev)[i].at == at; i++) {
			int32_t *cur = &s->pc[(*ev)[i].path].cur;

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
	os_recount(s, v, best_gap);
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
	build_at(&s);
	os_build_sources(&s);
	s.slot = xmalloc(s.n * sizeof(int));
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
	free(s.at);
	free(s.vstart);
	free(s.visits);
	free(s.pc);
	free(s.slot);
	free(s.stamp);
	free(s.nbr);
	free(s.first);
	free(s.kind);
	free(s.sstart);
	free(s.succs);
	free(s.nsucc);
	return c;
}
