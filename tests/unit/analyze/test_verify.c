// SPDX-License-Identifier: GPL-2.0
/*
 * The verifier on hand-written rules: correct sets verify; corruptions are
 * caught with the right witness (a cycle with its rules and paths, a
 * decreasing tag, a missing classify or rewrite rule); rules that do not
 * fit the topology are input errors. Wildcards are test_verify_wildcards.c's,
 * what is walked (classes, threads, parallel links) test_verify_walks.c's.
 */
#include <check.h>
#include <jansson.h>

#include "verify_check.h"

/* Brute force on the ring: tag = hop index, two priorities, no CBD. */
static const char *ring3_ok =
	"{" TAGS2 ", 'switches': {"
	"'A': " RING_SW(CL_BOTH, RW_UP) ", 'B': " RING_SW(
		CL_BOTH, RW_UP) ","
				"'C': " RING_SW(CL_BOTH, RW_UP) "}}";

START_TEST(ring_brute_force_tags_verify)
{
	struct run x;

	run(&x, RING3, RING3_PATHS, ring3_ok, false);
	ck_assert_int_eq(x.rc, EXIT_OK);
	ck_assert(x.res.ok && x.res.deadlock_free && x.res.monotonic);
	ck_assert_int_eq(x.res.paths, 3);
	ck_assert_int_eq(x.res.lossless_paths, 3);
	ck_assert_int_eq(x.res.bdg_nodes, 6);
	ck_assert_int_eq(x.res.bdg_edges, 3);
	ck_assert_int_eq(x.res.nproblems, 0);
	done(&x);
}
END_TEST

START_TEST(one_tag_kept_around_the_ring_is_a_cycle)
{
	struct run x;
	int k;

	run(&x, RING3, RING3_PATHS,
	    "{" TAGS2 ", 'switches': {"
	    "'A': " RING_SW(CL_BOTH, RW_KEEP) ", 'B': " RING_SW(
		    CL_BOTH, RW_KEEP) ","
				      "'C': " RING_SW(CL_BOTH, RW_KEEP) "}}",
	    false);
	ck_assert_int_eq(x.rc, EXIT_PROBLEM);
	ck_assert(!x.res.deadlock_free && x.res.monotonic && !x.res.ok);
	ck_assert_int_eq(x.res.lossless_paths, 3);
	ck_assert_int_eq(x.res.cycle_len, 3);
	for (k = 0; k < 3; k++) {
		const struct verify_edge *a = &x.res.cycle[k],
					 *b = &x.res.cycle[(k + 1) % 3];

		ck_assert_int_eq(a->to_port, b->from_port);
		ck_assert_int_eq(a->to_prio, b->from_prio);
		ck_assert_int_eq(a->from_prio, 3);
		ck_assert_int_eq(a->rule, 0);
		ck_assert_int_ge(a->path,
				 0); /* each edge has a path behind it */
		/* the rule of the edge is on the switch it leaves */
		ck_assert_str_eq(x.r->sw[a->sw].name,
				 x.t->nodes[port_node(x.t, a->from_port)].name);
	}
	assert_problem(&x, VERIFY_CYCLE, "cycle of 3 buffer dependencies");
	done(&x);
}
END_TEST

START_TEST(decreasing_tag_rule_is_caught)
{
	struct run x;
	const struct verify_problem *p;

	run(&x, RING3, RING3_PATHS,
	    "{" TAGS2 ", 'switches': {"
	    "'A': " RING_SW(
		    CL_BOTH, RW_UP
		    ", {'tag': 11, 'in': '1', 'out': '2', 'new_tag': 10}") ","
									   "'B': " RING_SW(CL_BOTH, RW_UP) ", 'C': " RING_SW(
										   CL_BOTH,
										   RW_UP) "}}",
	    false);
	ck_assert_int_eq(x.rc, EXIT_PROBLEM);
	ck_assert(x.res.deadlock_free && !x.res.monotonic);
	ck_assert_int_eq(x.res.decreasing, 1);
	p = problem(&x, VERIFY_DECREASING_TAG,
		    "A rewrite[1] (tag 11 in 1 out 2 -> 10)");
	ck_assert_ptr_nonnull(p);
	ck_assert_str_eq(json_string_value(json_object_get(p->json, "rule")),
			 "rewrite[1]");
	ck_assert(json_is_null(
		json_object_get(p->json, "path"))); /* no ELP path uses it */
	done(&x);
}
END_TEST

