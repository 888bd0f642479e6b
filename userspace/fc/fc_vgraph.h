/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The directed virtual up-down graph of a Flattened Clos (figure 4c), shared
 * by the routing (fc_route.c) and the local reroute after failures
 * (fc_reroute.c).
 *
 * Per ToR i: up nodes U(i,1..k-1), the top T(i), down nodes D(i,k-1..1),
 * numbered i*(2k-1) + 0..2k-2. Solid arcs carry the egress port of the
 * directed physical link they stand for; dashed arcs (moves inside one
 * switch) carry port -1.
 *
 * API:
 *   vgraph_build(&g, t, L) / vgraph_free(&g)
 *   v_up(g, tor, j), v_down(g, tor, j)   (j = k gives T)
 *   v_kind(g, v)                         0 up, 1 top, 2 down
 *   v_tor(g, v), v_layer(g, v)
 *   struct arc_list, arc_push            growable arc arrays
 */
#ifndef __TAGGER_FC_VGRAPH_H
#define __TAGGER_FC_VGRAPH_H

#include "fc/fc_layout.h"
#include "model/topo.h"
#include "lib/util.h"

struct vgraph {
	int k, per; /* per = 2k - 1 virtual nodes per ToR */
	int n;
	int *start, *head, *port; /* forward CSR; port -1 = dashed */
	int *rstart, *rtail, *rarc; /* reverse CSR: tail and forward arc id */
};

static inline int v_up(const struct vgraph *g, int tor, int j)
{
	return tor * g->per + (j < g->k ? j - 1 : g->k - 1);
}

static inline int v_down(const struct vgraph *g, int tor, int j)
{
	return tor * g->per + (j < g->k ? g->k + j - 1 : g->k - 1);
}

/* 0 up node, 1 top node, 2 down node */
static inline int v_kind(const struct vgraph *g, int v)
{
	int r = v % g->per;

	return r < g->k - 1 ? 0 : r == g->k - 1 ? 1 : 2;
}

static inline int v_tor(const struct vgraph *g, int v)
{
	return v / g->per;
}

static inline int v_layer(const struct vgraph *g, int v)
{
	int r = v % g->per;

	return r < g->k ? r + 1 : r - g->k + 1;
}

struct arc_list {
	int n, cap;
	int *src, *dst, *port;
};

static inline void arc_push(struct arc_list *a, int u, int v, int port)
{
	if (a->n == a->cap) {
		a->cap = a->cap ? 2 * a->cap : 1024;
		a->src = xrealloc(a->src, a->cap * sizeof(int));
		a->dst = xrealloc(a->dst, a->cap * sizeof(int));
		a->port = xrealloc(a->port, a->cap * sizeof(int));
	}
	a->src[a->n] = u;
	a->dst[a->n] = v;
	a->port[a->n++] = port;
}

void vgraph_build(struct vgraph *g, const struct topo *t,
		  const struct fc_layout *L);
void vgraph_free(struct vgraph *g);

#endif /* __TAGGER_FC_VGRAPH_H */
