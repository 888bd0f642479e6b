// SPDX-License-Identifier: GPL-2.0
/* Lab routing: routes along paths, local reroute around failures, ECMP. */
#include <check.h>

#include "lab/lab_routes.h"
#include "testlib.h"

static struct topo *t;
static struct elp *e;
static bool *down;
static struct lab_routes r;

static void setup(void)
{
	t = topo_from_str(SEED_CLOS_TOPO);
	ck_assert_ptr_nonnull(t);
	/* Scenario 1 before the failures: green h3->h1, blue h2->h4. */
	e = elp_from_str(t, "h3 T3 L3 S2 L2 T1 h1\nh2 T2 L2 S1 L3 T4 h4\n");
	ck_assert_ptr_nonnull(e);
	down = xcalloc(t->nports, sizeof(*down));
	memset(&r, 0, sizeof(r));
}

static void teardown(void)
{
	lab_routes_free(&r);
	free(down);
	elp_free(e);
	topo_free(t);
}

static int node(const char *n)
{
	return topo_find_node(t, n);
}

static int port(const char *n, const char *p)
{
	return topo_find_port(t, node(n), p);
}

/* The single egress port name of n's route to host dst, or NULL. */
static const char *via(const char *n, const char *dst)
{
	int k;
	const int *p = lab_route_ports(&r, node(n), node(dst), &k);

	if (!p || k != 1)
		return NULL;
	return t->ports[p[0]].name;
}

START_TEST(routes_follow_the_paths)
{
	ck_assert_int_eq(lab_routes_from_paths(t, e, down, &r), 0);
	ck_assert_str_eq(via("L2", "h1"), "t1");
	ck_assert_str_eq(via("S2", "h1"), "l2");
	ck_assert_str_eq(via("L3", "h4"), "t4");
	ck_assert_str_eq(via("h2", "h4"), "eth0");
	ck_assert_ptr_null(via("L1", "h1"));
	ck_assert_int_eq(r.unroutable, 0);
}
END_TEST

START_TEST(a_failure_bounces_up_at_the_node_in_front_of_it)
{
	down[port("L2", "t1")] = true;
	down[port("T4", "l3")] = true; /* either end marks the link down */
	ck_assert_int_eq(lab_routes_from_paths(t, e, down, &r), 0);
	/* Green came down from S2: the detour goes up to S1, not back. */
	ck_assert_str_eq(via("L2", "h1"), "s1");
	ck_assert_str_eq(via("S1", "h1"), "l1");
	ck_assert_str_eq(via("L1", "h1"), "t1");
	/* Blue came down from S1: it bounces up to S2 and down via L4. */
	ck_assert_str_eq(via("L3", "h4"), "s2");
	ck_assert_str_eq(via("S2", "h4"), "l4");
	ck_assert_str_eq(via("L4", "h4"), "t4");
	/* Upstream of the failures nothing changed (local reroute). */
	ck_assert_str_eq(via("S2", "h1"), "l2");
	ck_assert_str_eq(via("S1", "h4"), "l3");
}
END_TEST

START_TEST(paths_sharing_a_destination_make_ecmp)
{
	struct elp *two =
		elp_from_str(t, "h3 T3 L3 S1 L1 T1 h1\nh4 T4 L3 S2 L1 T1 h1\n");
	const int *p;
	int k;

	ck_assert_int_eq(lab_routes_from_paths(t, two, down, &r), 0);
	p = lab_route_ports(&r, node("L3"), node("h1"), &k);
	ck_assert_ptr_nonnull(p);
	ck_assert_int_eq(k, 2);
	ck_assert_int_lt(p[0], p[1]);
	elp_free(two);
}
END_TEST

START_TEST(a_cut_off_host_is_counted_unroutable)
{
	down[port("T1", "l1")] = true;
	down[port("T1", "l2")] = true;
	ck_assert_int_eq(lab_routes_from_paths(t, e, down, &r), 0);
	ck_assert_int_eq(r.unroutable, 1);
	ck_assert_str_eq(via("S2", "h1"), "l2"); /* up to the failure */
	ck_assert_ptr_null(via("L2", "h1"));
}
END_TEST

/* All 72 up-down paths of the seeds' Clos: ECMP at every layer. */
static struct elp *updown_paths(void)
{
	static const char *const tor[] = { "T1", "T2", "T3", "T4" };
	static const char *const pod[2][2] = { { "L1", "L2" }, { "L3", "L4" } };
	char *s = xcalloc(1, 8192), *w = s;
	struct elp *all;
	int a, b, i, j, k;

	for (a = 0; a < 4; a++)
		for (b = 0; b < 4; b++)
			for (i = 0; i < 2 && a != b; i++) {
				if (a / 2 == b / 2) {
					w += sprintf(w, "h%d %s %s %s h%d\n",
						     a + 1, tor[a],
						     pod[a / 2][i], tor[b],
						     b + 1);
					continue;
				}
				for (j = 1; j <= 2; j++)
					for (k = 0; k < 2; k++)
						w += sprintf(
							w,
							"h%d %s %s S%d %s %s h%d\n",
							a + 1, tor[a],
							pod[a / 2][i], j,
							pod[b / 2][k], tor[b],
							b + 1);
			}
	all = elp_from_str(t, s);
	free(s);
	ck_assert_ptr_nonnull(all);
	ck_assert_int_eq(all->npaths, 72);
	return all;
}

/*
 * 0 if dst's routes from x reach dst on every branch; 1 on a loop, 2 on a
 * dead end (a switch without a route). state: 0 new, 1 on the DFS stack,
 * 2 done.
 */
