// SPDX-License-Identifier: GPL-2.0
/*
 * K shortest simple paths per ordered pair: Yen's algorithm (1971) with
 * hop counts as lengths.
 *
 * A[0] is a shortest path. For A[j], every node of A[j-1] but the last is
 * tried as spur node: the root is A[j-1] up to it; the next hop of every
 * accepted path sharing that root is blocked, and so are the root's earlier
 * nodes; a shortest search from the spur node to t completes a candidate.
 * A[j] is the shortest candidate, ties broken by the lexicographic order of
 * egress port ids, so the output is deterministic. Paths cross only nodes
 * that forward (switches; hosts too with relay).
 *
 * The searches are A* guided by one BFS per destination (the exact
 * distance in the unblocked graph), so they expand little beyond the
 * detour they find. Worst case per pair O(K * L * (V + E)) for paths of up
 * to L hops; marks are generation-stamped so no step clears an array.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "gen/gen.h"
#include "graph/bfs.h"
#include "lib/util.h"

struct yen {
	const struct topo *t;
	bool relay;
	unsigned gen;
	const int *h; /* per node: hops to dst in the whole graph */
	unsigned *seen; /* per node: == gen when g[] is set this search */
	unsigned *done; /* per node: == gen when expanded */
	unsigned *node_off; /* per node: == gen when blocked */
	unsigned *port_off; /* per port: == gen when blocked */
	int *g; /* per node: hops from the spur node */
	int *via; /* per node: egress port it was reached by */
	int32_t *tmp;
	int **bucket; /* nodes by f = g + h, for f in 0..nnodes */
	int *bn, *bcap;
};

struct plist {
	int32_t **p;
	int *len;
	int n, cap;
};

static void plist_add(struct plist *l, const int32_t *hops, int len)
{
	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 8;
		l->p = xrealloc(l->p, l->cap * sizeof(*l->p));
		l->len = xrealloc(l->len, l->cap * sizeof(*l->len));
	}
	l->p[l->n] = xmalloc((len + 1) * sizeof(**l->p));
	memcpy(l->p[l->n], hops, len * sizeof(*hops));
	l->len[l->n++] = len;
}

static void plist_del(struct plist *l, int i)
{
	free(l->p[i]);
	l->p[i] = l->p[--l->n];
	l->len[i] = l->len[l->n];
}

static void plist_clear(struct plist *l)
{
	while (l->n)
		plist_del(l, l->n - 1);
}

static bool plist_has(const struct plist *l, const int32_t *hops, int len)
{
	int i;

	for (i = 0; i < l->n; i++)
		if (l->len[i] == len &&
		    !memcmp(l->p[i], hops, len * sizeof(*hops)))
			return true;
	return false;
}

static void push(struct yen *y, int f, int v)
{
	VEC_PUSH(y->bucket[f], y->bn[f], y->bcap[f], v);
}

/*
 * Shortest path src -> dst avoiding the blocked nodes and ports of this
 * generation: A* with h = the distance to dst in the unblocked graph, a
 * consistent lower bound, so a node's first expansion has its final g and
 * only nodes on near-shortest detours are expanded. Buckets by f replace
 * the heap (f is a small integer). Paths longer than limit hops are not
 * looked for. Returns the hop count or -1.
 */
static int search(struct yen *y, int src, int dst, int limit, int32_t *out)
{
	const struct topo *t = y->t;
	int f, fmax = limit < y->t->nnodes ? limit : y->t->nnodes, i, len = -1,
	       v;

	if (y->h[src] < 0 || y->h[src] > fmax)
		return -1;
	y->seen[src] = y->gen;
	y->g[src] = 0;
	push(y, y->h[src], src);
	for (f = y->h[src]; f <= fmax && len < 0; f++) {
		for (i = 0; i < y->bn[f] && len < 0; i++) {
			const struct topo_node *n;
			int k;

			v = y->bucket[f][i];
			if (y->done[v] == y->gen || y->g[v] + y->h[v] != f)
				continue; /* stale entry */
			y->done[v] = y->gen;
			if (v == dst) {
				len = y->g[v];
				break;
			}
			if (v != src && !node_forwards(t, v, y->relay))
				continue;
			n = &t->nodes[v];
			for (k = 0; k < n->nports; k++) {
				int p = n->ports[k], w = port_peer_node(t, p),
				    gw = y->g[v] + 1;

				if (y->h[w] < 0 || y->node_off[w] == y->gen ||
				    y->port_off[p] == y->gen ||
				    y->done[w] == y->gen ||
				    (y->seen[w] == y->gen && y->g[w] <= gw) ||
				    gw + y->h[w] > fmax)
					continue;
				y->seen[w] = y->gen;
				y->g[w] = gw;
				y->via[w] = p;
				push(y, gw + y->h[w], w);
			}
		}
	}
	for (f = y->h[src]; f <= fmax; f++)
		y->bn[f] = 0;
	if (len < 0)
		return -1;
	for (i = len, v = dst; v != src; v = port_node(t, y->via[v]))
		out[--i] = y->via[v];
	return len;
}

