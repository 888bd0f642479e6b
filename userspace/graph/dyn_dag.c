// SPDX-License-Identifier: GPL-2.0
/* Pearce-Kelly dynamic topological order; see dyn_dag.h. */
#include <stdlib.h>
#include <string.h>

#include "graph/dyn_dag.h"
#include "lib/util.h"

void dyn_dag_init(struct dyn_dag *g)
{
	memset(g, 0, sizeof(*g));
}

void dyn_dag_free(struct dyn_dag *g)
{
	int i;

	for (i = 0; i < g->n; i++) {
		free(g->out[i].v);
		free(g->in[i].v);
	}
	free(g->ord);
	free(g->out);
	free(g->in);
	free(g->seen);
	free(g->stack);
	free(g->fwd);
	free(g->bwd);
	free(g->slots);
	free(g->keys);
	free(g->tmp);
	memset(g, 0, sizeof(*g));
}

int dyn_dag_add_node(struct dyn_dag *g, int64_t ord)
{
	if (g->n == g->cap) {
		int cap = g->cap ? 2 * g->cap : 1024;

		g->ord = xrealloc(g->ord, cap * sizeof(*g->ord));
		g->out = xrealloc(g->out, cap * sizeof(*g->out));
		g->in = xrealloc(g->in, cap * sizeof(*g->in));
		g->seen = xrealloc(g->seen, cap * sizeof(*g->seen));
		g->stack = xrealloc(g->stack, cap * sizeof(*g->stack));
		g->fwd = xrealloc(g->fwd, cap * sizeof(*g->fwd));
		g->bwd = xrealloc(g->bwd, cap * sizeof(*g->bwd));
		g->slots = xrealloc(g->slots, cap * sizeof(*g->slots));
		g->keys = xrealloc(g->keys, cap * sizeof(*g->keys));
		g->tmp = xrealloc(g->tmp, cap * sizeof(*g->tmp));
		g->cap = cap;
	}
	memset(&g->out[g->n], 0, sizeof(g->out[0]));
	memset(&g->in[g->n], 0, sizeof(g->in[0]));
	g->seen[g->n] = 0;
	/* A node without edges may sit anywhere; the caller's guess helps. */
	g->ord[g->n] = ord;
	return g->n++;
}

static void adj_push(struct dyn_adj *a, int v)
{
	VEC_PUSH(a->v, a->n, a->cap, v);
}

static void next_epoch(struct dyn_dag *g)
{
	if (++g->epoch == 0) {
		memset(g->seen, 0, g->n * sizeof(*g->seen));
		g->epoch = 1;
	}
}

/*
 * Forward search from v over nodes ordered at most ord[u]. Reaching u
 * means u->v would close a cycle. Fills g->fwd, returns its size or -1.
 */
static int search_forward(struct dyn_dag *g, int v, int u)
{
	int64_t ub = g->ord[u];
	int sp = 0, nf = 0;

	g->stack[sp++] = v;
	g->seen[v] = g->epoch;
	while (sp) {
		int w = g->stack[--sp], k;

		g->fwd[nf++] = w;
		for (k = 0; k < g->out[w].n; k++) {
			int x = g->out[w].v[k];

			if (x == u)
				return -1;
			if (g->seen[x] != g->epoch && g->ord[x] < ub) {
				g->seen[x] = g->epoch;
				g->stack[sp++] = x;
			}
		}
	}
	return nf;
}

/* Backward search from u over nodes ordered after ord[v]. */
static int search_backward(struct dyn_dag *g, int u, int v)
{
	int64_t lb = g->ord[v];
	int sp = 0, nb = 0;

	g->stack[sp++] = u;
	g->seen[u] = g->epoch;
	while (sp) {
		int w = g->stack[--sp], k;

		g->bwd[nb++] = w;
		for (k = 0; k < g->in[w].n; k++) {
			int x = g->in[w].v[k];

			if (g->seen[x] != g->epoch && g->ord[x] > lb) {
				g->seen[x] = g->epoch;
				g->stack[sp++] = x;
			}
		}
	}
	return nb;
}

