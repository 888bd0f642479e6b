// SPDX-License-Identifier: GPL-2.0
/*
 * Up-down paths plus paths with up to K bounces (bounce=K).
 *
 * A bounce is a down hop followed by an up hop (at a leaf or a ToR, the
 * reroutes of the Tagger paper's section 3). The set for a pair (s, t) is
 * every walk from s to t that
 *   - takes only up and down hops (no hop within a layer),
 *   - turns from down to up at most K times,
 *   - is at most the pair's shortest up-down length + 2K hops long,
 *   - never takes the same directed link twice,
 *   - passes only through switches (hosts too with relay) and stops at t,
 *   - with simple, never visits a node twice.
 * Each bounce costs at least two extra hops over an up-down path, hence the
 * 2K slack; the length bound keeps the set finite. With K = 0 it is exactly
 * the shortest up-down set. By default nodes may repeat (a packet can come
 * back to a switch on another link, as in the paper's T1-L1 loop), directed
 * links may not; simple keeps only the paths a failure reroute without
 * loops produces.
 *
 * Depth-first search per pair in port order, pruned by the plain BFS
 * distance to t: O(output x branching) per pair.
 */
#include <stdlib.h>
#include <string.h>

#include "graph/bfs.h"
#include "gen/paths_updown.h"
#include "lib/util.h"

struct walk {
	const struct topo *t;
	struct bfs *b;
	int dst, k, limit;
	bool relay, simple;
	uint8_t *used; /* per egress port */
	uint8_t *visited; /* per node, with simple */
	int32_t *path;
	struct path_sink *sink;
};

/* dir: -1 last hop down, +1 up, 0 at the start. */
static void walk(struct walk *w, int u, int depth, int dir, int bounces)
{
	const struct topo *t = w->t;
	const struct topo_node *n = &t->nodes[u];
	int i;

	for (i = 0; i < n->nports; i++) {
		int p = n->ports[i], v = port_peer_node(t, p);
		int lu = ud_layer(t, u), lv = ud_layer(t, v);
		int nd = lv > lu ? 1 : -1, nb = bounces + (dir < 0 && nd > 0);

		if (lv == lu || w->used[p] || nb > w->k || w->b->dist[v] < 0 ||
		    depth + 1 + w->b->dist[v] > w->limit)
			continue;
		w->path[depth] = p;
		if (v == w->dst) {
			sink_emit(w->sink, w->path, depth + 1);
			continue;
		}
		if (!node_forwards(t, v, w->relay) ||
		    (w->simple && w->visited[v]))
			continue;
		w->used[p] = 1;
		w->visited[v] = 1;
		walk(w, v, depth + 1, nd, nb);
		w->visited[v] = 0;
		w->used[p] = 0;
	}
}

/* One pair: every walk within the pair's length bound. */
static void walk_pair(void *ctx, const struct ud_pair *p)
{
	struct walk *w = ctx;
	int src = p->u->ends->node[p->s], dst = p->u->ends->node[p->e];

	if (w->dst != dst) {
		w->dst = dst;
		bfs_to(w->b, w->t, dst, w->relay);
	}
	w->limit = p->best + 2 * w->k;
	w->path = xrealloc(w->path, (w->limit + 1) * sizeof(*w->path));
	w->visited[src] = 1;
	walk(w, src, 0, 0, 0);
	w->visited[src] = 0;
}

int paths_bounce(const struct topo *t, const struct gen_ends *ends, int k,
		 bool simple, struct path_sink *sink)
{
	struct walk w = { .t = t,
			  .dst = -1,
			  .k = k,
			  .relay = ends->relay_hosts,
			  .simple = simple,
			  .sink = sink };
	struct bfs b;
	int r;

	w.used = xcalloc(t->nports + 1, 1);
	w.visited = xcalloc(t->nnodes + 1, 1);
	bfs_init(&b, t);
	w.b = &b;
	r = ud_pairs(t, ends, sink, walk_pair, &w);
	bfs_free(&b);
	free(w.path);
	free(w.used);
	free(w.visited);
	return r;
}
