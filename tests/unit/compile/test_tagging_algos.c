// SPDX-License-Identifier: GPL-2.0
/*
 * Priorities per algorithm on the papers' topologies, built by the
 * generators: the Tagger paper's claims (Clos up-down 1, Clos tagging k+1
 * for k bounces, the greedy's documented 3 on 1-bounce), the order-based
 * algorithm's improvement (issue 7: 2 and 3 without Clos knowledge), the
 * 'best' default never worse than the greedy on any family, and the lower
 * bounds. Every result is read back and checked by the verifier.
 */
#include <check.h>

#include "analyze/bound.h"
#include "compile/compile.h"
#include "gen/gen.h"
#include "lib/log.h"
#include "model/rules.h"
#include "testlib.h"
#include "analyze/verify.h"

enum family { CLOS, FATTREE4, BCUBE32, BCUBE23, JELLYFISH, RING6 };

static struct topo *make_topo(enum family f)
{
	struct clos_opts o;

	switch (f) {
	case CLOS:
		clos_defaults(&o);
		return topo_gen_clos(&o);
	case FATTREE4:
		return topo_gen_fattree(4, 1);
	case BCUBE32:
		return topo_gen_bcube(3, 2);
	case BCUBE23:
		return topo_gen_bcube(2, 3);
	case JELLYFISH:
		return topo_gen_jellyfish(40, 5, 0, 7);
	case RING6:
		return topo_gen_ring(6, 0);
	}
	return NULL;
}

enum kind { UPDOWN, BOUNCE1, BOUNCE2, SHORTEST, ECMP, KSP3, BCUBE_PAR };

static struct elp *make_elp(const struct topo *t, enum kind k)
{
	struct shortest_opts so = { 0 };
	struct elp *e = elp_new("generated");
	struct path_sink s;
	struct gen_ends ends;
	int err = -1;

	ck_assert_int_eq(gen_ends(t, BETWEEN_AUTO, k == BCUBE_PAR, &ends), 0);
	sink_elp(&s, e);
	switch (k) {
	case UPDOWN:
		err = paths_updown(t, &ends, &s);
		break;
	case BOUNCE1:
		err = paths_bounce(t, &ends, 1, false, &s);
		break;
	case BOUNCE2:
		err = paths_bounce(t, &ends, 2, false, &s);
		break;
	case SHORTEST:
		err = paths_shortest(t, &ends, &so, &s);
		break;
	case ECMP:
		err = paths_ecmp(t, &ends, ECMP_DEFAULT_MAX_PER_PAIR, &s);
		break;
	case KSP3:
		err = paths_ksp(t, &ends, 3, 1, &s);
		break;
	case BCUBE_PAR:
		err = paths_bcube(t, &ends, BCUBE_PARALLEL, &s);
		break;
	}
	ck_assert_int_eq(err, 0);
	gen_ends_free(&ends);
	return e;
}

/* Tags the algorithm needs; the written rules must verify. */
static int tags_needed(const struct topo *t, const struct elp *e,
		       const char *algo)
{
	struct verify_opts vo = { 0 };
	struct verify_result vr;
	struct compile_result r;
	struct compile_opts o;
	struct rules *rules;
	json_t *json;
	int n;

	compile_opts_init(&o);
	o.algo = compile_find_algo(algo);
	ck_assert_int_eq(compile_run(t, e, &o, &r), 0);
	ck_assert_int_eq(r.lossy, 0);
	json = compile_rules_json(t, &r, &o);
	rules = rules_from_json(json, algo);
	ck_assert_ptr_nonnull(rules);
	ck_assert_int_eq(verify_rules(t, e, rules, &vo, &vr), EXIT_OK);
	ck_assert(vr.deadlock_free && vr.monotonic);
	ck_assert_int_eq(vr.lossless_paths, e->npaths);
	verify_result_free(&vr);
	rules_free(rules);
	json_decref(json);
	n = r.ntags;
	compile_result_free(&r);
	return n;
}

static const struct {
	enum family f;
	enum kind k;
	const char *algo;
	int tags;
} claims[] = {
	/* Tagger section 4: up-down is CBD-free, k bounces need k+1 */
	{ CLOS, UPDOWN, "clos", 1 },
	{ CLOS, UPDOWN, "greedy", 1 },
	{ CLOS, UPDOWN, "brute", 5 }, /* the longest up-down path */
	{ CLOS, BOUNCE1, "clos", 2 },
	{ CLOS, BOUNCE2, "clos", 3 },
	{ CLOS, BOUNCE1, "greedy", 3 }, /* the paper's non-optimality */
	{ CLOS, BOUNCE1, "order", 2 }, /* issue 7, no Clos knowledge */
	{ CLOS, BOUNCE2, "order", 3 },
	{ CLOS, BOUNCE1, "best", 2 },
	{ CLOS, BOUNCE2, "best", 3 },
	{ FATTREE4, BOUNCE1, "clos", 2 },
	{ FATTREE4, BOUNCE1, "best", 2 },
	/* Flattened Clos section 2: a ring with all shortest paths has CBD */
	{ RING6, ECMP, "greedy", 2 },
	{ RING6, ECMP, "best", 2 },
	/* one digit order is CBD-free; BCube's parallel paths are not */
	{ BCUBE32, SHORTEST, "best", 1 },
	{ BCUBE32, BCUBE_PAR, "best", 2 },
	{ BCUBE23, BCUBE_PAR, "greedy", 3 },
};