/*
 * Regions are sorted by position. Small ones by insertion; larger ones
 * (hundreds of nodes on dense graphs) by an LSD radix sort of 8-bit digits
 * over the bytes the largest key has, O(n) per pass instead of qsort's
 * comparisons through a function pointer.
 */
static void radix_sort(uint64_t *a, uint64_t *tmp, int n)
{
	uint64_t max = 0;
	int shift, i;

	for (i = 0; i < n; i++)
		if (a[i] > max)
			max = a[i];
	for (shift = 0; shift < 64 && (max >> shift); shift += 8) {
		int count[257] = { 0 };

		for (i = 0; i < n; i++)
			count[((a[i] >> shift) & 0xff) + 1]++;
		for (i = 0; i < 256; i++)
			count[i + 1] += count[i];
		for (i = 0; i < n; i++)
			tmp[count[(a[i] >> shift) & 0xff]++] = a[i];
		memcpy(a, tmp, n * sizeof(*a));
	}
}

static void sort_u64(uint64_t *a, uint64_t *tmp, int n)
{
	int i, j;

	if (n > 32) {
		radix_sort(a, tmp, n);
		return;
	}
	for (i = 1; i < n; i++) {
		uint64_t v = a[i];

		for (j = i; j > 0 && a[j - 1] > v; j--)
			a[j] = a[j - 1];
		a[j] = v;
	}
}

/* Positions fit in 34 bits (tag * ports + port), node ids in 30. */
static void sort_by_ord(struct dyn_dag *g, int *nodes, int n)
{
	int i;

	for (i = 0; i < n; i++)
		g->keys[i] =
			((uint64_t)g->ord[nodes[i]] << 30) | (uint64_t)nodes[i];
	sort_u64(g->keys, g->tmp, n);
	for (i = 0; i < n; i++)
		nodes[i] = (int)(g->keys[i] & ((1u << 30) - 1));
}

/*
 * The backward region must come before the forward region: give both the
 * same set of positions they held, backward nodes first, each region
 * keeping its internal order.
 */
static void reorder(struct dyn_dag *g, int nf, int nb)
{
	int i, n = 0;

	sort_by_ord(g, g->fwd, nf);
	sort_by_ord(g, g->bwd, nb);
	for (i = 0; i < nb; i++)
		g->slots[n++] = g->ord[g->bwd[i]];
	for (i = 0; i < nf; i++)
		g->slots[n++] = g->ord[g->fwd[i]];
	sort_u64((uint64_t *)g->slots, g->tmp, n);
	n = 0;
	for (i = 0; i < nb; i++)
		g->ord[g->bwd[i]] = g->slots[n++];
	for (i = 0; i < nf; i++)
		g->ord[g->fwd[i]] = g->slots[n++];
	g->reorders++;
	g->visited += nf + nb;
}

bool dyn_dag_add_edge(struct dyn_dag *g, int u, int v)
{
	if (u == v)
		return false;
	if (g->ord[u] > g->ord[v]) {
		int nf, nb;

		next_epoch(g);
		nf = search_forward(g, v, u);
		if (nf < 0)
			return false;
		nb = search_backward(g, u, v);
		reorder(g, nf, nb);
	}
	adj_push(&g->out[u], v);
	adj_push(&g->in[v], u);
	return true;
}

void dyn_dag_pop_edge(struct dyn_dag *g, int u, int v)
{
	/* Batches roll back in reverse, so the edge is last in both lists. */
	if (g->out[u].n && g->out[u].v[g->out[u].n - 1] == v)
		g->out[u].n--;
	if (g->in[v].n && g->in[v].v[g->in[v].n - 1] == u)
		g->in[v].n--;
}
