// SPDX-License-Identifier: GPL-2.0
/* Topology generators: Clos, fat-tree, leaf-spine, BCube, ring, line. */
#include <check.h>

#include "gen_check.h"
#include "lib/log.h"

static void assert_counts(const struct topo *t, int switches, int hosts,
			  int links)
{
	ck_assert_int_eq(count_kind(t, NODE_SWITCH), switches);
	ck_assert_int_eq(count_kind(t, NODE_HOST), hosts);
	ck_assert_int_eq(t->nports, 2 * links);
}

static int degree(const struct topo *t, const char *name)
{
	return t->nodes[node_of(t, name)].nports;
}

START_TEST(clos_defaults_are_the_papers_seed_clos)
{
	struct clos_opts o;
	struct topo *t, *back;
	const char *tor_leaf[][2] = { { "T1", "L1" }, { "T1", "L2" },
				      { "T2", "L1" }, { "T2", "L2" },
				      { "T3", "L3" }, { "T3", "L4" },
				      { "T4", "L3" }, { "T4", "L4" } };
	int i;

	clos_defaults(&o);
	t = topo_gen_clos(&o);
	ck_assert_ptr_nonnull(t);
	/* 10 switches, h1-h4; 4 host + 8 ToR-leaf + 8 leaf-spine links. */
	assert_counts(t, 10, 4, 20);
	ck_assert_int_eq(t->nodes[node_of(t, "T4")].layer, 0);
	ck_assert_int_eq(t->nodes[node_of(t, "L3")].layer, 1);
	ck_assert_int_eq(t->nodes[node_of(t, "S2")].layer, 2);
	for (i = 0; i < 8; i++)
		ck_assert(linked(t, tor_leaf[i][0], tor_leaf[i][1]));
	ck_assert(!linked(t, "T1", "L3"));
	for (i = 1; i <= 4; i++) {
		char l[8], h[8], tor[8];

		snprintf(l, sizeof(l), "L%d", i);
		snprintf(h, sizeof(h), "h%d", i);
		snprintf(tor, sizeof(tor), "T%d", i);
		ck_assert(linked(t, l, "S1") && linked(t, l, "S2"));
		ck_assert(linked(t, h, tor));
	}
	ck_assert(topo_has_layers(t));
	back = topo_round_trip(t);
	topo_free(back);
	topo_free(t);
}
END_TEST

START_TEST(clos_sizes_and_planes)
{
	struct clos_opts o = { .pods = 3,
			       .tors = 4,
			       .leaves = 2,
			       .spines = 6,
			       .hosts = 5,
			       .planes = 2 };
	struct topo *t = topo_gen_clos(&o);

	ck_assert_ptr_nonnull(t);
	/* 12 ToRs, 6 leaves, 6 spines; 60 hosts; 60 + 12*2 + 6*3 links. */
	assert_counts(t, 24, 60, 60 + 24 + 18);
	/* Leaf 1 of a pod (L1, L3, L5) serves plane 0 = S1-S3. */
	ck_assert(linked(t, "L3", "S3") && !linked(t, "L3", "S4"));
	ck_assert(linked(t, "L4", "S4") && !linked(t, "L4", "S1"));
	ck_assert_int_eq(degree(t, "S1"), 3);
	ck_assert_int_eq(degree(t, "T12"), 5 + 2);
	ck_assert(linked(t, "h60", "T12"));
	topo_free(t);
}
END_TEST

START_TEST(clos_rejects_bad_sizes)
{
	struct clos_opts o;

	log_quiet = true;
	clos_defaults(&o);
	o.planes = 3; /* 2 spines do not split into 3 planes */
	ck_assert_ptr_null(topo_gen_clos(&o));
	clos_defaults(&o);
	o.pods = 0;
	ck_assert_ptr_null(topo_gen_clos(&o));
	clos_defaults(&o);
	o.pods = 1000000;
	o.tors = 1000000;
	ck_assert_ptr_null(topo_gen_clos(&o));
	log_quiet = false;
}
END_TEST

START_TEST(fattree_k4_has_20_switches_16_hosts_48_links)
{
	struct topo *t = topo_gen_fattree(4, 2), *back;
	int i;

	ck_assert_ptr_nonnull(t);
	assert_counts(t, 20, 16, 48);
	/* Every switch has k = 4 ports, every core one link per pod. */
	for (i = 0; i < t->nnodes; i++)
		ck_assert_int_eq(t->nodes[i].nports,
				 t->nodes[i].kind == NODE_HOST ? 1 : 4);
	ck_assert(linked(t, "L1", "S1") && linked(t, "L1", "S2"));
	ck_assert(linked(t, "L2", "S3") && !linked(t, "L2", "S1"));
	back = topo_round_trip(t);
	topo_free(back);
	topo_free(t);
}
END_TEST

