// SPDX-License-Identifier: GPL-2.0
/*
 * All shortest up-down paths between ordered endpoint pairs.
 *
 * A path from s to t that goes up to a peak m and then down has length
 * up(s,m) + up(t,m), where up() is the distance along up hops only. The
 * shortest up-down paths are therefore, for every peak m minimising that
 * sum, every shortest up path s -> m followed by every shortest up path
 * t -> m reversed. Such a path is simple: a node on both halves below m
 * would be a lower common peak, hence a shorter path.
 *
 * The up-ancestor sets of all endpoints are computed once (a BFS along up
 * hops each). Cost per pair: the size of t's ancestor set plus the output.
 * Pairs go destination by destination, like the other generators.
 */
#include <stdlib.h>
#include <string.h>

#include "lib/log.h"
#include "gen/paths_updown.h"
#include "lib/util.h"

static bool may_transit(const struct updown *u, int v)
{
	return u->t->nodes[v].kind == NODE_SWITCH || u->ends->relay_hosts;
}

int ud_init(struct updown *u, const struct topo *t, const struct gen_ends *ends)
{
	int *dist = xmalloc(t->nnodes * sizeof(*dist)),
	    *queue = xmalloc(t->nnodes * sizeof(*queue));
	int e, v, n = 0, cap = 0, na = 0, dcap = 0;

	if (!topo_has_layers(t)) {
		p_err("%s: up-down paths need layers (switch ... layer=N on every switch)",
		      t->file);
		free(dist);
		free(queue);
		return -1;
	}
	*u = (struct updown){ .t = t, .ends = ends };
	u->off = xmalloc((ends->n + 1) * sizeof(*u->off));
	for (v = 0; v < t->nnodes; v++)
		dist[v] = -1;
	for (e = 0; e < ends->n; e++) {
		int head = 0, tail = 0, i;

		u->off[e] = n;
		queue[tail++] = ends->node[e];
		dist[ends->node[e]] = 0;
		while (head < tail) {
			const struct topo_node *nd;

			v = queue[head++];
			VEC_PUSH(u->anc, n, cap, v);
			VEC_PUSH(u->adist, na, dcap, dist[v]);
			if (v != ends->node[e] && !may_transit(u, v))
				continue;
			nd = &t->nodes[v];
			for (i = 0; i < nd->nports; i++) {
				int w = port_peer_node(t, nd->ports[i]);

				if (dist[w] < 0 &&
				    ud_layer(t, w) > ud_layer(t, v)) {
					dist[w] = dist[v] + 1;
					queue[tail++] = w;
				}
			}
		}
		for (i = 0; i < tail; i++)
			dist[queue[i]] = -1;
	}
	u->off[ends->n] = n;
	free(dist);
	free(queue);
	return 0;
}

void ud_free(struct updown *u)
{
	free(u->off);
	free(u->anc);
	free(u->adist);
}

void ud_load(const struct updown *u, int e, int *dist)
{
	int i;

	for (i = u->off[e]; i < u->off[e + 1]; i++)
		dist[u->anc[i]] = u->adist[i];
}

void ud_unload(const struct updown *u, int e, int *dist)
{
	int i;

	for (i = u->off[e]; i < u->off[e + 1]; i++)
		dist[u->anc[i]] = -1;
}

int ud_best(const struct updown *u, int t, const int *ds)
{
	int i, best = -1;

	for (i = u->off[t]; i < u->off[t + 1]; i++) {
		int m = u->anc[i];

		if (ds[m] >= 0 && (best < 0 || ds[m] + u->adist[i] < best))
			best = ds[m] + u->adist[i];
	}
	return best;
}

/*
 * The pair loop of the up-down and bounce generators: a destination's
 * up distances stay loaded while its sources go by.
 */
