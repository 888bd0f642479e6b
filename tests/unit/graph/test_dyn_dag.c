// SPDX-License-Identifier: GPL-2.0
/*
 * The incremental order (Pearce-Kelly) against a from-scratch cycle search:
 * random edge insertions on random graphs, each accepted exactly when the
 * graph stays acyclic, the order always topological, rollback exact.
 */
#include <check.h>
#include <stdlib.h>

#include "graph/digraph.h"
#include "graph/dyn_dag.h"
#include "lib/util.h"

static int closes_cycle(int n, const int *src, const int *dst, int m)
{
	struct digraph g;
	int64_t *cyc;
	int len;

	digraph_build(&g, n, src, dst, m);
	len = digraph_find_cycle(&g, &cyc);
	free(cyc);
	digraph_free(&g);
	return len > 0;
}

static void check_order(const struct dyn_dag *g, const int *src, const int *dst,
			int m)
{
	int i;

	for (i = 0; i < m; i++)
		ck_assert_int_lt(g->ord[src[i]], g->ord[dst[i]]);
}

START_TEST(accepts_exactly_the_acyclic_insertions)
{
	int n = 8 + _i % 40, tries = 6 * n, m = 0, i;
	int *src = xmalloc(tries * sizeof(int)),
	    *dst = xmalloc(tries * sizeof(int));
	struct dyn_dag g;

	srand(1000 + _i);
	dyn_dag_init(&g);
	for (i = 0; i < n; i++)
		/* scattered, unique start positions like the compiler's hints */
		dyn_dag_add_node(&g, (int64_t)((i * 7919) % 10007) * 64 +
					     (_i % 3) * 1000003);
	for (i = 0; i < tries; i++) {
		int u = rand() % n, v = rand() % n;
		bool ok;

		src[m] = u;
		dst[m] = v;
		ok = u != v && !closes_cycle(n, src, dst, m + 1);
		ck_assert_int_eq(dyn_dag_add_edge(&g, u, v), ok);
		if (ok)
			m++;
		check_order(&g, src, dst, m);
	}
	/* roll the last few back: the order stays valid for what remains */
	for (i = 0; i < 5 && m; i++) {
		m--;
		dyn_dag_pop_edge(&g, src[m], dst[m]);
		ck_assert_int_eq(g.out[src[m]].n >= 0, 1);
		check_order(&g, src, dst, m);
	}
	dyn_dag_free(&g);
	free(src);
	free(dst);
}
END_TEST

Suite *dyn_dag_suite(void)
{
	Suite *s = suite_create("dyn_dag");
	TCase *tc = tcase_create("core");

	tcase_add_loop_test(tc, accepts_exactly_the_acyclic_insertions, 0, 60);
	suite_add_tcase(s, tc);
	return s;
}
