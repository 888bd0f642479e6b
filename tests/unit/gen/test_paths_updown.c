// SPDX-License-Identifier: GPL-2.0
/* Up-down and bounce path generators on Clos topologies. */
#include <check.h>

#include "analyze/cbd.h"
#include "gen_check.h"
#include "lib/log.h"

static struct topo *seed_clos(void)
{
	struct clos_opts o;

	clos_defaults(&o);
	return topo_gen_clos(&o);
}

static struct elp *gen(const struct topo *t, int bounces, bool simple,
		       enum gen_between b)
{
	struct gen_ends ends = ends_of(t, b, false);
	struct elp *e = elp_new("gen");
	struct path_sink s;

	sink_elp(&s, e);
	if (bounces < 0)
		ck_assert_int_eq(paths_updown(t, &ends, &s), 0);
	else
		ck_assert_int_eq(paths_bounce(t, &ends, bounces, simple, &s),
				 0);
	ck_assert_int_eq(s.paths, e->npaths);
	ck_assert_int_eq(s.unreachable, 0);
	gen_ends_free(&ends);
	return e;
}

static int layer(const struct topo *t, int v)
{
	return t->nodes[v].kind == NODE_HOST ? -1 : t->nodes[v].layer;
}

/* Number of down->up turns; -1 if a hop stays within a layer. */
static int bounces_of(const struct topo *t, const int32_t *h, int n)
{
	int k, dir = 0, b = 0;

	for (k = 0; k < n; k++) {
		int a = layer(t, port_node(t, h[k])),
		    c = layer(t, port_peer_node(t, h[k]));

		if (a == c)
			return -1;
		b += dir < 0 && c > a;
		dir = c > a ? 1 : -1;
	}
	return b;
}

static bool has_path(const struct topo *t, const struct elp *e,
		     const char *line)
{
	struct elp *one = elp_from_str(t, line);
	int i;
	bool found = false;

	ck_assert_ptr_nonnull(one);
	for (i = 0; i < e->npaths && !found; i++)
		found = elp_len(e, i) == elp_len(one, 0) &&
			!memcmp(elp_hops(e, i), elp_hops(one, 0),
				elp_len(e, i) * 4);
	elp_free(one);
	return found;
}

START_TEST(seed_clos_updown_has_72_paths_and_no_cbd)
{
	struct topo *t = seed_clos();
	struct elp *e = gen(t, -1, false, BETWEEN_AUTO);
	struct cbd_witness w;
	int i;

	/*
	 * By hand: h1-h2 (same pod) go up to L1 or L2: 2 paths; h1-h3 (other
	 * pod) pick a leaf, a spine and a leaf: 2 x 2 x 2 = 8. 4 same-pod and 8
	 * cross-pod ordered pairs: 4 x 2 + 8 x 8 = 72.
	 */
	ck_assert_int_eq(e->npaths, 72);
	assert_all_walks(t, e);
	for (i = 0; i < e->npaths; i++)
		ck_assert_int_eq(bounces_of(t, elp_hops(e, i), elp_len(e, i)),
				 0);
	ck_assert(has_path(t, e, "h1 T1 L1 S1 L3 T3 h3"));
	ck_assert_int_eq(cbd_check(t, e, &w), 0);
	cbd_witness_free(&w);
	assert_elp_round_trip(t, e);
	assert_writer_matches(t, e);
	elp_free(e);
	/* Between ToRs the same count: T1-T2 2 paths, T1-T3 8. */
	e = gen(t, -1, false, BETWEEN_TORS);
	ck_assert_int_eq(e->npaths, 72);
	elp_free(e);
	topo_free(t);
}
END_TEST

