// SPDX-License-Identifier: GPL-2.0
/* Proven lower bounds on the tags an ELP needs; see bound.h. */
#include <stdlib.h>
#include <string.h>

#include "analyze/bound.h"
#include "analyze/cbd.h"
#include "lib/util.h"

void bound_opts_init(struct bound_opts *o)
{
	/* small instances only: GLPK's branch and bound is exponential */
	o->max_vars = 20000;
	o->seconds = 3;
}

/*
 * Fewest segments of one path in which no in-port repeats. seen[] holds,
 * per port, the stamp of the segment that last entered it; stamps only
 * grow, so nothing needs clearing between paths.
 */
static int path_segments(const struct topo *t, const struct elp *e, int i,
			 uint64_t *seen, uint64_t *stamp)
{
	const int32_t *h = elp_hops(e, i);
	int k, segs = 1;

	++*stamp;
	for (k = 0; k < elp_len(e, i); k++) {
		int port = t->ports[h[k]].peer;

		if (seen[port] == *stamp) {
			/* cut right before the repeat: a new segment starts here */
			segs++;
			++*stamp;
		}
		seen[port] = *stamp;
	}
	return segs;
}

static int revisit_bound(const struct topo *t, const struct elp *e)
{
	uint64_t *seen = xcalloc(t->nports, sizeof(uint64_t)), stamp = 0;
	int i, best = 1;

	for (i = 0; i < e->npaths; i++) {
		int s = path_segments(t, e, i, seen, &stamp);

		if (s > best)
			best = s;
	}
	free(seen);
	return best;
}

void bound_compute(const struct topo *t, const struct elp *e, int nclasses,
		   int found, bool minimal_if_acyclic,
		   const struct bound_opts *o, struct bound *b)
{
	struct cbd_witness w;
	int lb, r, k;

	b->exact = -1;
	b->optimal = -1;
	/*
	 * greedy and order keep every packet at its first tag when the link
	 * dependency graph is acyclic (each tag's graph is a subgraph of it),
	 * so when they needed more than one class's worth of tags, the ELP has
	 * CBD and the test need not run again.
	 */
	if (minimal_if_acyclic && found - (nclasses - 1) >= 2) {
		lb = 2;
	} else {
		lb = cbd_check(t, e, &w) ? 2 : 1;
		cbd_witness_free(&w);
	}
	b->why = lb == 2 ? "cbd" : "no cbd";
	r = revisit_bound(t, e);
	if (r > lb) {
		lb = r;
		b->why = "a path revisits a port";
	}
	/* The exact program is for one class; classes only shift tags. */
	found -= nclasses - 1;
	for (k = lb; k < found; k++) {
		int f = bound_exact_feasible(t, e, k, o);

		if (f < 0)
			break;
		if (f) {
			b->exact = k;
			break;
		}
		lb = k + 1;
		b->why = "exact (MIP)";
	}
	if (lb == found && b->exact < 0 && found > 0)
		b->exact = found;
	b->lower = lb + nclasses - 1;
	if (b->exact >= 0)
		b->exact += nclasses - 1;
	if (b->lower == found + nclasses - 1)
		b->optimal = 1;
	else if (b->exact >= 0)
		b->optimal = b->exact == found + nclasses - 1;
}
