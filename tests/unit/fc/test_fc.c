// SPDX-License-Identifier: GPL-2.0
/*
 * Flattened Clos: k_min and port splits against the paper's tables, the
 * random wiring's invariants, the figure 4(a) testbed's paths, and the
 * routing's guarantees (edge-disjoint virtual up-down paths, CBD-free),
 * with ECMP on the same topology as the contrast.
 */
#include <check.h>
#include <glpk.h>

#include "analyze/cbd.h"
#include "fc/edst.h"
#include "fc/fc_reroute.h"
#include "fc/fc_route.h"
#include "fc/fc_topo.h"
#include "lib/hmap.h"
#include "graph/bfs.h"
#include "testlib.h"

START_TEST(kmin_matches_tables_1_and_2)
{
	/* Table 2 (s = 18): k = 4 for N = 100..300, 5 for 500; N = 50 has
	 * k_min = 3 (the table's k = 4 is strategy (*) taking k_min + 1). */
	ck_assert_int_eq(fc_kmin(50, 18), 3);
	ck_assert_int_eq(fc_kmin(100, 18), 4);
	ck_assert_int_eq(fc_kmin(200, 18), 4);
	ck_assert_int_eq(fc_kmin(300, 18), 4);
	ck_assert_int_eq(fc_kmin(500, 18), 5);
	/* Table 1 (s = 40). */
	ck_assert_int_eq(fc_kmin(500, 40), 3);
	ck_assert_int_eq(fc_kmin(1000, 40), 3);
	ck_assert_int_eq(fc_kmin(2000, 40), 4);
	ck_assert_int_eq(fc_kmin(3000, 40), 4);
	ck_assert_int_eq(fc_kmin(5000, 40), 4);
}
END_TEST

static void assert_split(int s, int k, const int *want)
{
	int l[FC_MAX_LAYERS], a[FC_MAX_LAYERS], j;

	ck_assert_int_eq(fc_split_even(s, k, l), 0);
	for (j = 0; j < k; j++)
		ck_assert_int_eq(l[j], want[j]);
	ck_assert_int_eq(fc_split_degrees(l, k, a), 0);
}

START_TEST(split_matches_the_papers_port_counts)
{
	assert_split(18, 4, (int[]){ 3, 6, 6, 3 });
	assert_split(18, 5, (int[]){ 2, 4, 4, 5, 3 });
	assert_split(40, 4, (int[]){ 7, 13, 13, 7 });
	assert_split(40, 5, (int[]){ 5, 10, 10, 10, 5 });
	assert_split(40, 3, (int[]){ 10, 20, 10 });
	ck_assert_int_eq(fc_split_even(17, 4, (int[FC_MAX_LAYERS]){ 0 }), -1);
	/* l_3 must equal a_2 = l_2 - l_1. */
	ck_assert_int_eq(fc_split_degrees((int[]){ 3, 5, 3 }, 3, (int[3]){ 0 }),
			 -1);
	ck_assert_int_eq(fc_split_degrees((int[]){ 3, 5, 2 }, 3, (int[3]){ 0 }),
			 0);
}
END_TEST

static struct topo *build(int n, int h, int s, int k, uint64_t seed)
{
	struct fc_spec sp = {
		.ntors = n, .hosts = h, .fabric = s, .k = k, .seed = seed
	};
	char err[256];
	struct topo *t;

	ck_assert_int_eq(fc_split_even(s, k, sp.split), 0);
	t = fc_build(&sp, err, sizeof(err));
	ck_assert_msg(t != NULL, "%s", err);
	return t;
}

