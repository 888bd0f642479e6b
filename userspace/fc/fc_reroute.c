// SPDX-License-Identifier: GPL-2.0
/* Local reroute around a failed link; see fc_reroute.h. */
#include <stdlib.h>
#include <string.h>

#include "fc/fc_reroute.h"
#include "fc/fc_vgraph.h"
#include "lib/util.h"

#define MAX_HOPS 1024

/*
 * Walk the path in virtual layers: going up, a hop must leave from a layer
 * at least the one it entered by; coming down, from at most that layer.
 * Anything else turns from down to up: a bounce.
 */
int fc_bounces(const struct topo *t, const struct fc_layout *L,
	       const int32_t *hops, int n)
{
	int k, at = 1, bounces = 0;
	bool down = false;

	for (k = 0; k < n; k++) {
		int lo = L->port_layer[hops[k]];
		int li = L->port_layer[t->ports[hops[k]].peer];

		if (li > lo) {
			bounces += down || lo < at;
			down = false;
		} else {
			if (down && lo > at)
				bounces++;
			down = true;
		}
		at = li;
	}
	return bounces;
}

static bool failed(const struct topo *t, int port, int fail)
{
	return port == fail || port == t->ports[fail].peer;
}

/* The virtual node a packet is at when it is about to take hops[i]. */
static int state_at(const struct topo *t, const struct fc_layout *L,
		    const struct vgraph *g, const int32_t *hops, int i)
{
	int tor = L->node_tor[port_node(t, hops[i])], lo, li;

	if (!i)
		return v_up(g, tor, 1);
	lo = L->port_layer[hops[i - 1]];
	li = L->port_layer[t->ports[hops[i - 1]].peer];
	return li > lo ? v_up(g, tor, li) : v_down(g, tor, li);
}

/* 0-1 BFS (dashed arcs cost 0) from v to D(dst,1) avoiding the failure. */
static int updown_rest(const struct topo *t, const struct vgraph *g, int v,
		       int dst_tor, int fail, int32_t *out)
{
	int n = g->n, *dist = xmalloc(n * sizeof(int)),
	    *prev = xmalloc(n * sizeof(int));
	int *port = xmalloc(n * sizeof(int)), cap = g->start[n] + n + 1;
	int *dq = xmalloc(2 * (size_t)cap * sizeof(int)), head = cap,
	    tail = cap;
	int goal = v_down(g, dst_tor, 1), x, len = -1, u;

	/* Every push follows a strict improvement: at most arcs + 1 pushes. */

	for (x = 0; x < n; x++)
		dist[x] = -1;
	dist[v] = 0;
	dq[tail++] = v;
	while (head < tail) {
		u = dq[head++];
		for (x = g->start[u]; x < g->start[u + 1]; x++) {
			int h = g->head[x], w = g->port[x] >= 0;

			if (w && failed(t, g->port[x], fail))
				continue;
			if (dist[h] >= 0 && dist[h] <= dist[u] + w)
				continue;
			dist[h] = dist[u] + w;
			prev[h] = u;
			port[h] = g->port[x];
			if (w)
				dq[tail++] = h;
			else
				dq[--head] = h;
		}
	}
	if (dist[goal] >= 0 && dist[goal] <= MAX_HOPS) {
		len = dist[goal];
		for (u = goal, x = len; u != v; u = prev[u])
			if (port[u] >= 0)
				out[--x] = port[u];
	}
	free(dist);
	free(prev);
	free(port);
	free(dq);
	return len;
}

/* Fewest physical hops from node a to node b between switches, avoiding
 * the failed link. */
static int bfs_rest(const struct topo *t, int a, int b, int fail, int32_t *out)
{
	int *prev = xmalloc(t->nnodes * sizeof(int)),
	    *q = xmalloc(t->nnodes * sizeof(int));
	int qh = 0, qt = 0, x, len = 0, u;

	for (x = 0; x < t->nnodes; x++)
		prev[x] = -2;
	prev[a] = -1;
	q[qt++] = a;
	while (qh < qt && prev[b] == -2) {
		u = q[qh++];
		for (x = 0; x < t->nodes[u].nports; x++) {
			int p = t->nodes[u].ports[x], h = port_peer_node(t, p);

			if (prev[h] != -2 || !topo_is_switch(t, h) ||
			    failed(t, p, fail))
				continue;
			prev[h] = p;
			q[qt++] = h;
		}
	}
	if (prev[b] == -2) {
		len = -1;
	} else {
		for (u = b; u != a; u = port_node(t, prev[u]))
			len++;
		for (u = b, x = len; u != a; u = port_node(t, prev[u]))
			out[--x] = prev[u];
	}
	free(prev);
	free(q);
	return len > MAX_HOPS ? -1 : len;
}

/* Cut loops: a node visited twice keeps only its last departure. */
static int cut_loops(const struct topo *t, int32_t *hops, int n)
{
	int i, j, m = 0;

	for (i = 0; i < n; i++) {
		int node = port_node(t, hops[i]);

		for (j = 0; j < m && port_node(t, hops[j]) != node; j++)
			;
		m = j;
		hops[m++] = hops[i];
	}
	return m;
}

static void reroute_one(const struct topo *t, const struct fc_layout *L,
			const struct vgraph *g, const int32_t *h, int n, int i,
			int fail, struct elp *out, struct fc_reroute_stats *rs)
{
	int32_t path[2 * MAX_HOPS + 2];
	int dst = port_peer_node(t, h[n - 1]), m, b;

	memcpy(path, h, i * sizeof(*h));
	m = updown_rest(t, g, state_at(t, L, g, h, i), L->node_tor[dst], fail,
			path + i);
	if (m < 0)
		m = bfs_rest(t, port_node(t, h[i]), dst, fail, path + i);
	if (m < 0) {
		rs->unreachable++;
		return;
	}
	m = cut_loops(t, path, i + m);
	b = fc_bounces(t, L, path, m);
	if (b) {
		rs->bounced++;
		if (b > rs->max_bounces)
			rs->max_bounces = b;
	} else {
		rs->updown++;
	}
	elp_add(out, path, m, 0);
}

int fc_reroute(const struct topo *t, const struct fc_layout *L,
	       const struct elp *in, int fail_port, struct elp *out,
	       struct fc_reroute_stats *rs)
{
	struct vgraph g;
	int p, k;

	memset(rs, 0, sizeof(*rs));
	vgraph_build(&g, t, L);
	for (p = 0; p < in->npaths; p++)
		elp_add(out, elp_hops(in, p), elp_len(in, p), in->line[p]);
	for (p = 0; p < in->npaths; p++) {
		const int32_t *h = elp_hops(in, p);
		int n = elp_len(in, p);

		if (n > MAX_HOPS)
			continue;
		for (k = 0; k < n && !failed(t, h[k], fail_port); k++)
			;
		if (k == n)
			continue;
		rs->affected++;
		reroute_one(t, L, &g, h, n, k, fail_port, out, rs);
	}
	vgraph_free(&g);
	return 0;
}
