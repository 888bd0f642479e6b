// SPDX-License-Identifier: GPL-2.0
/* Cycles of a SAT answer's graph, cut by clauses; see sat_cycles.h. */
#include <stdlib.h>

#include "compile/sat_cycles.h"
#include "graph/digraph.h"
#include "lib/hmap.h"
#include "lib/util.h"

void sat_used_push(struct sat_used *u, int a, int b, int var)
{
	if (u->m == u->cap) {
		u->cap = u->cap ? 2 * u->cap : 1024;
		u->src = xrealloc(u->src, u->cap * sizeof(int));
		u->dst = xrealloc(u->dst, u->cap * sizeof(int));
		u->var = xrealloc(u->var, u->cap * sizeof(int));
	}
	u->src[u->m] = a;
	u->dst[u->m] = b;
	u->var[u->m++] = var;
}

void sat_used_free(struct sat_used *u)
{
	free(u->src);
	free(u->dst);
	free(u->var);
}

/* Breadth-first search state, reused for every edge of one round. */
struct bfs {
	int64_t work; /* edges scanned */
	int *queue;
	int64_t *via; /* edge into a node, -1 at the start */
	uint32_t *stamp; /* via[] is valid where stamp == cur */
	uint32_t cur;
};

/*
 * Shortest cycle through used edge e0 = (a -> b): breadth-first from b
 * back to a. Fills cyc[] with used-edge ids; its length (0: none).
 */
static int shortest_through(const struct digraph *g, const struct sat_used *u,
			    struct bfs *s, int64_t e0, int64_t *cyc)
{
	int a = u->src[e0], b = u->dst[e0], head = 0, tail = 0, v, len = 0;
	int64_t i;

	s->cur++;
	s->stamp[b] = s->cur;
	s->via[b] = -1;
	s->queue[tail++] = b;
	while (head < tail && s->stamp[a] != s->cur) {
		v = s->queue[head++];
		s->work += g->start[v + 1] - g->start[v] + 1;
		for (i = g->start[v]; i < g->start[v + 1]; i++) {
			int to = g->to[i];

			if (s->stamp[to] == s->cur)
				continue;
			s->stamp[to] = s->cur;
			s->via[to] = g->eid[i];
			s->queue[tail++] = to;
		}
	}
	if (s->stamp[a] != s->cur)
		return 0;
	cyc[len++] = e0;
	for (v = a; v != b; v = u->src[s->via[v]])
		cyc[len++] = s->via[v];
	return len;
}

static int cmp_i64(const void *x, const void *y)
{
	int64_t a = *(const int64_t *)x, b = *(const int64_t *)y;

	return (a > b) - (a < b);
}

/* FNV-1a of the sorted edge set: one clause per distinct cycle. */
static uint64_t cycle_hash(int64_t *cyc, int len)
{
	uint64_t h = 1469598103934665603ULL;
	int i;

	qsort(cyc, len, sizeof(*cyc), cmp_i64);
	for (i = 0; i < len; i++)
		h = (h ^ (uint64_t)cyc[i]) * 1099511628211ULL;
	return h == HMAP_EMPTY ? 0 : h;
}

int sat_cut_cycles(CCaDiCaL *solver, const struct sat_used *u,
		   int64_t *next_edge)
{
	struct bfs s = { 0 };
	struct digraph g;
	struct hmap seen;
	int64_t *cyc, e0, j;
	int added = 0, len, i;

	digraph_build(&g, u->nnodes, u->src, u->dst, u->m);
	s.queue = xmalloc((u->nnodes + 1) * sizeof(int));
	s.via = xmalloc((u->nnodes + 1) * sizeof(int64_t));
	s.stamp = xcalloc(u->nnodes + 1, sizeof(uint32_t));
	cyc = xmalloc((u->m + 1) * sizeof(int64_t));
	hmap_init(&seen, 1024);
	/* rounds start where the last one stopped: big graphs get covered */
	for (j = 0; j < u->m && added < SAT_CYCLES_PER_ROUND &&
		    (s.work < SAT_CUT_WORK || !added);
	     j++) {
		bool fresh;

		e0 = (*next_edge + j) % u->m;
		len = shortest_through(&g, u, &s, e0, cyc);
		if (!len)
			continue;
		hmap_slot(&seen, cycle_hash(cyc, len), &fresh);
		if (!fresh)
			continue;
		if (solver) {
			for (i = 0; i < len; i++)
				ccadical_add(solver, -u->var[cyc[i]]);
			ccadical_add(solver, 0);
		}
		added++;
	}
	*next_edge += j;
	hmap_free(&seen);
	free(cyc);
	free(s.queue);
	free(s.via);
	free(s.stamp);
	digraph_free(&g);
	return added;
}