START_TEST(wiring_keeps_the_split_and_never_links_a_switch_to_itself)
{
	struct topo *t = build(50, 2, 18, 4, 7);
	struct hmap seen;
	int i, x, count[5];

	hmap_init(&seen, 1024);
	ck_assert_int_eq(topo_nswitches(t), 50);
	ck_assert_int_eq(t->nnodes, 50 + 100);
	for (i = 0; i < t->nnodes; i++) {
		if (!topo_is_switch(t, i))
			continue;
		memset(count, 0, sizeof(count));
		for (x = 0; x < t->nodes[i].nports; x++) {
			int p = t->nodes[i].ports[x],
			    peer = port_peer_node(t, p);
			int lp = fc_port_layer(t, p),
			    lq = fc_port_layer(t, t->ports[p].peer);

			count[lp]++;
			if (!lp)
				continue;
			ck_assert_int_ne(peer, i);
			ck_assert_int_eq(abs(lp - lq), 1);
			/* No parallel links at this size. */
			ck_assert(!hmap_get(&seen, key2(i, peer), NULL));
			hmap_put(&seen, key2(i, peer), 1);
		}
		ck_assert_int_eq(count[0], 2);
		ck_assert_int_eq(count[1], 3);
		ck_assert_int_eq(count[2], 6);
		ck_assert_int_eq(count[3], 6);
		ck_assert_int_eq(count[4], 3);
	}
	hmap_free(&seen);
	topo_free(t);
}
END_TEST

START_TEST(same_seed_same_topology_other_seed_other_wiring)
{
	struct topo *a = build(30, 1, 12, 3, 42), *b = build(30, 1, 12, 3, 42);
	struct topo *c = build(30, 1, 12, 3, 43);
	char *ta = topo_to_str(a), *tb = topo_to_str(b), *tc = topo_to_str(c);

	ck_assert_str_eq(ta, tb);
	ck_assert_str_ne(ta, tc);
	free(ta);
	free(tb);
	free(tc);
	topo_free(a);
	topo_free(b);
	topo_free(c);
}
END_TEST

START_TEST(impossible_specs_are_refused)
{
	struct fc_spec sp = {
		.ntors = 3, .fabric = 18, .k = 4, .split = { 3, 6, 6, 3 }
	};
	char err[256];

	/* Degree 3 between layers needs at least 4 ToRs. */
	ck_assert_ptr_null(fc_build(&sp, err, sizeof(err)));
	ck_assert_ptr_nonnull(strstr(err, "needs more than"));
	sp.ntors = 10;
	sp.fabric = 19;
	ck_assert_ptr_null(fc_build(&sp, err, sizeof(err)));
}
END_TEST

struct routed {
	struct topo *t;
	struct fc_layout L;
	struct elp *e;
	struct path_stats st;
};

static void route(struct routed *r, struct topo *t, int threads)
{
	struct fc_route_opts o = { .threads = threads };
	char err[256];

	r->t = t;
	ck_assert_msg(!fc_layout_from_names(t, &r->L, err, sizeof(err)), "%s",
		      err);
	r->e = elp_new(NULL);
	ck_assert_int_eq(fc_route(t, &r->L, &o, r->e, &r->st), 0);
}

static void routed_free(struct routed *r)
{
	elp_free(r->e);
	fc_layout_free(&r->L);
	topo_free(r->t);
}

static int src_of(const struct routed *r, int i)
{
	return port_node(r->t, elp_hops(r->e, i)[0]);
}

static int dst_of(const struct routed *r, int i)
{
	return port_peer_node(r->t, elp_hops(r->e, i)[elp_len(r->e, i) - 1]);
}

/*
 * A contracted path is virtual up-down: while going up, each hop leaves from
 * a layer at least the one it entered by; after the first down hop, only
 * down hops from a layer at most the one entered by.
 */
static bool is_up_down(const struct routed *r, int i)
{
	const int32_t *h = elp_hops(r->e, i);
	int n = elp_len(r->e, i), k, at = 1;
	bool down = false;

	for (k = 0; k < n; k++) {
		int lo = r->L.port_layer[h[k]];
		int li = r->L.port_layer[r->t->ports[h[k]].peer];

		if (li > lo) {
			if (down || lo < at)
				return false;
		} else {
			if (down && lo > at)
				return false;
			down = true;
		}
		at = li;
	}
	return true;
}

