// SPDX-License-Identifier: GPL-2.0
/* Min-cost max-flow by successive shortest paths; see mcf.h. */
#include <stdlib.h>
#include <string.h>

#include "graph/mcf.h"
#include "lib/util.h"

#define DIST_INF INT64_MAX

void mcf_init(struct mcf *g)
{
	memset(g, 0, sizeof(*g));
}

void mcf_free(struct mcf *g)
{
	free(g->first);
	free(g->next);
	free(g->to);
	free(g->cap);
	free(g->cost);
	free(g->flow);
	free(g->pi);
	free(g->dist);
	free(g->pred);
	free(g->heap);
	free(g->hpos);
	free(g->cur);
	free(g->mark);
	mcf_init(g);
}

void mcf_reset(struct mcf *g, int n)
{
	if (n > g->n_cap) {
		g->n_cap = n + n / 2 + 16;
		g->first = xrealloc(g->first, g->n_cap * sizeof(int));
		g->pi = xrealloc(g->pi, g->n_cap * sizeof(int64_t));
		g->dist = xrealloc(g->dist, g->n_cap * sizeof(int64_t));
		g->pred = xrealloc(g->pred, g->n_cap * sizeof(int));
		g->heap = xrealloc(g->heap, g->n_cap * sizeof(int));
		g->hpos = xrealloc(g->hpos, g->n_cap * sizeof(int));
		g->cur = xrealloc(g->cur, g->n_cap * sizeof(int));
		g->mark = xrealloc(g->mark, g->n_cap);
	}
	g->n = n;
	g->m = 0;
	memset(g->first, 0xff, n * sizeof(int));
}

static void grow_arcs(struct mcf *g)
{
	g->m_cap = g->m_cap ? 2 * g->m_cap : 1024;
	g->next = xrealloc(g->next, g->m_cap * sizeof(int));
	g->to = xrealloc(g->to, g->m_cap * sizeof(int));
	g->cap = xrealloc(g->cap, g->m_cap * sizeof(int));
	g->cost = xrealloc(g->cost, g->m_cap * sizeof(int));
	g->flow = xrealloc(g->flow, g->m_cap / 2 * sizeof(int));
}

static void half_arc(struct mcf *g, int u, int v, int cap, int cost)
{
	int a = g->m++;

	g->to[a] = v;
	g->cap[a] = cap;
	g->cost[a] = cost;
	g->next[a] = g->first[u];
	g->first[u] = a;
}

int mcf_arc(struct mcf *g, int u, int v, int cap, int cost)
{
	if (g->m + 2 > g->m_cap)
		grow_arcs(g);
	g->flow[g->m / 2] = 0;
	half_arc(g, u, v, cap, cost);
	half_arc(g, v, u, 0, -cost);
	return g->m / 2 - 1;
}

/* The unit tests' view of one arc; the routing reads flows by mcf_take_path. */
int mcf_flow(const struct mcf *g, int arc)
{
	return g->flow[arc];
}

/* Indexed binary min-heap on dist[], with decrease-key. */
static void heap_up(struct mcf *g, int i)
{
	int v = g->heap[i];

	while (i > 0) {
		int p = (i - 1) / 2;

		if (g->dist[g->heap[p]] <= g->dist[v])
			break;
		g->heap[i] = g->heap[p];
		g->hpos[g->heap[i]] = i;
		i = p;
	}
	g->heap[i] = v;
	g->hpos[v] = i;
}

static void heap_down(struct mcf *g, int i)
{
	int v = g->heap[i];

	for (;;) {
		int c = 2 * i + 1;

		if (c >= g->hn)
			break;
		if (c + 1 < g->hn &&
		    g->dist[g->heap[c + 1]] < g->dist[g->heap[c]])
			c++;
		if (g->dist[g->heap[c]] >= g->dist[v])
			break;
		g->heap[i] = g->heap[c];
		g->hpos[g->heap[i]] = i;
		i = c;
	}
	g->heap[i] = v;
	g->hpos[v] = i;
}

static void heap_push_or_decrease(struct mcf *g, int v)
{
	if (g->hpos[v] < 0) {
		g->heap[g->hn] = v;
		g->hpos[v] = g->hn++;
	}
	heap_up(g, g->hpos[v]);
}

static int heap_pop(struct mcf *g)
{
	int v = g->heap[0];

	g->hpos[v] = -2; /* settled */
	if (--g->hn > 0) {
		g->heap[0] = g->heap[g->hn];
		heap_down(g, 0);
	}
	return v;
}

