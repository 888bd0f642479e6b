/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Path statistics in the shape of tables 1 and 2 of the Flattened Clos
 * paper: average number of paths per (ordered) pair, average path length
 * over all paths, average over pairs of the shortest path, and the minimum
 * number of paths of any pair.
 *
 * API:
 *   path_stats_init(&st)
 *   path_stats_pair(&st, npaths, lens)   account one pair (npaths may be 0)
 *   path_stats_merge(&into, &from)
 *   path_stats_elp(t, e, &st)            pairs = distinct (first, last) node
 *                                        of the paths, plus every missing
 *                                        pair among those endpoints (0 paths)
 *   path_stats_json / path_stats_print
 */
#ifndef __TAGGER_PATH_STATS_H
#define __TAGGER_PATH_STATS_H

#include <stdint.h>
#include <stdio.h>
#include <jansson.h>

#include "model/elp.h"
#include "model/topo.h"

struct path_stats {
	int64_t pairs; /* ordered pairs, with or without paths */
	int64_t pairs_with_paths;
	int64_t paths;
	int64_t hops; /* sum of path lengths */
	int64_t shortest_hops; /* sum over pairs of their shortest path */
	int min_paths; /* -1 before the first pair */
	int max_paths;
	int max_len;
	double seconds;
};

void path_stats_init(struct path_stats *st);
void path_stats_pair(struct path_stats *st, int npaths, const int *lens);
void path_stats_merge(struct path_stats *into, const struct path_stats *from);
void path_stats_elp(const struct topo *t, const struct elp *e,
		    struct path_stats *st);
json_t *path_stats_json(const struct path_stats *st);
void path_stats_print(FILE *f, const struct path_stats *st);

static inline double path_stats_avg_paths(const struct path_stats *st)
{
	return st->pairs ? (double)st->paths / st->pairs : 0;
}

static inline double path_stats_avg_len(const struct path_stats *st)
{
	return st->paths ? (double)st->hops / st->paths : 0;
}

static inline double path_stats_avg_shortest(const struct path_stats *st)
{
	return st->pairs_with_paths ?
		       (double)st->shortest_hops / st->pairs_with_paths :
		       0;
}

#endif /* __TAGGER_PATH_STATS_H */
