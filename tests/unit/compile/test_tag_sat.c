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
 *
 * The exhaustive searches share nothing with the solver: they walk the
 * paths hop by hop, branch on every undecided choice and prune a branch
 * as soon as an edge closes a cycle.
 */
#include <check.h>
#include <jansson.h>

#include "analyze/bound.h"
#include "analyze/verify.h"
#include "compile/compile.h"
#include "compile/tag_sat.h"
#include "compile/two_orders.h"
#include "gen/gen.h"
#include "lib/log.h"
#include "lib/util.h"
#include "model/rules.h"
#include "testlib.h"

#define MAXP 6 /* paths */
#define MAXL 6 /* hops per path */
#define MAXK 4 /* priorities tried */
#define MAXV 160 /* graph nodes: ports x priorities */

/* xorshift: the same instances on every run and machine */
static uint64_t rng = 0x2545f4914f6cdd1dULL;

static unsigned int draw(unsigned int n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (unsigned int)(rng % n);
}

static struct topo *random_topo(void)
{
	struct topo *t = topo_new("rand.topo");
	int n = 3 + draw(4), extra = draw(n + 1), i;
	char name[16];

	for (i = 0; i < n; i++) {
		snprintf(name, sizeof(name), "s%d", i);
		topo_add_node(t, name, NODE_SWITCH, LAYER_NONE);
	}
	for (i = 1; i < n; i++)
		topo_link_auto(t, i, draw(i));
	for (i = 0; i < extra; i++) {
		int a = draw(n), b = draw(n);

		if (a != b && topo_port_toward(t, a, b) == PORT_NONE)
			topo_link_auto(t, a, b);
	}
	return t;
}

static struct elp *random_walks(const struct topo *t)
{
	struct elp *e = elp_new("rand.elp");
	int npaths = 1 + draw(MAXP), i, k;
	int32_t hops[MAXL];

	for (i = 0; i < npaths; i++) {
		int node = draw(t->nnodes), len = 1 + draw(MAXL);

		for (k = 0; k < len; k++) {
			const struct topo_node *nd = &t->nodes[node];

			hops[k] = nd->ports[draw(nd->nports)];
			node = port_peer_node(t, hops[k]);
		}
		elp_add(e, hops, len, i + 1);
	}
	return e;
}

/* The exhaustive searches' state: every node of these graphs is a switch. */
struct brute {
	const struct topo *t;
	const struct elp *e;
	int k;
	int in[MAXP][MAXL]; /* in-port of each hop */
	int val[MAXP][MAXL]; /* tag / priority of each hop */
	int keys[MAXP * MAXL][4]; /* tag, in, out, answer */
	int nkeys;
	int adj[MAXV][MAXV]; /* edge multiplicities */
	int nv;
};

static bool reaches(struct brute *b, int from, int to, char *seen)
{
	int v;

	if (from == to)
		return true;
	seen[from] = 1;
	for (v = 0; v < b->nv; v++)
		if (b->adj[from][v] && !seen[v] && reaches(b, v, to, seen))
			return true;
	return false;
}

/* Add edge a -> b unless it closes a cycle. */
static bool add_edge(struct brute *b, int a, int c)
{
	char seen[MAXV] = { 0 };

	if (reaches(b, c, a, seen))
		return false;
	b->adj[a][c]++;
	return true;
}

static void setup(struct brute *b, const struct topo *t, const struct elp *e,
		  int k)
{
	int i, j;

	memset(b, 0, sizeof(*b));
	b->t = t;
	b->e = e;
	b->k = k;
	b->nv = t->nports * k;
	ck_assert_int_le(b->nv, MAXV);
	for (i = 0; i < e->npaths; i++)
		for (j = 0; j < elp_len(e, i); j++)
			b->in[i][j] = t->ports[elp_hops(e, i)[j]].peer;
}

static bool tag_walk(struct brute *b, int i, int j);

/* Hop j of path i carries tag u into hop j + 1. */
static bool tag_next(struct brute *b, int i, int j, int u)
{
	int tag = b->val[i][j], np = b->t->nports;
	int from = tag * np + b->in[i][j], to = u * np + b->in[i][j + 1];
	bool ok;

	if (u == tag && !add_edge(b, from, to))
		return false;
	b->val[i][j + 1] = u;
	ok = tag_walk(b, i, j + 1);
	if (u == tag)
		b->adj[from][to]--;
	return ok;
}