START_TEST(testbed_has_two_paths_per_pair_one_each_way_round)
{
	struct routed r;
	struct cbd_witness w;
	int i, s1, s3, cw = 0, ccw = 0;

	route(&r, fc_testbed(4), 1);
	ck_assert_int_eq(r.st.pairs, 12);
	ck_assert_int_eq(r.st.min_paths, 2);
	ck_assert_int_eq(r.st.max_paths, 2);
	ck_assert_int_eq(r.e->npaths, 24);
	s1 = topo_find_node(r.t, "S1");
	s3 = topo_find_node(r.t, "S3");
	for (i = 0; i < r.e->npaths; i++) {
		ck_assert(is_up_down(&r, i));
		if (src_of(&r, i) != s1 || dst_of(&r, i) != s3)
			continue;
		ck_assert_int_eq(elp_len(r.e, i), 2);
		if (port_peer_node(r.t, elp_hops(r.e, i)[0]) ==
		    topo_find_node(r.t, "S2"))
			cw++;
		if (port_peer_node(r.t, elp_hops(r.e, i)[0]) ==
		    topo_find_node(r.t, "S4"))
			ccw++;
	}
	ck_assert_int_eq(cw, 1);
	ck_assert_int_eq(ccw, 1);
	ck_assert_int_eq(cbd_check(r.t, r.e, &w), 0);
	cbd_witness_free(&w);
	routed_free(&r);
}
END_TEST

/* Every pair's paths use distinct directed links, and all are up-down. */
static void assert_disjoint_up_down(const struct routed *r)
{
	struct hmap used;
	int i, k;

	hmap_init(&used, 1 << 16);
	for (i = 0; i < r->e->npaths; i++) {
		uint64_t pair = key2(src_of(r, i), dst_of(r, i));

		ck_assert(is_up_down(r, i));
		for (k = 0; k < elp_len(r->e, i); k++) {
			uint64_t key = pair * 100003 + elp_hops(r->e, i)[k];
			uint64_t v;

			ck_assert_msg(!hmap_get(&used, key, &v) || v == pair,
				      "pair reuses a link");
			ck_assert(!hmap_get(&used, key, &v));
			hmap_put(&used, key, pair);
		}
	}
	hmap_free(&used);
}

/*
 * ECMP on the ToR graph: every shortest path of every ordered ToR pair
 * (counted by BFS, enumerated by walking the BFS layers backwards).
 */
static void ecmp_paths(const struct topo *t, int src, int dst, int *dist,
		       int32_t *stack, int depth, struct elp *out)
{
	const struct topo_node *n = &t->nodes[dst];
	int x;

	if (dst == src) {
		int32_t hops[64];

		for (x = 0; x < depth; x++)
			hops[x] = stack[depth - 1 - x];
		elp_add(out, hops, depth, 0);
		return;
	}
	for (x = 0; x < n->nports; x++) {
		int q = n->ports[x], p = t->ports[q].peer,
		    prev = port_node(t, p);

		if (topo_is_switch(t, prev) && dist[prev] == dist[dst] - 1) {
			stack[depth] = p;
			ecmp_paths(t, src, prev, dist, stack, depth + 1, out);
		}
	}
}

static struct elp *ecmp(const struct topo *t)
{
	struct elp *out = elp_new(NULL);
	int32_t stack[64];
	struct bfs b;
	int s, d;

	bfs_init(&b, t);
	for (s = 0; s < t->nnodes; s++) {
		if (!topo_is_switch(t, s))
			continue;
		bfs_to(&b, t, s, false); /* only switches forward */
		for (d = 0; d < t->nnodes; d++)
			if (d != s && topo_is_switch(t, d) && b.dist[d] > 0)
				ecmp_paths(t, s, d, b.dist, stack, 0, out);
	}
	bfs_free(&b);
	return out;
}

