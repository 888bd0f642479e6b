/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The lazy half of tag_sat.h's acyclicity: the graph of the edges a SAT
 * answer uses, each implied by its edge variable, and a clause "not all
 * of these edges" for each of its cycles. Every such clause holds in
 * every real solution, so the solver can take them in rounds.
 *
 * API:
 *   sat_used_push(&u, a, b, var)   edge a -> b (nodes below u.nnodes),
 *                                  used because var is true
 *   sat_used_free(&u)
 *   sat_cut_cycles(s, &u, &next_edge)
 *       for every used edge, the shortest cycle through it added to the
 *       solver s as a clause (s NULL: counted only), each distinct cycle
 *       once, up to SAT_CYCLES_PER_ROUND clauses and SAT_CUT_WORK edge
 *       scans but never stopping before the first; short cycles make
 *       short clauses, and one per edge cuts every cycle-closing edge of
 *       the answer at once. The search starts at edge *next_edge (modulo
 *       u.m) and leaves it past the last edge searched, so the rounds of
 *       a big graph cover all of it. The number added (0: every edge was
 *       searched and the graph is acyclic: the answer is a solution).
 *
 * Cost: a breadth-first search per edge, O(m) each, bounded per round by
 * SAT_CUT_WORK.
 */
#ifndef __TAGGER_SAT_CYCLES_H
#define __TAGGER_SAT_CYCLES_H

#include <ccadical.h>
#include <stdint.h>

/* Cycle clauses added per solver call, at most. */
#define SAT_CYCLES_PER_ROUND 20000
/* Edge scans of the cycle searches per solver call (~0.1 s): big graphs. */
#define SAT_CUT_WORK 50000000LL

/* The edges the answer uses, as graph edges with their edge variables. */
struct sat_used {
	int *src, *dst, *var;
	int64_t m, cap;
	int nnodes;
};

void sat_used_push(struct sat_used *u, int a, int b, int var);
void sat_used_free(struct sat_used *u);
int sat_cut_cycles(CCaDiCaL *s, const struct sat_used *u, int64_t *next_edge);

#endif /* __TAGGER_SAT_CYCLES_H */
