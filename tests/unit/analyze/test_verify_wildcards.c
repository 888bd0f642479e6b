// SPDX-License-Identifier: GPL-2.0
/*
 * Wildcard rules in the verifier: the Clos bounce tagging of the seeds'
 * Clos written with (*,*) rules verifies, one tag everywhere has the
 * bounce cycle, and wildcards expand with the documented precedence
 * ((in,*) before (*,out) before (*,*)), hairpins included.
 */
#include <check.h>
#include <jansson.h>

#include "verify_check.h"

/*
 * Clos tagging of the seeds' Clos with wildcards: every switch keeps the
 * tag (*,*), a bounce (up-port in, up-port out) at a ToR or leaf raises
 * it; a second bounce demotes to lossy. Two priorities, no CBD.
 */
#define RW(t, i, o, n) \
	"{'tag': " #t ", 'in': '" i "', 'out': '" o "', 'new_tag': " #n "}"
#define BOUNCES(a, b, t, n) \
	RW(t, a, a, n) "," RW(t, a, b, n) "," RW(t, b, a, n) "," RW(t, b, b, n)
#define TOR(p, a, b)                                                   \
	"{'ports': ['h', '" a "', '" b "'], 'classify': [" CL_ANY "]," \
	"'rewrite': [" KEEP(10) "," KEEP(11) "," BOUNCES(              \
		a, b, 10, 11) "," BOUNCES(a, b, 11, 0) "]}"
#define LEAF(d1, d2)                                                       \
	"{'ports': ['s1', 's2', '" d1 "', '" d2 "'], 'classify': [" CL_ANY \
	"],"                                                               \
	"'rewrite': [" KEEP(10) "," KEEP(11) "," BOUNCES(                  \
		"s1", "s2", 10, 11) "," BOUNCES("s1", "s2", 11, 0) "]}"
#define SPINE                                                           \
	"{'ports': ['l1', 'l2', 'l3', 'l4'], 'classify': [" CL_ANY "]," \
	"'rewrite': [" KEEP(10) "," KEEP(11) "]}"
#define CLOS_SWITCHES                                                                                                          \
	"'switches': {'T1': " TOR(1, "l1", "l2") ", 'T2': " TOR(2, "l1", "l2") ", 'T3': " TOR(3, "l3", "l4") ", 'T4': " TOR(   \
		4, "l3",                                                                                                       \
		"l4") ", 'L1': " LEAF("t1",                                                                                    \
				      "t2") ", 'L2': " LEAF("t1",                                                              \
							    "t2") ", 'L3': " LEAF("t3",                                        \
										  "t4") ", 'L4': " LEAF("t3",                  \
													"t4") ", 'S1': " SPINE \
													      ", 'S2': " SPINE \
													      "}"

static const char *clos_paths =
	"h1 T1 L1 S1 L3 T3 h3\nh4 T4 L4 S2 L2 T2 h2\nh3 T3 L3 S1 L1 T1 h1\n"
	"h1 T1 L2 S1 L3 S2 L4 T4 h4\n" /* one bounce at L3 */
	"h3 T3 L3 S2 L2 S1 L1 T1 h1\n"; /* one bounce at L2 */

START_TEST(clos_bounce_tagging_with_wildcards_verifies)
{
	struct run x;

	run(&x, SEED_CLOS_TOPO, clos_paths, "{" TAGS2 ", " CLOS_SWITCHES "}",
	    false);
	ck_assert_msg(x.rc == EXIT_OK, "%s",
		      x.res.nproblems ? x.res.problems[0].text : "");
	ck_assert_int_eq(x.res.lossless_paths, 5);
	done(&x);
	/* a second bounce is lossy (and only that) */
	run(&x, SEED_CLOS_TOPO, "h1 T1 L1 S1 L3 S2 L4 S1 L2 T2 h2\n",
	    "{" TAGS2 ", " CLOS_SWITCHES "}", false);
	ck_assert_int_eq(x.rc, EXIT_PROBLEM);
	ck_assert(x.res.deadlock_free && x.res.monotonic);
	assert_problem(
		&x, VERIFY_LOSSY_PATH,
		"at L4: L4 rewrite[8] (tag 11 in s2 out s1 -> 0 lossy) demotes it to lossy");
	done(&x);
}
END_TEST

