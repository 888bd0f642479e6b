// SPDX-License-Identifier: GPL-2.0
/* CBD check: the link dependency graph test (Flattened Clos, A.2). */
#include <check.h>

#include "analyze/cbd.h"
#include "testlib.h"

static int check(const char *topo, const char *paths, struct cbd_witness *w)
{
	struct topo *t = topo_from_str(topo);
	struct elp *e = elp_from_str(t, paths);
	int r;

	ck_assert_ptr_nonnull(e);
	r = cbd_check(t, e, w);
	elp_free(e);
	topo_free(t);
	return r;
}

static const char *ring = "switch A\nswitch B\nswitch C\nlink A:1 B:1\n"
			  "link B:2 C:1\nlink C:2 A:2\n";

START_TEST(three_paths_around_a_triangle_have_cbd)
{
	struct cbd_witness w;

	/* The example of figure 11: A->B->C, B->C->A, C->A->B. */
	ck_assert_int_eq(check(ring, "A B C\nB C A\nC A B\n", &w), 1);
	ck_assert_int_eq(w.len, 3);
	for (int k = 0; k < w.len; k++)
		ck_assert_int_eq(w.cycle[k].to, w.cycle[(k + 1) % w.len].from);
	cbd_witness_free(&w);
}
END_TEST

START_TEST(two_of_the_three_paths_are_cbd_free)
{
	struct cbd_witness w;

	ck_assert_int_eq(check(ring, "A B C\nB C A\n", &w), 0);
	ck_assert_int_eq(w.deps, 2);
	ck_assert_int_eq(w.links, 3);
	cbd_witness_free(&w);
}
END_TEST

START_TEST(clos_up_down_is_cbd_free_and_two_bounces_are_not)
{
	struct cbd_witness w;

	ck_assert_int_eq(check(SEED_CLOS_TOPO,
			       "h1 T1 L1 S1 L3 T3 h3\nh4 T4 L4 S2 L2 T2 h2\n"
			       "h3 T3 L3 S1 L1 T1 h1\nh2 T2 L2 S2 L4 T4 h4\n",
			       &w),
			 0);
	cbd_witness_free(&w);
	/* Slide 8: L2->S1->L3->S2->L2 once two flows bounce. */
	ck_assert_int_eq(check(SEED_CLOS_TOPO,
			       "h1 T1 L2 S1 L3 S2 L4 T4 h4\n"
			       "h3 T3 L3 S2 L2 S1 L1 T1 h1\n",
			       &w),
			 1);
	cbd_witness_free(&w);
}
END_TEST

Suite *cbd_suite(void)
{
	Suite *s = suite_create("cbd");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, three_paths_around_a_triangle_have_cbd);
	tcase_add_test(tc, two_of_the_three_paths_are_cbd_free);
	tcase_add_test(tc, clos_up_down_is_cbd_free_and_two_bounces_are_not);
	suite_add_tcase(s, tc);
	return s;
}