/* Tagging model: branch on each undecided key (tag, in, out). */
static bool tag_walk(struct brute *b, int i, int j)
{
	int out, q, u;

	if (i == b->e->npaths)
		return true;
	if (j == elp_len(b->e, i) - 1) {
		if (i + 1 < b->e->npaths)
			b->val[i + 1][0] = 0;
		return tag_walk(b, i + 1, 0);
	}
	out = elp_hops(b->e, i)[j + 1];
	for (q = 0; q < b->nkeys; q++)
		if (b->keys[q][0] == b->val[i][j] &&
		    b->keys[q][1] == b->in[i][j] && b->keys[q][2] == out)
			return tag_next(b, i, j, b->keys[q][3]);
	q = b->nkeys++;
	b->keys[q][0] = b->val[i][j];
	b->keys[q][1] = b->in[i][j];
	b->keys[q][2] = out;
	for (u = b->val[i][j]; u < b->k; u++) {
		b->keys[q][3] = u;
		if (tag_next(b, i, j, u)) {
			b->nkeys--;
			return true;
		}
	}
	b->nkeys--;
	return false;
}

static bool prio_walk(struct brute *b, int i, int j);

/* Priorities model: hop j of path i gets priority p. */
static bool prio_set(struct brute *b, int i, int j, int p)
{
	int np = b->t->nports, from = 0, to = p * np + b->in[i][j];
	bool ok;

	if (j > 0) {
		from = b->val[i][j - 1] * np + b->in[i][j - 1];
		if (!add_edge(b, from, to))
			return false;
	}
	b->val[i][j] = p;
	ok = prio_walk(b, i, j + 1);
	if (j > 0)
		b->adj[from][to]--;
	return ok;
}

/* An earlier path with the same in-ports up to hop j fixes the priority. */
static int same_prefix(const struct brute *b, int i, int j)
{
	int i2, x;

	for (i2 = 0; i2 < i; i2++) {
		if (elp_len(b->e, i2) <= j)
			continue;
		for (x = 0; x <= j && b->in[i2][x] == b->in[i][x]; x++)
			;
		if (x > j)
			return i2;
	}
	return -1;
}

static bool prio_walk(struct brute *b, int i, int j)
{
	int p, i2;

	if (i == b->e->npaths)
		return true;
	if (j == elp_len(b->e, i))
		return prio_walk(b, i + 1, 0);
	i2 = same_prefix(b, i, j);
	if (i2 >= 0)
		return prio_set(b, i, j, b->val[i2][j]);
	for (p = 0; p < b->k; p++)
		if (prio_set(b, i, j, p))
			return true;
	return false;
}

static int brute_min(const struct topo *t, const struct elp *e,
		     enum sat_model m)
{
	static struct brute b;
	int k;

	for (k = 1; k <= MAXK; k++) {
		setup(&b, t, e, k);
		if (m == SAT_TAGGING ? tag_walk(&b, 0, 0) : prio_walk(&b, 0, 0))
			return k;
	}
	return MAXK + 1;
}

/* The solver's tagging, compiled by the replay algorithm and verified. */
static void check_rules(const struct topo *t, const struct elp *e,
			const struct sat_answer *a)
{
	struct verify_opts vo = { 0 };
	struct tag_algo_replay rp;
	struct verify_result vr;
	struct compile_result r;
	struct compile_opts o;
	struct rules *rules;
	json_t *json;

	compile_opts_init(&o);
	tag_algo_replay_init(&rp, &a->keys);
	o.algo = &rp.algo;
	ck_assert_int_eq(compile_run(t, e, &o, &r), 0);
	ck_assert_int_le(r.ntags, a->k);
	ck_assert_int_eq(r.lossy, 0);
	json = compile_rules_json(t, &r, &o);
	rules = rules_from_json(json, "sat");
	ck_assert_ptr_nonnull(rules);
	ck_assert_int_eq(verify_rules(t, e, rules, &vo, &vr), EXIT_OK);
	ck_assert(vr.deadlock_free && vr.monotonic);
	ck_assert_int_eq(vr.lossless_paths, e->npaths);
	verify_result_free(&vr);
	rules_free(rules);
	json_decref(json);
	compile_result_free(&r);
}

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

/*
 * The two-order search against the exhaustive search: every tagging it
 * returns has at most 2 tags and compiles into rules the verifier accepts
 * (so it never answers where 2 tags are impossible), it finds one on
 * nearly every instance where 2 tags are the fewest, and it is
 * deterministic (the same keys twice).
 */
