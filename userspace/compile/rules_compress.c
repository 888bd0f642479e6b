// SPDX-License-Identifier: GPL-2.0
/*
 * Wildcard compression that never changes what any packet gets.
 *
 * Lookup precedence (the rules file's contract): rewrite exact (in,out) >
 * (in,*) > (*,out) > (*,*); classify exact in > *. For each switch and tag
 * the rewrite rules form a matrix M[in][out] over the switch's ports, every
 * cell a new tag or lossy (no rule). With a global default g (lossy = no
 * default rule), each row either relies on g and lists the cells that
 * differ as exact rules, or gets its own (in,*) rule for its most common
 * value m and lists the cells that differ from m; a cell that must stay
 * lossy under a wildcard becomes an explicit lossy rule. The cost is
 *	[g != lossy] + sum over rows of min(#cells != g, 1 + #cells != m_row)
 * and the cheapest g among lossy and the values present is kept (exact
 * rules alone are the case g = lossy with no row rule). Classify is the
 * one-row case. Each switch is compressed on its own, O(tags * ports^2).
 */
#include <stdlib.h>
#include <string.h>

#include "compile/compile.h"
#include "lib/util.h"

#define CELL_LOSSY RULE_LOSSY

struct matrix {
	int n; /* ports of the switch */
	int *cell; /* n x n new tags, CELL_LOSSY where there is no rule */
};

static int local_index(const struct topo_node *nd, int port)
{
	int i;

	for (i = 0; i < nd->nports; i++)
		if (nd->ports[i] == port)
			return i;
	return -1;
}

/* Most common value of a row, lossy counted like any value. */
static int row_mode(const int *row, int n, int *count)
{
	int best = CELL_LOSSY, best_n = -1, i, j;

	for (i = 0; i < n; i++) {
		int c = 0;

		for (j = 0; j < n; j++)
			c += row[j] == row[i];
		if (c > best_n || (c == best_n && row[i] > best)) {
			best = row[i];
			best_n = c;
		}
	}
	*count = best_n;
	return best;
}

static int count_ne(const int *row, int n, int v)
{
	int i, c = 0;

	for (i = 0; i < n; i++)
		c += row[i] != v;
	return c;
}

static int cost_with_default(const struct matrix *m, int g)
{
	int i, cost = g != CELL_LOSSY, mc;

	for (i = 0; i < m->n; i++) {
		const int *row = m->cell + i * m->n;
		int mode = row_mode(row, m->n, &mc),
		    by_g = count_ne(row, m->n, g);
		int by_row = 1 + (m->n - mc);

		cost += by_g < by_row || mode == g ? by_g : by_row;
	}
	return cost;
}

static void emit(struct sw_rules *s, int tag, int in, int out, int v)
{
	struct rw_rule w = { tag, in, out, v };

	VEC_PUSH(s->rw, s->nrw, s->rw_cap, w);
}

static void emit_matrix(struct sw_rules *s, const struct topo_node *nd,
			const struct matrix *m, int tag, int g)
{
	int i, j, mc;

	if (g != CELL_LOSSY)
		emit(s, tag, RULE_ANY, RULE_ANY, g);
	for (i = 0; i < m->n; i++) {
		const int *row = m->cell + i * m->n;
		int mode = row_mode(row, m->n, &mc),
		    by_g = count_ne(row, m->n, g);
		int base = g;

		if (!(by_g < 1 + (m->n - mc) || mode == g)) {
			base = mode;
			emit(s, tag, nd->ports[i], RULE_ANY, mode);
		}
		for (j = 0; j < m->n; j++)
			if (row[j] != base)
				emit(s, tag, nd->ports[i], nd->ports[j],
				     row[j]);
	}
}

static void compress_rewrite(struct sw_rules *s, const struct topo_node *nd,
			     struct rw_rule *old, int nold)
{
	struct matrix m = { .n = nd->nports };
	int lo, hi;

	m.cell = xmalloc(m.n * m.n * sizeof(int));
	for (lo = 0; lo < nold; lo = hi) {
		int tag = old[lo].tag, best_g = CELL_LOSSY, best, k;

		for (hi = lo; hi < nold && old[hi].tag == tag; hi++)
			;
		for (k = 0; k < m.n * m.n; k++)
			m.cell[k] = CELL_LOSSY;
		for (k = lo; k < hi; k++)
			m.cell[local_index(nd, old[k].in) * m.n +
			       local_index(nd, old[k].out)] = old[k].new_tag;
		best = cost_with_default(&m, CELL_LOSSY);
		for (k = lo; k < hi; k++) {
			int c = cost_with_default(&m, old[k].new_tag);

			if (c < best) {
				best = c;
				best_g = old[k].new_tag;
			}
		}
		emit_matrix(s, nd, &m, tag, best_g);
	}
	free(m.cell);
}

static void compress_classify(struct sw_rules *s, const struct topo_node *nd,
			      struct cls_rule *old, int nold)
{
	int lo, hi, i;

	for (lo = 0; lo < nold; lo = hi) {
		int tag = old[lo].tag;

		for (hi = lo; hi < nold && old[hi].tag == tag; hi++)
			;
		/* A wildcard plus lossy exceptions beats one rule per port. */
		if (nd->nports - (hi - lo) + 1 < hi - lo) {
			struct cls_rule any = { RULE_ANY, tag, 1 };

			VEC_PUSH(s->cls, s->ncls, s->cls_cap, any);
			for (i = 0; i < nd->nports; i++) {
				int k, found = 0;

				for (k = lo; k < hi; k++)
					found |= old[k].in == nd->ports[i];
				if (!found) {
					struct cls_rule ex = { nd->ports[i],
							       tag, 0 };

					VEC_PUSH(s->cls, s->ncls, s->cls_cap,
						 ex);
				}
			}
		} else {
			for (i = lo; i < hi; i++)
				VEC_PUSH(s->cls, s->ncls, s->cls_cap, old[i]);
		}
	}
}

/* Rules must be sorted by tag (compile.c sorts them). */
void rules_compress(const struct topo *t, struct sw_rules *s)
{
	const struct topo_node *nd = &t->nodes[s->node];
	struct rw_rule *rw = s->rw;
	struct cls_rule *cls = s->cls;
	int nrw = s->nrw, ncls = s->ncls;

	s->rw = NULL;
	s->nrw = s->rw_cap = 0;
	s->cls = NULL;
	s->ncls = s->cls_cap = 0;
	compress_rewrite(s, nd, rw, nrw);
	compress_classify(s, nd, cls, ncls);
	free(rw);
	free(cls);
}
