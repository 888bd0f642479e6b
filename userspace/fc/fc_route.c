// SPDX-License-Identifier: GPL-2.0
/* Edge-disjoint virtual up-down routing of Flattened Clos; see fc_route.h. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fc/fc_route.h"
#include "fc/fc_vgraph.h"
#include "graph/mcf.h"
#include "lib/util.h"

struct worker {
	const struct topo *t;
	const struct fc_layout *L;
	const struct fc_route_opts *o;
	const struct vgraph *g;
	int lo, hi; /* sources [lo, hi) */
	struct elp *out; /* NULL: statistics only */
	struct path_stats st;
	struct mcf m;
	int *loc; /* virtual node -> local id, -1 */
	int *up_nodes, nup; /* up-cone of the current source */
	int *dn_nodes, ndn; /* down-cone of the current destination */
	struct arc_list up_arcs; /* arcs of the up-cone, local ids */
	int *arc_port; /* mcf arc -> egress port, -1 dashed */
	int arc_port_cap;
	int *queue;
	char *good; /* up-cone local id: reaches the down-cone */
	volatile int *stop;
};

/* Up nodes reachable from U(s,1), and the tops they reach. */
static void up_cone(struct worker *w, int s)
{
	const struct vgraph *g = w->g;
	int qh = 0, qt = 0, v, x;

	w->nup = 0;
	w->queue[qt++] = v_up(g, s, 1);
	w->loc[v_up(g, s, 1)] = w->nup;
	w->up_nodes[w->nup++] = v_up(g, s, 1);
	w->up_arcs.n = 0;
	while (qh < qt) {
		v = w->queue[qh++];
		if (v_kind(g, v) != 0)
			continue;
		for (x = g->start[v]; x < g->start[v + 1]; x++) {
			int h = g->head[x];

			if (w->loc[h] < 0) {
				w->loc[h] = w->nup;
				w->up_nodes[w->nup++] = h;
				w->queue[qt++] = h;
			}
			arc_push(&w->up_arcs, w->loc[v], w->loc[h], g->port[x]);
		}
	}
}

/* Down nodes that reach D(t,1), and the tops that feed them. */
static void down_cone(struct worker *w, int t)
{
	const struct vgraph *g = w->g;
	int qh = 0, qt = 0, v, x, base = w->nup;

	v = v_down(g, t, 1);
	w->loc[v] = base;
	w->dn_nodes[0] = v;
	w->ndn = 1;
	w->queue[qt++] = v;
	while (qh < qt) {
		v = w->queue[qh++];
		for (x = g->rstart[v]; x < g->rstart[v + 1]; x++) {
			int u = g->rtail[x];

			/* Tops of the up-cone keep their ids; tops are not expanded. */
			if (w->loc[u] >= 0)
				continue;
			w->loc[u] = base + w->ndn;
			w->dn_nodes[w->ndn++] = u;
			if (v_kind(g, u) == 2)
				w->queue[qt++] = u;
		}
	}
}

static void set_arc_port(struct worker *w, int arc, int port)
{
	if (arc >= w->arc_port_cap) {
		w->arc_port_cap = 2 * arc + 1024;
		w->arc_port =
			xrealloc(w->arc_port, w->arc_port_cap * sizeof(int));
	}
	w->arc_port[arc] = port;
}

static void add_arc(struct worker *w, int u, int v, int port)
{
	int a = mcf_arc(&w->m, u, v, port >= 0 ? 1 : MCF_INF,
			port >= 0 ? 1 : 0);

	set_arc_port(w, a, port);
}

/*
 * Drop loops from a contracted path (lemma 4: "removing cycles and
 * duplicated vertices"). A min-cost flow never needs them, since any
 * revisit of a switch could be short-cut by dashed arcs; kept for safety.
 */
static int contract(const struct topo *t, int32_t *hops, int n)
{
	int i, j, m = 0;

	for (i = 0; i < n; i++) {
		int node = port_node(t, hops[i]);

		for (j = 0; j < m; j++)
			if (port_node(t, hops[j]) == node)
				break;
		m = j;
		hops[m++] = hops[i];
	}
	return m;
}

/*
 * Which up-cone nodes lead to the destination's down-cone: tops with an arc
 * into it, then (higher layers first: the up-cone's BFS order is by layer,
 * every arc climbs one) up nodes with an arc to such a node. The rest are
 * dead ends for this pair and stay out of its flow problem.
 */
static void mark_good(struct worker *w)
{
	const struct vgraph *g = w->g;
	int i, x;

	memset(w->good, 0, w->nup);
	for (i = 0; i < w->ndn; i++) {
		int v = w->dn_nodes[i];

		if (v_kind(g, v) != 2)
			continue;
		for (x = g->rstart[v]; x < g->rstart[v + 1]; x++) {
			int u = g->rtail[x];

			if (v_kind(g, u) == 1 && w->loc[u] < w->nup)
				w->good[w->loc[u]] = 1;
		}
	}
	for (i = w->nup - 1; i >= 0; i--) {
		int v = w->up_nodes[i];

		if (v_kind(g, v) != 0)
			continue;
		for (x = g->start[v]; x < g->start[v + 1]; x++)
			if (w->good[w->loc[g->head[x]]]) {
				w->good[i] = 1;
				break;
			}
	}
}

