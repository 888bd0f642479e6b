// SPDX-License-Identifier: GPL-2.0
/*
 * Throughput LP on cases solvable by hand, with both GLPK methods; traffic
 * matrices (all-to-all, uniform, near-worst permutation).
 */
#include <check.h>
#include <glpk.h>
#include <math.h>

#include "testlib.h"
#include "analyze/throughput.h"

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
	ck_assert_int_eq(throughput_solve(t, e, &tm, method, 0.01, &res), 0);
	traffic_free(&tm);
	elp_free(e);
	topo_free(t);
	return res.theta;
}

#define HOSTS3 \
	"host a1\nhost b1\nhost c1\nlink a1:0 A:h\nlink b1:0 B:h\nlink c1:0 C:h\n"
static const char *line3 =
	"switch A\nswitch B\nswitch C\nlink A:1 B:1\nlink B:2 C:1\n" HOSTS3;
static const char *line3_paths = "A B\nA B C\nB A\nB C\nC B\nC B A\n";
static const char *tri =
	"switch A\nswitch B\nswitch C\nlink A:1 B:1\nlink B:2 C:1\n"
	"link C:2 A:2\n" HOSTS3;

START_TEST(line_all_to_all_is_one)
{
	/* 3 servers, each sends 1/2 to each other; A->B carries A->B and
	 * A->C: 1/2 + 1/2 = 1 at theta = 1. */
	for (int m = 0; m < 2; m++)
		ck_assert_double_eq_tol(
			solve(line3, line3_paths, "all-to-all", m), 1.0, 1e-6);
}
END_TEST

START_TEST(triangle_direct_paths_give_two)
{
	/* Each directed link carries one commodity of 1/2: theta = 2. Adding
	 * the 2-hop detours cannot beat using capacity once per unit. */
	const char *direct = "A B\nA C\nB A\nB C\nC A\nC B\n";
	const char *both = "A B\nA C\nB A\nB C\nC A\nC B\nA C B\nA B C\nB A C\n"
			   "B C A\nC B A\nC A B\n";

	ck_assert_double_eq_tol(
		solve(tri, direct, "all-to-all", THROUGHPUT_SIMPLEX), 2.0,
		1e-6);
	ck_assert_double_eq_tol(
		solve(tri, both, "all-to-all", THROUGHPUT_INTERIOR), 2.0, 1e-6);
}
END_TEST

START_TEST(host_level_paths_give_the_same_answer)
{
	const char *hp =
		"a1 A B b1\na1 A B C c1\nb1 B A a1\nb1 B C c1\nc1 C B b1\n"
		"c1 C B A a1\n";

	ck_assert_double_eq_tol(
		solve(line3, hp, "all-to-all", THROUGHPUT_INTERIOR), 1.0, 1e-6);
}
END_TEST

#define RING4                                                                  \
	"switch A\nswitch B\nswitch C\nswitch D\nlink A:1 B:1\nlink B:2 C:1\n" \
	"link C:2 D:1\nlink D:2 A:2\nhost a\nhost b\nhost c\nhost d\n"         \
	"link a:0 A:h\nlink b:0 B:h\nlink c:0 C:h\nlink d:0 D:h\n"

START_TEST(near_worst_permutation_pairs_opposite_corners)
{
	/* The matching takes the distance-2 pairs A<->C, B<->D (demand 1
	 * each). Clockwise paths only: every link carries two of them. */
	const char *cw = "A B C\nB C D\nC D A\nD A B\n";
	const char *both =
		"A B C\nB C D\nC D A\nD A B\nA D C\nB A D\nC B A\nD C B\n";

	ck_assert_double_eq_tol(
		solve(RING4, cw, "permutation", THROUGHPUT_SIMPLEX), 0.5, 1e-6);
	ck_assert_double_eq_tol(
		solve(RING4, both, "permutation", THROUGHPUT_INTERIOR), 1.0,
		1e-6);
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
	ck_assert_int_eq(
		throughput_solve(t, e, &tm, THROUGHPUT_INTERIOR, 0.01, &res),
		0);
	ck_assert_int_eq(res.unrouted, 1);
	ck_assert_double_eq(res.theta, 0);
	traffic_free(&tm);
	elp_free(e);
	topo_free(t);
}
END_TEST

START_TEST(uniform_sends_each_servers_rate_to_a_fraction_of_tors)
{
	struct topo *t =
		topo_from_str("switch S1\nswitch S2\nswitch S3\nswitch S4\n"
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
	ck_assert_int_eq(tm.n, 11 * 2); /* round(0.2 * 10) = 2 picks each */
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

START_TEST(fptas_bounds_bracket_the_exact_lp)
{
	/* A random 3-regular graph's shortest paths, 2 hosts per switch. */
	static const char *traffic[] = { "all-to-all", "uniform=0.3",
					 "permutation" };
	const char *topo =
		"switch A\nswitch B\nswitch C\nswitch D\nswitch E\nswitch F\n"
		"link A:1 B:1\nlink A:2 C:1\nlink A:3 D:1\nlink B:2 E:1\nlink B:3 F:1\n"
		"link C:2 E:2\nlink C:3 F:2\nlink D:2 E:3\nlink D:3 F:3\n"
		"host a1\nhost a2\nhost b1\nhost c1\nhost d1\nhost e1\nhost f1\n"
		"link a1:0 A:h1\nlink a2:0 A:h2\nlink b1:0 B:h\nlink c1:0 C:h\n"
		"link d1:0 D:h\nlink e1:0 E:h\nlink f1:0 F:h\n";
	const char *paths =
		"A B\nA C\nA D\nA B E\nA C E\nA D E\nA B F\nA C F\nA D F\n"
		"B A\nB E\nB F\nB A C\nB E C\nB F C\nB A D\nB E D\nB F D\n"
		"C A\nC E\nC F\nC A B\nC E B\nC F B\nC A D\nC E D\nC F D\n"
		"D A\nD E\nD F\nD A B\nD E B\nD F B\nD A C\nD E C\nD F C\n"
		"E B\nE C\nE D\nE B A\nE C A\nE D A\nE B F\nE C F\nE D F\n"
		"F B\nF C\nF D\nF B A\nF C A\nF D A\nF B E\nF C E\nF D E\n";
	struct topo *t = topo_from_str(topo);
	struct elp *e = elp_from_str(t, paths);
	int i;

	ck_assert_ptr_nonnull(e);
	for (i = 0; i < 3; i++) {
		struct throughput_result ex, ap;
		struct traffic_matrix tm;
		struct traffic tr;

		ck_assert_int_eq(traffic_parse(traffic[i], &tr), 0);
		ck_assert_int_eq(traffic_build(t, &tr, 3, 1, &tm), 0);
		ck_assert_int_eq(throughput_solve(t, e, &tm, THROUGHPUT_SIMPLEX,
						  0.01, &ex),
				 0);
		ck_assert_int_eq(throughput_solve(t, e, &tm, THROUGHPUT_FPTAS,
						  0.01, &ap),
				 0);
		ck_assert_double_le(ap.theta, ex.theta * (1 + 1e-9));
		ck_assert_double_ge(ap.upper, ex.theta * (1 - 1e-9));
		ck_assert_double_le(ap.upper, ap.theta * 1.01 + 1e-12);
		traffic_free(&tm);
	}
	elp_free(e);
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
	tcase_add_test(tc,
		       uniform_sends_each_servers_rate_to_a_fraction_of_tors);
	tcase_add_test(tc, fptas_bounds_bracket_the_exact_lp);
	suite_add_tcase(s, tc);
	return s;
}
