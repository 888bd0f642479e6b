// SPDX-License-Identifier: GPL-2.0
/* Shortest (one per pair, destination-based) and ECMP (all shortest) paths. */
#include <check.h>

#include "analyze/cbd.h"
#include "gen_check.h"
#include "lib/log.h"

#define INF 1000000

/* Floyd-Warshall over switch-forwarded walks: an independent distance. */
static int *all_dist(const struct topo *t, bool relay)
{
	int n = t->nnodes, *d = malloc((size_t)n * n * sizeof(int)), i, j, k, p;

	for (i = 0; i < n * n; i++)
		d[i] = INF;
	for (i = 0; i < n; i++) {
		d[i * n + i] = 0;
		for (p = 0; p < t->nodes[i].nports; p++)
			d[i * n + port_peer_node(t, t->nodes[i].ports[p])] = 1;
	}
	for (k = 0; k < n; k++) {
		if (!relay && t->nodes[k].kind == NODE_HOST)
			continue; /* hosts do not forward */
		for (i = 0; i < n; i++)
			for (j = 0; j < n; j++)
				if (d[i * n + k] + d[k * n + j] < d[i * n + j])
					d[i * n + j] =
						d[i * n + k] + d[k * n + j];
	}
	return d;
}

static struct elp *gen(const struct topo *t, const struct gen_ends *ends,
		       int ecmp_max, const struct shortest_opts *o)
{
	struct elp *e = elp_new("gen");
	struct path_sink s;

	sink_elp(&s, e);
	if (ecmp_max)
		ck_assert_int_eq(paths_ecmp(t, ends, ecmp_max, &s), 0);
	else
		ck_assert_int_eq(paths_shortest(t, ends, o, &s), 0);
	return e;
}

static void assert_shortest(const struct topo *t, const struct elp *e,
			    const int *d)
{
	int i, n = t->nnodes;

	assert_all_walks(t, e);
	for (i = 0; i < e->npaths; i++)
		ck_assert_int_eq(elp_len(e, i),
				 d[path_src(t, e, i) * n + path_dst(t, e, i)]);
}

START_TEST(shortest_paths_are_shortest_one_per_pair)
{
	struct shortest_opts o = { 0 };
	uint64_t seed;

	for (seed = 1; seed <= 4; seed++) {
		struct topo *t = topo_gen_jellyfish(40, 4, 0, seed);
		struct gen_ends ends = ends_of(t, BETWEEN_AUTO, false);
		struct elp *e = gen(t, &ends, 0, &o);
		int *d = all_dist(t, false), i;
		char *pair = calloc(40 * 40, 1);

		ck_assert_int_eq(ends.n, 40);
		ck_assert_int_eq(e->npaths, 40 * 39);
		assert_shortest(t, e, d);
		for (i = 0; i < e->npaths; i++) {
			int k = path_src(t, e, i) * 40 + path_dst(t, e, i);

			ck_assert(!pair[k]++);
		}
		assert_writer_matches(t, e);
		assert_elp_round_trip(t, e);
		free(pair);
		free(d);
		elp_free(e);
		gen_ends_free(&ends);
		topo_free(t);
	}
}
END_TEST

/* Every node has one next hop toward each destination across all paths. */
static void assert_destination_trees(const struct topo *t, const struct elp *e)
{
	int *nh = malloc((size_t)t->nnodes * t->nnodes * sizeof(int)), i, k;

	for (i = 0; i < t->nnodes * t->nnodes; i++)
		nh[i] = -1;
	for (i = 0; i < e->npaths; i++) {
		int dst = path_dst(t, e, i);

		for (k = 0; k < elp_len(e, i); k++) {
			int p = elp_hops(e, i)[k],
			    *slot = &nh[port_node(t, p) * t->nnodes + dst];

			ck_assert(*slot < 0 || *slot == p);
			*slot = p;
		}
	}
	free(nh);
}

START_TEST(shortest_paths_form_destination_trees)
{
	struct shortest_opts first = { 0 }, rnd = { .random = true, .seed = 7 };
	struct topo *t = topo_gen_fattree(4, 2);
	struct gen_ends ends = ends_of(t, BETWEEN_AUTO, false);
	struct elp *a = gen(t, &ends, 0, &first), *b = gen(t, &ends, 0, &rnd);
	int *d = all_dist(t, false);

	ck_assert_int_eq(a->npaths, 240);
	assert_shortest(t, a, d);
	assert_shortest(t, b, d);
	assert_destination_trees(t, a);
	assert_destination_trees(t, b);
	free(d);
	elp_free(a);
	elp_free(b);
	gen_ends_free(&ends);
	topo_free(t);
}
END_TEST

