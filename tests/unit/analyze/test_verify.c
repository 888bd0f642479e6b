// SPDX-License-Identifier: GPL-2.0
/*
 * The verifier on hand-written rules: correct sets verify; corruptions are
 * caught with the right witness (a cycle with its rules and paths, a
 * decreasing tag, a missing classify or rewrite rule); wildcards expand
 * with the documented precedence; rules that do not fit the topology are
 * input errors.
 */
#include <check.h>
#include <jansson.h>

#include "lib/log.h"
#include "model/rules.h"
#include "testlib.h"
#include "analyze/verify.h"

/* Test documents use ' for " so they stay readable. */
static struct rules *rules_str(const char *doc)
{
	char *s = xstrdup(doc), *p;
	json_error_t jerr;
	struct rules *r;
	json_t *root;

	for (p = s; *p; p++)
		if (*p == '\'')
			*p = '"';
	root = json_loads(s, 0, &jerr);
	ck_assert_msg(root != NULL, "bad test JSON: %s at %d:%d", jerr.text,
		      jerr.line, jerr.column);
	r = rules_from_json(root, "r.json");
	ck_assert_ptr_nonnull(r);
	json_decref(root);
	free(s);
	return r;
}

struct run {
	struct topo *t;
	struct elp *e;
	struct rules *r;
	struct verify_result res;
	int rc;
};

static void run(struct run *x, const char *topo, const char *paths,
		const char *rules, bool allow_lossy)
{
	struct verify_opts o = { .allow_lossy = allow_lossy };

	x->t = topo_from_str(topo);
	ck_assert_ptr_nonnull(x->t);
	x->e = elp_from_str(x->t, paths);
	ck_assert_ptr_nonnull(x->e);
	x->r = rules_str(rules);
	x->rc = verify_rules(x->t, x->e, x->r, &o, &x->res);
}

static void done(struct run *x)
{
	if (x->rc != EXIT_USAGE)
		verify_result_free(&x->res);
	rules_free(x->r);
	elp_free(x->e);
	topo_free(x->t);
}

/* The problem of a kind whose text contains s, or NULL. */
static const struct verify_problem *problem(const struct run *x,
					    enum verify_kind k, const char *s)
{
	int i;

	for (i = 0; i < x->res.nproblems; i++)
		if (x->res.problems[i].kind == k &&
		    strstr(x->res.problems[i].text, s))
			return &x->res.problems[i];
	return NULL;
}

#define assert_problem(x, k, s)                                               \
	ck_assert_msg(problem(x, k, s), "no problem \"%s\" (%d problems)", s, \
		      (x)->res.nproblems)

/* Three switches in a ring, every one enters by port 1 and leaves by 2. */
static const char *ring3 = "switch A\nswitch B\nswitch C\n"
			   "link A:2 B:1\nlink B:2 C:1\nlink C:2 A:1\n";
static const char *ring3_paths = "A B C\nB C A\nC A B\n";

#define TAGS2                                                             \
	"'format': 'tagger-rules/1', 'lossy': {'tag': 0, 'priority': 0}," \
	"'tags': [{'tag': 10, 'priority': 3}, {'tag': 11, 'priority': 4}]"
#define RING_SW(cl, rw) \
	"{'ports': ['1', '2'], 'classify': [" cl "], 'rewrite': [" rw "]}"
#define CL_BOTH \
	"{'in': '1', 'tag': 10, 'priority': 3}, {'in': '1', 'tag': 11, 'priority': 4}"
#define RW_UP "{'tag': 10, 'in': '1', 'out': '2', 'new_tag': 11}"
#define RW_KEEP "{'tag': 10, 'in': '1', 'out': '2', 'new_tag': 10}"

/* Brute force on the ring: tag = hop index, two priorities, no CBD. */
static const char *ring3_ok =
	"{" TAGS2 ", 'switches': {"
	"'A': " RING_SW(CL_BOTH, RW_UP) ", 'B': " RING_SW(
		CL_BOTH, RW_UP) ","
				"'C': " RING_SW(CL_BOTH, RW_UP) "}}";

START_TEST(ring_brute_force_tags_verify)
{
	struct run x;

	run(&x, ring3, ring3_paths, ring3_ok, false);
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

	run(&x, ring3, ring3_paths,
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

	run(&x, ring3, ring3_paths,
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

	run(&x, ring3, ring3_paths,
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
	run(&x, ring3, ring3_paths,
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

	run(&x, ring3, ring3_paths,
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

/*
 * Clos tagging of the seeds' Clos with wildcards: every switch keeps the
 * tag (*,*), a bounce (up-port in, up-port out) at a ToR or leaf raises
 * it; a second bounce demotes to lossy. Two priorities, no CBD.
 */
#define KEEP(t) "{'tag': " #t ", 'in': '*', 'out': '*', 'new_tag': " #t "}"
#define RW(t, i, o, n) \
	"{'tag': " #t ", 'in': '" i "', 'out': '" o "', 'new_tag': " #n "}"
#define BOUNCES(a, b, t, n) \
	RW(t, a, a, n) "," RW(t, a, b, n) "," RW(t, b, a, n) "," RW(t, b, b, n)
#define CL_ANY \
	"{'in': '*', 'tag': 10, 'priority': 3}, {'in': '*', 'tag': 11, 'priority': 4}"
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
	run(&x, ring3, ring3_paths,
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
		ring3, lossy,
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
			ring3, lossy,
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

START_TEST(rules_that_do_not_fit_the_topology_are_input_errors)
{
	struct run x;
	const char *msg;

	capture_begin();
	run(&x, ring3, ring3_paths,
	    "{" TAGS2 ", 'switches': {'Z': {'ports': []}}}", false);
	msg = capture_end();
	ck_assert_int_eq(x.rc, EXIT_USAGE);
	ck_assert_ptr_nonnull(
		strstr(msg, "r.json: switches.Z: no node \"Z\" in t.topo"));
	done(&x);
	capture_begin();
	run(&x, ring3, ring3_paths,
	    "{" TAGS2 ", 'switches': {'A': {'ports': ['1']}}}", false);
	msg = capture_end();
	ck_assert_int_eq(x.rc, EXIT_USAGE);
	ck_assert_ptr_nonnull(strstr(
		msg,
		"r.json: switches.A.ports: port \"2\" of A in t.topo is missing"));
	done(&x);
	capture_begin();
	run(&x, ring3, ring3_paths,
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
	tcase_add_test(tc, clos_bounce_tagging_with_wildcards_verifies);
	tcase_add_test(tc, clos_with_one_tag_everywhere_has_the_bounce_cycle);
	tcase_add_test(tc, wildcard_exception_answers_lossy);
	tcase_add_test(tc, hairpin_under_a_wildcard_counts);
	tcase_add_test(tc, decreasing_hop_names_the_path);
	tcase_add_test(tc, every_class_is_walked);
	tcase_add_test(tc, threads_give_the_report_of_one_thread);
	tcase_add_test(tc, parallel_links_are_told_apart);
	tcase_add_test(tc, host_class_tags_override_the_class_tag);
	tcase_add_test(tc, rules_that_do_not_fit_the_topology_are_input_errors);
	suite_add_tcase(s, tc);
	return s;
}
