// SPDX-License-Identifier: GPL-2.0
/* Topology parser: the grammar, and one test per kind of bad input. */
#include <check.h>

#include "testlib.h"

START_TEST(parses_nodes_links_layers)
{
	struct topo *t = topo_from_str(SEED_CLOS_TOPO);
	int s1, l1, p;

	ck_assert_ptr_nonnull(t);
	ck_assert_int_eq(t->nnodes, 14);
	ck_assert_int_eq(t->nports, 2 * 20);
	ck_assert_int_eq(topo_nswitches(t), 10);
	s1 = topo_find_node(t, "S1");
	l1 = topo_find_node(t, "L1");
	ck_assert_int_eq(t->nodes[s1].layer, 2);
	p = topo_port_toward(t, l1, s1);
	ck_assert_int_ge(p, 0);
	ck_assert_str_eq(t->ports[p].name, "s1");
	ck_assert_int_eq(port_peer_node(t, p), s1);
	ck_assert(topo_has_layers(t));
	topo_free(t);
}
END_TEST

START_TEST(links_may_precede_nodes_and_comments_are_ignored)
{
	struct topo *t = topo_from_str("# a comment\nlink a:1 b:1  # trailing\n"
				       "\nswitch a\r\nhost b\n");

	ck_assert_ptr_nonnull(t);
	ck_assert_int_eq(t->nports, 2);
	ck_assert(!topo_has_layers(t));
	topo_free(t);
}
END_TEST

START_TEST(parallel_links_are_ambiguous_hops)
{
	struct topo *t = topo_from_str(
		"switch a\nswitch b\nlink a:1 b:1\nlink a:2 b:2\n");

	ck_assert_ptr_nonnull(t);
	ck_assert_int_eq(topo_port_toward(t, 0, 1), PORT_AMBIGUOUS);
	ck_assert_int_eq(topo_find_port(t, 0, "2"), 2);
	topo_free(t);
}
END_TEST

START_TEST(writes_what_it_reads)
{
	struct topo *t = topo_from_str(SEED_CLOS_TOPO), *u;
	char *buf = topo_to_str(t);

	u = topo_from_str(buf);
	ck_assert_ptr_nonnull(u);
	ck_assert_int_eq(u->nnodes, t->nnodes);
	ck_assert_int_eq(u->nports, t->nports);
	ck_assert_int_eq(u->nodes[topo_find_node(u, "S2")].layer, 2);
	topo_free(t);
	topo_free(u);
	free(buf);
}
END_TEST

static const struct {
	const char *text;
	const char *msg;
} bad[] = {
	{ "switch a\nrouter b\n", "t.topo:2: what is \"router\"" },
	{ "switch\n", "t.topo:1: switch needs a name" },
	{ "switch a/b\n", "t.topo:1: bad name" },
	{ "switch ..\n", "t.topo:1: bad name" },
	{ "switch .\n", "t.topo:1: bad name" },
	{ "switch a\nswitch b\nlink a:.. b:1\n", "t.topo:3: bad link end" },
	{ "switch a\nswitch a\n",
	  "t.topo:2: node \"a\" already declared at line 1" },
	{ "switch a\nhost a\n", "t.topo:2: node \"a\" already declared" },
	{ "switch a color=red\n", "t.topo:1: unknown switch attribute" },
	{ "switch a layer=x\n", "t.topo:1: layer must be a number" },
	{ "switch a layer=1 layer=2\n", "t.topo:1: layer given twice" },
	{ "host h extra\n", "t.topo:1: host takes a name only" },
	{ "switch a\nlink a:1\n", "t.topo:2: link takes two ends" },
	{ "switch a\nswitch b\nlink a b:1\n",
	  "t.topo:3: link end \"a\" must be" },
	{ "switch a\nlink a:1 c:1\n", "t.topo:2: unknown node \"c\"" },
	{ "switch a\nswitch b\nswitch c\nlink a:1 b:1\nlink a:1 c:1\n",
	  "t.topo:5: port a:1 is already linked at line 4" },
	{ "switch a\nlink a:1 a:2\n", "t.topo:2: link from \"a\" to itself" },
	{ "switch a\nswitch b\nlink a:p/1 b:1\n", "t.topo:3: bad link end" },
	{ "# nothing\n", "t.topo: no switches or hosts" },
};

START_TEST(rejects_bad_input_with_file_line)
{
	struct topo *t;
	const char *out;

	capture_begin();
	t = topo_from_str(bad[_i].text);
	out = capture_end();
	ck_assert_ptr_null(t);
	ck_assert_msg(strstr(out, bad[_i].msg),
		      "case %d: got \"%s\", want \"%s\"", _i, out, bad[_i].msg);
}
END_TEST

Suite *topo_parse_suite(void)
{
	Suite *s = suite_create("topo_parse");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, parses_nodes_links_layers);
	tcase_add_test(tc, links_may_precede_nodes_and_comments_are_ignored);
	tcase_add_test(tc, parallel_links_are_ambiguous_hops);
	tcase_add_test(tc, writes_what_it_reads);
	tcase_add_loop_test(tc, rejects_bad_input_with_file_line, 0,
			    ARRAY_SIZE(bad));
	suite_add_tcase(s, tc);
	return s;
}