static bool same_paths(const struct elp *a, const struct elp *b)
{
	return a->npaths == b->npaths && a->nhops == b->nhops &&
	       !memcmp(a->hops, b->hops, a->nhops * sizeof(int32_t));
}

START_TEST(random_tie_break_is_fixed_by_the_seed)
{
	struct shortest_opts first = { 0 }, s7 = { .random = true, .seed = 7 },
			     s8 = { .random = true, .seed = 8 };
	struct topo *t = topo_gen_fattree(4, 2);
	struct gen_ends ends = ends_of(t, BETWEEN_AUTO, false);
	struct elp *a = gen(t, &ends, 0, &s7), *b = gen(t, &ends, 0, &s7);
	struct elp *c = gen(t, &ends, 0, &s8), *f = gen(t, &ends, 0, &first);
	struct elp *g = gen(t, &ends, 0, &first), *want;
	int i;

	ck_assert(same_paths(a, b));
	ck_assert(!same_paths(a, c));
	ck_assert(!same_paths(a, f));
	ck_assert(same_paths(f, g));
	/* Deterministic first choice: the lowest port toward the destination. */
	want = elp_from_str(t, "h16 T8 L7 S1 L1 T1 h1\n");
	for (i = 0; i < f->npaths; i++)
		if (path_src(t, f, i) == node_of(t, "h16") &&
		    path_dst(t, f, i) == node_of(t, "h1"))
			break;
	ck_assert_int_lt(i, f->npaths);
	ck_assert_int_eq(elp_len(f, i), 6);
	ck_assert(!memcmp(elp_hops(f, i), elp_hops(want, 0),
			  6 * sizeof(int32_t)));
	elp_free(want);
	elp_free(a);
	elp_free(b);
	elp_free(c);
	elp_free(f);
	elp_free(g);
	gen_ends_free(&ends);
	topo_free(t);
}
END_TEST

/* Number of shortest paths per pair by dynamic programming on distances. */
static double count_shortest(const struct topo *t, const int *d, int s, int dst)
{
	int n = t->nnodes, i;
	double c = 0;

	if (s == dst)
		return 1;
	if (d[s * n + dst] >= INF)
		return 0;
	for (i = 0; i < t->nodes[s].nports; i++) {
		int v = port_peer_node(t, t->nodes[s].ports[i]);

		if (d[v * n + dst] == d[s * n + dst] - 1 &&
		    (v == dst || t->nodes[v].kind == NODE_SWITCH))
			c += count_shortest(t, d, v, dst);
	}
	return c;
}

static void assert_ecmp_counts(const struct topo *t, int cap)
{
	struct gen_ends ends = ends_of(t, BETWEEN_AUTO, false);
	struct elp *e = gen(t, &ends, cap, NULL);
	int *d = all_dist(t, false), n = t->nnodes, i, a, b;
	double *got = calloc((size_t)n * n, sizeof(double));

	assert_shortest(t, e, d);
	for (i = 0; i < e->npaths; i++) {
		got[path_src(t, e, i) * n + path_dst(t, e, i)]++;
		/* Distinct: the next path of the same pair differs. */
		if (i && path_src(t, e, i) == path_src(t, e, i - 1) &&
		    path_dst(t, e, i) == path_dst(t, e, i - 1))
			ck_assert(memcmp(elp_hops(e, i), elp_hops(e, i - 1),
					 elp_len(e, i) * 4));
	}
	for (a = 0; a < ends.n; a++)
		for (b = 0; b < ends.n; b++) {
			int s = ends.node[a], t2 = ends.node[b];
			double want = count_shortest(t, d, s, t2);

			if (a == b)
				continue;
			ck_assert_int_eq((int)got[s * n + t2],
					 (int)(want < cap ? want : cap));
		}
	free(got);
	free(d);
	elp_free(e);
	gen_ends_free(&ends);
}

