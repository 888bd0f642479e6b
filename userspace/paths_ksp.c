// SPDX-License-Identifier: GPL-2.0
/*
 * K shortest simple paths per ordered pair: Yen's algorithm (1971) with
 * hop counts as lengths.
 *
 * A[0] is the BFS shortest path (first-discovered parents in port order).
 * For A[j], every node of A[j-1] but the last is tried as spur node: the
 * root is A[j-1] up to it; the next hop of every accepted path sharing that
 * root is blocked, and so are the root's earlier nodes; a BFS from the spur
 * node to t completes a candidate. A[j] is the shortest candidate, ties
 * broken by the lexicographic order of egress port ids, so the output is
 * deterministic. Paths cross only nodes that forward (switches; hosts too
 * with relay).
 *
 * Time per pair O(K * L * (V + E)) for paths of up to L hops; marks are
 * generation-stamped so no step clears an array.
 */
#include <stdlib.h>
#include <string.h>

#include "gen.h"
#include "paths_bfs.h"
#include "util.h"

struct yen {
	const struct topo *t;
	bool relay;
	unsigned gen;
	unsigned *seen;		/* per node: == gen when visited this BFS */
	unsigned *node_off;	/* per node: == gen when blocked */
	unsigned *port_off;	/* per port: == gen when blocked */
	int *queue;
	int *via;		/* per node: egress port it was reached by */
	int32_t *tmp;
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
		if (l->len[i] == len && !memcmp(l->p[i], hops, len * sizeof(*hops)))
			return true;
	return false;
}

/* BFS src -> dst avoiding blocked nodes and ports of this generation. */
static int bfs_path(struct yen *y, int src, int dst, int32_t *out)
{
	const struct topo *t = y->t;
	int head = 0, tail = 0, i, len = 0, v;

	y->seen[src] = y->gen;
	y->queue[tail++] = src;
	while (head < tail) {
		const struct topo_node *n;

		v = y->queue[head++];
		if (v == dst)
			break;
		if (v != src && !node_forwards(t, v, y->relay))
			continue;
		n = &t->nodes[v];
		for (i = 0; i < n->nports; i++) {
			int p = n->ports[i], w = port_peer_node(t, p);

			if (y->seen[w] == y->gen || y->node_off[w] == y->gen ||
			    y->port_off[p] == y->gen)
				continue;
			y->seen[w] = y->gen;
			y->via[w] = p;
			y->queue[tail++] = w;
		}
	}
	if (y->seen[dst] != y->gen)
		return -1;
	for (v = dst; v != src; v = port_node(t, y->via[v]))
		len++;
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
static void spurs(struct yen *y, int dst, struct plist *A, struct plist *B)
{
	const int32_t *prev = A->p[A->n - 1];
	int plen = A->len[A->n - 1], i, j, n;

	for (i = 0; i < plen; i++) {
		int spur = port_node(y->t, prev[i]);

		y->gen++;
		for (j = 0; j < A->n; j++)
			if (A->len[j] > i && !memcmp(A->p[j], prev, i * sizeof(*prev)))
				y->port_off[A->p[j][i]] = y->gen;
		for (j = 0; j < i; j++)
			y->node_off[port_node(y->t, prev[j])] = y->gen;
		memcpy(y->tmp, prev, i * sizeof(*prev));
		n = bfs_path(y, spur, dst, y->tmp + i);
		if (n < 0 || plist_has(B, y->tmp, i + n) || plist_has(A, y->tmp, i + n))
			continue;
		plist_add(B, y->tmp, i + n);
	}
}

static void pair(struct yen *y, int src, int dst, int k, struct plist *A,
		 struct plist *B, struct path_sink *s)
{
	int n, i, best;

	plist_clear(A);
	plist_clear(B);
	y->gen++;
	n = bfs_path(y, src, dst, y->tmp);
	if (n < 0) {
		s->unreachable++;
		return;
	}
	plist_add(A, y->tmp, n);
	while (A->n < k) {
		spurs(y, dst, A, B);
		if (!B->n)
			break;
		for (best = 0, i = 1; i < B->n; i++)
			if (cmp_paths(B->p[i], B->len[i], B->p[best], B->len[best]) < 0)
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
	int d, i;

	y.seen = xcalloc(t->nnodes + 1, sizeof(*y.seen));
	y.node_off = xcalloc(t->nnodes + 1, sizeof(*y.node_off));
	y.port_off = xcalloc(t->nports + 1, sizeof(*y.port_off));
	y.queue = xmalloc((t->nnodes + 1) * sizeof(*y.queue));
	y.via = xmalloc((t->nnodes + 1) * sizeof(*y.via));
	y.tmp = xmalloc((2 * t->nnodes + 2) * sizeof(*y.tmp));
	for (d = 0; d < ends->n; d++)
		for (i = 0; i < ends->n; i++)
			if (i != d)
				pair(&y, ends->node[i], ends->node[d], k, &A, &B, s);
	plist_clear(&A);
	plist_clear(&B);
	free(A.p);
	free(A.len);
	free(B.p);
	free(B.len);
	free(y.seen);
	free(y.node_off);
	free(y.port_off);
	free(y.queue);
	free(y.via);
	free(y.tmp);
	return 0;
}
