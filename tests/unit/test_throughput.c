// SPDX-License-Identifier: GPL-2.0
/*
 * Throughput LP on cases solvable by hand, with both GLPK methods; traffic
 * matrices (all-to-all, uniform, near-worst permutation).
 */
#include <check.h>
#include <glpk.h>
#include <math.h>

#include "testlib.h"
#include "throughput.h"

static double solve(const char *topo, const char *paths, const char *traffic,
		    int method)
{
	struct topo *t = topo_from_str(topo);
	struct elp *e = elp_from_str(t, paths);
	struct throughput_result res;
	struct traffic_matrix tm;
	struct traffic tr;

	ck_assert_ptr_nonnull(e);
	ck_assert_int_eq(traffic_parse(traffic, &tr), 0);
	ck_assert_int_eq(traffic_build(t, &tr, 1, 1, &tm), 0);
	ck_assert_int_eq(throughput_solve(t, e, &tm, method, &res), 0);
	traffic_free(&tm);
	elp_free(e);
	topo_free(t);
	return res.theta;
}

#define HOSTS3 "host a1\nhost b1\nhost c1\nlink a1:0 A:h\nlink b1:0 B:h\nlink c1:0 C:h\n"
static const char *line3 = "switch A\nswitch B\nswitch C\nlink A:1 B:1\nlink B:2 C:1\n" HOSTS3;
static const char *line3_paths = "A B\nA B C\nB A\nB C\nC B\nC B A\n";
static const char *tri = "switch A\nswitch B\nswitch C\nlink A:1 B:1\nlink B:2 C:1\n"
			 "link C:2 A:2\n" HOSTS3;

START_TEST(line_all_to_all_is_one)
{
	/* 3 servers, each sends 1/2 to each other; A->B carries A->B and
	 * A->C: 1/2 + 1/2 = 1 at theta = 1. */
	for (int m = 0; m < 2; m++)
		ck_assert_double_eq_tol(solve(line3, line3_paths, "all-to-all", m), 1.0, 1e-6);
}
END_TEST

START_TEST(triangle_direct_paths_give_two)
{
	/* Each directed link carries one commodity of 1/2: theta = 2. Adding
	 * the 2-hop detours cannot beat using capacity once per unit. */
	const char *direct = "A B\nA C\nB A\nB C\nC A\nC B\n";
	const char *both = "A B\nA C\nB A\nB C\nC A\nC B\nA C B\nA B C\nB A C\n"
			   "B C A\nC B A\nC A B\n";

	ck_assert_double_eq_tol(solve(tri, direct, "all-to-all", THROUGHPUT_SIMPLEX), 2.0, 1e-6);
	ck_assert_double_eq_tol(solve(tri, both, "all-to-all", THROUGHPUT_INTERIOR), 2.0, 1e-6);
}
END_TEST

START_TEST(host_level_paths_give_the_same_answer)
{
	const char *hp = "a1 A B b1\na1 A B C c1\nb1 B A a1\nb1 B C c1\nc1 C B b1\n"
			 "c1 C B A a1\n";

	ck_assert_double_eq_tol(solve(line3, hp, "all-to-all", THROUGHPUT_INTERIOR), 1.0, 1e-6);
}
END_TEST

#define RING4 "switch A\nswitch B\nswitch C\nswitch D\nlink A:1 B:1\nlink B:2 C:1\n" \
	"link C:2 D:1\nlink D:2 A:2\nhost a\nhost b\nhost c\nhost d\n"      \
	"link a:0 A:h\nlink b:0 B:h\nlink c:0 C:h\nlink d:0 D:h\n"

START_TEST(near_worst_permutation_pairs_opposite_corners)
{
	/* The matching takes the distance-2 pairs A<->C, B<->D (demand 1
	 * each). Clockwise paths only: every link carries two of them. */
	const char *cw = "A B C\nB C D\nC D A\nD A B\n";
	const char *both = "A B C\nB C D\nC D A\nD A B\nA D C\nB A D\nC B A\nD C B\n";

	ck_assert_double_eq_tol(solve(RING4, cw, "permutation", THROUGHPUT_SIMPLEX), 0.5, 1e-6);
	ck_assert_double_eq_tol(solve(RING4, both, "permutation", THROUGHPUT_INTERIOR), 1.0, 1e-6);
}
END_TEST

START_TEST(a_pair_without_paths_has_zero_throughput)
{
	struct topo *t = topo_from_str(line3);
	struct elp *e = elp_from_str(t, "A B\nB A\nB C\nC B\nC B A\n");
	struct throughput_result res;
	struct traffic_matrix tm;
	struct traffic tr;

	traffic_parse("all-to-all", &tr);
	ck_assert_int_eq(traffic_build(t, &tr, 1, 1, &tm), 0);
	ck_assert_int_eq(throughput_solve(t, e, &tm, THROUGHPUT_INTERIOR, &res), 0);
	ck_assert_int_eq(res.unrouted, 1);
	ck_assert_double_eq(res.theta, 0);
	traffic_free(&tm);
	elp_free(e);
	topo_free(t);
}
END_TEST

START_TEST(uniform_sends_each_servers_rate_to_a_fraction_of_tors)
{
	struct topo *t = topo_from_str("switch S1\nswitch S2\nswitch S3\nswitch S4\n"
				       "switch S5\nswitch S6\nswitch S7\nswitch S8\n"
				       "switch S9\nswitch S10\nswitch S11\n");
	struct traffic_matrix tm;
	struct traffic tr;
	double out[64] = { 0 };
	int c, i;

	ck_assert_int_eq(traffic_parse("uniform=0.2", &tr), 0);
	/* No hosts: every switch is a ToR with 3 hosts. */
	ck_assert_int_eq(traffic_build(t, &tr, 5, 3, &tm), 0);
	ck_assert_int_eq(tm.ntors, 11);
	ck_assert_int_eq(tm.n, 11 * 2);	/* round(0.2 * 10) = 2 picks each */
	for (c = 0; c < tm.n; c++) {
		ck_assert_int_ne(tm.src[c], tm.dst[c]);
		out[tm.src[c]] += tm.demand[c];
	}
	for (i = 0; i < 11; i++)
		ck_assert_double_eq_tol(out[i], 3.0, 1e-9);
	traffic_free(&tm);
	capture_begin();
	ck_assert_int_eq(traffic_parse("uniform=0", &tr), -1);
	ck_assert_int_eq(traffic_parse("uniform=x", &tr), -1);
	ck_assert_int_eq(traffic_parse("gravity", &tr), -1);
	ck_assert_ptr_nonnull(strstr(capture_end(), "not \"gravity\""));
	topo_free(t);
}
END_TEST

Suite *throughput_suite(void)
{
	Suite *s = suite_create("throughput");
	TCase *tc = tcase_create("core");

	glp_term_out(GLP_OFF);
	tcase_add_test(tc, line_all_to_all_is_one);
	tcase_add_test(tc, triangle_direct_paths_give_two);
	tcase_add_test(tc, host_level_paths_give_the_same_answer);
	tcase_add_test(tc, near_worst_permutation_pairs_opposite_corners);
	tcase_add_test(tc, a_pair_without_paths_has_zero_throughput);
	tcase_add_test(tc, uniform_sends_each_servers_rate_to_a_fraction_of_tors);
	suite_add_tcase(s, tc);
	return s;
}
