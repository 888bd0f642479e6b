// SPDX-License-Identifier: GPL-2.0
/* Distances toward a destination; see paths_bfs.h. */
#include <stdlib.h>

#include "graph/bfs.h"
#include "lib/util.h"

void bfs_init(struct bfs *b, const struct topo *t)
{
	b->dist = xmalloc((t->nnodes + 1) * sizeof(*b->dist));
	b->queue = xmalloc((t->nnodes + 1) * sizeof(*b->queue));
}

void bfs_free(struct bfs *b)
{
	free(b->dist);
	free(b->queue);
}

void bfs_to(struct bfs *b, const struct topo *t, int dst, bool relay)
{
	int head = 0, tail = 0, i, v;

	for (v = 0; v < t->nnodes; v++)
		b->dist[v] = -1;
	b->dist[dst] = 0;
	b->queue[tail++] = dst;
	while (head < tail) {
		const struct topo_node *n;

		v = b->queue[head++];
		/* A path reaches dst through v only if v forwards. */
		if (v != dst && !node_forwards(t, v, relay))
			continue;
		n = &t->nodes[v];
		for (i = 0; i < n->nports; i++) {
			int w = port_peer_node(t, n->ports[i]);

			if (b->dist[w] < 0) {
				b->dist[w] = b->dist[v] + 1;
				b->queue[tail++] = w;
			}
		}
	}
}