START_TEST(fattree_k4_updown_has_848_paths_and_no_cbd)
{
	struct topo *t = topo_gen_fattree(4, 2);
	struct elp *e = gen(t, -1, false, BETWEEN_AUTO);
	struct cbd_witness w;

	/*
	 * 16 hosts. Same ToR: 16 ordered pairs, 1 path. Same pod, other ToR:
	 * 4 pods x 8 pairs, one path per aggregation switch: 2. Other pod:
	 * 16 x 12 - 16 - 32 = 192 pairs, 2 aggregation switches x 2 cores of
	 * its plane: 4. 16 + 64 + 768 = 848.
	 */
	ck_assert_int_eq(e->npaths, 848);
	assert_all_walks(t, e);
	ck_assert_int_eq(elp_max_len(e), 6);
	ck_assert_int_eq(cbd_check(t, e, &w), 0);
	cbd_witness_free(&w);
	elp_free(e);
	topo_free(t);
}
END_TEST

START_TEST(clos_updown_counts_follow_the_formula)
{
	/* pods, ToRs, leaves, spines, hosts per ToR, planes */
	int c[][6] = { { 2, 2, 2, 2, 1, 1 },
		       { 3, 2, 4, 4, 2, 2 },
		       { 2, 3, 3, 6, 1, 3 },
		       { 4, 1, 2, 2, 3, 1 },
		       { 1, 4, 3, 0, 1, 1 } };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(c); i++) {
		struct clos_opts o = { .pods = c[i][0],
				       .tors = c[i][1],
				       .leaves = c[i][2],
				       .spines = c[i][3],
				       .hosts = c[i][4],
				       .planes = c[i][5] };
		long p = o.pods, r = o.tors, L = o.leaves, S = o.spines,
		     H = o.hosts;
		long P = o.planes, want;
		struct topo *t = topo_gen_clos(&o);
		struct elp *e = gen(t, -1, false, BETWEEN_AUTO);
		struct cbd_witness w;

		/*
		 * Same ToR: 1 path. Same pod, other ToR: one per leaf (L). Other
		 * pod: a leaf j (L), a spine of its plane (S/P), a leaf of that
		 * plane in the other pod (L/P).
		 */
		want = p * r * H * (H - 1) + p * r * (r - 1) * H * H * L +
		       p * r * H * (p - 1) * r * H * L * (S / P) * (L / P);
		ck_assert_int_eq(e->npaths, want);
		ck_assert_int_eq(cbd_check(t, e, &w), 0);
		cbd_witness_free(&w);
		elp_free(e);
		topo_free(t);
	}
}
END_TEST

static int cmp_path(const void *a, const void *b, void *ctx)
{
	const struct elp *e = ctx;
	int i = *(const int *)a, j = *(const int *)b;

	if (elp_len(e, i) != elp_len(e, j))
		return elp_len(e, i) - elp_len(e, j);
	return memcmp(elp_hops(e, i), elp_hops(e, j), elp_len(e, i) * 4);
}

static void assert_same_set(const struct elp *a, const struct elp *b)
{
	int *ia = malloc(a->npaths * sizeof(int)),
	    *ib = malloc(b->npaths * sizeof(int));
	int i;

	ck_assert_int_eq(a->npaths, b->npaths);
	for (i = 0; i < a->npaths; i++)
		ia[i] = ib[i] = i;
	qsort_r(ia, a->npaths, sizeof(int), cmp_path, (void *)a);
	qsort_r(ib, b->npaths, sizeof(int), cmp_path, (void *)b);
	for (i = 0; i < a->npaths; i++) {
		ck_assert_int_eq(elp_len(a, ia[i]), elp_len(b, ib[i]));
		ck_assert(!memcmp(elp_hops(a, ia[i]), elp_hops(b, ib[i]),
				  elp_len(a, ia[i]) * 4));
	}
	free(ia);
	free(ib);
}

START_TEST(zero_bounces_is_exactly_updown)
{
	struct topo *t = topo_gen_fattree(4, 2);
	struct elp *u = gen(t, -1, false, BETWEEN_AUTO),
		   *b = gen(t, 0, false, BETWEEN_AUTO);

	assert_same_set(u, b);
	elp_free(u);
	elp_free(b);
	topo_free(t);
}
END_TEST

