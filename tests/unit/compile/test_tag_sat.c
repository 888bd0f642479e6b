// SPDX-License-Identifier: GPL-2.0
/*
 * The SAT search against exhaustive enumeration: on seeded random graphs
 * and random walks (hairpins and repeated ports included), the fewest
 * priorities the solver finds equals the fewest an exhaustive search of
 * every rewrite function (tagging model) or every per-prefix priority
 * choice (priorities model) finds; its taggings compile through the
 * replay algorithm into rules the verifier accepts; GLPK's 0-1 program, a
 * third implementation, agrees where it answers. Hand cases with known
 * answers (the Tagger paper's Clos claims) and the time limit complete it.
 * The instances and the exhaustive searches are sat_oracle.h's.
 */
#include <check.h>

#include "analyze/bound.h"
#include "compile/compile.h"
#include "compile/tag_sat.h"
#include "gen/gen.h"
#include "lib/log.h"
#include "lib/util.h"
#include "sat_oracle.h"
#include "testlib.h"

/* Fewest priorities by SAT; with check, its tagging is verified too. */
static int sat_min(const struct topo *t, const struct elp *e, enum sat_model m,
		   bool check)
{
	struct sat_trie tr;
	struct sat_answer a;
	int k, res = 0;

	sat_trie_build(t, e, &tr);
	for (k = 1; k <= MAXK && res != 1; k++) {
		res = tag_sat_solve(t, &tr, k, m, 0, &a);
		ck_assert_int_ge(res, 0);
		if (res == 1 && check && m == SAT_TAGGING)
			check_rules(t, e, &a);
		tag_sat_answer_free(&a);
	}
	sat_trie_free(&tr);
	return res == 1 ? k - 1 : MAXK + 1;
}

START_TEST(sat_matches_exhaustive_search)
{
	int i, seen[MAXK + 2] = { 0 }, gap = 0;

	for (i = 0; i < 400; i++) {
		struct topo *t = random_topo();
		struct elp *e = random_walks(t);
		int bt = brute_min(t, e, SAT_TAGGING),
		    st = sat_min(t, e, SAT_TAGGING, true),
		    bp = brute_min(t, e, SAT_PRIORITIES),
		    sp = sat_min(t, e, SAT_PRIORITIES, false);

		ck_assert_msg(bt == st,
			      "instance %d: tagging %d by search, %d by SAT", i,
			      bt, st);
		ck_assert_msg(bp == sp,
			      "instance %d: priorities %d by search, %d by SAT",
			      i, bp, sp);
		ck_assert_int_le(sp, st);
		seen[st]++;
		gap += sp < st;
		elp_free(e);
		topo_free(t);
	}
	/* the instances are not all trivial: several counts occur */
	ck_assert_int_gt(seen[1], 0);
	ck_assert_int_gt(seen[2], 0);
	ck_assert_int_gt(seen[3], 0);
	pr_info("tag_sat: %d of 400 need fewer priorities than tags\n", gap);
}
END_TEST

/* Paths idx[0..n) of e, as an ELP of their own. */
static struct elp *subset(const struct elp *e, const int *idx, int n)
{
	struct elp *c = elp_new("core");
	int i;

	for (i = 0; i < n; i++) {
		ck_assert(idx[i] >= 0 && idx[i] < e->npaths);
		ck_assert(i == 0 || idx[i - 1] < idx[i]);
		elp_add(c, elp_hops(e, idx[i]), elp_len(e, idx[i]), i + 1);
	}
	return c;
}

/*
 * The formula grown path by path (batches of 1, 2, 4, ...), and started
 * from a random hint (any tag per prefix, even decreasing ones) or none,
 * answers like the exhaustive search at every count in both models; a
 * core comes only with UNSAT, names distinct paths of the ELP, fewer than
 * all, and is infeasible on its own by exhaustive search. A feasible
 * instance that yielded a core (a subset wrongly called UNSAT), or a hint
 * that turned a feasible count UNSAT, fails here.
 */
static void check_grown(const struct topo *t, const struct elp *e,
			const struct sat_trie *tr, enum sat_model model,
			const int *hint, int *cores)
{
	int least = brute_min(t, e, model), k;

	for (k = 1; k <= MAXK; k++) {
		struct sat_search p = { .grow_first = 1, .hint = hint };
		struct sat_answer a;
		struct elp *c;
		int res = tag_sat_run(t, tr, k, model, &p, &a);

		ck_assert_msg(res == (k >= least), "%s, k=%d: %d (least %d)",
			      sat_model_name(model), k, res, least);
		ck_assert(res == 0 || !a.core);
		if (a.core) {
			ck_assert_int_lt(a.ncore, e->npaths);
			c = subset(e, a.core, a.ncore);
			ck_assert_int_gt(brute_min(t, c, model), k);
			elp_free(c);
			(*cores)++;
		}
		tag_sat_answer_free(&a);
	}
}

