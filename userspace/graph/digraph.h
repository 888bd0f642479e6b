/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Static directed graphs in compressed (CSR) form, and cycle finding.
 * Used by the CBD check (link dependency graph) and by the verifier (buffer
 * dependency graph); the compiler uses its own incremental order instead.
 *
 * API:
 *   digraph_build(&g, n, src, dst, m)   m edges, duplicates allowed; edge
 *                                       ids keep the caller's numbering
 *   digraph_find_cycle(&g, &cyc)        length of one cycle (0 if acyclic);
 *                                       cyc[] holds its edge ids in order
 *   digraph_free(&g)
 * O(n + m) time and memory; iterative, so deep graphs do not overflow the
 * stack.
 */
#ifndef __TAGGER_DIGRAPH_H
#define __TAGGER_DIGRAPH_H

#include <stdint.h>

struct digraph {
	int n;
	int64_t m;
	int64_t *start; /* n + 1 */
	int *to; /* m */
	int64_t *eid; /* m: caller's edge id */
};

void digraph_build(struct digraph *g, int n, const int *src, const int *dst,
		   int64_t m);
int digraph_find_cycle(const struct digraph *g, int64_t **cycle);
void digraph_free(struct digraph *g);

#endif /* __TAGGER_DIGRAPH_H */
