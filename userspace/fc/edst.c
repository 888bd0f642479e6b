// SPDX-License-Identifier: GPL-2.0
/* Edge-disjoint spanning trees by matroid partitioning; see edst.h. */
#include <stdlib.h>
#include <string.h>

#include "fc/edst.h"
#include "lib/util.h"

/* Links between switches, and k forests over them. */
struct part {
	const struct topo *t;
	int n, m, k;
	int *eu, *ev; /* endpoints (switch index) of link e */
	int *eport; /* port of eu's side */
	int *owner; /* forest of link e, -1 */
	int *fsize; /* links per forest */
	/* forest adjacency: per (forest, switch) a small growable list */
	int **adj;
	int *adjn, *adjcap;
	/* search scratch */
	int *label, *queue, *prev, *seen, stamp, *bfsq;
};

static int *fadj(struct part *p, int f, int v, int **n)
{
	*n = &p->adjn[f * p->n + v];
	return p->adj[f * p->n + v];
}

static void adj_add(struct part *p, int f, int v, int e)
{
	int i = f * p->n + v;

	VEC_PUSH(p->adj[i], p->adjn[i], p->adjcap[i], e);
}

static void adj_del(struct part *p, int f, int v, int e)
{
	int i = f * p->n + v, x;

	for (x = 0; x < p->adjn[i]; x++)
		if (p->adj[i][x] == e) {
			p->adj[i][x] = p->adj[i][--p->adjn[i]];
			return;
		}
}

static void forest_set(struct part *p, int e, int f)
{
	if (p->owner[e] >= 0) {
		adj_del(p, p->owner[e], p->eu[e], e);
		adj_del(p, p->owner[e], p->ev[e], e);
		p->fsize[p->owner[e]]--;
	}
	p->owner[e] = f;
	adj_add(p, f, p->eu[e], e);
	adj_add(p, f, p->ev[e], e);
	p->fsize[f]++;
}

/*
 * Links of the path from u to v in forest f into out (count returned), or
 * -1 when u and v lie in different trees of f.
 */
static int forest_path(struct part *p, int f, int u, int v, int *out)
{
	int qh = 0, qt = 0, x, w, *n, *a;

	if (u == v)
		return 0;
	p->stamp++;
	p->seen[u] = p->stamp;
	p->prev[u] = -1;
	p->bfsq[qt++] = u;
	while (qh < qt && p->seen[v] != p->stamp) {
		int c = p->bfsq[qh++];

		a = fadj(p, f, c, &n);
		for (x = 0; x < *n; x++) {
			int e = a[x];

			w = p->eu[e] == c ? p->ev[e] : p->eu[e];
			if (p->seen[w] == p->stamp)
				continue;
			p->seen[w] = p->stamp;
			p->prev[w] = e;
			p->bfsq[qt++] = w;
		}
	}
	if (p->seen[v] != p->stamp)
		return -1;
	for (x = 0, w = v; w != u; x++) {
		int e = p->prev[w];

		out[x] = e;
		w = p->eu[e] == w ? p->ev[e] : p->eu[e];
	}
	return x;
}

/* Shortest chain of swaps that makes room for link x0 (true if found). */
static bool insert(struct part *p, int x0, int *path)
{
	int qh = 0, qt = 0, e, f, i, len;

	for (e = 0; e < p->m; e++)
		p->label[e] = -2;
	p->label[x0] = -1;
	p->queue[qt++] = x0;
	while (qh < qt) {
		int x = p->queue[qh++];

		for (f = 0; f < p->k; f++) {
			if (p->owner[x] == f)
				continue;
			len = forest_path(p, f, p->eu[x], p->ev[x], path);
			if (len < 0) {
				/* x fits in f: x moves there, its displacer takes its slot. */
				for (;;) {
					int old = p->owner[x],
					    next = p->label[x];

					forest_set(p, x, f);
					if (next < 0)
						return true;
					x = next;
					f = old;
				}
			}
			for (i = 0; i < len; i++)
				if (p->label[path[i]] == -2) {
					p->label[path[i]] = x;
					p->queue[qt++] = path[i];
				}
		}
	}
	return false;
}

