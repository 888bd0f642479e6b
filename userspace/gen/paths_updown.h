/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Up-down structure of a layered topology, shared by the up-down and the
 * bounce path generators. A host sits below layer 0; a hop to a higher
 * layer goes up, to a lower one down; hops within a layer are neither and
 * no up-down or bounce path takes them.
 *
 * API:
 *   ud_init(&u, t, ends)   up-ancestors of every endpoint (nodes reachable by
 *                          up hops only, with their up distance); -1 after
 *                          p_err() if the topology has no layers
 *   ud_load(&u, e, dist)   dist[v] = up distance of endpoint index e to v
 *   ud_unload(&u, e, dist) back to -1 (dist starts all -1)
 *   ud_best(&u, t, ds)     length of the shortest up-down path to endpoint
 *                          index t from the endpoint ds is loaded for; -1
 *                          if none
 *   ud_pairs(t, ends, sink, fn, ctx)
 *                          fn(ctx, &pair) for every ordered pair of distinct
 *                          endpoints that has an up-down path, destination
 *                          by destination; the others counted in
 *                          sink->unreachable; -1 as ud_init
 *   ud_layer(t, v)         layer, hosts -1
 *   ud_free(&u)
 */
#ifndef __TAGGER_PATHS_UPDOWN_H
#define __TAGGER_PATHS_UPDOWN_H

#include "gen/gen.h"

struct updown {
	const struct topo *t;
	const struct gen_ends *ends;
	int *off; /* ends->n + 1 offsets into anc/adist */
	int *anc;
	int *adist;
};

/* One pair of ud_pairs(): up distances of both ends loaded. */
struct ud_pair {
	const struct updown *u;
	int s, e; /* endpoint indexes, source and destination */
	const int *ds, *dt; /* up distances from s and from e, -1 elsewhere */
	int best; /* length of its shortest up-down paths */
};

int ud_init(struct updown *u, const struct topo *t,
	    const struct gen_ends *ends);
void ud_free(struct updown *u);
void ud_load(const struct updown *u, int e, int *dist);
void ud_unload(const struct updown *u, int e, int *dist);
int ud_best(const struct updown *u, int t, const int *ds);
int ud_pairs(const struct topo *t, const struct gen_ends *ends,
	     struct path_sink *sink,
	     void (*fn)(void *ctx, const struct ud_pair *p), void *ctx);

static inline int ud_layer(const struct topo *t, int v)
{
	return t->nodes[v].kind == NODE_HOST ? -1 : t->nodes[v].layer;
}

#endif /* __TAGGER_PATHS_UPDOWN_H */