/*
 * Dijkstra on reduced costs from s, stopping once t is settled. Returns
 * dist[t] or DIST_INF. hpos: -1 unseen, >= 0 queued, -2 settled.
 */
static int64_t shortest(struct mcf *g, int s, int t)
{
	int v, a;

	for (v = 0; v < g->n; v++) {
		g->dist[v] = DIST_INF;
		g->hpos[v] = -1;
	}
	g->hn = 0;
	g->dist[s] = 0;
	heap_push_or_decrease(g, s);
	while (g->hn) {
		int u = heap_pop(g);

		if (u == t)
			break;
		for (a = g->first[u]; a >= 0; a = g->next[a]) {
			int w = g->to[a];
			int64_t d;

			if (!g->cap[a] || g->hpos[w] == -2)
				continue;
			d = g->dist[u] + g->cost[a] + g->pi[u] - g->pi[w];
			if (d < g->dist[w]) {
				g->dist[w] = d;
				g->pred[w] = a;
				heap_push_or_decrease(g, w);
			}
		}
	}
	return g->dist[t];
}

static int64_t reduced(const struct mcf *g, int a, int u)
{
	return g->cost[a] + g->pi[u] - g->pi[g->to[a]];
}

/*
 * One augmenting path of zero reduced-cost arcs (a shortest path), by
 * depth-first search with current-arc pointers: nodes found to be dead
 * ends stay dead for the phase. pred[] holds the path. 0 if none.
 */
static int zero_path(struct mcf *g, int s, int t)
{
	int u = s;

	g->mark[s] = 1;
	while (u != t) {
		int a;

		for (a = g->cur[u]; a >= 0; a = g->next[a]) {
			int w = g->to[a];

			if (g->cap[a] && !g->mark[w] && !reduced(g, a, u))
				break;
		}
		g->cur[u] = a;
		if (a >= 0) {
			u = g->to[a];
			g->pred[u] = a;
			g->mark[u] = 1;
			continue;
		}
		g->mark[u] = 2; /* dead end for this phase */
		if (u == s)
			return 0;
		u = g->to[g->pred[u] ^ 1];
		g->cur[u] = g->next[g->cur[u]];
	}
	/* Unmark the path so later searches may reuse its nodes. */
	for (u = t; u != s; u = g->to[g->pred[u] ^ 1])
		g->mark[u] = 0;
	g->mark[s] = 0;
	return 1;
}

static int augment(struct mcf *g, int s, int t, int push, int64_t *cost)
{
	int v;

	for (v = t; v != s; v = g->to[g->pred[v] ^ 1])
		if (g->cap[g->pred[v]] < push)
			push = g->cap[g->pred[v]];
	for (v = t; v != s; v = g->to[g->pred[v] ^ 1]) {
		int a = g->pred[v];

		g->cap[a] -= push;
		g->cap[a ^ 1] += push;
		g->flow[a / 2] += a & 1 ? -push : push;
		*cost += (int64_t)push * g->cost[a];
	}
	return push;
}

int mcf_solve(struct mcf *g, int s, int t, int limit, int64_t *cost)
{
	int flow = 0, v;

	*cost = 0;
	/* Costs are non-negative, so zero potentials are feasible. */
	memset(g->pi, 0, g->n * sizeof(int64_t));
	while (flow < limit) {
		int64_t dt = shortest(g, s, t);

		if (dt == DIST_INF)
			break;
		/*
		 * Settled nodes move by their distance, the rest by dist[t]: reduced
		 * costs stay non-negative, and zero on every shortest path. Nodes
		 * unreached now stay unreachable (new residual arcs only join nodes
		 * on augmenting paths), so their potentials never matter.
		 */
		for (v = 0; v < g->n; v++)
			g->pi[v] += g->hpos[v] == -2 ? g->dist[v] :
				    g->dist[v] < dt  ? g->dist[v] :
						       dt;
		/* Any path of zero reduced-cost arcs costs exactly the shortest. */
		for (v = 0; v < g->n; v++) {
			g->cur[v] = g->first[v];
			g->mark[v] = 0;
		}
		while (flow < limit && zero_path(g, s, t))
			flow += augment(g, s, t, limit - flow, cost);
	}
	return flow;
}

int mcf_take_path(struct mcf *g, int s, int t, int *arcs, int max)
{
	int u = s, n = 0, a;

	while (u != t) {
		for (a = g->first[u]; a >= 0; a = g->next[a])
			if (!(a & 1) && g->flow[a / 2] > 0)
				break;
		if (a < 0 || n == max)
			return -1;
		g->flow[a / 2]--;
		arcs[n++] = a / 2;
		u = g->to[a];
	}
	return n;
}