START_TEST(grown_formulas_and_their_cores)
{
	int i, n, cores = 0;

	for (i = 0; i < 300; i++) {
		struct topo *t = random_topo();
		struct elp *e = random_walks(t);
		struct sat_trie tr;
		int *hint;

		sat_trie_build(t, e, &tr);
		hint = xcalloc(tr.n + 1, sizeof(int));
		for (n = 0; n < tr.n; n++)
			hint[n] = (int)draw(MAXK);
		check_grown(t, e, &tr, SAT_TAGGING, NULL, &cores);
		check_grown(t, e, &tr, SAT_TAGGING, hint, &cores);
		check_grown(t, e, &tr, SAT_PRIORITIES, NULL, &cores);
		free(hint);
		sat_trie_free(&tr);
		elp_free(e);
		topo_free(t);
	}
	/* not vacuous: many UNSAT answers came from a proper subset */
	ck_assert_int_gt(cores, 100);
}
END_TEST

/* GLPK's 0-1 program is a third implementation of the tagging model. */
START_TEST(sat_agrees_with_the_0_1_program)
{
	struct bound_opts bo;
	int i, k, decided = 0;

	bound_opts_init(&bo);
	for (i = 0; i < 60; i++) {
		struct topo *t = random_topo();
		struct elp *e = random_walks(t);
		int st = sat_min(t, e, SAT_TAGGING, false);

		for (k = 1; k <= st && k <= MAXK; k++) {
			int f = bound_exact_feasible(t, e, k, &bo);

			if (f >= 0) {
				ck_assert_int_eq(f, k == st);
				decided++;
			}
		}
		elp_free(e);
		topo_free(t);
	}
	ck_assert_int_gt(decided, 60);
}
END_TEST

static struct elp *clos_bounce(const struct topo *t, int bounces)
{
	struct elp *e = elp_new("generated");
	struct path_sink s;
	struct gen_ends ends;

	ck_assert_int_eq(gen_ends(t, BETWEEN_AUTO, false, &ends), 0);
	sink_elp(&s, e);
	ck_assert_int_eq(paths_bounce(t, &ends, bounces, false, &s), 0);
	gen_ends_free(&ends);
	return e;
}

/* Tagger's Clos section: k bounces need k + 1 priorities, no fewer. */
START_TEST(clos_bounces_need_one_more)
{
	struct clos_opts co;
	struct topo *t;
	struct elp *e;

	clos_defaults(&co);
	t = topo_gen_clos(&co);
	e = clos_bounce(t, 0);
	ck_assert_int_eq(sat_min(t, e, SAT_TAGGING, true), 1);
	elp_free(e);
	e = clos_bounce(t, 1);
	ck_assert_int_eq(sat_min(t, e, SAT_TAGGING, true), 2);
	ck_assert_int_eq(sat_min(t, e, SAT_PRIORITIES, false), 2);
	elp_free(e);
	e = clos_bounce(t, 2);
	ck_assert_int_eq(sat_min(t, e, SAT_TAGGING, true), 3);
	elp_free(e);
	topo_free(t);
}
END_TEST

START_TEST(a_looping_path_needs_a_priority_per_visit)
{
	/* the same in-port three times: three priorities in either model */
	struct topo *t = topo_from_str(
		"switch T1 layer=0\nswitch L1 layer=1\nswitch L2 layer=1\n"
		"link T1:a L1:a\nlink T1:b L1:b\nlink T1:c L2:a\n");
	struct elp *e = elp_from_str(t, "L2 T1:a L1:b T1:a L1:b T1:a L1\n");

	ck_assert_int_eq(sat_min(t, e, SAT_TAGGING, true), 3);
	ck_assert_int_eq(sat_min(t, e, SAT_PRIORITIES, false), 3);
	elp_free(e);
	topo_free(t);
}
END_TEST

/* Four two-hop paths around a ring of four: a cycle, and two priorities break it. */
START_TEST(a_ring_needs_two_in_both_models)
{
	struct topo *t = topo_gen_ring(4, 0);
	struct elp *e = elp_new("ring");
	int32_t hops[3];
	int i, k;

	/* every switch sends two hops clockwise: a cycle of dependencies */
	for (i = 0; i < 4; i++) {
		int node = i;

		for (k = 0; k < 2; k++) {
			hops[k] = topo_port_toward(t, node, (node + 1) % 4);
			node = (node + 1) % 4;
		}
		elp_add(e, hops, 2, i + 1);
	}
	ck_assert_int_eq(sat_min(t, e, SAT_TAGGING, true), 2);
	ck_assert_int_eq(sat_min(t, e, SAT_PRIORITIES, false), 2);
	elp_free(e);
	topo_free(t);
}
END_TEST

