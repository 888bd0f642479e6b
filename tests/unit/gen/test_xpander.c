// SPDX-License-Identifier: GPL-2.0
/*
 * Xpander: a lift of K_(d+1), so d-regular, simple, every pair of
 * meta-nodes joined by a perfect matching, none inside a meta-node;
 * connected; reproducible from its seed; impossible sizes refused.
 */
#include <check.h>

#include "gen_check.h"
#include "lib/log.h"

/* Switch v's meta-node: switches are numbered meta-node by meta-node. */
static int meta(int v, int k)
{
	return v / k;
}

/*
 * Regular, simple, a lift of K_(d+1): for switch v, its d switch
 * neighbours lie one in each other meta-node. That alone gives no
 * self-loop, no parallel link and no link inside a meta-node.
 */
static bool is_lift_of_complete(const struct topo *t, int n, int d)
{
	int k = n / (d + 1), v, i;
	bool ok = true;

	for (v = 0; v < n && ok; v++) {
		const struct topo_node *nd = &t->nodes[v];
		int *hit = calloc(d + 1, sizeof(int)), sw = 0;

		for (i = 0; i < nd->nports; i++) {
			int w = port_peer_node(t, nd->ports[i]);

			if (t->nodes[w].kind != NODE_SWITCH)
				continue;
			sw++;
			hit[meta(w, k)]++;
		}
		ok &= sw == d && hit[meta(v, k)] == 0;
		for (i = 0; i <= d; i++)
			ok &= i == meta(v, k) || hit[i] == 1;
		free(hit);
	}
	return ok;
}

static bool is_connected(const struct topo *t)
{
	int *seen = calloc(t->nnodes, sizeof(int)),
	    *queue = malloc(t->nnodes * sizeof(int));
	int i, head = 0, tail = 0;

	queue[tail++] = 0;
	seen[0] = 1;
	while (head < tail) {
		const struct topo_node *nd = &t->nodes[queue[head++]];

		for (i = 0; i < nd->nports; i++) {
			int w = port_peer_node(t, nd->ports[i]);

			if (!seen[w]) {
				seen[w] = 1;
				queue[tail++] = w;
			}
		}
	}
	free(seen);
	free(queue);
	return tail == t->nnodes;
}

START_TEST(xpander_is_a_connected_regular_lift)
{
	struct {
		int n, d;
	} c[] = { { 6, 5 },   { 12, 5 }, { 60, 5 }, { 300, 5 }, { 8, 3 },
		  { 100, 9 }, { 3, 2 },	 { 40, 3 }, { 2, 1 },	{ 190, 18 } };
	size_t i;
	uint64_t seed;

	for (i = 0; i < ARRAY_SIZE(c); i++)
		for (seed = 1; seed <= 5; seed++) {
			struct topo *t =
				topo_gen_xpander(c[i].n, c[i].d, 0, seed);

			ck_assert_ptr_nonnull(t);
			ck_assert_int_eq(t->nnodes, c[i].n);
			ck_assert_int_eq(t->nports, c[i].n * c[i].d);
			ck_assert_msg(is_lift_of_complete(t, c[i].n, c[i].d),
				      "n=%d d=%d seed=%llu", c[i].n, c[i].d,
				      (unsigned long long)seed);
			ck_assert(is_connected(t));
			topo_free(t);
		}
}
END_TEST

START_TEST(xpander_k_equal_1_is_the_complete_graph)
{
	struct topo *t = topo_gen_xpander(7, 6, 0, 3);
	int u, v;

	ck_assert_ptr_nonnull(t);
	for (u = 0; u < 7; u++)
		for (v = 0; v < 7; v++)
			ck_assert(u == v || topo_port_toward(t, u, v) >= 0);
	topo_free(t);
}
END_TEST

START_TEST(xpander_equal_seeds_equal_files_different_seeds_differ)
{
	struct topo *a = topo_gen_xpander(60, 5, 2, 42);
	struct topo *b = topo_gen_xpander(60, 5, 2, 42);
	struct topo *c = topo_gen_xpander(60, 5, 2, 43);
	char *ta = topo_to_str(a), *tb = topo_to_str(b), *tc = topo_to_str(c);

	ck_assert_str_eq(ta, tb);
	ck_assert_str_ne(ta, tc);
	/* Hosts hang off their switch: h1, h2 on sw1 ... h119, h120 on sw60. */
	ck_assert_int_eq(count_kind(a, NODE_HOST), 120);
	ck_assert(linked(a, "h2", "sw1") && linked(a, "h120", "sw60"));
	ck_assert(is_lift_of_complete(a, 60, 5));
	free(ta);
	free(tb);
	free(tc);
	topo_free(a);
	topo_free(b);
	topo_free(c);
}
END_TEST

START_TEST(xpander_rejects_impossible_parameters)
{
	log_quiet = true;
	ck_assert_ptr_null(
		topo_gen_xpander(10, 3, 0, 1)); /* 4 does not divide */
	ck_assert_ptr_null(topo_gen_xpander(10, 1, 0, 1)); /* a matching */
	ck_assert_ptr_null(topo_gen_xpander(0, 3, 0, 1));
	ck_assert_ptr_null(topo_gen_xpander(6, 0, 0, 1));
	ck_assert_ptr_null(topo_gen_xpander(6, 5, -1, 1));
	ck_assert_ptr_null(topo_gen_xpander(1800000, 5, 1, 1)); /* too large */
	log_quiet = false;
}
END_TEST

Suite *xpander_suite(void)
{
	Suite *s = suite_create("xpander");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, xpander_is_a_connected_regular_lift);
	tcase_add_test(tc, xpander_k_equal_1_is_the_complete_graph);
	tcase_add_test(tc,
		       xpander_equal_seeds_equal_files_different_seeds_differ);
	tcase_add_test(tc, xpander_rejects_impossible_parameters);
	suite_add_tcase(s, tc);
	return s;
}
