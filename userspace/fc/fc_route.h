/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Edge-disjoint virtual up-down routing of Flattened Clos (section 3.2,
 * appendix A.1).
 *
 * The layout (fc_layout.h) assigns every fabric port its virtual layer.
 * The directed virtual up-down graph (figure 4c) has per ToR i an up node
 * U(i,j) and a down node D(i,j) for j < k and one top node T(i):
 *   solid  (capacity 1, cost 1): for a link between layer j of a and layer
 *          j+1 of b, U(a,j) -> U(b,j+1) (or T(b) when j+1 = k) going up
 *          and D(b,j+1) (or T(b)) -> D(a,j) coming down; each is one
 *          directed physical link, named by its egress port;
 *   dashed (unbounded, cost 0): U(i,j) -> U(i,j+1) -> ... -> T(i) ->
 *          D(i,k-1) -> ... -> D(i,1), moves inside one switch.
 * Per ToR pair (s,t), min-cost max-flow from U(s,1) to D(t,1) on the part
 * of the graph that matters (the up-cone of s and the down-cone of t, which
 * holds every s-t path: section 3.2.4) gives the most edge-disjoint
 * up-down paths with the fewest hops; each unit of flow is contracted to
 * its physical hops (lemma 4), so the union of all pairs' paths is CBD-free.
 *
 * API:
 *   fc_route(t, &L, &opts, out, &stats)        paths of every ordered ToR
 *                                              pair into out (may be NULL:
 *                                              statistics only)
 *   fc_route_pair(...)                         one pair (tests)
 */
#ifndef __TAGGER_FC_ROUTE_H
#define __TAGGER_FC_ROUTE_H

#include <stddef.h>
#include <stdint.h>

#include "model/elp.h"
#include "fc/fc_layout.h"
#include "fc/fc_topo.h"
#include "analyze/path_stats.h"
#include "model/topo.h"

struct fc_route_opts {
	int max_paths; /* per pair, 0 = as many as the flow allows */
	int threads; /* worker threads, 0 = 1 */
	int stop_below; /* > 0: stop early once a pair has fewer paths */
};

int fc_route(const struct topo *t, const struct fc_layout *L,
	     const struct fc_route_opts *o, struct elp *out,
	     struct path_stats *st);

#endif /* __TAGGER_FC_ROUTE_H */