int ud_pairs(const struct topo *t, const struct gen_ends *ends,
	     struct path_sink *sink,
	     void (*fn)(void *ctx, const struct ud_pair *p), void *ctx)
{
	struct ud_pair p;
	struct updown u;
	int *ds, *dt, v;

	if (ud_init(&u, t, ends))
		return -1;
	ds = xmalloc(t->nnodes * sizeof(*ds));
	dt = xmalloc(t->nnodes * sizeof(*dt));
	for (v = 0; v < t->nnodes; v++)
		ds[v] = dt[v] = -1;
	p = (struct ud_pair){ .u = &u, .ds = ds, .dt = dt };
	for (p.e = 0; p.e < ends->n; p.e++) {
		ud_load(&u, p.e, dt);
		for (p.s = 0; p.s < ends->n; p.s++) {
			if (p.s == p.e)
				continue;
			ud_load(&u, p.s, ds);
			p.best = ud_best(&u, p.e, ds);
			if (p.best < 0)
				sink->unreachable++;
			else
				fn(ctx, &p);
			ud_unload(&u, p.s, ds);
		}
		ud_unload(&u, p.e, dt);
	}
	free(ds);
	free(dt);
	ud_free(&u);
	return 0;
}

/* Growing list of fixed-length port sequences. */
struct seqs {
	int32_t *v;
	int n, len, cap;
};

static void seqs_add(struct seqs *q, const int32_t *p)
{
	if (q->n == q->cap) {
		q->cap = q->cap ? 2 * q->cap : 16;
		q->v = xrealloc(q->v, (size_t)q->cap * (q->len ? q->len : 1) *
					      sizeof(*q->v));
	}
	memcpy(q->v + (size_t)q->n * q->len, p, q->len * sizeof(*p));
	q->n++;
}

/*
 * Every shortest up path from the endpoint with up distances dist to node
 * v, collected backward from v: buf[k] is the egress port of hop k.
 */
static void up_paths(const struct updown *u, const int *dist, int v,
		     int32_t *buf, struct seqs *out)
{
	const struct topo *t = u->t;
	const struct topo_node *n = &t->nodes[v];
	int i, d = dist[v];

	if (d == 0) {
		seqs_add(out, buf);
		return;
	}
	for (i = 0; i < n->nports; i++) {
		int p = t->ports[n->ports[i]].peer, w = port_node(t, p);

		if (dist[w] != d - 1 || ud_layer(t, w) >= ud_layer(t, v) ||
		    (d > 1 && !may_transit(u, w)))
			continue;
		buf[d - 1] = p;
		up_paths(u, dist, w, buf, out);
	}
}

/* Down half: reverse an up path of t (t -> m) into m -> t. */
static void reverse_into(const struct topo *t, const int32_t *up, int len,
			 int32_t *dst)
{
	int k;

	for (k = 0; k < len; k++)
		dst[k] = t->ports[up[len - 1 - k]].peer;
}

/* Scratch of paths_updown(). */
struct ud_emit {
	int32_t *buf, *path;
	struct path_sink *sink;
};

static void emit_pair(void *ctx, const struct ud_pair *p)
{
	const struct updown *u = p->u;
	const struct topo *t = u->t;
	struct ud_emit *x = ctx;
	struct seqs up = { 0 }, down = { 0 };
	int i, a, b;

	for (i = u->off[p->e]; i < u->off[p->e + 1]; i++) {
		int m = u->anc[i];

		if (p->ds[m] < 0 || p->ds[m] + u->adist[i] != p->best)
			continue;
		up.n = down.n = 0;
		up.len = p->ds[m];
		down.len = p->dt[m];
		up_paths(u, p->ds, m, x->buf, &up);
		up_paths(u, p->dt, m, x->buf, &down);
		for (a = 0; a < up.n; a++)
			for (b = 0; b < down.n; b++) {
				memcpy(x->path, up.v + (size_t)a * up.len,
				       up.len * sizeof(*x->path));
				reverse_into(t, down.v + (size_t)b * down.len,
					     down.len, x->path + up.len);
				sink_emit(x->sink, x->path, p->best);
			}
	}
	free(up.v);
	free(down.v);
}

int paths_updown(const struct topo *t, const struct gen_ends *ends,
		 struct path_sink *sink)
{
	struct ud_emit x = { .sink = sink };
	int r;

	x.buf = xmalloc((t->nnodes + 1) * sizeof(*x.buf));
	x.path = xmalloc((2 * t->nnodes + 2) * sizeof(*x.path));
	r = ud_pairs(t, ends, sink, emit_pair, &x);
	free(x.buf);
	free(x.path);
	return r;
}