START_TEST(papers_claims_hold)
{
	struct topo *t = make_topo(claims[_i].f);
	struct elp *e = make_elp(t, claims[_i].k);

	ck_assert_msg(tags_needed(t, e, claims[_i].algo) == claims[_i].tags,
		      "case %d (%s): want %d tags", _i, claims[_i].algo,
		      claims[_i].tags);
	elp_free(e);
	topo_free(t);
}
END_TEST

static const struct {
	enum family f;
	enum kind k;
} suite_cases[] = {
	{ CLOS, BOUNCE1 },	{ CLOS, BOUNCE2 },	{ FATTREE4, BOUNCE1 },
	{ BCUBE32, BCUBE_PAR }, { BCUBE23, BCUBE_PAR }, { JELLYFISH, SHORTEST },
	{ JELLYFISH, KSP3 },	{ RING6, ECMP },
};

/* Issue 7: the default never needs more priorities than the paper's greedy. */
START_TEST(best_never_worse_than_greedy)
{
	struct topo *t = make_topo(suite_cases[_i].f);
	struct elp *e = make_elp(t, suite_cases[_i].k);
	int greedy = tags_needed(t, e, "greedy"),
	    best = tags_needed(t, e, "best");
	struct bound_opts bo;
	struct bound b;

	ck_assert_int_le(best, greedy);
	bound_opts_init(&bo);
	bo.seconds = 1;
	bound_compute(t, e, 1, best, false, &bo, &b);
	ck_assert_int_le(b.lower, best);
	ck_assert_int_ge(b.lower, 1);
	if (b.exact >= 0)
		ck_assert_int_le(b.exact, best);
	elp_free(e);
	topo_free(t);
}
END_TEST

START_TEST(bounds_certify_small_optima)
{
	struct topo *t = make_topo(CLOS);
	struct elp *e = make_elp(t, BOUNCE1);
	struct bound_opts bo;
	struct bound b;

	/* CBD: at least 2, and order finds 2 */
	bound_opts_init(&bo);
	bound_compute(t, e, 1, 2, false, &bo, &b);
	ck_assert_int_eq(b.lower, 2);
	ck_assert_int_eq(b.optimal, 1);
	/* with 2 classes the M+N scheme shifts everything by one */
	bound_compute(t, e, 2, 3, false, &bo, &b);
	ck_assert_int_eq(b.lower, 3);
	elp_free(e);
	topo_free(t);
}
END_TEST

START_TEST(a_path_that_loops_needs_a_tag_per_loop)
{
	/* T1 -> L1 -> T1 -> L1 ...: the Tagger paper's pigeonhole example */
	struct topo *t = topo_from_str(
		"switch T1 layer=0\nswitch L1 layer=1\nswitch L2 layer=1\n"
		"link T1:a L1:a\nlink T1:b L1:b\nlink T1:c L2:a\n");
	struct elp *e = elp_from_str(t, "L2 T1:a L1:b T1:a L1:b T1:a L1\n");
	struct bound_opts bo;
	struct bound b;

	bound_opts_init(&bo);
	bo.max_vars = 0; /* the revisit argument alone */
	bound_compute(t, e, 1, 3, false, &bo, &b);
	ck_assert_int_eq(b.lower, 3);
	ck_assert_int_eq(tags_needed(t, e, "best"), 3);
	elp_free(e);
	topo_free(t);
}
END_TEST

START_TEST(exact_program_decides_small_instances)
{
	/* A ring of 4 with ECMP: 1 tag is infeasible, 2 are enough. */
	struct topo *t = topo_gen_ring(4, 0);
	struct elp *e = make_elp(t, ECMP);
	struct bound_opts bo;

	bound_opts_init(&bo);
	ck_assert_int_eq(bound_exact_feasible(t, e, 1, &bo), 0);
	ck_assert_int_eq(bound_exact_feasible(t, e, 2, &bo), 1);
	elp_free(e);
	topo_free(t);
}
END_TEST

Suite *tagging_algos_suite(void)
{
	Suite *s = suite_create("tagging_algos");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, papers_claims_hold, 0, ARRAY_SIZE(claims));
	tcase_add_loop_test(tc, best_never_worse_than_greedy, 0,
			    ARRAY_SIZE(suite_cases));
	tcase_add_test(tc, bounds_certify_small_optima);
	tcase_add_test(tc, a_path_that_loops_needs_a_tag_per_loop);
	tcase_add_test(tc, exact_program_decides_small_instances);
	suite_add_tcase(s, tc);
	return s;
}
