// SPDX-License-Identifier: GPL-2.0
/* ELP parser: hops, named ports, and one test per kind of bad input. */
#include <check.h>

#include "testlib.h"
#include "lib/util.h"

START_TEST(parses_paths_into_egress_ports)
{
	struct topo *t = topo_from_str(SEED_CLOS_TOPO);
	struct elp *e =
		elp_from_str(t, "h1 T1 L1 S1 L3 T3 h3\n# c\nT1 L2 T2\n");
	const int32_t *h;

	ck_assert_ptr_nonnull(e);
	ck_assert_int_eq(e->npaths, 2);
	ck_assert_int_eq(elp_len(e, 0), 6);
	ck_assert_int_eq(elp_len(e, 1), 2);
	ck_assert_int_eq(e->line[1], 3);
	h = elp_hops(e, 0);
	ck_assert_int_eq(port_node(t, h[0]), topo_find_node(t, "h1"));
	ck_assert_int_eq(port_peer_node(t, h[5]), topo_find_node(t, "h3"));
	ck_assert_str_eq(t->ports[h[2]].name, "s1");
	elp_free(e);
	topo_free(t);
}
END_TEST

START_TEST(named_ports_resolve_parallel_links)
{
	struct topo *t =
		topo_from_str("switch a\nswitch b\nswitch c\n"
			      "link a:1 b:1\nlink a:2 b:2\nlink b:3 c:1\n");
	struct elp *e = elp_from_str(t, "a:2 b c\n");
	char *buf;

	ck_assert_ptr_nonnull(e);
	ck_assert_str_eq(t->ports[elp_hops(e, 0)[0]].name, "2");
	buf = elp_to_str(t, e);
	ck_assert_str_eq(buf, "a:2 b c\n");
	free(buf);
	elp_free(e);
	topo_free(t);
}
END_TEST

static const char *par = "switch a\nswitch b\nswitch c\nhost h\n"
			 "link a:1 b:1\nlink a:2 b:2\nlink b:3 c:1\n";

static const struct {
	const char *text;
	const char *msg;
} bad[] = {
	{ "a:1 b c\nx b\n", "t.elp:2: unknown node \"x\"" },
	{ "a c\n", "t.elp:1: no link between \"a\" and \"c\"" },
	{ "a b\n", "t.elp:1: hop \"a\" -> \"b\" is ambiguous" },
	{ "a:9 b\n", "t.elp:1: node \"a\" has no port \"9\"" },
	{ "b:3 a\n", "t.elp:1: port b:3 leads to \"c\", not \"a\"" },
	{ "a:1 b c:1\n", "t.elp:1: the last node \"c\" leaves by no port" },
	{ "a\n", "t.elp:1: a path needs at least two nodes" },
	{ "h b\n", "t.elp:1: no link between \"h\" and \"b\"" },
	{ "\n# only comments\n", "t.elp: no paths" },
};

START_TEST(rejects_bad_input_with_file_line)
{
	struct topo *t = topo_from_str(par);
	struct elp *e;
	const char *out;

	capture_begin();
	e = elp_from_str(t, bad[_i].text);
	out = capture_end();
	ck_assert_ptr_null(e);
	ck_assert_msg(strstr(out, bad[_i].msg),
		      "case %d: got \"%s\", want \"%s\"", _i, out, bad[_i].msg);
	topo_free(t);
}
END_TEST

Suite *elp_parse_suite(void)
{
	Suite *s = suite_create("elp_parse");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, parses_paths_into_egress_ports);
	tcase_add_test(tc, named_ports_resolve_parallel_links);
	tcase_add_loop_test(tc, rejects_bad_input_with_file_line, 0,
			    ARRAY_SIZE(bad));
	suite_add_tcase(s, tc);
	return s;
}
