// SPDX-License-Identifier: GPL-2.0
/* Jellyfish: simple, regular, connected, reproducible from its seed. */
#include <check.h>

#include "gen_check.h"
#include "lib/log.h"

static bool is_simple_regular_connected(const struct topo *t, int n, int d)
{
	int *seen = calloc(t->nnodes, sizeof(int)),
	    *queue = malloc(t->nnodes * sizeof(int));
	int v, i, head = 0, tail = 0;
	bool ok = true;

	for (v = 0; v < n && ok; v++) {
		const struct topo_node *nd = &t->nodes[v];
		int sw = 0;

		for (i = 0; i < nd->nports; i++) {
			int w = port_peer_node(t, nd->ports[i]);

			if (t->nodes[w].kind != NODE_SWITCH)
				continue;
			sw++;
			/* No self-loop; no parallel link (the hop is unambiguous). */
			ok &= w != v && topo_port_toward(t, v, w) >= 0;
		}
		ok &= sw == d;
	}
	queue[tail++] = 0;
	seen[0] = 1;
	while (head < tail) {
		const struct topo_node *nd = &t->nodes[queue[head++]];

		for (i = 0; i < nd->nports; i++) {
			int w = port_peer_node(t, nd->ports[i]);

			if (!seen[w]) {
				seen[w] = 1;
				queue[tail++] = w;
			}
		}
	}
	ok &= tail == t->nnodes;
	free(seen);
	free(queue);
	return ok;
}

START_TEST(jellyfish_is_simple_regular_and_connected)
{
	struct {
		int n, d;
	} c[] = { { 4, 3 },    { 10, 3 },  { 50, 4 }, { 101, 6 },
		  { 200, 10 }, { 30, 29 }, { 16, 2 } };
	size_t i;
	uint64_t seed;

	for (i = 0; i < ARRAY_SIZE(c); i++)
		for (seed = 1; seed <= 5; seed++) {
			struct topo *t =
				topo_gen_jellyfish(c[i].n, c[i].d, 0, seed);

			ck_assert_ptr_nonnull(t);
			ck_assert_int_eq(t->nnodes, c[i].n);
			ck_assert_int_eq(t->nports, c[i].n * c[i].d);
			ck_assert_msg(
				is_simple_regular_connected(t, c[i].n, c[i].d),
				"n=%d d=%d seed=%llu", c[i].n, c[i].d,
				(unsigned long long)seed);
			topo_free(t);
		}
}
END_TEST

START_TEST(jellyfish_equal_seeds_equal_files_different_seeds_differ)
{
	struct topo *a = topo_gen_jellyfish(60, 5 + 1, 2, 42);
	struct topo *b = topo_gen_jellyfish(60, 6, 2, 42);
	struct topo *c = topo_gen_jellyfish(60, 6, 2, 43);
	char *ta = topo_to_str(a), *tb = topo_to_str(b), *tc = topo_to_str(c);

	ck_assert_str_eq(ta, tb);
	ck_assert_str_ne(ta, tc);
	/* Hosts hang off their switch: h1, h2 on sw1 ... h119, h120 on sw60. */
	ck_assert_int_eq(count_kind(a, NODE_HOST), 120);
	ck_assert(linked(a, "h2", "sw1") && linked(a, "h120", "sw60"));
	ck_assert(is_simple_regular_connected(a, 60, 6));
	free(ta);
	free(tb);
	free(tc);
	topo_free(a);
	topo_free(b);
	topo_free(c);
}
END_TEST

START_TEST(jellyfish_known_seed_gives_a_fixed_graph)
{
	/*
	 * The PRNG is our own (xoshiro256** + splitmix64), so this graph is the
	 * same on every machine and libc; a change here changes every seed's
	 * graph, which users may have published.
	 */
	static const char want[] =
		"switch sw1\nswitch sw2\nswitch sw3\nswitch sw4\nswitch sw5\nswitch sw6\n"
		"link sw1:eth1 sw2:eth1\nlink sw1:eth2 sw4:eth1\nlink sw1:eth3 sw6:eth1\n"
		"link sw2:eth2 sw3:eth1\nlink sw2:eth3 sw5:eth1\nlink sw3:eth2 sw5:eth2\n"
		"link sw3:eth3 sw6:eth2\nlink sw4:eth2 sw5:eth3\nlink sw4:eth3 sw6:eth3\n";
	struct topo *t = topo_gen_jellyfish(6, 3, 0, 1);
	char *s = topo_to_str(t);

	ck_assert_str_eq(s, want);
	free(s);
	topo_free(t);
}
END_TEST

START_TEST(jellyfish_rejects_impossible_parameters)
{
	log_quiet = true;
	ck_assert_ptr_null(topo_gen_jellyfish(5, 3, 0, 1)); /* n d odd */
	ck_assert_ptr_null(topo_gen_jellyfish(4, 4, 0, 1)); /* d >= n */
	ck_assert_ptr_null(topo_gen_jellyfish(10, 1, 0, 1)); /* a matching */
	ck_assert_ptr_null(topo_gen_jellyfish(0, 0, 0, 1));
	log_quiet = false;
}
END_TEST

Suite *jellyfish_suite(void)
{
	Suite *s = suite_create("jellyfish");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, jellyfish_is_simple_regular_and_connected);
	tcase_add_test(
		tc, jellyfish_equal_seeds_equal_files_different_seeds_differ);
	tcase_add_test(tc, jellyfish_known_seed_gives_a_fixed_graph);
	tcase_add_test(tc, jellyfish_rejects_impossible_parameters);
	suite_add_tcase(s, tc);
	return s;
}