START_TEST(clos_with_one_tag_everywhere_has_the_bounce_cycle)
{
	struct run x;
	const char *one =
		"{" TAGS2 ", 'switches': {"
		"'T1': {'ports': ['h', 'l1', 'l2'], 'classify': [" CL_ANY
		"], 'rewrite': [" KEEP(
			10) "]},"
			    "'T3': {'ports': ['h', 'l3', 'l4'], 'classify': [" CL_ANY
			    "], 'rewrite': [" KEEP(
				    10) "]},"
					"'L2': {'ports': ['s1', 's2', 't1', 't2'], 'classify': [" CL_ANY
					"], 'rewrite': [" KEEP(
						10) "]},"
						    "'L3': {'ports': ['s1', 's2', 't3', 't4'], 'classify': [" CL_ANY
						    "], 'rewrite': [" KEEP(
							    10) "]},"
								"'S1': {'ports': ['l1', 'l2', 'l3', 'l4'], 'classify': [" CL_ANY
								"], 'rewrite': [" KEEP(
									10) "]},"
									    "'S2': {'ports': ['l1', 'l2', 'l3', 'l4'], 'classify': [" CL_ANY
									    "], 'rewrite': [" KEEP(
										    10) "]}}}";

	run(&x, SEED_CLOS_TOPO, "h1 T1 L2 S1 L3 T3 h3\n", one, false);
	ck_assert_int_eq(x.rc, EXIT_PROBLEM);
	ck_assert(!x.res.deadlock_free);
	ck_assert_int_ge(x.res.cycle_len, 2);
	done(&x);
}
END_TEST

START_TEST(wildcard_exception_answers_lossy)
{
	struct run x;
	const struct verify_problem *p;

	/* (in,*) -> lossy beats (*,out) and (*,*): B demotes what comes in on 1 */
	run(&x, RING3, RING3_PATHS,
	    "{" TAGS2 ", 'switches': {"
	    "'A': " RING_SW(CL_BOTH, RW_UP) ", 'C': " RING_SW(
		    CL_BOTH,
		    RW_UP) ","
			   "'B': " RING_SW(
				   CL_BOTH,
				   "{'tag': 10, 'in': '*', 'out': '*', 'new_tag': 11},"
				   "{'tag': 10, 'in': '*', 'out': '2', 'new_tag': 11},"
				   "{'tag': 10, 'in': '1', 'out': '*', 'new_tag': 0}") "}}",
	    false);
	ck_assert_int_eq(x.rc, EXIT_PROBLEM);
	p = problem(
		&x, VERIFY_LOSSY_PATH,
		"at B: B rewrite[2] (tag 10 in 1 out * -> 0 lossy) demotes it to lossy");
	ck_assert_ptr_nonnull(p);
	ck_assert_str_eq(json_string_value(json_object_get(p->json, "rule")),
			 "rewrite[2]");
	done(&x);
}
END_TEST

START_TEST(hairpin_under_a_wildcard_counts)
{
	struct run x;

	/* A and B bounce tag 10 back where it came from: a two-node cycle. */
	run(&x,
	    "switch A\nswitch B\nhost ha\nhost hb\nlink A:b B:a\nlink ha:e A:h\n"
	    "link hb:e B:h\n",
	    "ha A B hb\n",
	    "{" TAGS2 ", 'switches': {"
	    "'A': {'ports': ['b', 'h'], 'classify': [" CL_ANY
	    "], 'rewrite': [" KEEP(
		    10) "]},"
			"'B': {'ports': ['a', 'h'], 'classify': [" CL_ANY
			"], 'rewrite': [" KEEP(10) "]}}}",
	    false);
	ck_assert_int_eq(x.rc, EXIT_PROBLEM);
	ck_assert_int_eq(x.res.cycle_len, 2);
	ck_assert_int_eq(x.res.cycle[0].from_port,
			 x.t->ports[x.res.cycle[1].from_port].peer);
	done(&x);
}
END_TEST

Suite *verify_wildcards_suite(void)
{
	Suite *s = suite_create("verify_wildcards");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, clos_bounce_tagging_with_wildcards_verifies);
	tcase_add_test(tc, clos_with_one_tag_everywhere_has_the_bounce_cycle);
	tcase_add_test(tc, wildcard_exception_answers_lossy);
	tcase_add_test(tc, hairpin_under_a_wildcard_counts);
	suite_add_tcase(s, tc);
	return s;
}
