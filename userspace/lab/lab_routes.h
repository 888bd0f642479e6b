/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Routes for a lab network: for every node and every destination host, the
 * set of egress ports (one port, or several for ECMP).
 *
 * Two ways to route, both aware of failed links:
 *  - from paths (an ELP file of the paths flows take): each path's nodes
 *    route its destination host out by the path's next hop. A path that
 *    crosses a failed link is rerouted locally, the way a switch's fast
 *    reroute does it: the node in front of the failure takes the shortest
 *    detour to the destination that avoids the nodes the packet already
 *    crossed, preferring the neighbour highest in the layers (a down-up
 *    bounce, as in the Tagger paper's Clos failures), then the lowest
 *    port. Paths that share (node, destination) but leave by different
 *    ports give an ECMP set. Routes are per (node, destination), so a
 *    detour node drops the next hops from which the destination's routes
 *    lead back to the detour (a spine's ECMP member towards the leaf that
 *    bounced the packet): the routes stay loop-free under any failures.
 *    A cut path whose prefix an earlier detour turned away from the
 *    failure gets no detour of its own (it would turn the rest away).
 *    A path whose node in front of the failure has no detour is counted
 *    in unroutable; the nodes before it keep routing into it.
 *  - all shortest paths (global reconvergence): every node routes each
 *    destination host over all neighbours one hop closer to it.
 * Hosts never forward: they only start and end paths.
 *
 * API:
 *   lab_routes_from_paths(t, e, down, &r)   0, or -1 when a path has no
 *                                           destination host (message)
 *   lab_routes_shortest(t, down, &r)
 *   lab_routes_free(&r)
 *   lab_route_ports(&r, node, dst, &n)      ports of one route, NULL if none
 * down[] is indexed by port id; a link is down when either end is.
 */
#ifndef __TAGGER_LAB_ROUTES_H
#define __TAGGER_LAB_ROUTES_H

#include <stdbool.h>

#include "model/elp.h"
#include "lib/hmap.h"
#include "model/topo.h"

struct lab_route {
	int node;
	int dst; /* a host */
	int *ports; /* egress port ids, ascending */
	int nports;
	int cap;
};

struct lab_routes {
	struct lab_route *r;
	int n;
	int cap;
	struct hmap idx; /* key2(node, dst) -> index in r */
	int unroutable; /* paths that a failure left without a detour */
};

int lab_routes_from_paths(const struct topo *t, const struct elp *e,
			  const bool *down, struct lab_routes *r);
void lab_routes_shortest(const struct topo *t, const bool *down,
			 struct lab_routes *r);
void lab_routes_free(struct lab_routes *r);
const int *lab_route_ports(const struct lab_routes *r, int node, int dst,
			   int *n);

#endif /* __TAGGER_LAB_ROUTES_H */