START_TEST(fc_routing_is_cbd_free_where_ecmp_is_not)
{
	struct cbd_witness w;
	struct routed r;
	struct elp *ec;

	/* Table 2's first row: N = 50, 32-port switches, s = 18, k = 4. */
	route(&r, build(50, 0, 18, 4, 1), 2);
	ck_assert_int_eq(r.st.pairs, 50 * 49);
	ck_assert_int_ge(r.st.min_paths, 1);
	assert_disjoint_up_down(&r);
	ck_assert_int_eq(cbd_check(r.t, r.e, &w), 0);
	cbd_witness_free(&w);
	ec = ecmp(r.t);
	ck_assert_int_eq(cbd_check(r.t, ec, &w), 1);
	cbd_witness_free(&w);
	elp_free(ec);
	routed_free(&r);
}
END_TEST

START_TEST(threads_give_the_same_paths_in_the_same_order)
{
	struct routed a, b;
	int i;

	route(&a, build(40, 0, 12, 3, 5), 1);
	route(&b, build(40, 0, 12, 3, 5), 3);
	ck_assert_int_eq(a.e->npaths, b.e->npaths);
	ck_assert_int_eq(a.e->nhops, b.e->nhops);
	for (i = 0; i < (int)a.e->nhops; i++)
		ck_assert_int_eq(a.e->hops[i], b.e->hops[i]);
	routed_free(&a);
	routed_free(&b);
}
END_TEST

START_TEST(layers_from_a_split_when_ports_are_not_named)
{
	/* The testbed again, with ports renamed 1..4 in layer order. */
	const char *topo =
		"switch A\nswitch B\nswitch C\nswitch D\n"
		"link A:1 B:2\nlink B:1 C:2\nlink C:1 D:2\nlink D:1 A:2\n"
		"link B:3 A:4\nlink C:3 B:4\nlink D:3 C:4\nlink A:3 D:4\n";
	struct topo *t = topo_from_str(topo);
	struct fc_route_opts o = { 0 };
	struct fc_layout L;
	struct path_stats st;
	char err[256];

	ck_assert_int_eq(fc_layout_from_names(t, &L, err, sizeof(err)), -1);
	ck_assert_ptr_nonnull(strstr(err, "has no virtual layer"));
	ck_assert_int_eq(fc_layout_from_split(t, (int[]){ 1, 2, 2 }, 3, &L, err,
					      sizeof(err)),
			 -1);
	ck_assert_int_eq(fc_layout_from_split(t, (int[]){ 1, 2, 1 }, 3, &L, err,
					      sizeof(err)),
			 0);
	ck_assert_int_eq(fc_route(t, &L, &o, NULL, &st), 0);
	ck_assert_int_eq(st.pairs, 12);
	ck_assert_int_eq(st.min_paths, 2);
	ck_assert_int_eq(st.max_paths, 2);
	fc_layout_free(&L);
	/* Layers 1 and 3 are not adjacent: no up-down graph. */
	ck_assert_int_eq(fc_layout_from_split(t, (int[]){ 2, 1, 1 }, 3, &L, err,
					      sizeof(err)),
			 -1);
	ck_assert_ptr_nonnull(strstr(err, "not adjacent"));
	topo_free(t);
}
END_TEST

START_TEST(edst_finds_s_over_2_trees_and_routes_cbd_free)
{
	struct topo *t = build(50, 0, 18, 4, 11);
	struct cbd_witness w;
	struct path_stats st;
	struct edst tr;
	struct elp *e = elp_new(NULL);
	int p, used[9] = { 0 };

	/* 450 links, 49 per spanning tree: 9 trees, 9 links left over. */
	ck_assert_int_eq(edst_find(t, 0, &tr), 9);
	ck_assert_int_eq(tr.unused_links, 9);
	for (p = 0; p < t->nports; p++)
		if (tr.tree_of_port[p] >= 0) {
			ck_assert_int_eq(tr.tree_of_port[p],
					 tr.tree_of_port[t->ports[p].peer]);
			used[tr.tree_of_port[p]]++;
		}
	for (p = 0; p < 9; p++)
		ck_assert_int_eq(used[p], 2 * 49);
	edst_route(t, &tr, e, &st);
	ck_assert_int_eq(st.min_paths, 9);
	ck_assert_int_eq(st.max_paths, 9);
	ck_assert_int_eq(cbd_check(t, e, &w), 0);
	cbd_witness_free(&w);
	elp_free(e);
	edst_free(&tr);
	topo_free(t);
}
END_TEST

