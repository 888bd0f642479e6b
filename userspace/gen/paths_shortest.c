// SPDX-License-Identifier: GPL-2.0
/*
 * One shortest path per ordered endpoint pair, and all of them (ECMP).
 *
 * Both work per destination: one BFS gives every node's distance to it,
 * then each source walks toward it. The single path is destination-based,
 * as routing tables are: every node has one next hop toward each
 * destination, the first port (in the topology's port order) that leads one
 * hop closer, or with a seed a uniformly random one of those ports. So the
 * paths to one destination form a tree and can be installed as routes.
 * ECMP enumerates every shortest path, depth first in port order, up to
 * max_per_pair of them.
 *
 * Output is grouped by destination (endpoint order), sources in endpoint
 * order within a group. Time O(E * (V + L)) for E endpoints, V nodes, L
 * links, plus the length of the output; no per-path allocation.
 */
#include <stdlib.h>

#include "gen/gen.h"
#include "graph/bfs.h"
#include "lib/rng.h"
#include "lib/util.h"

/* Next hop (egress port) of every node toward dst; -1 where none. */
static void next_hops(const struct topo *t, const struct bfs *b, int dst,
		      bool relay, const struct shortest_opts *o, struct rng *r,
		      int *nh)
{
	int u, i;

	for (u = 0; u < t->nnodes; u++) {
		const struct topo_node *n = &t->nodes[u];
		int seen = 0;

		nh[u] = -1;
		if (b->dist[u] <= 0)
			continue;
		for (i = 0; i < n->nports; i++) {
			if (!bfs_next_ok(b, t, u, n->ports[i], dst, relay))
				continue;
			/* Reservoir sampling: uniform over the eligible ports. */
			if (!seen++ || (o->random && !rng_below(r, seen)))
				nh[u] = n->ports[i];
			if (!o->random)
				break;
		}
	}
}

int paths_shortest(const struct topo *t, const struct gen_ends *ends,
		   const struct shortest_opts *o, struct path_sink *s)
{
	int32_t *path = xmalloc((t->nnodes + 1) * sizeof(*path));
	int *nh = xmalloc((t->nnodes + 1) * sizeof(*nh));
	struct bfs b;
	struct rng r;
	int d, i;

	rng_seed(&r, o->seed);
	bfs_init(&b, t);
	for (d = 0; d < ends->n; d++) {
		int dst = ends->node[d];

		bfs_to(&b, t, dst, ends->relay_hosts);
		next_hops(t, &b, dst, ends->relay_hosts, o, &r, nh);
		for (i = 0; i < ends->n; i++) {
			int u = ends->node[i], len = 0;

			if (u == dst)
				continue;
			if (b.dist[u] < 0) {
				s->unreachable++;
				continue;
			}
			for (; u != dst; u = port_peer_node(t, nh[u]))
				path[len++] = nh[u];
			sink_emit(s, path, len);
		}
	}
	bfs_free(&b);
	free(nh);
	free(path);
	return 0;
}

/* All shortest paths src -> dst in port order, at most max of them. */
static void enumerate(const struct topo *t, const struct bfs *b, int src,
		      int dst, bool relay, int max, int32_t *path, int *at,
		      struct path_sink *s)
{
	int depth = 0, u = src, found = 0, len = b->dist[src];

	at[0] = 0;
	while (depth >= 0 && found < max) {
		const struct topo_node *n = &t->nodes[u];

		if (depth == len) {
			sink_emit(s, path, len);
			found++;
		} else {
			while (at[depth] < n->nports &&
			       !bfs_next_ok(b, t, u, n->ports[at[depth]], dst,
					    relay))
				at[depth]++;
			if (at[depth] < n->nports) {
				path[depth] = n->ports[at[depth]];
				u = port_peer_node(t, path[depth]);
				at[++depth] = 0;
				continue;
			}
		}
		/* Back up one hop and try its next port. */
		if (--depth < 0)
			break;
		u = port_node(t, path[depth]);
		at[depth]++;
	}
}

int paths_ecmp(const struct topo *t, const struct gen_ends *ends,
	       int max_per_pair, struct path_sink *s)
{
	int32_t *path = xmalloc((t->nnodes + 1) * sizeof(*path));
	int *at = xmalloc((t->nnodes + 2) * sizeof(*at));
	struct bfs b;
	int d, i;

	bfs_init(&b, t);
	for (d = 0; d < ends->n; d++) {
		int dst = ends->node[d];

		bfs_to(&b, t, dst, ends->relay_hosts);
		for (i = 0; i < ends->n; i++) {
			int src = ends->node[i];

			if (src == dst)
				continue;
			if (b.dist[src] < 0) {
				s->unreachable++;
				continue;
			}
			enumerate(t, &b, src, dst, ends->relay_hosts,
				  max_per_pair, path, at, s);
		}
	}
	bfs_free(&b);
	free(at);
	free(path);
	return 0;
}
