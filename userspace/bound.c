// SPDX-License-Identifier: GPL-2.0
/* Proven lower bounds on the tags an ELP needs; see bound.h. */
#include <stdlib.h>
#include <string.h>

#include "bound.h"
#include "cbd.h"
#include "hmap.h"
#include "util.h"

void bound_opts_init(struct bound_opts *o)
{
	/* small instances only: GLPK's branch and bound is exponential */
	o->max_vars = 20000;
	o->seconds = 3;
}

/* Fewest segments of one path in which no in-port repeats. */
static int path_segments(const struct topo *t, const struct elp *e, int i, struct hmap *seen,
			 uint64_t stamp)
{
	const int32_t *h = elp_hops(e, i);
	int k, segs = 1;

	for (k = 0; k < elp_len(e, i); k++) {
		uint64_t port = (uint64_t)t->ports[h[k]].peer, *v;
		bool fresh;

		v = hmap_slot(seen, port, &fresh);
		if (!fresh && *v == stamp) {
			/* cut right before the repeat: a new segment starts here */
			segs++;
			stamp += 1ULL << 40;
		}
		*v = stamp;
	}
	return segs;
}

static int revisit_bound(const struct topo *t, const struct elp *e)
{
	struct hmap seen;
	int i, best = 1;

	hmap_init(&seen, 64);
	for (i = 0; i < e->npaths; i++) {
		/* stamps: path index in the low bits, segment in the high bits */
		int s = path_segments(t, e, i, &seen, (uint64_t)i);

		if (s > best)
			best = s;
	}
	hmap_free(&seen);
	return best;
}

void bound_compute(const struct topo *t, const struct elp *e, int nclasses, int found,
		   const struct bound_opts *o, struct bound *b)
{
	struct cbd_witness w;
	int lb, r, k;

	b->exact = -1;
	b->optimal = -1;
	lb = cbd_check(t, e, &w) ? 2 : 1;
	cbd_witness_free(&w);
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