START_TEST(seed_clos_one_bounce_has_the_papers_flows_and_cbd)
{
	struct topo *t = seed_clos();
	struct elp *e = gen(t, 1, false, BETWEEN_AUTO), *s;
	struct cbd_witness w;

	/* Figure 6 / slide 8: the green and blue flows after two failures. */
	ck_assert(has_path(t, e, "h1 T1 L2 S1 L3 S2 L4 T4 h4"));
	ck_assert(has_path(t, e, "h3 T3 L3 S2 L2 S1 L1 T1 h1"));
	ck_assert(has_path(t, e, "h1 T1 L1 S1 L3 T3 h3"));
	/* A bounce at a ToR, revisiting T1 on other links. */
	ck_assert(has_path(t, e, "h2 T2 L2 T1 L1 T1 h1"));
	ck_assert_int_eq(cbd_check(t, e, &w), 1);
	cbd_witness_free(&w);
	assert_elp_round_trip(t, e);
	s = gen(t, 1, true, BETWEEN_AUTO);
	ck_assert(has_path(t, s, "h1 T1 L2 S1 L3 S2 L4 T4 h4"));
	ck_assert(!has_path(t, s, "h2 T2 L2 T1 L1 T1 h1"));
	ck_assert_int_lt(s->npaths, e->npaths);
	ck_assert_int_eq(cbd_check(t, s, &w), 1);
	cbd_witness_free(&w);
	elp_free(s);
	elp_free(e);
	topo_free(t);
}
END_TEST

START_TEST(tiny_leafspine_bounce_counts_by_hand)
{
	struct topo *t = topo_gen_leafspine(2, 1, 0);
	struct elp *e = gen(t, 1, false, BETWEEN_SWITCHES), *s;

	/*
	 * L1, L2 (layer 0) under S1. L1->L2: only L1 S1 L2 (longer walks reuse
	 * a link). L1->S1: only L1 S1 (a path ends where it first reaches its
	 * destination). S1->L1: S1 L1, and S1 L2 S1 L1 (bounce at L2, 3 hops
	 * <= 1 + 2). Same with L1 and L2 swapped: 2 x (1 + 1 + 2) = 8.
	 * --simple drops S1 L2 S1 L1 and S1 L1 S1 L2: 6.
	 */
	ck_assert_int_eq(e->npaths, 8);
	ck_assert(has_path(t, e, "S1 L2 S1 L1"));
	s = gen(t, 1, true, BETWEEN_SWITCHES);
	ck_assert_int_eq(s->npaths, 6);
	elp_free(s);
	elp_free(e);
	topo_free(t);
}
END_TEST

/*
 * Brute force: every walk from s of at most max hops that stops at its
 * first arrival at t, crosses only switches and reuses no directed link;
 * then filter by the definition (no lateral hop, <= K bounces, length <=
 * best up-down + 2K). Counts per pair are compared with the generator's.
 */
struct brute {
	const struct topo *t;
	int dst, max;
	int32_t path[16];
	char used[4096];
	int count[17][8]; /* [length][bounces] of walks reaching dst */
};

static void brute_walk(struct brute *b, int u, int depth)
{
	const struct topo_node *n = &b->t->nodes[u];
	int i;

	if (depth == b->max)
		return;
	for (i = 0; i < n->nports; i++) {
		int p = n->ports[i], v = port_peer_node(b->t, p), nb;

		if (b->used[p])
			continue;
		b->path[depth] = p;
		if (v == b->dst) {
			nb = bounces_of(b->t, b->path, depth + 1);
			if (nb >= 0 && nb < 8)
				b->count[depth + 1][nb]++;
			continue;
		}
		if (b->t->nodes[v].kind != NODE_SWITCH)
			continue;
		b->used[p] = 1;
		brute_walk(b, v, depth + 1);
		b->used[p] = 0;
	}
}

