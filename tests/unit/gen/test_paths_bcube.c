// SPDX-License-Identifier: GPL-2.0
/* BCube dimension-order (digit-correcting) paths. */
#include <check.h>

#include "gen_check.h"
#include "lib/log.h"

/* Address digits from a generated server name s<digits> (n <= 10). */
static int digit(const struct topo *t, int server, int level, int k)
{
	return t->nodes[server].name[1 + k - level] - '0';
}

static int switch_level(const struct topo *t, int sw)
{
	return t->nodes[sw].name[1] - '0';
}

static void assert_bcube_paths(int n, int k, enum bcube_order order)
{
	struct topo *t = topo_gen_bcube(n, k);
	struct gen_ends ends = ends_of(t, BETWEEN_AUTO, true);
	struct elp *e = elp_new("bcube");
	struct path_sink s;
	int i, servers = ends.n;

	sink_elp(&s, e);
	ck_assert_int_eq(paths_bcube(t, &ends, order, &s), 0);
	ck_assert_int_eq(e->npaths, servers * (servers - 1));
	ck_assert_int_le(s.max_len, 2 * (k + 1));
	assert_all_walks(t, e);
	for (i = 0; i < e->npaths; i++) {
		const int32_t *h = elp_hops(e, i);
		int len = elp_len(e, i), a = path_src(t, e, i),
		    b = path_dst(t, e, i);
		int diff = 0, j, last = order == BCUBE_HIGH_FIRST ? k + 1 : -1;

		for (j = 0; j <= k; j++)
			diff += digit(t, a, j, k) != digit(t, b, j, k);
		/* One switch per differing digit: server, switch, server, ... */
		ck_assert_int_eq(len, 2 * diff);
		for (j = 0; j < len; j += 2) {
			int sv = port_node(t, h[j]),
			    sw = port_peer_node(t, h[j]);
			int next = port_peer_node(t, h[j + 1]),
			    lv = switch_level(t, sw), d;

			ck_assert_int_eq(t->nodes[sv].kind, NODE_HOST);
			ck_assert_int_eq(t->nodes[sw].kind, NODE_SWITCH);
			/* Levels in dimension order, each correcting its digit to b's. */
			if (order == BCUBE_HIGH_FIRST)
				ck_assert_int_lt(lv, last);
			else
				ck_assert_int_gt(lv, last);
			last = lv;
			for (d = 0; d <= k; d++)
				ck_assert_int_eq(digit(t, next, d, k),
						 d == lv ? digit(t, b, d, k) :
							   digit(t, sv, d, k));
		}
	}
	assert_elp_round_trip(t, e);
	elp_free(e);
	gen_ends_free(&ends);
	topo_free(t);
}

START_TEST(bcube_paths_correct_digits_high_first)
{
	assert_bcube_paths(2, 1, BCUBE_HIGH_FIRST);
	assert_bcube_paths(4, 1, BCUBE_HIGH_FIRST);
	assert_bcube_paths(3, 2, BCUBE_HIGH_FIRST);
	assert_bcube_paths(2, 3, BCUBE_HIGH_FIRST);
}
END_TEST

START_TEST(bcube_paths_correct_digits_low_first)
{
	assert_bcube_paths(4, 1, BCUBE_LOW_FIRST);
	assert_bcube_paths(3, 2, BCUBE_LOW_FIRST);
}
END_TEST

/* Parallel paths: one per differing digit i, levels i, i-1, ... cyclically. */
static void assert_parallel(int n, int k)
{
	struct topo *t = topo_gen_bcube(n, k);
	struct gen_ends ends = ends_of(t, BETWEEN_AUTO, true);
	struct elp *e = elp_new("bcube");
	struct path_sink s;
	int i = 0, a, b, want = 0;

	sink_elp(&s, e);
	ck_assert_int_eq(paths_bcube(t, &ends, BCUBE_PARALLEL, &s), 0);
	assert_all_walks(t, e);
	for (b = 0; b < ends.n; b++)
		for (a = 0; a < ends.n; a++) {
			int x = ends.node[a], z = ends.node[b], lv, diff = 0;

			if (a == b)
				continue;
			for (lv = 0; lv <= k; lv++)
				diff += digit(t, x, lv, k) !=
					digit(t, z, lv, k);
			want += diff;
			/* In order: start levels k..0 among the differing digits. */
			for (lv = k; lv >= 0; lv--) {
				const int32_t *h;
				int j, step;

				if (digit(t, x, lv, k) == digit(t, z, lv, k))
					continue;
				ck_assert_int_lt(i, e->npaths);
				h = elp_hops(e, i);
				ck_assert_int_eq(path_src(t, e, i), x);
				ck_assert_int_eq(path_dst(t, e, i), z);
				ck_assert_int_eq(elp_len(e, i), 2 * diff);
				/* Then the differing levels below lv, wrapping to k. */
				for (j = 0, step = 0; step <= k; step++) {
					int l = ((lv - step) % (k + 1) + k +
						 1) %
						(k + 1);

					if (digit(t, x, l, k) ==
					    digit(t, z, l, k))
						continue;
					ck_assert_int_eq(
						switch_level(t,
							     port_peer_node(
								     t, h[j])),
						l);
					j += 2;
				}
				i++;
			}
		}
	ck_assert_int_eq(e->npaths, want);
	elp_free(e);
	gen_ends_free(&ends);
	topo_free(t);
}

START_TEST(bcube_parallel_paths_start_at_each_differing_digit)
{
	assert_parallel(4, 1);
	assert_parallel(3, 2);
	assert_parallel(2, 3);
}
END_TEST

START_TEST(bcube_refuses_what_is_not_a_bcube)
{
	struct clos_opts o;
	struct topo *t;
	struct gen_ends ends;
	struct path_sink s;

	clos_defaults(&o);
	t = topo_gen_clos(&o);
	ends = ends_of(t, BETWEEN_AUTO, true);
	sink_count(&s);
	log_quiet = true;
	ck_assert_int_eq(paths_bcube(t, &ends, BCUBE_HIGH_FIRST, &s), -1);
	gen_ends_free(&ends);
	topo_free(t);
	/* s1 and s3 swapped on level 1: switch a joins servers 00 and 11. */
	t = topo_from_str("host s0\nhost s1\nhost s2\nhost s3\n"
			  "switch a\nswitch b\nswitch c\nswitch d\n"
			  "link s0:eth0 a:eth1\nlink s1:eth0 a:eth2\n"
			  "link s2:eth0 b:eth1\nlink s3:eth0 b:eth2\n"
			  "link s0:eth1 c:eth1\nlink s2:eth1 c:eth2\n"
			  "link s3:eth1 d:eth1\nlink s1:eth1 d:eth2\n");
	ends = ends_of(t, BETWEEN_AUTO, true);
	ck_assert_int_eq(paths_bcube(t, &ends, BCUBE_HIGH_FIRST, &s), -1);
	log_quiet = false;
	ck_assert_int_eq(s.paths, 0);
	gen_ends_free(&ends);
	topo_free(t);
}
END_TEST

Suite *paths_bcube_suite(void)
{
	Suite *s = suite_create("paths_bcube");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, bcube_paths_correct_digits_high_first);
	tcase_add_test(tc, bcube_paths_correct_digits_low_first);
	tcase_add_test(tc, bcube_parallel_paths_start_at_each_differing_digit);
	tcase_add_test(tc, bcube_refuses_what_is_not_a_bcube);
	suite_add_tcase(s, tc);
	return s;
}
