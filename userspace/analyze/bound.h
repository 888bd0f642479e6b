/* SPDX-License-Identifier: GPL-2.0 */
/*
 * How many tags (lossless priorities) does an ELP need at least, and, for
 * small instances, exactly?
 *
 * Lower bounds, each proven:
 *   - 1, or 2 when the ELP has CBD: one tag means one acyclic dependency
 *     graph, which is the CBD test (Flattened Clos theorem 7);
 *   - one path: if a path enters the same in-port twice, the two visits
 *     cannot share a tag (the segment between them would be a cycle in one
 *     tag, tags never decreasing), so a path needs 1 + the fewest cuts that
 *     leave no port twice in one segment; cutting as late as possible is
 *     optimal for one sequence;
 *   - an exact answer, where the MIP below is solved.
 * With N classes in the M+N scheme class N-1 starts at tag N-1, so every
 * bound grows by N-1.
 *
 * Exact minimum (bound_exact.c): a 0-1 program per candidate K, solved by
 * GLPK: x[p][j][t] the tag of path p at its j-th forwarding hop, z[uv][t][t']
 * the one rewrite answer of key (t, u->v) (rewrite is a function), tags
 * never decrease, and per tag potentials that exist iff that tag's used
 * edges are acyclic. Feasible for K = the smallest such K. Only run when the
 * program is small; a solver time-out leaves the answer unknown.
 *
 * API:
 *   bound_compute(t, e, nclasses, found, minimal_if_acyclic, &opts, &b)
 *	found is the tag count of the compiled result, minimal_if_acyclic
 *	says its algorithm uses one tag per class on a CBD-free ELP (so
 *	found > 1 already proves CBD); b.lower is a proven
 *	lower bound, b.exact the minimum or -1, b.optimal 1/0/-1 (unknown)
 */
#ifndef __TAGGER_BOUND_H
#define __TAGGER_BOUND_H

#include <stdbool.h>

#include "model/elp.h"
#include "model/topo.h"

struct bound_opts {
	long max_vars; /* skip the MIP above this many 0-1 variables */
	double seconds; /* GLPK time limit per K */
};

struct bound {
	int lower;
	int exact; /* -1: not computed or not solved */
	int optimal; /* 1 yes, 0 no, -1 unknown */
	const char *why; /* which argument gives the lower bound */
};

void bound_opts_init(struct bound_opts *o);
void bound_compute(const struct topo *t, const struct elp *e, int nclasses,
		   int found, bool minimal_if_acyclic,
		   const struct bound_opts *o, struct bound *b);

/* bound_exact.c: 1 feasible, 0 infeasible, -1 unknown (too big, time-out) */
int bound_exact_feasible(const struct topo *t, const struct elp *e, int k,
			 const struct bound_opts *o);

#endif /* __TAGGER_BOUND_H */