static void part_free(struct part *p)
{
	int i;

	for (i = 0; i < p->k * p->n; i++)
		free(p->adj[i]);
	free(p->adj);
	free(p->adjn);
	free(p->adjcap);
	free(p->eu);
	free(p->ev);
	free(p->eport);
	free(p->owner);
	free(p->fsize);
	free(p->label);
	free(p->queue);
	free(p->prev);
	free(p->seen);
	free(p->bfsq);
}

static void part_init(struct part *p, const struct topo *t,
		      const struct edst *tr, int k)
{
	int q;

	memset(p, 0, sizeof(*p));
	p->t = t;
	p->n = tr->nsw;
	p->k = k;
	p->eu = xmalloc((t->nports / 2 + 1) * sizeof(int));
	p->ev = xmalloc((t->nports / 2 + 1) * sizeof(int));
	p->eport = xmalloc((t->nports / 2 + 1) * sizeof(int));
	for (q = 0; q < t->nports; q++) {
		int a = tr->node_sw[port_node(t, q)],
		    b = tr->node_sw[port_peer_node(t, q)];

		if (q > t->ports[q].peer || a < 0 || b < 0 || a == b)
			continue;
		p->eu[p->m] = a;
		p->ev[p->m] = b;
		p->eport[p->m++] = q;
	}
	p->owner = xmalloc((p->m + 1) * sizeof(int));
	memset(p->owner, 0xff, (p->m + 1) * sizeof(int));
	p->fsize = xcalloc(k + 1, sizeof(int));
	p->adj = xcalloc((size_t)k * p->n + 1, sizeof(int *));
	p->adjn = xcalloc((size_t)k * p->n + 1, sizeof(int));
	p->adjcap = xcalloc((size_t)k * p->n + 1, sizeof(int));
	p->label = xmalloc((p->m + 1) * sizeof(int));
	p->queue = xmalloc((p->m + 1) * sizeof(int));
	p->prev = xmalloc((p->n + 1) * sizeof(int));
	p->seen = xcalloc(p->n + 1, sizeof(int));
	p->bfsq = xmalloc((p->n + 1) * sizeof(int));
}

/* k forests of n-1 links each, or false. */
/*
 * Links in breadth-first order from switch 0: the first links of every
 * forest then hang close to one root, which keeps the trees (and the
 * paths inside them) shorter than link-file order does.
 */
static int *bfs_order(const struct part *p)
{
	int *order = xmalloc((p->m + 1) * sizeof(int)),
	    *q = xmalloc((p->n + 1) * sizeof(int));
	int *start = xcalloc(p->n + 2, sizeof(int)),
	    *adj = xmalloc((2 * p->m + 1) * sizeof(int));
	char *seen = xcalloc(p->n + 1, 1), *taken = xcalloc(p->m + 1, 1);
	int e, v, qh = 0, qt = 0, n = 0, x;

	for (e = 0; e < p->m; e++) {
		start[p->eu[e] + 2]++;
		start[p->ev[e] + 2]++;
	}
	for (v = 0; v < p->n; v++)
		start[v + 2] += start[v + 1];
	for (e = 0; e < p->m; e++) {
		adj[start[p->eu[e] + 1]++] = e;
		adj[start[p->ev[e] + 1]++] = e;
	}
	for (v = 0; v < p->n; v++) {
		if (seen[v])
			continue;
		seen[v] = 1;
		q[qt++] = v;
		while (qh < qt) {
			int u = q[qh++];

			for (x = start[u]; x < start[u + 1]; x++) {
				int w;

				e = adj[x];
				w = p->eu[e] == u ? p->ev[e] : p->eu[e];
				if (!taken[e]) {
					taken[e] = 1;
					order[n++] = e;
				}
				if (!seen[w]) {
					seen[w] = 1;
					q[qt++] = w;
				}
			}
		}
	}
	free(q);
	free(start);
	free(adj);
	free(seen);
	free(taken);
	return order;
}

static bool partition(struct part *p, int *path)
{
	int *order = bfs_order(p), i, full = 0, f;

	for (i = 0; i < p->m && full < p->k; i++) {
		insert(p, order[i], path);
		for (full = 0, f = 0; f < p->k; f++)
			full += p->fsize[f] == p->n - 1;
	}
	free(order);
	return full == p->k;
}