START_TEST(edst_lowers_k_to_what_fits)
{
	/* A ring has one spanning tree (n links, n-1 per tree). */
	struct topo *t =
		topo_from_str("switch a\nswitch b\nswitch c\nswitch d\n"
			      "link a:1 b:1\nlink b:2 c:1\nlink c:2 d:1\n"
			      "link d:2 a:2\n");
	struct path_stats st;
	struct edst tr;

	ck_assert_int_eq(edst_find(t, 5, &tr), 1);
	ck_assert_int_eq(tr.unused_links, 1);
	edst_route(t, &tr, NULL, &st);
	ck_assert_int_eq(st.pairs, 12);
	ck_assert_int_eq(st.min_paths, 1);
	edst_free(&tr);
	topo_free(t);
}
END_TEST

START_TEST(reroute_avoids_the_failed_link_and_counts_bounces)
{
	struct fc_reroute_stats rs;
	struct routed r;
	struct elp *out = elp_new(NULL);
	int fail, i, k;

	route(&r, build(30, 0, 12, 3, 9), 1);
	fail = topo_find_port(r.t, topo_find_node(r.t, "T1"), "v2p1");
	ck_assert_int_ge(fail, 0);
	fc_reroute(r.t, &r.L, r.e, fail, out, &rs);
	ck_assert_int_gt(rs.affected, 0);
	ck_assert_int_eq(rs.unreachable, 0);
	ck_assert_int_eq(rs.updown + rs.bounced, rs.affected);
	ck_assert_int_eq(out->npaths, r.e->npaths + rs.affected);
	for (i = r.e->npaths; i < out->npaths; i++) {
		const int32_t *h = elp_hops(out, i);
		int n = elp_len(out, i), b = fc_bounces(r.t, &r.L, h, n);

		for (k = 0; k < n; k++) {
			ck_assert_int_ne(h[k], fail);
			ck_assert_int_ne(h[k], r.t->ports[fail].peer);
			if (k) /* consecutive hops join up */
				ck_assert_int_eq(port_node(r.t, h[k]),
						 port_peer_node(r.t, h[k - 1]));
		}
		ck_assert_int_le(b, rs.max_bounces);
	}
	/* The original paths are all up-down: no bounce. */
	for (i = 0; i < r.e->npaths; i++)
		ck_assert_int_eq(fc_bounces(r.t, &r.L, elp_hops(r.e, i),
					    elp_len(r.e, i)),
				 0);
	elp_free(out);
	routed_free(&r);
}
END_TEST

Suite *fc_suite(void)
{
	Suite *s = suite_create("fc");
	TCase *tc = tcase_create("topology");
	TCase *rt = tcase_create("routing");

	tcase_add_test(tc, kmin_matches_tables_1_and_2);
	tcase_add_test(tc, split_matches_the_papers_port_counts);
	tcase_add_test(
		tc, wiring_keeps_the_split_and_never_links_a_switch_to_itself);
	tcase_add_test(tc, same_seed_same_topology_other_seed_other_wiring);
	tcase_add_test(tc, impossible_specs_are_refused);
	tcase_add_test(rt, testbed_has_two_paths_per_pair_one_each_way_round);
	tcase_add_test(rt, fc_routing_is_cbd_free_where_ecmp_is_not);
	tcase_add_test(rt, threads_give_the_same_paths_in_the_same_order);
	tcase_add_test(rt, layers_from_a_split_when_ports_are_not_named);
	tcase_add_test(rt, edst_finds_s_over_2_trees_and_routes_cbd_free);
	tcase_add_test(rt, edst_lowers_k_to_what_fits);
	tcase_add_test(rt, reroute_avoids_the_failed_link_and_counts_bounces);
	tcase_set_timeout(rt, 60);
	suite_add_tcase(s, tc);
	suite_add_tcase(s, rt);
	return s;
}
