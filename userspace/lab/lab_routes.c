// SPDX-License-Identifier: GPL-2.0
/* Lab routing: routes from paths with local reroute, or all shortest paths. */
#include <stdlib.h>
#include <string.h>

#include "lab/lab_routes.h"
#include "lib/log.h"
#include "lib/util.h"

static bool link_down(const struct topo *t, const bool *down, int p)
{
	return down && (down[p] || down[t->ports[p].peer]);
}

static void route_add(struct lab_routes *r, int node, int dst, int port)
{
	struct lab_route *rt;
	bool fresh;
	uint64_t *slot = hmap_slot(&r->idx, key2(node, dst), &fresh);
	int i;

	if (fresh) {
		struct lab_route z = { .node = node, .dst = dst };

		*slot = r->n;
		VEC_PUSH(r->r, r->n, r->cap, z);
	}
	rt = &r->r[*slot];
	for (i = 0; i < rt->nports && rt->ports[i] < port; i++)
		;
	if (i < rt->nports && rt->ports[i] == port)
		return;
	VEC_PUSH(rt->ports, rt->nports, rt->cap, 0);
	memmove(rt->ports + i + 1, rt->ports + i,
		(rt->nports - 1 - i) * sizeof(*rt->ports));
	rt->ports[i] = port;
}

/*
 * Hop distances to dst over links that are up, through switches only, and
 * never through a blocked node. dist[] gets -1 where dst is unreachable.
 */
static void bfs_to(const struct topo *t, const bool *down, const bool *blocked,
		   int dst, int *dist, int *queue)
{
	int head = 0, tail = 0, i;

	for (i = 0; i < t->nnodes; i++)
		dist[i] = -1;
	dist[dst] = 0;
	queue[tail++] = dst;
	while (head < tail) {
		const struct topo_node *x = &t->nodes[queue[head]];
		int dx = dist[queue[head++]];

		for (i = 0; i < x->nports; i++) {
			int p = x->ports[i], y = port_peer_node(t, p);

			if (link_down(t, down, p) || dist[y] >= 0 ||
			    (blocked && blocked[y]))
				continue;
			dist[y] = dx + 1;
			if (topo_is_switch(t, y))
				queue[tail++] = y;
		}
	}
}

/*
 * The detour from node u: one hop closer each time, the highest layer
 * first (a bounce goes up), then the lowest port id. Returns the number
 * of hops written to out, or -1 if dst cannot be reached.
 */
static int detour(const struct topo *t, const bool *down, const bool *blocked,
		  int u, int dst, int *dist, int *queue, int32_t *out)
{
	int n = 0, i;

	bfs_to(t, down, blocked, dst, dist, queue);
	if (dist[u] < 0)
		return -1;
	while (u != dst) {
		const struct topo_node *x = &t->nodes[u];
		int best = -1, best_layer = 0;

		for (i = 0; i < x->nports; i++) {
			int p = x->ports[i], y = port_peer_node(t, p);
			int layer = t->nodes[y].layer;

			if (link_down(t, down, p) || blocked[y] ||
			    dist[y] != dist[u] - 1 ||
			    (y != dst && !topo_is_switch(t, y)))
				continue;
			if (best < 0 || layer > best_layer ||
			    (layer == best_layer && p < best)) {
				best = p;
				best_layer = layer;
			}
		}
		out[n++] = best;
		u = port_peer_node(t, best);
	}
	return n;
}

/* One path, rerouted around the first failed link it meets. */
static void route_path(const struct topo *t, const int32_t *hops, int m,
		       const bool *down, struct lab_routes *r, bool *blocked,
		       int *dist, int *queue, int32_t *buf)
{
	int dst = port_peer_node(t, hops[m - 1]);
	int n = 0, k, d;

	for (k = 0; k < m && !link_down(t, down, hops[k]); k++)
		buf[n++] = hops[k];
	if (k < m) {
		int u = port_node(t, hops[k]);

		memset(blocked, 0, t->nnodes * sizeof(*blocked));
		for (d = 0; d < k; d++)
			blocked[port_node(t, hops[d])] = true;
		d = detour(t, down, blocked, u, dst, dist, queue, buf + n);
		if (d < 0) {
			r->unroutable++;
			m = n; /* the prefix still routes up to the failure */
		} else {
			m = n + d;
		}
	}
	for (k = 0; k < m; k++)
		route_add(r, port_node(t, buf[k]), dst, buf[k]);
}

int lab_routes_from_paths(const struct topo *t, const struct elp *e,
			  const bool *down, struct lab_routes *r)
{
	bool *blocked = xcalloc(t->nnodes, sizeof(*blocked));
	int *dist = xmalloc(t->nnodes * sizeof(*dist));
	int *queue = xmalloc(t->nnodes * sizeof(*queue));
	int32_t *buf = xmalloc((t->nports + elp_max_len(e) + 1) * sizeof(*buf));
	int i, rc = 0;

	memset(r, 0, sizeof(*r));
	hmap_init(&r->idx, 64);
	for (i = 0; i < e->npaths && !rc; i++) {
		const int32_t *h = elp_hops(e, i);
		int m = elp_len(e, i);

		if (m == 0 || topo_is_switch(t, port_peer_node(t, h[m - 1]))) {
			input_err(e->file, e->line[i],
				  "a routed path must end at a host");
			rc = -1;
			break;
		}
		route_path(t, h, m, down, r, blocked, dist, queue, buf);
	}
	free(blocked);
	free(dist);
	free(queue);
	free(buf);
	return rc;
}

void lab_routes_shortest(const struct topo *t, const bool *down,
			 struct lab_routes *r)
{
	int *dist = xmalloc(t->nnodes * sizeof(*dist));
	int *queue = xmalloc(t->nnodes * sizeof(*queue));
	int dst, x, i;

	memset(r, 0, sizeof(*r));
	hmap_init(&r->idx, 64);
	for (dst = 0; dst < t->nnodes; dst++) {
		if (topo_is_switch(t, dst))
			continue;
		bfs_to(t, down, NULL, dst, dist, queue);
		for (x = 0; x < t->nnodes; x++) {
			const struct topo_node *nx = &t->nodes[x];

			if (x == dst || dist[x] < 0)
				continue;
			for (i = 0; i < nx->nports; i++) {
				int p = nx->ports[i], y = port_peer_node(t, p);

				if (!link_down(t, down, p) &&
				    dist[y] == dist[x] - 1 &&
				    (y == dst || topo_is_switch(t, y)))
					route_add(r, x, dst, p);
			}
		}
	}
	free(dist);
	free(queue);
}

void lab_routes_free(struct lab_routes *r)
{
	int i;

	for (i = 0; i < r->n; i++)
		free(r->r[i].ports);
	free(r->r);
	hmap_free(&r->idx);
	memset(r, 0, sizeof(*r));
}

const int *lab_route_ports(const struct lab_routes *r, int node, int dst,
			   int *n)
{
	uint64_t i;

	if (!hmap_get(&r->idx, key2(node, dst), &i))
		return NULL;
	*n = r->r[i].nports;
	return r->r[i].ports;
}