int edst_find(const struct topo *t, int k, struct edst *tr)
{
	struct part p;
	int i, e, *path;

	memset(tr, 0, sizeof(*tr));
	tr->node_sw = xmalloc(t->nnodes * sizeof(int));
	tr->sw_node = xmalloc(t->nnodes * sizeof(int));
	for (i = 0; i < t->nnodes; i++) {
		tr->node_sw[i] = -1;
		if (topo_is_switch(t, i)) {
			tr->node_sw[i] = tr->nsw;
			tr->sw_node[tr->nsw++] = i;
		}
	}
	tr->tree_of_port = xmalloc((t->nports + 1) * sizeof(int));
	memset(tr->tree_of_port, 0xff, (t->nports + 1) * sizeof(int));
	if (tr->nsw < 2)
		return 0;
	path = xmalloc((tr->nsw + 1) * sizeof(int));
	part_init(&p, t, tr, 1);
	if (k <= 0 || k > p.m / (tr->nsw - 1))
		k = p.m / (tr->nsw - 1);
	part_free(&p);
	for (; k > 0; k--) {
		part_init(&p, t, tr, k);
		if (partition(&p, path))
			break;
		part_free(&p);
	}
	free(path);
	tr->k = k;
	if (!k)
		return 0;
	for (e = 0; e < p.m; e++) {
		if (p.owner[e] < 0) {
			tr->unused_links++;
			continue;
		}
		tr->tree_of_port[p.eport[e]] = p.owner[e];
		tr->tree_of_port[t->ports[p.eport[e]].peer] = p.owner[e];
	}
	part_free(&p);
	return k;
}

void edst_free(struct edst *tr)
{
	free(tr->sw_node);
	free(tr->node_sw);
	free(tr->tree_of_port);
	memset(tr, 0, sizeof(*tr));
}

/* BFS of tree f from s: parent port of each switch (the hop into it). */
static void tree_bfs(const struct topo *t, const struct edst *tr, int f, int s,
		     int *in_port, int *q)
{
	int qh = 0, qt = 0, i, x;

	for (i = 0; i < tr->nsw; i++)
		in_port[i] = -2;
	in_port[s] = -1;
	q[qt++] = s;
	while (qh < qt) {
		const struct topo_node *n = &t->nodes[tr->sw_node[q[qh++]]];

		for (x = 0; x < n->nports; x++) {
			int p = n->ports[x],
			    w = tr->node_sw[port_peer_node(t, p)];

			if (w < 0 || tr->tree_of_port[p] != f ||
			    in_port[w] != -2)
				continue;
			in_port[w] = p;
			q[qt++] = w;
		}
	}
}

void edst_route(const struct topo *t, const struct edst *tr, struct elp *out,
		struct path_stats *st)
{
	int n = tr->nsw, k = tr->k, s, d, f, x;
	int *in_port = xmalloc((size_t)k * n * sizeof(int)),
	    *q = xmalloc(n * sizeof(int));
	int32_t *hops = xmalloc((n + 1) * sizeof(int32_t));
	int *lens = xmalloc((k + 1) * sizeof(int));
	double t0 = now_seconds();

	path_stats_init(st);
	for (s = 0; s < n; s++) {
		for (f = 0; f < k; f++)
			tree_bfs(t, tr, f, s, in_port + f * n, q);
		for (d = 0; d < n; d++) {
			int np = 0;

			if (d == s)
				continue;
			for (f = 0; f < k; f++) {
				int *ip = in_port + f * n, v = d, len = 0;

				if (ip[d] == -2)
					continue;
				for (v = d; v != s;
				     v = tr->node_sw[port_node(t, ip[v])])
					len++;
				for (v = d, x = len; v != s;
				     v = tr->node_sw[port_node(t, ip[v])])
					hops[--x] = ip[v];
				lens[np++] = len;
				if (out)
					elp_add(out, hops, len, 0);
			}
			path_stats_pair(st, np, lens);
		}
	}
	free(in_port);
	free(q);
	free(hops);
	free(lens);
	st->seconds = now_seconds() - t0;
}
