// SPDX-License-Identifier: GPL-2.0
/* Path statistics (tables 1 and 2 of the Flattened Clos paper). */
#include <stdlib.h>

#include "lib/hmap.h"
#include "analyze/path_stats.h"
#include "lib/util.h"

void path_stats_init(struct path_stats *st)
{
	*st = (struct path_stats){ .min_paths = -1 };
}

void path_stats_pair(struct path_stats *st, int npaths, const int *lens)
{
	int i, shortest = 0;

	st->pairs++;
	st->paths += npaths;
	for (i = 0; i < npaths; i++) {
		st->hops += lens[i];
		if (!i || lens[i] < shortest)
			shortest = lens[i];
		if (lens[i] > st->max_len)
			st->max_len = lens[i];
	}
	if (npaths) {
		st->pairs_with_paths++;
		st->shortest_hops += shortest;
	}
	if (st->min_paths < 0 || npaths < st->min_paths)
		st->min_paths = npaths;
	if (npaths > st->max_paths)
		st->max_paths = npaths;
}

void path_stats_merge(struct path_stats *into, const struct path_stats *from)
{
	into->pairs += from->pairs;
	into->pairs_with_paths += from->pairs_with_paths;
	into->paths += from->paths;
	into->hops += from->hops;
	into->shortest_hops += from->shortest_hops;
	if (from->min_paths >= 0 &&
	    (into->min_paths < 0 || from->min_paths < into->min_paths))
		into->min_paths = from->min_paths;
	if (from->max_paths > into->max_paths)
		into->max_paths = from->max_paths;
	if (from->max_len > into->max_len)
		into->max_len = from->max_len;
}

static int path_src(const struct topo *t, const struct elp *e, int i)
{
	return port_node(t, elp_hops(e, i)[0]);
}

static int path_dst(const struct topo *t, const struct elp *e, int i)
{
	return port_peer_node(t, elp_hops(e, i)[elp_len(e, i) - 1]);
}

/* pair key -> (count << 32 | shortest length) */
void path_stats_elp(const struct topo *t, const struct elp *e,
		    struct path_stats *st)
{
	struct hmap pairs, ends;
	struct hmap_entry *it;
	int64_t nends;
	int i;

	path_stats_init(st);
	hmap_init(&pairs, e->npaths);
	hmap_init(&ends, 64);
	for (i = 0; i < e->npaths; i++) {
		int len = elp_len(e, i), s, d;
		uint64_t *v;
		bool fresh;

		if (!len)
			continue;
		s = path_src(t, e, i);
		d = path_dst(t, e, i);
		hmap_put(&ends, (uint64_t)s, 1);
		hmap_put(&ends, (uint64_t)d, 1);
		v = hmap_slot(&pairs, key2(s, d), &fresh);
		if (fresh || (int)(*v & 0xffffffff) > len)
			*v = (*v & ~0xffffffffULL) | (uint32_t)len;
		*v += 1ULL << 32;
		st->paths++;
		st->hops += len;
		if (len > st->max_len)
			st->max_len = len;
	}
	HMAP_FOR_EACH(&pairs, it)
	{
		int n = (int)(it->val >> 32);

		st->pairs++;
		st->pairs_with_paths++;
		st->shortest_hops += it->val & 0xffffffff;
		if (st->min_paths < 0 || n < st->min_paths)
			st->min_paths = n;
		if (n > st->max_paths)
			st->max_paths = n;
	}
	/* Endpoint pairs without any path count as pairs with 0 paths. */
	nends = (int64_t)ends.n;
	if (nends * (nends - 1) > st->pairs) {
		st->pairs = nends * (nends - 1);
		st->min_paths = 0;
	}
	if (st->min_paths < 0)
		st->min_paths = 0;
	hmap_free(&pairs);
	hmap_free(&ends);
}

json_t *path_stats_json(const struct path_stats *st)
{
	return json_pack("{s:I,s:I,s:f,s:f,s:f,s:i,s:i,s:i}", "pairs",
			 (json_int_t)st->pairs, "paths", (json_int_t)st->paths,
			 "avg_paths", path_stats_avg_paths(st),
			 "avg_path_length", path_stats_avg_len(st),
			 "avg_shortest_path_length",
			 path_stats_avg_shortest(st), "min_paths",
			 st->min_paths < 0 ? 0 : st->min_paths, "max_paths",
			 st->max_paths, "max_path_length", st->max_len);
}

void path_stats_print(FILE *f, const struct path_stats *st)
{
	fprintf(f,
		"pairs %lld, paths %lld\n"
		"average number of paths      %.2f\n"
		"average path length          %.2f\n"
		"average shortest path length %.2f\n"
		"minimum number of paths      %d\n"
		"maximum number of paths      %d\n"
		"longest path                 %d\n",
		(long long)st->pairs, (long long)st->paths,
		path_stats_avg_paths(st), path_stats_avg_len(st),
		path_stats_avg_shortest(st),
		st->min_paths < 0 ? 0 : st->min_paths, st->max_paths,
		st->max_len);
}
