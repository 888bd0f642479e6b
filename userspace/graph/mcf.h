/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Min-cost max-flow with integer capacities and non-negative integer costs
 * (successive shortest paths, Dijkstra on reduced costs, in phases: after
 * each Dijkstra every path of zero reduced-cost arcs is a shortest path, so
 * a depth-first search augments along all of them before the next one).
 * Built for the many small unit-capacity problems of Flattened Clos
 * routing (appendix A.1): one reusable struct, reset between problems, no
 * allocation once warm.
 * Integral capacities give an integral optimum (theorem 6), so the flow
 * decomposes into paths; mcf_take_path walks and removes one of them.
 *
 * API:
 *   mcf_init/mcf_free
 *   mcf_reset(g, n)                    n nodes, no arcs
 *   mcf_arc(g, u, v, cap, cost)        arc id (MCF_INF: unbounded)
 *   mcf_solve(g, s, t, limit, &cost)   flow value (at most limit)
 *   mcf_flow(g, arc)                   flow on an arc after solve (a
 *                                      test oracle: only the unit tests
 *                                      read flows arc by arc)
 *   mcf_take_path(g, s, t, arcs, max)  one unit s->t along arcs with flow,
 *                                      flow decremented; returns #arcs
 * O(F * (m log n)) for flow value F; in practice one Dijkstra per distinct
 * path length.
 */
#ifndef __TAGGER_MCF_H
#define __TAGGER_MCF_H

#include <stdint.h>

#define MCF_INF (1 << 29)

struct mcf {
	int n, m; /* nodes; arcs (forward + reverse) */
	int n_cap, m_cap;
	int *first; /* n: first arc out of a node */
	int *next; /* m */
	int *to; /* m */
	int *cap; /* m: residual capacity */
	int *cost; /* m */
	int *flow; /* m/2: flow on forward arcs */
	int64_t *pi; /* n: potentials */
	int64_t *dist; /* n */
	int *pred; /* n: arc into a node on the shortest path */
	int *heap; /* binary heap of nodes keyed by dist */
	int *hpos; /* n: position in heap, -1 if not in it */
	int hn;
	int *cur; /* n: current arc of the phase's path search */
	char *mark; /* n: 1 on the search path, 2 dead end */
};

void mcf_init(struct mcf *g);
void mcf_free(struct mcf *g);
void mcf_reset(struct mcf *g, int n);
int mcf_arc(struct mcf *g, int u, int v, int cap, int cost);
int mcf_solve(struct mcf *g, int s, int t, int limit, int64_t *cost);
int mcf_flow(const struct mcf *g, int arc);
int mcf_take_path(struct mcf *g, int s, int t, int *arcs, int max);

static inline int mcf_head(const struct mcf *g, int arc)
{
	return g->to[2 * arc];
}

#endif /* __TAGGER_MCF_H */
