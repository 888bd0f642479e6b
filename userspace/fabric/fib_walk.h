/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The paths the switches' forwarding tables give between hosts
 * (tagger-paths(8), FROM-FIB): for every ordered pair of hosts, every
 * path a packet can take, every ECMP choice included.
 *
 * A host's addresses come from the switch it is cabled to (its ToR),
 * per family: the host route (/32, /128) the ToR sends out of the port to
 * the host, else the address of the ToR's connected subnet on that port
 * that is not the ToR's own (the other end of a /31 or /127; in a longer
 * subnet the first host address after the network's that is not the
 * ToR's). A host cabled to several switches has an address per link.
 *
 * From each port of the source host, the walk enters the next switch and
 * looks the destination address up in its FIB (longest prefix match);
 * each next hop's interface is a port of the topology (by name, as
 * tagger topo discover names them), and the walk goes on at the switch
 * behind it, branching over the next hops of a multipath route, until
 * it reaches the destination host. Not paths, but named problems:
 *   loop        a switch the path already crossed (forwarding is by
 *               destination, so the packet circles for good)
 *   black hole  no route, a blackhole/unreachable/prohibit route, an
 *               interface that is no port of the topology, a next hop
 *               whose link is down (linkdown), a host that is not the
 *               destination, a switch whose FIB was not read
 *   no address  a host none of whose switches says its address
 * Each problem once (by its text), with the number of walks it ended.
 * The same path found for two addresses of a host is written once.
 *
 * API:
 *   fib_walk(&in, &out)   0; out.e holds the paths (grouped by
 *                         destination), out.problems a JSON array of
 *                         {"kind", "text", "walks", ...}, out.pairs the
 *                         ordered pairs walked, out.unreachable those
 *                         with no path; out.truncated pairs stopped at
 *                         in.max_per_pair paths
 *   fib_walk_free(&out)
 */
#ifndef __TAGGER_FIB_WALK_H
#define __TAGGER_FIB_WALK_H

#include <stdbool.h>
#include <stdint.h>
#include <jansson.h>

#include "fabric/fib.h"
#include "model/elp.h"
#include "model/topo.h"

#define FIB_WALK_MAX_PER_PAIR 4096 /* default */

struct fib_walk_in {
	const struct topo *t;
	struct fib *const *fib; /* per node: its FIB, NULL if not read */
	const bool *host; /* per node: a host to walk between; NULL: all */
	int max_per_pair; /* 0: FIB_WALK_MAX_PER_PAIR */
};

struct fib_walk_out {
	struct elp *e;
	json_t *problems;
	int64_t pairs;
	int64_t unreachable;
	int64_t truncated;
	int loops, holes; /* distinct problems of each kind */
};

int fib_walk(const struct fib_walk_in *in, struct fib_walk_out *out);
void fib_walk_free(struct fib_walk_out *out);

#endif /* __TAGGER_FIB_WALK_H */
