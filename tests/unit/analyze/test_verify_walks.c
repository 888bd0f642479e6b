// SPDX-License-Identifier: GPL-2.0
/*
 * What the verifier walks: every class, each of parallel links apart, a
 * host's own class tags, and the same report from any number of threads.
 */
#include <check.h>
#include <jansson.h>

#include "verify_check.h"

/* verify_result_json of one run with the given number of threads. */
static char *run_threads(const char *topo, const char *paths, const char *rules,
			 int threads)
{
	struct verify_opts o = { .threads = threads };
	struct verify_result res;
	struct topo *t = topo_from_str(topo);
	struct elp *e = elp_from_str(t, paths);
	struct rules *r = rules_str(rules);
	json_t *j;
	char *s;

	ck_assert_int_eq(verify_rules(t, e, r, &o, &res), EXIT_PROBLEM);
	j = verify_result_json(t, e, r, &res);
	json_object_del(j, "seconds");
	s = json_dumps(j, JSON_SORT_KEYS);
	json_decref(j);
	verify_result_free(&res);
	rules_free(r);
	elp_free(e);
	topo_free(t);
	return s;
}

static char *repeat(const char *a, int na, const char *b, int nb)
{
	size_t la = strlen(a), lb = strlen(b);
	char *s = xmalloc(na * la + nb * lb + 1), *p = s;
	int i;

	for (i = 0; i < na; i++, p += la)
		memcpy(p, a, la);
	for (i = 0; i < nb; i++, p += lb)
		memcpy(p, b, lb);
	*p = '\0';
	return s;
}

/*
 * Walks in threads, merged in path order: the first ten lossy walks span
 * three ranges, and a decreasing rule is first taken in the last range;
 * every thread count gives the report of one thread.
 */
START_TEST(threads_give_the_report_of_one_thread)
{
	static const char *const topo2 =
		"switch A\nswitch B\nhost h1\nhost h2\nlink A:2 B:1\n"
		"link h1:e A:1\nlink h2:e B:2\n";
	static const char *const dec_rules =
		"{" TAGS2 ", 'hosts': {'h1': {'tag': 11}},"
		"'switches': {'A': " RING_SW(
			CL_BOTH,
			"{'tag': 11, 'in': '1', 'out': '2', 'new_tag': 10}") ","
									     "'B': " RING_SW(
										     "{'in': '1', 'tag': 11, 'priority': 4}",
										     RW_UP) "}}";
	char *lossy = repeat("C A B\n", 5, "A B C\n", 20);
	char *dec = repeat("h1 A\n", 10, "h1 A B h2\n", 5);
	char *one_l = run_threads(
		RING3, lossy,
		"{" TAGS2 ", 'switches': {"
		"'A': " RING_SW(CL_BOTH, RW_UP) ", 'B': " RING_SW(
			CL_BOTH,
			RW_UP) ","
			       "'C': " RING_SW(
				       "{'in': '1', 'tag': 10, 'priority': 3}",
				       RW_UP) "}}",
		1);
	char *one_d = run_threads(topo2, dec, dec_rules, 1);
	int n;

	ck_assert_ptr_nonnull(strstr(one_d, "\"hop\": 1"));
	for (n = 2; n <= 7; n++) {
		char *l = run_threads(
			RING3, lossy,
			"{" TAGS2 ", 'switches': {"
			"'A': " RING_SW(CL_BOTH, RW_UP) ", 'B': " RING_SW(
				CL_BOTH,
				RW_UP) ","
				       "'C': " RING_SW(
					       "{'in': '1', 'tag': 10, 'priority': 3}",
					       RW_UP) "}}",
			n);
		char *d = run_threads(topo2, dec, dec_rules, n);

		ck_assert_msg(!strcmp(l, one_l),
			      "%d threads: another lossy-path report", n);
		ck_assert_msg(!strcmp(d, one_d),
			      "%d threads: another decreasing-tag report", n);
		free(l);
		free(d);
	}
	free(one_l);
	free(one_d);
	free(lossy);
	free(dec);
}
END_TEST