static void assert_bounce_matches_brute_force(const struct topo *t, int K)
{
	struct gen_ends ends = ends_of(t, BETWEEN_AUTO, false);
	int a, c, len, k;

	ck_assert_int_lt(t->nports, 4096);
	for (a = 0; a < ends.n; a++)
		for (c = 0; c < ends.n; c++) {
			struct gen_ends pair = { .n = 2 };
			struct brute *b = calloc(1, sizeof(*b));
			struct elp *e = elp_new("pair");
			struct path_sink s;
			int node[2] = { ends.node[c], ends.node[a] }, best = 0,
			    want = 0;

			if (a == c) {
				free(b);
				elp_free(e);
				continue;
			}
			b->t = t;
			b->dst = ends.node[a];
			b->max = 6 + 2 * K; /* best <= 6 in these topologies */
			brute_walk(b, ends.node[c], 0);
			for (len = 1; len <= b->max && !best; len++)
				if (b->count[len][0])
					best = len;
			ck_assert_int_gt(best, 0);
			for (len = 1; len <= best + 2 * K; len++)
				for (k = 0; k <= K; k++)
					want += b->count[len][k];
			/* The generator on just this ordered pair (src node[0]). */
			pair.node = node;
			sink_elp(&s, e);
			ck_assert_int_eq(paths_bounce(t, &pair, K, false, &s),
					 0);
			for (k = 0, len = 0; k < e->npaths; k++)
				len += path_src(t, e, k) == ends.node[c];
			ck_assert_int_eq(len, want);
			elp_free(e);
			free(b);
		}
	gen_ends_free(&ends);
}

START_TEST(bounce_sets_match_brute_force_enumeration)
{
	struct topo *t = seed_clos(), *f = topo_gen_fattree(4, 1);

	assert_bounce_matches_brute_force(t, 1);
	assert_bounce_matches_brute_force(t, 2);
	assert_bounce_matches_brute_force(f, 1);
	topo_free(t);
	topo_free(f);
}
END_TEST

START_TEST(every_bounce_path_keeps_the_definition)
{
	struct topo *t = topo_gen_fattree(4, 1);
	struct elp *e = gen(t, 2, false, BETWEEN_AUTO);
	char *used = calloc(t->nports, 1);
	int i, k;

	assert_all_walks(t, e);
	for (i = 0; i < e->npaths; i++) {
		const int32_t *h = elp_hops(e, i);
		int n = elp_len(e, i), b = bounces_of(t, h, n);

		ck_assert_int_ge(b, 0);
		ck_assert_int_le(b, 2);
		ck_assert_int_le(n, 6 + 4);
		for (k = 0; k < n; k++) {
			ck_assert(!used[h[k]]);
			used[h[k]] = 1;
			if (k)
				ck_assert_int_eq(
					t->nodes[port_node(t, h[k])].kind,
					NODE_SWITCH);
		}
		for (k = 0; k < n; k++)
			used[h[k]] = 0;
	}
	free(used);
	elp_free(e);
	topo_free(t);
}
END_TEST

START_TEST(updown_needs_layers)
{
	struct topo *t = topo_gen_ring(4, 1);
	struct gen_ends ends = ends_of(t, BETWEEN_AUTO, false);
	struct path_sink s;

	sink_count(&s);
	log_quiet = true;
	ck_assert_int_eq(paths_updown(t, &ends, &s), -1);
	ck_assert_int_eq(paths_bounce(t, &ends, 1, false, &s), -1);
	log_quiet = false;
	gen_ends_free(&ends);
	topo_free(t);
}
END_TEST

Suite *paths_updown_suite(void)
{
	Suite *s = suite_create("paths_updown");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, seed_clos_updown_has_72_paths_and_no_cbd);
	tcase_add_test(tc, fattree_k4_updown_has_848_paths_and_no_cbd);
	tcase_add_test(tc, clos_updown_counts_follow_the_formula);
	tcase_add_test(tc, zero_bounces_is_exactly_updown);
	tcase_add_test(tc, seed_clos_one_bounce_has_the_papers_flows_and_cbd);
	tcase_add_test(tc, tiny_leafspine_bounce_counts_by_hand);
	tcase_add_test(tc, bounce_sets_match_brute_force_enumeration);
	tcase_add_test(tc, every_bounce_path_keeps_the_definition);
	tcase_add_test(tc, updown_needs_layers);
	suite_add_tcase(s, tc);
	return s;
}