static int walk(int x, int dst, char *state)
{
	const int *p;
	int i, k, rc = 0;

	if (x == dst || state[x] == 2)
		return 0;
	if (state[x] == 1)
		return 1;
	p = lab_route_ports(&r, x, dst, &k);
	if (!p || k == 0)
		return 2;
	state[x] = 1;
	for (i = 0; i < k && !rc; i++)
		rc = walk(port_peer_node(t, p[i]), dst, state);
	state[x] = 2;
	return rc;
}

/* walk() from every host to every other host. */
static int walk_all(void)
{
	char *state = xcalloc(t->nnodes, 1);
	int a, b, rc = 0;

	for (b = 0; b < t->nnodes && !rc; b++) {
		if (topo_is_switch(t, b))
			continue;
		memset(state, 0, t->nnodes);
		for (a = 0; a < t->nnodes && !rc; a++)
			if (a != b && !topo_is_switch(t, a))
				rc = walk(a, b, state);
	}
	free(state);
	return rc;
}

/*
 * L4 loses T4 and S1 (the hierarchy experiment's failures): the spines and
 * T3 route h4 over L4 and L3 (ECMP). A bounce from L4 to S2 that S2 may
 * hash back to L4 loops until the TTL runs out; S2 must drop L4 instead.
 */
START_TEST(a_detour_does_not_loop_through_ecmp_routes)
{
	struct elp *all = updown_paths();
	const int *p;
	int k;

	down[port("L4", "t4")] = true;
	down[port("L4", "s1")] = true;
	ck_assert_int_eq(lab_routes_from_paths(t, all, down, &r), 0);
	ck_assert_int_eq(r.unroutable, 0);
	ck_assert_int_eq(walk_all(), 0);
	/*
	 * L4 still gets packets for h4 (from S2 or T3) and bounces them: one
	 * of the two keeps its route to L4, the other is L4's detour.
	 */
	p = lab_route_ports(&r, node("L4"), node("h4"), &k);
	ck_assert_ptr_nonnull(p);
	ck_assert_int_eq(k, 1);
	ck_assert(!strcmp(via("S2", "h4") ?: "", "l3") !=
		  !strcmp(via("T3", "h4") ?: "", "l3"));
	elp_free(all);
}
END_TEST

/* Any one or two failed links: no loop, and no dead end unless counted. */
START_TEST(no_failure_pair_makes_a_loop)
{
	struct elp *all = updown_paths();
	int a, b, rc;

	for (a = 0; a < t->nports; a++)
		for (b = a; b < t->nports; b++) {
			if (a > t->ports[a].peer || b > t->ports[b].peer ||
			    !topo_is_switch(t, port_node(t, a)) ||
			    !topo_is_switch(t, port_peer_node(t, a)) ||
			    !topo_is_switch(t, port_node(t, b)) ||
			    !topo_is_switch(t, port_peer_node(t, b)))
				continue;
			memset(down, 0, t->nports * sizeof(*down));
			down[a] = down[b] = true;
			ck_assert_int_eq(
				lab_routes_from_paths(t, all, down, &r), 0);
			rc = walk_all();
			ck_assert_msg(rc == 0 || (rc == 2 && r.unroutable > 0),
				      "%s:%s and %s:%s down: %s",
				      t->nodes[port_node(t, a)].name,
				      t->ports[a].name,
				      t->nodes[port_node(t, b)].name,
				      t->ports[b].name,
				      rc == 1 ? "a loop" : "a dead end");
			lab_routes_free(&r);
		}
	elp_free(all);
}
END_TEST

START_TEST(a_path_must_end_at_a_host)
{
	struct elp *bad = elp_from_str(t, "h1 T1 L1\n");

	capture_begin();
	ck_assert_int_eq(lab_routes_from_paths(t, bad, down, &r), -1);
	ck_assert_ptr_nonnull(strstr(capture_end(), "t.elp:1:"));
	elp_free(bad);
}
END_TEST

START_TEST(shortest_paths_use_every_spine)
{
	const int *p;
	int k;

	lab_routes_shortest(t, down, &r);
	p = lab_route_ports(&r, node("L1"), node("h3"), &k);
	ck_assert_int_eq(k, 2);
	p = lab_route_ports(&r, node("T1"), node("h4"), &k);
	ck_assert_int_eq(k, 2);
	ck_assert_str_eq(via("L1", "h1"), "t1");
	/* Hosts never forward: no route of T1 to h2 goes through h1. */
	p = lab_route_ports(&r, node("T1"), node("h2"), &k);
	ck_assert_int_eq(k, 2);
	(void)p;
	lab_routes_free(&r);
	/* After L1-S1 fails, L1 reaches the other pod through S2 only. */
	down[port("L1", "s1")] = true;
	lab_routes_shortest(t, down, &r);
	ck_assert_str_eq(via("L1", "h3"), "s2");
}
END_TEST

Suite *lab_routes_suite(void)
{
	Suite *s = suite_create("lab_routes");
	TCase *tc = tcase_create("routes");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, routes_follow_the_paths);
	tcase_add_test(tc, a_failure_bounces_up_at_the_node_in_front_of_it);
	tcase_add_test(tc, paths_sharing_a_destination_make_ecmp);
	tcase_add_test(tc, a_cut_off_host_is_counted_unroutable);
	tcase_add_test(tc, a_detour_does_not_loop_through_ecmp_routes);
	tcase_add_test(tc, no_failure_pair_makes_a_loop);
	tcase_add_test(tc, a_path_must_end_at_a_host);
	tcase_add_test(tc, shortest_paths_use_every_spine);
	suite_add_tcase(s, tc);
	return s;
}
