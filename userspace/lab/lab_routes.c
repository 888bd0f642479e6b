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

static void route_del(struct lab_routes *r, int node, int dst, int port)
{
	uint64_t k;
	struct lab_route *rt;
	int i;

	if (!hmap_get(&r->idx, key2(node, dst), &k))
		return;
	rt = &r->r[k];
	for (i = 0; i < rt->nports && rt->ports[i] != port; i++)
		;
	if (i == rt->nports)
		return;
	memmove(rt->ports + i, rt->ports + i + 1,
		(rt->nports - 1 - i) * sizeof(*rt->ports));
	rt->nports--;
}

/* Scratch space of one lab_routes_from_paths() call. */
struct reroute {
	bool *blocked; /* nodes the packet crossed before the failure */
	bool *on_detour; /* nodes of the detour being put in */
	bool *seen;
	int *dist;
	int *queue;
	int32_t *buf;
};

/* Whether following dst's routes from node x reaches a node in target[]. */
static bool reaches(const struct topo *t, const struct lab_routes *r, int x,
		    int dst, const bool *target, struct reroute *w)
{
	int top = 0, i, n;

	memset(w->seen, 0, t->nnodes * sizeof(*w->seen));
	w->seen[x] = true;
	w->queue[top++] = x;
	while (top > 0) {
		const int *p;

		x = w->queue[--top];
		if (target[x])
			return true;
		p = lab_route_ports(r, x, dst, &n);
		for (i = 0; p && i < n; i++) {
			int y = port_peer_node(t, p[i]);

			if (!w->seen[y]) {
				w->seen[y] = true;
				w->queue[top++] = y;
			}
		}
	}
	return false;
}

/*
 * Put in the detour ports[0..n) from the node in front of a failure to
 * dst. Routing is per (node, destination), not per packet: a node of the
 * detour that already routes dst may send some flows back towards the
 * failure (a spine's ECMP over the leaf that lost its down-link), and the
 * leaf would bounce them back: a loop until TTL runs out. So each detour
 * node first drops the next hops from which dst's routes lead back to the
 * detour's earlier nodes. Then, along any route, the index of the detour
 * node reached only grows, and a loop-free set of routes stays loop-free.
 */
static void put_detour(const struct topo *t, struct lab_routes *r, int dst,
		       const int32_t *ports, int n, struct reroute *w)
{
	int i, j, k, *nh;

	memset(w->on_detour, 0, t->nnodes * sizeof(*w->on_detour));
	w->on_detour[port_node(t, ports[0])] = true;
	for (i = 1; i < n; i++) {
		int x = port_node(t, ports[i]);
		const int *p = lab_route_ports(r, x, dst, &k);

		w->on_detour[x] = true;
		if (!p)
			continue;
		nh = xmalloc(k * sizeof(*nh));
		memcpy(nh, p, k * sizeof(*nh));
		for (j = 0; j < k; j++)
			if (reaches(t, r, port_peer_node(t, nh[j]), dst,
				    w->on_detour, w))
				route_del(r, x, dst, nh[j]);
		free(nh);
	}
	for (i = 0; i < n; i++)
		route_add(r, port_node(t, ports[i]), dst, ports[i]);
}

/* The hops of a path up to the first failed link; their number. */
static int path_prefix(const struct topo *t, const int32_t *hops, int m,
		       const bool *down)
{
	int k;

	for (k = 0; k < m && !link_down(t, down, hops[k]); k++)
		;
	return k;
}

/* Whether the routes still take the path's first k hops towards dst. */
static bool prefix_routed(const struct topo *t, const struct lab_routes *r,
			  const int32_t *hops, int k, int dst)
{
	int d, i, n;

	for (d = 0; d < k; d++) {
		const int *p =
			lab_route_ports(r, port_node(t, hops[d]), dst, &n);

		for (i = 0; p && i < n && p[i] != hops[d]; i++)
			;
		if (!p || i == n)
			return false;
	}
	return true;
}

/*
 * A path cut at hop k: the detour from the node in front of the failure.
 * A path whose prefix an earlier detour turned away from the failure
 * needs none: its packets no longer get there, and a detour for it would
 * turn more routes away, leaving nothing to bounce.
 */
static void reroute_path(const struct topo *t, const int32_t *hops, int m,
			 int k, const bool *down, struct lab_routes *r,
			 struct reroute *w)
{
	int dst = port_peer_node(t, hops[m - 1]);
	int u = port_node(t, hops[k]), d;

	if (!prefix_routed(t, r, hops, k, dst))
		return;
	memset(w->blocked, 0, t->nnodes * sizeof(*w->blocked));
	for (d = 0; d < k; d++)
		w->blocked[port_node(t, hops[d])] = true;
	d = detour(t, down, w->blocked, u, dst, w->dist, w->queue, w->buf);
	if (d < 0)
		r->unroutable++; /* the prefix still routes up to the failure */
	else
		put_detour(t, r, dst, w->buf, d, w);
}

/*
 * First every path's routes up to its first failure (what the nodes that
 * do not see the failure keep), then the detours: a detour must see all
 * the routes it could loop with, whatever the order of the paths.
 */
int lab_routes_from_paths(const struct topo *t, const struct elp *e,
			  const bool *down, struct lab_routes *r)
{
	struct reroute w = {
		.blocked = xcalloc(t->nnodes, sizeof(bool)),
		.on_detour = xcalloc(t->nnodes, sizeof(bool)),
		.seen = xcalloc(t->nnodes, sizeof(bool)),
		.dist = xmalloc(t->nnodes * sizeof(int)),
		.queue = xmalloc(t->nnodes * sizeof(int)),
		.buf = xmalloc((t->nports + 1) * sizeof(int32_t)),
	};
	int i, k, n, rc = 0;

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
		n = path_prefix(t, h, m, down);
		for (k = 0; k < n; k++)
			route_add(r, port_node(t, h[k]),
				  port_peer_node(t, h[m - 1]), h[k]);
	}
	for (i = 0; i < e->npaths && !rc; i++) {
		const int32_t *h = elp_hops(e, i);
		int m = elp_len(e, i);

		k = path_prefix(t, h, m, down);
		if (k < m)
			reroute_path(t, h, m, k, down, r, &w);
	}
	free(w.blocked);
	free(w.on_detour);
	free(w.seen);
	free(w.dist);
	free(w.queue);
	free(w.buf);
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