static int cmp_paths(const int32_t *a, int la, const int32_t *b, int lb)
{
	int i;

	if (la != lb)
		return la < lb ? -1 : 1;
	for (i = 0; i < la; i++)
		if (a[i] != b[i])
			return a[i] < b[i] ? -1 : 1;
	return 0;
}

/* Candidates from the spur nodes of the last accepted path. */
/*
 * Candidates longer than cap cannot be chosen: B already holds enough
 * candidates of length <= cap for every path still wanted.
 */
static void spurs(struct yen *y, int dst, struct plist *A, struct plist *B,
		  int cap)
{
	const int32_t *prev = A->p[A->n - 1];
	int plen = A->len[A->n - 1], i, j, n;

	for (i = 0; i < plen; i++) {
		int spur = port_node(y->t, prev[i]);

		y->gen++;
		for (j = 0; j < A->n; j++)
			if (A->len[j] > i &&
			    !memcmp(A->p[j], prev, i * sizeof(*prev)))
				y->port_off[A->p[j][i]] = y->gen;
		for (j = 0; j < i; j++)
			y->node_off[port_node(y->t, prev[j])] = y->gen;
		memcpy(y->tmp, prev, i * sizeof(*prev));
		n = search(y, spur, dst, cap - i, y->tmp + i);
		if (n < 0 || plist_has(B, y->tmp, i + n) ||
		    plist_has(A, y->tmp, i + n))
			continue;
		plist_add(B, y->tmp, i + n);
	}
}

/* The need-th shortest length in B, or INT_MAX if B has fewer paths. */
static int length_cap(const struct plist *B, int need)
{
	int i, j, below, cap = INT_MAX;

	if (B->n < need)
		return INT_MAX;
	/* B is small (at most K x path length): count, no sort. */
	for (i = 0; i < B->n; i++) {
		for (below = 0, j = 0; j < B->n; j++)
			below += B->len[j] <= B->len[i];
		if (below >= need && B->len[i] < cap)
			cap = B->len[i];
	}
	return cap;
}

static void pair(struct yen *y, int src, int dst, int k, struct plist *A,
		 struct plist *B, struct path_sink *s)
{
	int n, i, best;

	plist_clear(A);
	plist_clear(B);
	y->gen++;
	n = search(y, src, dst, INT_MAX, y->tmp);
	if (n < 0) {
		s->unreachable++;
		return;
	}
	plist_add(A, y->tmp, n);
	while (A->n < k) {
		spurs(y, dst, A, B, length_cap(B, k - A->n));
		if (!B->n)
			break;
		for (best = 0, i = 1; i < B->n; i++)
			if (cmp_paths(B->p[i], B->len[i], B->p[best],
				      B->len[best]) < 0)
				best = i;
		plist_add(A, B->p[best], B->len[best]);
		plist_del(B, best);
	}
	for (i = 0; i < A->n; i++)
		sink_emit(s, A->p[i], A->len[i]);
}

int paths_ksp(const struct topo *t, const struct gen_ends *ends, int k,
	      struct path_sink *s)
{
	struct yen y = { .t = t, .relay = ends->relay_hosts };
	struct plist A = { 0 }, B = { 0 };
	size_t nn = t->nnodes + 1;
	struct bfs b;
	int d, i;

	bfs_init(&b, t);
	y.h = b.dist;
	y.seen = xcalloc(nn, sizeof(*y.seen));
	y.done = xcalloc(nn, sizeof(*y.done));
	y.node_off = xcalloc(nn, sizeof(*y.node_off));
	y.port_off = xcalloc(t->nports + 1, sizeof(*y.port_off));
	y.g = xmalloc(nn * sizeof(*y.g));
	y.via = xmalloc(nn * sizeof(*y.via));
	y.tmp = xmalloc((2 * nn) * sizeof(*y.tmp));
	y.bucket = xcalloc(nn, sizeof(*y.bucket));
	y.bn = xcalloc(nn, sizeof(*y.bn));
	y.bcap = xcalloc(nn, sizeof(*y.bcap));
	for (d = 0; d < ends->n; d++) {
		bfs_to(&b, t, ends->node[d], y.relay);
		for (i = 0; i < ends->n; i++)
			if (i != d)
				pair(&y, ends->node[i], ends->node[d], k, &A,
				     &B, s);
	}
	plist_clear(&A);
	plist_clear(&B);
	free(A.p);
	free(A.len);
	free(B.p);
	free(B.len);
	for (i = 0; i < (int)nn; i++)
		free(y.bucket[i]);
	free(y.bucket);
	free(y.bn);
	free(y.bcap);
	free(y.seen);
	free(y.done);
	free(y.node_off);
	free(y.port_off);
	free(y.g);
	free(y.via);
	free(y.tmp);
	bfs_free(&b);
	return 0;
}