START_TEST(fattree_sizes_follow_k)
{
	int k;

	for (k = 2; k <= 12; k += 2) {
		struct topo *t = topo_gen_fattree(k, k / 2);
		int i;

		ck_assert_ptr_nonnull(t);
		/* 5k^2/4 switches, k^3/4 hosts, 3k^3/4 links. */
		assert_counts(t, 5 * k * k / 4, k * k * k / 4,
			      3 * k * k * k / 4);
		for (i = 0; i < t->nnodes; i++)
			if (t->nodes[i].kind == NODE_SWITCH)
				ck_assert_int_eq(t->nodes[i].nports, k);
		topo_free(t);
	}
	log_quiet = true;
	ck_assert_ptr_null(topo_gen_fattree(5, 2));
	ck_assert_ptr_null(topo_gen_fattree(0, 2));
	log_quiet = false;
}
END_TEST

START_TEST(leafspine_is_complete_bipartite)
{
	struct topo *t = topo_gen_leafspine(6, 3, 2);
	int i;

	ck_assert_ptr_nonnull(t);
	assert_counts(t, 9, 12, 12 + 18);
	for (i = 0; i < t->nnodes; i++)
		if (t->nodes[i].kind == NODE_SWITCH)
			ck_assert_int_eq(t->nodes[i].layer,
					 t->nodes[i].name[0] == 'S');
	ck_assert_int_eq(degree(t, "S3"), 6);
	ck_assert_int_eq(degree(t, "L6"), 3 + 2);
	topo_free(t);
}
END_TEST

START_TEST(ring_and_line_have_n_and_n_minus_1_links)
{
	struct topo *r = topo_gen_ring(5, 2), *l = topo_gen_line(5, 0), *back;
	int i;

	ck_assert_ptr_nonnull(r);
	ck_assert_ptr_nonnull(l);
	assert_counts(r, 5, 10, 5 + 10);
	assert_counts(l, 5, 0, 4);
	for (i = 1; i <= 5; i++) {
		char a[8], b[8];

		snprintf(a, sizeof(a), "sw%d", i);
		snprintf(b, sizeof(b), "sw%d", i % 5 + 1);
		ck_assert(linked(r, a, b));
		ck_assert_int_eq(degree(r, a), 4);
	}
	ck_assert_int_eq(degree(l, "sw1"), 1);
	ck_assert_int_eq(degree(l, "sw3"), 2);
	ck_assert(!topo_has_layers(r));
	back = topo_round_trip(r);
	topo_free(back);
	topo_free(r);
	topo_free(l);
	log_quiet = true;
	ck_assert_ptr_null(topo_gen_ring(2, 0)); /* would be a parallel link */
	ck_assert_ptr_null(topo_gen_line(0, 0));
	log_quiet = false;
}
END_TEST

START_TEST(bcube_counts_and_wiring)
{
	struct {
		int n, k;
	} c[] = { { 2, 1 }, { 4, 1 }, { 3, 2 }, { 2, 3 }, { 12, 1 } };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(c); i++) {
		int n = c[i].n, k = c[i].k, s = 1, j, v;
		struct topo *t = topo_gen_bcube(n, k), *back;

		for (j = 0; j <= k; j++)
			s *= n;
		ck_assert_ptr_nonnull(t);
		/* n^(k+1) servers, (k+1) n^k switches, (k+1) n^(k+1) links. */
		assert_counts(t, (k + 1) * s / n, s, (k + 1) * s);
		for (v = 0; v < t->nnodes; v++) {
			ck_assert_int_eq(t->nodes[v].nports,
					 t->nodes[v].kind == NODE_HOST ? k + 1 :
									 n);
			ck_assert_int_eq(t->nodes[v].layer, LAYER_NONE);
		}
		back = topo_round_trip(t);
		topo_free(back);
		topo_free(t);
	}
}
END_TEST

START_TEST(bcube_names_follow_addresses)
{
	struct topo *t = topo_gen_bcube(4, 1);

	/* s12 = digits (1,2): level 0 switch w0-1 joins s10..s13, level 1 w1-2. */
	ck_assert(linked(t, "s12", "w0-1") && linked(t, "s13", "w0-1"));
	ck_assert(linked(t, "s12", "w1-2") && linked(t, "s32", "w1-2"));
	ck_assert_str_eq(t->ports[t->nodes[node_of(t, "s12")].ports[1]].name,
			 "eth1");
	ck_assert_int_eq(
		port_peer_node(t, t->nodes[node_of(t, "s12")].ports[1]),
		node_of(t, "w1-2"));
	topo_free(t);
	t = topo_gen_bcube(12, 1);
	ck_assert(linked(t, "s11.3", "w0-11"));
	topo_free(t);
}
END_TEST

Suite *topo_gen_suite(void)
{
	Suite *s = suite_create("topo_gen");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, clos_defaults_are_the_papers_seed_clos);
	tcase_add_test(tc, clos_sizes_and_planes);
	tcase_add_test(tc, clos_rejects_bad_sizes);
	tcase_add_test(tc, fattree_k4_has_20_switches_16_hosts_48_links);
	tcase_add_test(tc, fattree_sizes_follow_k);
	tcase_add_test(tc, leafspine_is_complete_bipartite);
	tcase_add_test(tc, ring_and_line_have_n_and_n_minus_1_links);
	tcase_add_test(tc, bcube_counts_and_wiring);
	tcase_add_test(tc, bcube_names_follow_addresses);
	suite_add_tcase(s, tc);
	return s;
}
