// SPDX-License-Identifier: GPL-2.0
/*
 * Min-cost max-flow: against brute force on tiny graphs (every integral
 * flow enumerated) and against GLPK's out-of-kilter solver on larger ones;
 * the decomposition into paths on both.
 */
#include <check.h>
#include <glpk.h>

#include "lib/rng.h"
#include "graph/mcf.h"

struct arc {
	int u, v, cap, cost;
};

static void random_graph(struct rng *r, int n, int m, int maxcap, struct arc *a)
{
	int i;

	for (i = 0; i < m; i++) {
		a[i].u = (int)rng_below(r, n);
		do
			a[i].v = (int)rng_below(r, n);
		while (a[i].v == a[i].u);
		a[i].cap = 1 + (int)rng_below(r, maxcap);
		a[i].cost = (int)rng_below(r, 4);
	}
}

/* Every flow vector within capacities: the best (max value, min cost). */
static void brute(int n, int m, const struct arc *a, int s, int t, int *bflow,
		  int64_t *bcost)
{
	int f[16] = { 0 }, i;

	*bflow = -1;
	*bcost = 0;
	for (;;) {
		int bal[16] = { 0 }, ok = 1, cost = 0;

		for (i = 0; i < m; i++) {
			bal[a[i].u] -= f[i];
			bal[a[i].v] += f[i];
			cost += f[i] * a[i].cost;
		}
		for (i = 0; i < n; i++)
			if (i != s && i != t && bal[i])
				ok = 0;
		if (ok && bal[t] >= 0 &&
		    (bal[t] > *bflow || (bal[t] == *bflow && cost < *bcost))) {
			*bflow = bal[t];
			*bcost = cost;
		}
		for (i = 0; i < m && ++f[i] > a[i].cap; i++)
			f[i] = 0;
		if (i == m)
			return;
	}
}

/* Walk the decomposition: flow paths from s to t, one per unit. */
static void check_paths(struct mcf *g, int flow, int s, int t)
{
	int arcs[64], i, k, n;

	for (i = 0; i < flow; i++) {
		int at = s;

		n = mcf_take_path(g, s, t, arcs, 64);
		ck_assert_int_gt(n, 0);
		for (k = 0; k < n; k++)
			at = mcf_head(g, arcs[k]);
		ck_assert_int_eq(at, t);
	}
	ck_assert_int_eq(mcf_take_path(g, s, t, arcs, 64), -1);
}

START_TEST(matches_brute_force_on_tiny_graphs)
{
	struct rng r;
	struct arc a[8];
	struct mcf g;
	int trial;

	rng_seed(&r, 99);
	mcf_init(&g);
	for (trial = 0; trial < 400; trial++) {
		int n = 3 + (int)rng_below(&r, 3),
		    m = 3 + (int)rng_below(&r, 5);
		int i, flow, bflow;
		int64_t cost, bcost;

		random_graph(&r, n, m, 2, a);
		brute(n, m, a, 0, n - 1, &bflow, &bcost);
		mcf_reset(&g, n);
		for (i = 0; i < m; i++)
			mcf_arc(&g, a[i].u, a[i].v, a[i].cap, a[i].cost);
		flow = mcf_solve(&g, 0, n - 1, MCF_INF, &cost);
		ck_assert_int_eq(flow, bflow);
		ck_assert_int_eq(cost, bcost);
		check_paths(&g, flow, 0, n - 1);
	}
	mcf_free(&g);
}
END_TEST

/* GLPK: max flow value, then the min cost of sending exactly that much. */
static void glpk_solve(int n, int m, const struct arc *a, int s, int t,
		       int *flow, double *cost)
{
	glp_graph *G = glp_create_graph(sizeof(double), 3 * sizeof(double));
	double val;
	int i;

	glp_add_vertices(G, n);
	for (i = 0; i < m; i++) {
		glp_arc *e = glp_add_arc(G, a[i].u + 1, a[i].v + 1);
		double d[3] = { 0, a[i].cap, a[i].cost };

		memcpy(e->data, d, sizeof(d));
	}
	ck_assert_int_eq(glp_maxflow_ffalg(G, s + 1, t + 1, sizeof(double),
					   &val, -1, -1),
			 0);
	*flow = (int)val;
	for (i = 1; i <= n; i++)
		*(double *)G->v[i]->data = i == s + 1 ? val :
					   i == t + 1 ? -val :
							0;
	ck_assert_int_eq(glp_mincost_okalg(G, 0, 0, sizeof(double),
					   2 * sizeof(double), cost, -1, -1),
			 0);
	glp_delete_graph(G);
}

START_TEST(matches_glpk_on_larger_graphs)
{
	struct rng r;
	struct arc a[400];
	struct mcf g;
	int trial;

	glp_term_out(GLP_OFF);
	rng_seed(&r, 7);
	mcf_init(&g);
	for (trial = 0; trial < 60; trial++) {
		int n = 10 + (int)rng_below(&r, 40),
		    m = 3 * n + (int)rng_below(&r, 4 * n);
		int i, flow, gflow;
		int64_t cost;
		double gcost;

		random_graph(&r, n, m, 3, a);
		glpk_solve(n, m, a, 0, n - 1, &gflow, &gcost);
		mcf_reset(&g, n);
		for (i = 0; i < m; i++)
			mcf_arc(&g, a[i].u, a[i].v, a[i].cap, a[i].cost);
		flow = mcf_solve(&g, 0, n - 1, MCF_INF, &cost);
		ck_assert_int_eq(flow, gflow);
		ck_assert_int_eq(cost, (int64_t)gcost);
	}
	mcf_free(&g);
}
END_TEST

START_TEST(limit_caps_the_flow_at_least_cost)
{
	struct mcf g;
	int64_t cost;

	/* Three parallel routes of cost 3, 1, 2: two units take 1 and 2. */
	mcf_init(&g);
	mcf_reset(&g, 5);
	mcf_arc(&g, 0, 1, 1, 3);
	mcf_arc(&g, 0, 2, 1, 1);
	mcf_arc(&g, 0, 3, 1, 2);
	mcf_arc(&g, 1, 4, 1, 0);
	mcf_arc(&g, 2, 4, 1, 0);
	mcf_arc(&g, 3, 4, 1, 0);
	ck_assert_int_eq(mcf_solve(&g, 0, 4, 2, &cost), 2);
	ck_assert_int_eq(cost, 3);
	ck_assert_int_eq(mcf_flow(&g, 0), 0);
	mcf_free(&g);
}
END_TEST

Suite *mcf_suite(void)
{
	Suite *s = suite_create("mcf");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, matches_brute_force_on_tiny_graphs);
	tcase_add_test(tc, matches_glpk_on_larger_graphs);
	tcase_add_test(tc, limit_caps_the_flow_at_least_cost);
	suite_add_tcase(s, tc);
	return s;
}