START_TEST(ecmp_gives_every_shortest_path_up_to_the_cap)
{
	struct topo *f = topo_gen_fattree(4, 2),
		    *j = topo_gen_jellyfish(30, 4, 1, 3);
	struct gen_ends ends = ends_of(f, BETWEEN_AUTO, false);
	struct elp *e = gen(f, &ends, 64, NULL);

	/* All shortest paths of a fat-tree are its up-down paths: 848. */
	ck_assert_int_eq(e->npaths, 848);
	assert_ecmp_counts(f, 64);
	assert_ecmp_counts(f, 3);
	assert_ecmp_counts(j, 64);
	assert_ecmp_counts(j, 2);
	elp_free(e);
	gen_ends_free(&ends);
	topo_free(f);
	topo_free(j);
}
END_TEST

START_TEST(ring_of_4_with_all_shortest_paths_has_cbd)
{
	/* The Flattened Clos paper's example: shortest-path routing on a ring. */
	struct topo *t = topo_gen_ring(4, 0);
	struct gen_ends ends = ends_of(t, BETWEEN_AUTO, false);
	struct elp *e = gen(t, &ends, 64, NULL);
	struct cbd_witness w;

	/* 12 ordered pairs: 8 neighbours (1 path), 4 opposite (2 paths). */
	ck_assert_int_eq(e->npaths, 16);
	ck_assert_int_eq(cbd_check(t, e, &w), 1);
	cbd_witness_free(&w);
	elp_free(e);
	gen_ends_free(&ends);
	topo_free(t);
}
END_TEST

START_TEST(hosts_relay_only_when_asked)
{
	struct topo *t =
		topo_from_str("switch a\nswitch b\nswitch c\nswitch d\nhost h\n"
			      "link a:1 h:1\nlink h:2 b:1\n"
			      "link a:2 c:1\nlink c:2 d:1\nlink d:2 b:2\n");
	struct shortest_opts o = { 0 };
	struct gen_ends sw = ends_of(t, BETWEEN_SWITCHES, false);
	struct gen_ends relay = ends_of(t, BETWEEN_SWITCHES, true);
	struct elp *e = gen(t, &sw, 0, &o), *r = gen(t, &relay, 0, &o);
	struct elp *want = elp_from_str(t, "a c d b\n"),
		   *want_r = elp_from_str(t, "a h b\n");
	int i;

	ck_assert_int_eq(e->npaths, 12);
	for (i = 0; i < e->npaths; i++) {
		int k;

		for (k = 1; k < elp_len(e, i); k++)
			ck_assert_int_eq(
				t->nodes[port_node(t, elp_hops(e, i)[k])].kind,
				NODE_SWITCH);
		if (path_src(t, e, i) == 0 && path_dst(t, e, i) == 1) {
			ck_assert_int_eq(elp_len(e, i), 3);
			ck_assert(
				!memcmp(elp_hops(e, i), elp_hops(want, 0), 12));
			ck_assert(!memcmp(elp_hops(r, i), elp_hops(want_r, 0),
					  8));
		}
	}
	elp_free(want);
	elp_free(want_r);
	elp_free(e);
	elp_free(r);
	gen_ends_free(&sw);
	gen_ends_free(&relay);
	topo_free(t);
}
END_TEST

START_TEST(unreachable_pairs_are_counted_not_emitted)
{
	struct topo *t =
		topo_from_str("switch a\nswitch b\nswitch c\nlink a:1 b:1\n");
	struct gen_ends ends = ends_of(t, BETWEEN_SWITCHES, false);
	struct shortest_opts o = { 0 };
	struct path_sink s;

	sink_count(&s);
	ck_assert_int_eq(paths_shortest(t, &ends, &o, &s), 0);
	ck_assert_int_eq(s.paths, 2);
	ck_assert_int_eq(s.unreachable, 4);
	sink_count(&s);
	ck_assert_int_eq(paths_ecmp(t, &ends, 5, &s), 0);
	ck_assert_int_eq(s.paths, 2);
	ck_assert_int_eq(s.unreachable, 4);
	gen_ends_free(&ends);
	topo_free(t);
}
END_TEST

Suite *paths_shortest_suite(void)
{
	Suite *s = suite_create("paths_shortest");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, shortest_paths_are_shortest_one_per_pair);
	tcase_add_test(tc, shortest_paths_form_destination_trees);
	tcase_add_test(tc, random_tie_break_is_fixed_by_the_seed);
	tcase_add_test(tc, ecmp_gives_every_shortest_path_up_to_the_cap);
	tcase_add_test(tc, ring_of_4_with_all_shortest_paths_has_cbd);
	tcase_add_test(tc, hosts_relay_only_when_asked);
	tcase_add_test(tc, unreachable_pairs_are_counted_not_emitted);
	suite_add_tcase(s, tc);
	return s;
}
