// SPDX-License-Identifier: GPL-2.0
/* The directed virtual up-down graph of a Flattened Clos; see fc_vgraph.h. */
#include <stdlib.h>
#include <string.h>

#include "fc/fc_vgraph.h"

void vgraph_build(struct vgraph *g, const struct topo *t,
		  const struct fc_layout *L)
{
	struct arc_list a = { 0 };
	int i, j, p, x, *fill;

	g->k = L->k;
	g->per = 2 * L->k - 1;
	g->n = L->ntors * g->per;
	for (i = 0; i < L->ntors; i++) {
		for (j = 1; j < g->k; j++) {
			arc_push(&a, v_up(g, i, j), v_up(g, i, j + 1), -1);
			arc_push(&a, v_down(g, i, j + 1), v_down(g, i, j), -1);
		}
	}
	for (p = 0; p < t->nports; p++) {
		int q = t->ports[p].peer, lj = L->port_layer[p];
		int a_tor, b_tor;

		if (!lj || L->port_layer[q] != lj + 1)
			continue;
		/* p is the lower end (layer lj of a), q the upper (lj+1 of b). */
		a_tor = L->node_tor[port_node(t, p)];
		b_tor = L->node_tor[port_node(t, q)];
		arc_push(&a, v_up(g, a_tor, lj), v_up(g, b_tor, lj + 1), p);
		arc_push(&a, v_down(g, b_tor, lj + 1), v_down(g, a_tor, lj), q);
	}
	g->start = xcalloc(g->n + 1, sizeof(int));
	g->rstart = xcalloc(g->n + 1, sizeof(int));
	g->head = xmalloc(a.n * sizeof(int));
	g->port = xmalloc(a.n * sizeof(int));
	g->rtail = xmalloc(a.n * sizeof(int));
	g->rarc = xmalloc(a.n * sizeof(int));
	for (x = 0; x < a.n; x++) {
		g->start[a.src[x] + 1]++;
		g->rstart[a.dst[x] + 1]++;
	}
	for (i = 0; i < g->n; i++) {
		g->start[i + 1] += g->start[i];
		g->rstart[i + 1] += g->rstart[i];
	}
	fill = xmalloc(2 * g->n * sizeof(int));
	memcpy(fill, g->start, g->n * sizeof(int));
	memcpy(fill + g->n, g->rstart, g->n * sizeof(int));
	for (x = 0; x < a.n; x++) {
		int f = fill[a.src[x]]++, r = fill[g->n + a.dst[x]]++;

		g->head[f] = a.dst[x];
		g->port[f] = a.port[x];
		g->rtail[r] = a.src[x];
		g->rarc[r] = f;
	}
	free(fill);
	free(a.src);
	free(a.dst);
	free(a.port);
}

void vgraph_free(struct vgraph *g)
{
	free(g->start);
	free(g->head);
	free(g->port);
	free(g->rstart);
	free(g->rtail);
	free(g->rarc);
}
