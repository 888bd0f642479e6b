/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A directed acyclic graph that stays acyclic under edge insertion: the
 * dynamic topological order of Pearce and Kelly (JEA 2006). The compiler
 * keeps one such graph for the union of its per-tag graphs (edges never
 * cross tags), so asking "does this edge close a cycle in its tag?" costs
 * O(1) when the edge agrees with the current order and otherwise a search
 * bounded by the region between the two endpoints' positions.
 *
 * Complexity: insertion O(1) if ord[u] < ord[v], else
 * O(|R| log |R| + edges of R) where R is the affected region; worst case
 * O(n + m) per insertion. The paper's greedy re-runs a full BFS per node
 * (O(S*T*(S+L)) overall); on the benchmark's Jellyfish graphs R is tiny.
 *
 * API:
 *   dyn_dag_init/dyn_dag_free
 *   dyn_dag_add_node(g, ord)     id of a new node (no edges) placed at
 *                                position ord of the order: callers pick
 *                                unique values, ideally close to a
 *                                topological order they expect, so that few
 *                                insertions need a reorder
 *   dyn_dag_add_edge(g, u, v)    true if added; false if it would close a
 *                                cycle (the graph is unchanged)
 *   dyn_dag_pop_edge(g, u, v)    remove the edge added last from u and to v
 *                                (rollback of a batch; order stays valid)
 */
#ifndef __TAGGER_DYN_DAG_H
#define __TAGGER_DYN_DAG_H

#include <stdbool.h>
#include <stdint.h>

struct dyn_adj {
	int *v;
	int n;
	int cap;
};

struct dyn_dag {
	int n;
	int cap;
	int64_t *ord;
	struct dyn_adj *out;
	struct dyn_adj *in;
	/* search scratch, reused across insertions */
	uint32_t *seen;
	uint32_t epoch;
	int *stack;
	int *fwd;
	int *bwd;
	int64_t *slots;
	uint64_t *keys;
	uint64_t *tmp;
	uint64_t reorders;
	uint64_t visited;
};

void dyn_dag_init(struct dyn_dag *g);
void dyn_dag_free(struct dyn_dag *g);
int dyn_dag_add_node(struct dyn_dag *g, int64_t ord);
bool dyn_dag_add_edge(struct dyn_dag *g, int u, int v);
void dyn_dag_pop_edge(struct dyn_dag *g, int u, int v);

#endif /* __TAGGER_DYN_DAG_H */