START_TEST(missing_classify_rule_makes_the_path_lossy)
{
	struct run x;
	const struct verify_problem *p;

	run(&x, RING3, RING3_PATHS,
	    "{" TAGS2 ", 'switches': {"
	    "'A': " RING_SW(CL_BOTH, RW_UP) ", 'B': " RING_SW(
		    CL_BOTH,
		    RW_UP) ","
			   "'C': " RING_SW(
				   "{'in': '1', 'tag': 10, 'priority': 3}",
				   RW_UP) "}}",
	    false);
	ck_assert_int_eq(x.rc, EXIT_PROBLEM);
	ck_assert(x.res.deadlock_free && x.res.monotonic);
	ck_assert_int_eq(x.res.lossless_paths, 2);
	p = problem(
		&x, VERIFY_LOSSY_PATH,
		"lossy path A B C (t.elp:1): at C: no classify rule for in 1 tag 11");
	ck_assert_ptr_nonnull(p);
	ck_assert_str_eq(json_string_value(json_object_get(p->json, "missing")),
			 "classify");
	ck_assert_int_eq(json_integer_value(json_object_get(p->json, "hop")),
			 2);
	done(&x);
	/* --allow-lossy only counts it */
	run(&x, RING3, RING3_PATHS,
	    "{" TAGS2 ", 'switches': {"
	    "'A': " RING_SW(CL_BOTH, RW_UP) ", 'B': " RING_SW(
		    CL_BOTH,
		    RW_UP) ","
			   "'C': " RING_SW(
				   "{'in': '1', 'tag': 10, 'priority': 3}",
				   RW_UP) "}}",
	    true);
	ck_assert_int_eq(x.rc, EXIT_OK);
	ck_assert_int_eq(x.res.lossless_paths, 2);
	done(&x);
}
END_TEST

START_TEST(missing_rewrite_rule_makes_the_path_lossy)
{
	struct run x;

	run(&x, RING3, RING3_PATHS,
	    "{" TAGS2 ", 'switches': {"
	    "'A': " RING_SW(CL_BOTH, RW_UP) ", 'B': " RING_SW(
		    CL_BOTH, "") ","
				 "'C': " RING_SW(CL_BOTH, RW_UP) "}}",
	    false);
	ck_assert_int_eq(x.rc, EXIT_PROBLEM);
	ck_assert_int_eq(x.res.lossless_paths, 2);
	assert_problem(
		&x, VERIFY_LOSSY_PATH,
		"lossy path A B C (t.elp:1): at B: no rewrite rule for tag 10 in 1 out 2");
	done(&x);
}
END_TEST

START_TEST(decreasing_hop_names_the_path)
{
	struct run x;
	const struct verify_problem *p;

	/* host h1 starts with 11; A lowers it to 10 on the way to B */
	run(&x,
	    "switch A\nswitch B\nhost h1\nhost h2\nlink A:2 B:1\nlink h1:e A:1\n"
	    "link h2:e B:2\n",
	    "h1 A B h2\n",
	    "{" TAGS2 ", 'hosts': {'h1': {'tag': 11}},"
	    "'switches': {'A': " RING_SW(
		    CL_BOTH,
		    "{'tag': 11, 'in': '1', 'out': '2', 'new_tag': 10}") ","
									 "'B': " RING_SW(
										 CL_BOTH,
										 RW_UP) "}}",
	    false);
	ck_assert_int_eq(x.rc, EXIT_PROBLEM);
	p = problem(&x, VERIFY_DECREASING_TAG, "on path h1 A B h2 (t.elp:1)");
	ck_assert_ptr_nonnull(p);
	ck_assert_int_eq(json_integer_value(json_object_get(p->json, "hop")),
			 1);
	ck_assert_int_eq(x.res.lossless_paths, 1);
	done(&x);
}
END_TEST

START_TEST(rules_that_do_not_fit_the_topology_are_input_errors)
{
	struct run x;
	const char *msg;

	capture_begin();
	run(&x, RING3, RING3_PATHS,
	    "{" TAGS2 ", 'switches': {'Z': {'ports': []}}}", false);
	msg = capture_end();
	ck_assert_int_eq(x.rc, EXIT_USAGE);
	ck_assert_ptr_nonnull(
		strstr(msg, "r.json: switches.Z: no node \"Z\" in t.topo"));
	done(&x);
	capture_begin();
	run(&x, RING3, RING3_PATHS,
	    "{" TAGS2 ", 'switches': {'A': {'ports': ['1']}}}", false);
	msg = capture_end();
	ck_assert_int_eq(x.rc, EXIT_USAGE);
	ck_assert_ptr_nonnull(strstr(
		msg,
		"r.json: switches.A.ports: port \"2\" of A in t.topo is missing"));
	done(&x);
	capture_begin();
	run(&x, RING3, RING3_PATHS,
	    "{" TAGS2 ", 'switches': {'A': {'ports': ['1', '2', '3']}}}",
	    false);
	msg = capture_end();
	ck_assert_int_eq(x.rc, EXIT_USAGE);
	ck_assert_ptr_nonnull(strstr(
		msg,
		"r.json: switches.A.ports[2]: A has no port \"3\" in t.topo"));
	done(&x);
}
END_TEST

Suite *verify_suite(void)
{
	Suite *s = suite_create("verify");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, ring_brute_force_tags_verify);
	tcase_add_test(tc, one_tag_kept_around_the_ring_is_a_cycle);
	tcase_add_test(tc, decreasing_tag_rule_is_caught);
	tcase_add_test(tc, missing_classify_rule_makes_the_path_lossy);
	tcase_add_test(tc, missing_rewrite_rule_makes_the_path_lossy);
	tcase_add_test(tc, decreasing_hop_names_the_path);
	tcase_add_test(tc, rules_that_do_not_fit_the_topology_are_input_errors);
	suite_add_tcase(s, tc);
	return s;
}