/*
 * The proof's core: a proper subset of the ELP's paths (each one of its
 * paths, in its order), and on its own, in a new trie and solver, still
 * UNSAT at the count below the optimum.
 */
static void core_is_unsat_alone(const struct topo *t, const struct elp *e,
				const struct exact_search *x)
{
	struct sat_trie tr;
	struct sat_answer a;
	int i, j = 0;

	ck_assert_str_eq(x->method, "sat-core");
	ck_assert_ptr_nonnull(x->core);
	ck_assert_int_eq(x->core_k, x->optimum - 1);
	ck_assert_int_lt(x->core->npaths, e->npaths);
	ck_assert_int_eq(x->steps[0].paths, x->core->npaths);
	for (i = 0; i < x->core->npaths; i++) {
		while (j < e->npaths &&
		       (elp_len(e, j) != elp_len(x->core, i) ||
			memcmp(elp_hops(e, j), elp_hops(x->core, i),
			       elp_len(e, j) * sizeof(int32_t))))
			j++;
		ck_assert_msg(j < e->npaths, "core path %d is not in the ELP",
			      i);
		j++;
	}
	sat_trie_build(t, x->core, &tr);
	ck_assert_int_eq(tag_sat_solve(t, &tr, x->core_k, SAT_TAGGING, 0, &a),
			 0);
	ck_assert_ptr_null(a.core);
	tag_sat_answer_free(&a);
	sat_trie_free(&tr);
}

/* A deadline already passed: unknown, and compile_exact keeps the result. */
START_TEST(time_limit_gives_unknown_and_keeps_the_result)
{
	struct clos_opts co;
	struct compile_result r;
	struct compile_opts o;
	struct exact_search x;
	struct sat_trie tr;
	struct sat_answer a;
	struct topo *t;
	struct elp *e;

	clos_defaults(&co);
	t = topo_gen_clos(&co);
	e = clos_bounce(t, 2);
	sat_trie_build(t, e, &tr);
	ck_assert_int_eq(tag_sat_solve(t, &tr, 2, SAT_TAGGING, 1e-9, &a), -1);
	tag_sat_answer_free(&a);
	sat_trie_free(&tr);
	compile_opts_init(&o);
	ck_assert_int_eq(compile_run(t, e, &o, &r), 0);
	ck_assert_int_eq(r.ntags, 3);
	ck_assert_int_eq(compile_exact(t, e, &o, 2, 1e-9, &r, &x), 0);
	ck_assert_int_eq(x.optimum, -1);
	ck_assert(x.timed_out && !x.improved);
	ck_assert_int_eq(r.ntags, 3);
	compile_exact_free(&x);
	/* with time: 2 is UNSAT, 3 optimal, the result stays */
	ck_assert_int_eq(compile_exact(t, e, &o, 2, 0, &r, &x), 0);
	ck_assert_int_eq(x.optimum, 3);
	ck_assert_int_eq(x.steps[0].result, 0);
	core_is_unsat_alone(t, e, &x);
	compile_exact_free(&x);
	compile_result_free(&r);
	elp_free(e);
	topo_free(t);
}
END_TEST

/* Many priorities on a large ELP: "unknown" at once, not gigabytes. */
START_TEST(huge_formulas_are_refused)
{
	struct sat_trie tr = { .n = 2000000, .ntr = 100000 };
	struct sat_answer a;

	ck_assert(!tag_sat_too_large(&tr, 2));
	ck_assert(tag_sat_too_large(&tr, 40));
	/* refused before the trie's arrays are read: they are NULL here */
	ck_assert_int_eq(tag_sat_solve(NULL, &tr, 40, SAT_TAGGING, 0, &a), -1);
	tag_sat_answer_free(&a);
}
END_TEST

Suite *tag_sat_suite(void)
{
	Suite *s = suite_create("tag_sat");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, sat_matches_exhaustive_search);
	tcase_add_test(tc, grown_formulas_and_their_cores);
	tcase_add_test(tc, sat_agrees_with_the_0_1_program);
	tcase_add_test(tc, clos_bounces_need_one_more);
	tcase_add_test(tc, a_looping_path_needs_a_priority_per_visit);
	tcase_add_test(tc, a_ring_needs_two_in_both_models);
	tcase_add_test(tc, time_limit_gives_unknown_and_keeps_the_result);
	tcase_add_test(tc, huge_formulas_are_refused);
	suite_add_tcase(s, tc);
	return s;
}