START_TEST(two_orders_are_sound_and_find_twos)
{
	int i, twos = 0, found = 0, skipped = 0;

	for (i = 0; i < 400; i++) {
		struct topo *t = random_topo();
		struct elp *e = random_walks(t);
		struct two_orders_opts opts;
		struct two_orders w, again;
		struct sat_trie tr;
		int least = brute_min(t, e, SAT_TAGGING), res;

		two_orders_opts_init(&opts);
		opts.max_share = 1;
		sat_trie_build(t, e, &tr);
		res = two_orders_search(t, e, &tr, &opts, &w);
		ck_assert_int_eq(two_orders_search(t, e, &tr, &opts, &again),
				 res);
		if (res == 1) {
			struct sat_answer a = { .k = 2, .keys = w.keys };
			struct hmap_entry *it;

			ck_assert_msg(least <= 2,
				      "instance %d: 2 tags found, "
				      "%d needed",
				      i, least);
			check_rules(t, e, &a);
			ck_assert_int_eq(again.keys.n, w.keys.n);
			HMAP_FOR_EACH(&w.keys, it)
			{
				uint64_t v;

				ck_assert(hmap_get(&again.keys, it->key, &v));
				ck_assert_int_eq(v, it->val);
			}
			found += least == 2;
		}
		skipped += res < 0;
		twos += least == 2;
		two_orders_free(&w);
		two_orders_free(&again);
		sat_trie_free(&tr);
		elp_free(e);
		topo_free(t);
	}
	pr_info("two orders: found %d of %d instances that need 2 tags\n",
		found, twos);
	ck_assert_int_eq(skipped, 0);
	ck_assert_int_gt(twos, 20);
	ck_assert_int_ge(found * 10, twos * 9);
}
END_TEST

/*
 * The breakout wanders (a weight bump can make a move that leaves more
 * paths unfit pay), so the search hands back the best orders it met, not
 * the last: with the same walk, a larger work budget never leaves more
 * paths unfit, and none leaves more than the start.
 */
START_TEST(two_orders_end_at_their_best)
{
	static const uint64_t budgets[] = { 1, 2, 5, 20, 100, 1000 };
	int i, b, tried = 0;

	for (i = 0; i < 400; i++) {
		struct topo *t = random_topo();
		struct elp *e = random_walks(t);
		struct two_orders_opts opts;
		struct sat_trie tr;
		int64_t was = INT64_MAX;

		two_orders_opts_init(&opts);
		opts.max_share = 1;
		sat_trie_build(t, e, &tr);
		for (b = 0; b < (int)ARRAY_SIZE(budgets); b++) {
			struct two_orders w;

			opts.work_per_visit = budgets[b];
			if (two_orders_search(t, e, &tr, &opts, &w) == 0) {
				tried += !b;
				ck_assert_int_le(w.unfit, w.unfit_start);
				ck_assert_msg(
					w.unfit <= was,
					"instance %d: %lld unfit with %llu "
					"events per visit, %lld with fewer",
					i, (long long)w.unfit,
					(unsigned long long)budgets[b],
					(long long)was);
				was = w.unfit;
			}
			two_orders_free(&w);
		}
		sat_trie_free(&tr);
		elp_free(e);
		topo_free(t);
	}
	ck_assert_int_gt(tried, 20);
}
END_TEST

/*
 * A path of 64 in-ports or more does not fit the search's bit masks: the
 * search says "not applicable" (-1) rather than read past them, and
 * compile_exact goes on to the solver.
 */
START_TEST(two_orders_refuse_paths_too_long)
{
	struct topo *t = topo_from_str(
		"switch T1 layer=0\nswitch L1 layer=1\nswitch L2 layer=1\n"
		"link T1:a L1:a\nlink T1:b L1:b\nlink T1:c L2:a\n");
	struct two_orders_opts opts;
	struct two_orders w;
	struct sat_trie tr;
	char line[1024] = "L2 T1:a";
	struct elp *e;
	int i;

	/* a loop through T1 and L1: two in-ports per turn */
	for (i = 0; i < 40; i++)
		strcat(line, " L1:b T1:a");
	strcat(line, " L1\n");
	e = elp_from_str(t, line);
	ck_assert_ptr_nonnull(e);
	sat_trie_build(t, e, &tr);
	two_orders_opts_init(&opts);
	opts.max_share = 1;
	ck_assert_int_eq(two_orders_search(t, e, &tr, &opts, &w), -1);
	ck_assert_ptr_null(w.tag);
	two_orders_free(&w);
	sat_trie_free(&tr);
	elp_free(e);
	topo_free(t);
}
END_TEST

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
	tcase_add_test(tc, two_orders_are_sound_and_find_twos);
	tcase_add_test(tc, two_orders_end_at_their_best);
	tcase_add_test(tc, two_orders_refuse_paths_too_long);
	suite_add_tcase(s, tc);
	return s;
}