static int route_pair(struct worker *w, int s, int t)
{
	const struct vgraph *g = w->g;
	int i, x, flow, src, dst, limit;
	int32_t hops[4 * FC_MAX_LAYERS + 8];
	int arcs[4 * FC_MAX_LAYERS + 8], lens[512];
	int64_t cost;

	down_cone(w, t);
	mark_good(w);
	mcf_reset(&w->m, w->nup + w->ndn);
	for (i = 0; i < w->up_arcs.n; i++)
		if (w->good[w->up_arcs.src[i]] && w->good[w->up_arcs.dst[i]])
			add_arc(w, w->up_arcs.src[i], w->up_arcs.dst[i],
				w->up_arcs.port[i]);
	for (i = 0; i < w->ndn; i++) {
		int v = w->dn_nodes[i];

		if (v_kind(g, v) != 2)
			continue;
		for (x = g->rstart[v]; x < g->rstart[v + 1]; x++)
			add_arc(w, w->loc[g->rtail[x]], w->loc[v],
				g->port[g->rarc[x]]);
	}
	/* Tops in the up-cone were mapped there; their down arcs come here. */
	src = w->loc[v_up(g, s, 1)];
	dst = w->loc[v_down(g, t, 1)];
	limit = w->o->max_paths > 0 ? w->o->max_paths : MCF_INF;
	if (limit > (int)ARRAY_SIZE(lens))
		limit = ARRAY_SIZE(lens);
	flow = mcf_solve(&w->m, src, dst, limit, &cost);
	for (i = 0; i < flow; i++) {
		int n = mcf_take_path(&w->m, src, dst, arcs, ARRAY_SIZE(arcs)),
		    h = 0;

		for (x = 0; x < n; x++)
			if (w->arc_port[arcs[x]] >= 0)
				hops[h++] = w->arc_port[arcs[x]];
		h = contract(w->t, hops, h);
		lens[i] = h;
		if (w->out)
			elp_add(w->out, hops, h, 0);
	}
	path_stats_pair(&w->st, flow, lens);
	for (i = 0; i < w->ndn; i++)
		w->loc[w->dn_nodes[i]] = -1;
	return flow;
}

static void *worker_run(void *arg)
{
	struct worker *w = arg;
	int s, t, i;

	for (s = w->lo; s < w->hi && !*w->stop; s++) {
		up_cone(w, s);
		for (t = 0; t < w->L->ntors && !*w->stop; t++) {
			if (t == s)
				continue;
			if (route_pair(w, s, t) < w->o->stop_below)
				*w->stop = 1;
		}
		for (i = 0; i < w->nup; i++)
			w->loc[w->up_nodes[i]] = -1;
	}
	return NULL;
}

int fc_route(const struct topo *t, const struct fc_layout *L,
	     const struct fc_route_opts *o, struct elp *out,
	     struct path_stats *st)
{
	int nthr = o->threads > 0 ? o->threads : 1, i, v;
	double t0 = now_seconds();
	volatile int stop = 0;
	struct worker *w;
	pthread_t *tid;
	struct vgraph g;

	vgraph_build(&g, t, L);
	if (nthr > L->ntors)
		nthr = L->ntors;
	w = xcalloc(nthr, sizeof(*w));
	tid = xcalloc(nthr, sizeof(*tid));
	for (i = 0; i < nthr; i++) {
		w[i] = (struct worker){
			.t = t,
			.L = L,
			.o = o,
			.g = &g,
			.stop = &stop,
			.lo = (int)((int64_t)L->ntors * i / nthr),
			.hi = (int)((int64_t)L->ntors * (i + 1) / nthr),
			.out = out ? (nthr == 1 ? out : elp_new(NULL)) : NULL,
			.loc = xmalloc(g.n * sizeof(int)),
			.up_nodes = xmalloc(g.n * sizeof(int)),
			.dn_nodes = xmalloc(g.n * sizeof(int)),
			.queue = xmalloc(2 * (g.n + 1) * sizeof(int)),
			.good = xmalloc(g.n + 1),
		};
		for (v = 0; v < g.n; v++)
			w[i].loc[v] = -1;
		path_stats_init(&w[i].st);
		mcf_init(&w[i].m);
	}
	if (nthr == 1)
		worker_run(&w[0]);
	else {
		for (i = 0; i < nthr; i++)
			if (pthread_create(&tid[i], NULL, worker_run, &w[i]))
				worker_run(&w[i]), tid[i] = 0;
		for (i = 0; i < nthr; i++)
			if (tid[i])
				pthread_join(tid[i], NULL);
	}
	path_stats_init(st);
	for (i = 0; i < nthr; i++) {
		path_stats_merge(st, &w[i].st);
		if (out && nthr > 1) {
			for (v = 0; v < w[i].out->npaths; v++)
				elp_add(out, elp_hops(w[i].out, v),
					elp_len(w[i].out, v), 0);
			elp_free(w[i].out);
		}
		mcf_free(&w[i].m);
		free(w[i].loc);
		free(w[i].up_nodes);
		free(w[i].dn_nodes);
		free(w[i].queue);
		free(w[i].good);
		free(w[i].up_arcs.src);
		free(w[i].up_arcs.dst);
		free(w[i].up_arcs.port);
		free(w[i].arc_port);
	}
	free(w);
	free(tid);
	vgraph_free(&g);
	st->seconds = now_seconds() - t0;
	return stop ? -1 : 0;
}
