// SPDX-License-Identifier: GPL-2.0
/* The throughput solvers' path set; see throughput_paths.h. */
#include <stdlib.h>
#include <string.h>

#include "analyze/throughput_paths.h"
#include "lib/util.h"

static uint64_t path_hash(int c, const int32_t *h, int n)
{
	uint64_t x = 0x9e3779b97f4a7c15ULL ^ (uint64_t)c;
	int i;

	for (i = 0; i < n; i++) {
		x ^= (uint64_t)(uint32_t)h[i] + 0x9e3779b97f4a7c15ULL +
		     (x << 6) + (x >> 2);
		x *= 0xbf58476d1ce4e5b9ULL;
	}
	return x == HMAP_EMPTY ? 0 : x;
}

static bool same(const struct lp_paths *lp, int p, int c, const int32_t *h,
		 int n)
{
	return lp->comm[p] == c && (int)(lp->off[p + 1] - lp->off[p]) == n &&
	       !memcmp(lp->hops + lp->off[p], h, n * sizeof(*h));
}

static void lp_add(struct lp_paths *lp, int c, const int32_t *h, int n)
{
	uint64_t key = path_hash(c, h, n), v;

	/* Linear probing on the key itself resolves hash collisions. */
	while (hmap_get(&lp->seen, key, &v)) {
		if (same(lp, (int)v - 1, c, h, n))
			return;
		key = key + 1 == HMAP_EMPTY ? 0 : key + 1;
	}
	hmap_put(&lp->seen, key, (uint64_t)lp->n + 1);
	if (lp->n + 1 >= lp->cap) {
		lp->cap = lp->cap ? 2 * lp->cap : 1024;
		lp->comm = xrealloc(lp->comm, lp->cap * sizeof(int));
		lp->off = xrealloc(lp->off, (lp->cap + 1) * sizeof(uint32_t));
	}
	while (lp->nhops + n > lp->hops_cap) {
		lp->hops_cap = lp->hops_cap ? 2 * lp->hops_cap : 4096;
		lp->hops = xrealloc(lp->hops, lp->hops_cap * sizeof(int32_t));
	}
	if (!lp->n)
		lp->off[0] = 0;
	memcpy(lp->hops + lp->nhops, h, n * sizeof(*h));
	lp->nhops += n;
	lp->comm[lp->n] = c;
	lp->off[++lp->n] = lp->nhops;
}

void lp_paths_collect(const struct topo *t, const struct elp *e,
		      const struct hmap *comm, struct lp_paths *lp)
{
	int i;

	hmap_init(&lp->seen, e->npaths);
	for (i = 0; i < e->npaths; i++) {
		const int32_t *h = elp_hops(e, i);
		int a = 0, b = elp_len(e, i);
		uint64_t c;

		/* Drop the host links at either end. */
		if (b && !topo_is_switch(t, port_node(t, h[0])))
			a++;
		if (b > a && !topo_is_switch(t, port_peer_node(t, h[b - 1])))
			b--;
		if (b <= a)
			continue;
		if (!hmap_get(comm,
			      key2(port_node(t, h[a]),
				   port_peer_node(t, h[b - 1])),
			      &c))
			continue;
		lp_add(lp, (int)c, h + a, b - a);
	}
}

void lp_paths_free(struct lp_paths *lp)
{
	free(lp->comm);
	free(lp->off);
	free(lp->hops);
	hmap_free(&lp->seen);
}