START_TEST(every_class_is_walked)
{
	struct run x;

	/* class 1 starts with 11, which B cannot rewrite */
	run(&x,
	    "switch A\nswitch B\nhost h1\nhost h2\nlink A:2 B:1\nlink h1:e A:1\n"
	    "link h2:e B:2\n",
	    "h1 A B h2\n",
	    "{" TAGS2 ", 'classes': [{'class': 0, 'tag': 10},"
	    "{'class': 1, 'tag': 11}], 'switches': {"
	    "'A': " RING_SW(
		    CL_BOTH, RW_KEEP
		    ", {'tag': 11, 'in': '1', 'out': '2', 'new_tag': 11}") ","
									   "'B': " RING_SW(
										   CL_BOTH,
										   RW_KEEP) "}}",
	    false);
	ck_assert_int_eq(x.rc, EXIT_PROBLEM);
	ck_assert_int_eq(x.res.walks, 2);
	ck_assert_int_eq(x.res.lossy_walks, 1);
	ck_assert_int_eq(x.res.lossless_paths, 0);
	assert_problem(
		&x, VERIFY_LOSSY_PATH,
		"h1 A B h2 (t.elp:1), class 1: at B: no rewrite rule for tag 11 in 1 out 2");
	done(&x);
}
END_TEST

START_TEST(parallel_links_are_told_apart)
{
	struct run x;

	/* A reaches B over two links; only the one by port 2 has a rewrite. */
	run(&x,
	    "switch A\nswitch B\nhost h1\nhost h2\nlink A:2 B:1\nlink A:3 B:3\n"
	    "link h1:e A:1\nlink h2:e B:2\n",
	    "h1 A:2 B h2\nh1 A:3 B h2\n",
	    "{" TAGS2 ", 'switches': {"
	    "'A': {'ports': ['1', '2', '3'], 'classify': [" CL_ANY "],"
	    "      'rewrite': [{'tag': 10, 'in': '1', 'out': '2', 'new_tag': 10}]},"
	    "'B': {'ports': ['1', '2', '3'], 'classify': [" CL_ANY
	    "], 'rewrite': [" KEEP(10) "]}}}",
	    false);
	ck_assert_int_eq(x.rc, EXIT_PROBLEM);
	ck_assert_int_eq(x.res.lossless_paths, 1);
	assert_problem(
		&x, VERIFY_LOSSY_PATH,
		"lossy path h1 A:3 B h2 (t.elp:2): at A: no rewrite rule for tag 10 in 1 out 3");
	done(&x);
}
END_TEST

START_TEST(host_class_tags_override_the_class_tag)
{
	struct run x;

	/* h1 starts class 0 with 11 instead of 10: A has rules for 11 only. */
	run(&x, "switch A\nhost h1\nhost h2\nlink h1:e A:1\nlink h2:e A:2\n",
	    "h1 A h2\nh2 A h1\n",
	    "{" TAGS2
	    ", 'classes': [{'class': 0, 'tag': 10}], 'hosts': {'h1': {'classes': [11]}},"
	    "'switches': {'A': " RING_SW(
		    "{'in': '*', 'tag': 11, 'priority': 4}",
		    "{'tag': 11, 'in': '*', 'out': '*', 'new_tag': 11}") "}}",
	    false);
	ck_assert_int_eq(x.rc, EXIT_PROBLEM);
	ck_assert_int_eq(x.res.lossless_paths, 1);
	assert_problem(
		&x, VERIFY_LOSSY_PATH,
		"lossy path h2 A h1 (t.elp:2): at A: no classify rule for in 2 tag 10");
	done(&x);
}
END_TEST

Suite *verify_walks_suite(void)
{
	Suite *s = suite_create("verify_walks");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, every_class_is_walked);
	tcase_add_test(tc, threads_give_the_report_of_one_thread);
	tcase_add_test(tc, parallel_links_are_told_apart);
	tcase_add_test(tc, host_class_tags_override_the_class_tag);
	suite_add_tcase(s, tc);
	return s;
}
