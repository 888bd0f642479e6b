/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Breadth-first distances toward one destination, shared by the shortest
 * and ECMP path generators. Only switches forward (hosts too when the
 * endpoints say relay_hosts, as BCube servers do); a host is an endpoint.
 *
 * API:
 *   bfs_init(&b, t) / bfs_free(&b)
 *   bfs_to(&b, t, dst, relay)   b.dist[v] = hops from v to dst, -1 if none
 *   bfs_next_ok(&b, t, u, p, dst, relay)   does port p of u lead one hop
 *                                          closer to dst through a node
 *                                          that may forward?
 * O(nodes + links) per destination.
 */
#ifndef __TAGGER_PATHS_BFS_H
#define __TAGGER_PATHS_BFS_H

#include <stdbool.h>

#include "model/topo.h"

struct bfs {
	int *dist;
	int *queue;
};

void bfs_init(struct bfs *b, const struct topo *t);
void bfs_free(struct bfs *b);
void bfs_to(struct bfs *b, const struct topo *t, int dst, bool relay);

static inline bool node_forwards(const struct topo *t, int v, bool relay)
{
	return relay || t->nodes[v].kind == NODE_SWITCH;
}

static inline bool bfs_next_ok(const struct bfs *b, const struct topo *t, int u,
			       int p, int dst, bool relay)
{
	int v = port_peer_node(t, p);

	return b->dist[v] >= 0 && b->dist[v] == b->dist[u] - 1 &&
	       (v == dst || node_forwards(t, v, relay));
}

#endif /* __TAGGER_PATHS_BFS_H */
