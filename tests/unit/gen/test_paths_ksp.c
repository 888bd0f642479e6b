// SPDX-License-Identifier: GPL-2.0
/* Yen's K shortest simple paths against brute-force enumeration. */
#include <check.h>

#include "gen_check.h"

/* Every simple path src -> dst through switches: lengths histogram. */
struct brute {
	const struct topo *t;
	int dst;
	char *on;
	int hist[64];
	int total;
};

static void brute(struct brute *b, int u, int depth)
{
	const struct topo_node *n = &b->t->nodes[u];
	int i;

	for (i = 0; i < n->nports; i++) {
		int v = port_peer_node(b->t, n->ports[i]);

		if (b->on[v])
			continue;
		if (v == b->dst) {
			b->hist[depth + 1]++;
			b->total++;
			continue;
		}
		if (b->t->nodes[v].kind != NODE_SWITCH)
			continue;
		b->on[v] = 1;
		brute(b, v, depth + 1);
		b->on[v] = 0;
	}
}

static bool simple(const struct topo *t, const int32_t *h, int n)
{
	char *seen = calloc(t->nnodes, 1);
	bool ok = true;
	int k;

	seen[port_node(t, h[0])] = 1;
	for (k = 0; k < n && ok; k++) {
		int v = port_peer_node(t, h[k]);

		ok = !seen[v];
		seen[v] = 1;
	}
	free(seen);
	return ok;
}

static void assert_yen(const struct topo *t, int K)
{
	struct gen_ends ends = ends_of(t, BETWEEN_AUTO, false);
	struct elp *e = elp_new("ksp");
	struct path_sink s;
	int a, c, i = 0;

	sink_elp(&s, e);
	ck_assert_int_eq(paths_ksp(t, &ends, K, 1, &s), 0);
	assert_all_walks(t, e);
	/* Output order: destinations outer, sources inner, K paths each. */
	for (a = 0; a < ends.n; a++)
		for (c = 0; c < ends.n; c++) {
			struct brute b = { .t = t, .dst = ends.node[a] };
			int want, len, j, got[64] = { 0 }, first = i, left;

			if (a == c)
				continue;
			b.on = calloc(t->nnodes, 1);
			b.on[ends.node[c]] = 1;
			brute(&b, ends.node[c], 0);
			free(b.on);
			want = b.total < K ? b.total : K;
			for (j = 0; j < want; j++, i++) {
				ck_assert_int_lt(i, e->npaths);
				ck_assert_int_eq(path_src(t, e, i),
						 ends.node[c]);
				ck_assert_int_eq(path_dst(t, e, i),
						 ends.node[a]);
				ck_assert(simple(t, elp_hops(e, i),
						 elp_len(e, i)));
				/* Non-decreasing lengths, all distinct. */
				if (j)
					ck_assert_int_ge(elp_len(e, i),
							 elp_len(e, i - 1));
				for (len = first; len < i; len++)
					ck_assert(elp_len(e, len) !=
							  elp_len(e, i) ||
						  memcmp(elp_hops(e, len),
							 elp_hops(e, i),
							 elp_len(e, i) * 4));
				got[elp_len(e, i)]++;
			}
			/* The lengths are the K smallest of all simple paths. */
			for (len = 0, left = want; len < 64 && left; len++) {
				int take =
					b.hist[len] < left ? b.hist[len] : left;

				ck_assert_int_eq(got[len], take);
				left -= take;
			}
		}
	ck_assert_int_eq(i, e->npaths);
	elp_free(e);
	gen_ends_free(&ends);
}

START_TEST(yen_matches_brute_force_on_rings)
{
	struct topo *t = topo_gen_ring(6, 0);
	int k;

	for (k = 1; k <= 3; k++)
		assert_yen(t,
			   k); /* a ring has exactly 2 simple paths per pair */
	topo_free(t);
}
END_TEST

START_TEST(yen_matches_brute_force_on_random_graphs)
{
	uint64_t seed;
	int k;

	for (seed = 1; seed <= 3; seed++) {
		struct topo *t = topo_gen_jellyfish(9, 4, 0, seed);

		for (k = 1; k <= 8; k += 3)
			assert_yen(t, k);
		topo_free(t);
	}
}
END_TEST

START_TEST(yen_matches_brute_force_on_clos_with_hosts)
{
	struct clos_opts o;
	struct topo *t;

	clos_defaults(&o);
	t = topo_gen_clos(&o);
	assert_yen(t, 1);
	assert_yen(t, 5);
	assert_yen(t, 20);
	topo_free(t);
}
END_TEST

START_TEST(yen_tells_parallel_links_apart)
{
	/* Two parallel a-b links and a detour through c: 3 simple paths a -> b. */
	struct topo *t = topo_from_str(
		"switch a\nswitch b\nswitch c\n"
		"link a:1 b:1\nlink a:2 b:2\nlink a:3 c:1\nlink c:2 b:3\n");

	assert_yen(t, 2);
	assert_yen(t, 3);
	assert_yen(t, 4);
	topo_free(t);
}
END_TEST

Suite *paths_ksp_suite(void)
{
	Suite *s = suite_create("paths_ksp");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, yen_matches_brute_force_on_rings);
	tcase_add_test(tc, yen_matches_brute_force_on_random_graphs);
	tcase_add_test(tc, yen_matches_brute_force_on_clos_with_hosts);
	tcase_add_test(tc, yen_tells_parallel_links_apart);
	suite_add_tcase(s, tc);
	return s;
}
