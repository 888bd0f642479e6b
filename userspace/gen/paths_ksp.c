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
 * detour they find; a search ends when it reaches the destination at the
 * lowest f left (the path it would return anyway), and hosts that are not
 * ends are never entered (most of a ToR's ports lead to them). Worst case
 * per pair O(K * L * (V + E)) for paths of up to L hops; marks are
 * generation-stamped so no step clears an array. Threads take consecutive
 * ranges of destinations and emit in destination order.
 */
#include <limits.h>
#include <pthread.h>
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
	int *adj_off; /* per node: its entries in adj_port/adj_peer */
	int *adj_port, *adj_peer; /* egress port, node behind it */
	bool *stop; /* per node: an end that does not forward */
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
	int f, fmax = limit < y->t->nnodes ? limit : y->t->nnodes, fhi, i,
	       len = -1, v;

	if (y->h[src] < 0 || y->h[src] > fmax)
		return -1;
	y->seen[src] = y->gen;
	y->g[src] = 0;
	fhi = y->h[src];
	push(y, fhi, src);
	for (f = y->h[src]; f <= fhi && len < 0; f++) {
		for (i = 0; i < y->bn[f] && len < 0; i++) {
			int k;

			v = y->bucket[f][i];
			if (y->done[v] == y->gen || y->g[v] + y->h[v] != f)
				continue; /* stale entry */
			y->done[v] = y->gen;
			if (v == dst) {
				len = y->g[v];
				break;
			}
			if (v != src && y->stop[v])
				continue;
			for (k = y->adj_off[v]; k < y->adj_off[v + 1]; k++) {
				int p = y->adj_port[k], w = y->adj_peer[k],
				    gw = y->g[v] + 1;

				/*
				 * An end that does not forward matters only
				 * as dst: left out, it changes no g or via.
				 */
				if ((y->stop[w] && w != dst) || y->h[w] < 0 ||
				    y->node_off[w] == y->gen ||
				    y->port_off[p] == y->gen ||
				    y->done[w] == y->gen ||
				    (y->seen[w] == y->gen && y->g[w] <= gw) ||
				    gw + y->h[w] > fmax)
					continue;
				y->seen[w] = y->gen;
				y->g[w] = gw;
				y->via[w] = p;
				/*
				 * dst reached at the lowest f left: no later
				 * expansion lowers its g or changes its via,
				 * so this is the path the search would return.
				 */
				if (w == dst && gw == f) {
					len = gw;
					break;
				}
				push(y, gw + y->h[w], w);
				if (gw + y->h[w] > fhi)
					fhi = gw + y->h[w];
			}
		}
	}
	for (f = y->h[src]; f <= fhi; f++)
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

/*
 * The links a search may take, node by node in port order (the order the
 * search discovers ties in): every peer that forwards, and the ends, which
 * may be a search's dst. Other hosts can never be on a path.
 */
static void adj_build(struct yen *y, const struct gen_ends *ends)
{
	const struct topo *t = y->t;
	bool *end = xcalloc(t->nnodes + 1, sizeof(*end));
	int v, k, n = 0;

	y->stop = xcalloc(t->nnodes + 1, sizeof(*y->stop));
	y->adj_off = xmalloc((t->nnodes + 1) * sizeof(*y->adj_off));
	y->adj_port = xmalloc((t->nports + 1) * sizeof(*y->adj_port));
	y->adj_peer = xmalloc((t->nports + 1) * sizeof(*y->adj_peer));
	for (v = 0; v < ends->n; v++)
		end[ends->node[v]] = true;
	for (v = 0; v < t->nnodes; v++)
		y->stop[v] = !node_forwards(t, v, y->relay);
	for (v = 0; v < t->nnodes; v++) {
		y->adj_off[v] = n;
		for (k = 0; k < t->nodes[v].nports; k++) {
			int p = t->nodes[v].ports[k], w = port_peer_node(t, p);

			if (y->stop[w] && !end[w])
				continue;
			y->adj_port[n] = p;
			y->adj_peer[n++] = w;
		}
	}
	y->adj_off[t->nnodes] = n;
	free(end);
}

/* One thread's share: the destinations lo..hi-1, in order. */
struct ksp_worker {
	struct yen y;
	struct bfs b;
	const struct gen_ends *ends;
	int k, lo, hi;
	struct path_sink *s; /* the caller's for the first worker */
	struct path_sink own; /* the others': into buf, emitted after */
	struct elp *buf;
};

static void worker_init(struct ksp_worker *w, const struct yen *shared)
{
	const struct topo *t = shared->t;
	size_t nn = t->nnodes + 1;

	w->y = *shared;
	bfs_init(&w->b, t);
	w->y.h = w->b.dist;
	w->y.seen = xcalloc(nn, sizeof(*w->y.seen));
	w->y.done = xcalloc(nn, sizeof(*w->y.done));
	w->y.node_off = xcalloc(nn, sizeof(*w->y.node_off));
	w->y.port_off = xcalloc(t->nports + 1, sizeof(*w->y.port_off));
	w->y.g = xmalloc(nn * sizeof(*w->y.g));
	w->y.via = xmalloc(nn * sizeof(*w->y.via));
	w->y.tmp = xmalloc((2 * nn) * sizeof(*w->y.tmp));
	w->y.bucket = xcalloc(nn, sizeof(*w->y.bucket));
	w->y.bn = xcalloc(nn, sizeof(*w->y.bn));
	w->y.bcap = xcalloc(nn, sizeof(*w->y.bcap));
}

static void worker_free(struct ksp_worker *w)
{
	int i;

	for (i = 0; i < w->y.t->nnodes + 1; i++)
		free(w->y.bucket[i]);
	free(w->y.bucket);
	free(w->y.bn);
	free(w->y.bcap);
	free(w->y.seen);
	free(w->y.done);
	free(w->y.node_off);
	free(w->y.port_off);
	free(w->y.g);
	free(w->y.via);
	free(w->y.tmp);
	bfs_free(&w->b);
	if (w->buf)
		elp_free(w->buf);
}

static void *worker_run(void *arg)
{
	struct ksp_worker *w = arg;
	const struct gen_ends *ends = w->ends;
	struct plist A = { 0 }, B = { 0 };
	int d, i;

	for (d = w->lo; d < w->hi; d++) {
		bfs_to(&w->b, w->y.t, ends->node[d], w->y.relay);
		for (i = 0; i < ends->n; i++)
			if (i != d)
				pair(&w->y, ends->node[i], ends->node[d], w->k,
				     &A, &B, w->s);
	}
	plist_clear(&A);
	plist_clear(&B);
	free(A.p);
	free(A.len);
	free(B.p);
	free(B.len);
	return NULL;
}

/*
 * Destinations are split into nthr consecutive ranges. The first worker
 * streams into the caller's sink; the others keep their paths until it is
 * done and are emitted in range order, so the output does not depend on
 * the number of threads.
 */
int paths_ksp(const struct topo *t, const struct gen_ends *ends, int k,
	      int threads, struct path_sink *s)
{
	struct yen shared = { .t = t, .relay = ends->relay_hosts };
	int nthr = threads > 1 ? threads : 1, i, j;
	struct ksp_worker *w;
	pthread_t *tid;

	if (nthr > ends->n)
		nthr = ends->n > 0 ? ends->n : 1;
	adj_build(&shared, ends);
	w = xcalloc(nthr, sizeof(*w));
	tid = xcalloc(nthr, sizeof(*tid));
	for (i = 0; i < nthr; i++) {
		worker_init(&w[i], &shared);
		w[i].ends = ends;
		w[i].k = k;
		w[i].lo = (int)((int64_t)ends->n * i / nthr);
		w[i].hi = (int)((int64_t)ends->n * (i + 1) / nthr);
		w[i].s = s;
		if (i) {
			w[i].buf = elp_new(NULL);
			sink_elp(&w[i].own, w[i].buf);
			w[i].s = &w[i].own;
		}
	}
	for (i = 1; i < nthr; i++)
		if (pthread_create(&tid[i], NULL, worker_run, &w[i]))
			worker_run(&w[i]), tid[i] = 0;
	worker_run(&w[0]);
	for (i = 1; i < nthr; i++) {
		if (tid[i])
			pthread_join(tid[i], NULL);
		for (j = 0; j < w[i].buf->npaths; j++)
			sink_emit(s, elp_hops(w[i].buf, j),
				  elp_len(w[i].buf, j));
		s->unreachable += w[i].own.unreachable;
	}
	for (i = 0; i < nthr; i++)
		worker_free(&w[i]);
	free(w);
	free(tid);
	free(shared.stop);
	free(shared.adj_off);
	free(shared.adj_port);
	free(shared.adj_peer);
	return 0;
}
