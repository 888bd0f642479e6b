// SPDX-License-Identifier: GPL-2.0
/* CSR directed graphs and iterative cycle search; see digraph.h. */
#include <stdlib.h>
#include <string.h>

#include "graph/digraph.h"
#include "lib/util.h"

void digraph_build(struct digraph *g, int n, const int *src, const int *dst,
		   int64_t m)
{
	int64_t i, *fill;
	int v;

	g->n = n;
	g->m = m;
	g->start = xcalloc(n + 1, sizeof(*g->start));
	g->to = xmalloc((m ? m : 1) * sizeof(*g->to));
	g->eid = xmalloc((m ? m : 1) * sizeof(*g->eid));
	for (i = 0; i < m; i++)
		g->start[src[i] + 1]++;
	for (v = 0; v < n; v++)
		g->start[v + 1] += g->start[v];
	fill = xmalloc((n + 1) * sizeof(*fill));
	memcpy(fill, g->start, (n + 1) * sizeof(*fill));
	for (i = 0; i < m; i++) {
		int64_t at = fill[src[i]]++;

		g->to[at] = dst[i];
		g->eid[at] = i;
	}
	free(fill);
}

void digraph_free(struct digraph *g)
{
	free(g->start);
	free(g->to);
	free(g->eid);
	memset(g, 0, sizeof(*g));
}

enum { WHITE, GREY, BLACK };

/*
 * Depth-first search with an explicit stack of (node, next edge). A grey
 * target closes a cycle; the stack from that node up holds its edges.
 */
int digraph_find_cycle(const struct digraph *g, int64_t **cycle)
{
	char *color = xcalloc(g->n ? g->n : 1, 1);
	int *stack = xmalloc((g->n + 1) * sizeof(*stack));
	int64_t *edge = xmalloc((g->n + 1) * sizeof(*edge));
	int64_t *via = xmalloc((g->n + 1) * sizeof(*via));
	int root, len = 0;

	*cycle = NULL;
	for (root = 0; root < g->n && !len; root++) {
		int sp = 0;

		if (color[root] != WHITE)
			continue;
		stack[0] = root;
		edge[0] = g->start[root];
		color[root] = GREY;
		while (sp >= 0 && !len) {
			int v = stack[sp];

			if (edge[sp] == g->start[v + 1]) {
				color[v] = BLACK;
				sp--;
				continue;
			}
			int64_t e = edge[sp]++;
			int w = g->to[e];

			if (color[w] == WHITE) {
				via[sp + 1] = e;
				stack[++sp] = w;
				edge[sp] = g->start[w];
				color[w] = GREY;
			} else if (color[w] == GREY) {
				int k = sp, i;

				while (stack[k] != w)
					k--;
				len = sp - k + 1;
				*cycle = xmalloc(len * sizeof(**cycle));
				for (i = 0; i < len - 1; i++)
					(*cycle)[i] = g->eid[via[k + 1 + i]];
				(*cycle)[len - 1] = g->eid[e];
			}
		}
	}
	free(color);
	free(stack);
	free(edge);
	free(via);
	return len;
}
