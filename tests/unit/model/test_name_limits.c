// SPDX-License-Identifier: GPL-2.0
/*
 * Node and port names have one limit, NAME_MAX_LEN bytes, in every reader
 * (topology, ELP, rules JSON), with the same message. A 600-byte link end
 * once made topo_add_link() fail half-way and the parser write ports[-1].
 */
#include <check.h>
#include <jansson.h>

#include "model/rules.h"
#include "testlib.h"

#define LONG_MSG "is longer than 255 bytes"

/* n copies of c, malloc'd */
static char *repeat(char c, int n)
{
	char *s = xmalloc(n + 1);

	memset(s, c, n);
	s[n] = '\0';
	return s;
}

static const char *topo_err(const char *text)
{
	struct topo *t;
	const char *out;

	capture_begin();
	t = topo_from_str(text);
	out = capture_end();
	ck_assert_ptr_null(t);
	return out;
}

START_TEST(topo_link_end_over_the_limit)
{
	char *a = repeat('A', 600), buf[2048];

	snprintf(buf, sizeof(buf), "switch %s\nswitch b\nlink %s:p b:p\n", a,
		 a);
	ck_assert_ptr_nonnull(strstr(topo_err(buf), "t.topo:1: name \"AAAA"));
	/* the node name alone fits: the port is what is too long */
	snprintf(buf, sizeof(buf), "switch a\nswitch b\nlink a:%.256s b:p\n",
		 a);
	ck_assert_ptr_nonnull(strstr(topo_err(buf), "t.topo:3: name"));
	ck_assert_ptr_nonnull(strstr(topo_err(buf), LONG_MSG));
	free(a);
}
END_TEST

START_TEST(topo_names_at_the_limit_are_fine)
{
	char *a = repeat('A', NAME_MAX_LEN), *p = repeat('p', NAME_MAX_LEN),
	     buf[2048];
	struct topo *t;

	snprintf(buf, sizeof(buf), "switch %s\nswitch b\nlink %s:%s b:%s\n", a,
		 a, p, p);
	t = topo_from_str(buf);
	ck_assert_ptr_nonnull(t);
	ck_assert_int_eq(t->nports, 2);
	ck_assert_int_eq(topo_find_port(t, 0, p), 0);
	topo_free(t);
	free(a);
	free(p);
}
END_TEST

/* A link that cannot be added leaves no port behind. */
START_TEST(add_link_is_all_or_nothing)
{
	struct topo *t = topo_new("x");
	char *p = repeat('p', 600);
	int a = topo_add_node(t, "a", NODE_SWITCH, LAYER_NONE);
	int b = topo_add_node(t, "b", NODE_SWITCH, LAYER_NONE);

	ck_assert_int_eq(topo_add_link(t, a, "ok", b, p), -1);
	ck_assert_int_eq(topo_add_link(t, a, p, b, "ok"), -1);
	ck_assert_int_eq(t->nports, 0);
	ck_assert_int_eq(t->nodes[a].nports, 0);
	ck_assert_int_eq(topo_add_link(t, a, "ok", b, "ok"), 0);
	ck_assert_int_eq(t->nports, 2);
	topo_free(t);
	free(p);
}
END_TEST

START_TEST(elp_names_over_the_limit)
{
	struct topo *t = topo_from_str("switch a\nswitch b\nlink a:1 b:1\n");
	char *x = repeat('x', 256), buf[1024];
	const char *out;
	struct elp *e;

	snprintf(buf, sizeof(buf), "a b\n%s b\n", x);
	capture_begin();
	e = elp_from_str(t, buf);
	out = capture_end();
	ck_assert_ptr_null(e);
	ck_assert_ptr_nonnull(strstr(out, "t.elp:2: name \"xxxx"));
	ck_assert_ptr_nonnull(strstr(out, LONG_MSG));
	snprintf(buf, sizeof(buf), "a:%s b\n", x);
	capture_begin();
	e = elp_from_str(t, buf);
	out = capture_end();
	ck_assert_ptr_null(e);
	ck_assert_ptr_nonnull(strstr(out, "t.elp:1: name"));
	free(x);
	topo_free(t);
}
END_TEST

static const char *rules_err(const char *sw, const char *port)
{
	json_t *root =
		json_pack("{s:s, s:{s:i, s:i}, s:[], s:{s:{s:[s]}}}", "format",
			  RULES_FORMAT, "lossy", "tag", 0, "priority", 0,
			  "tags", "switches", sw, "ports", port);
	struct rules *r;
	const char *out;

	capture_begin();
	r = rules_from_json(root, "r.json");
	out = capture_end();
	json_decref(root);
	ck_assert_ptr_null(r);
	return out;
}

START_TEST(rules_names_over_the_limit)
{
	char *x = repeat('x', 256);

	ck_assert_ptr_nonnull(
		strstr(rules_err(x, "p"), "r.json: switches.xxx"));
	ck_assert_ptr_nonnull(strstr(rules_err(x, "p"), LONG_MSG));
	ck_assert_ptr_nonnull(
		strstr(rules_err("A", x), "r.json: switches.A.ports[0]: name"));
	ck_assert_ptr_nonnull(strstr(rules_err("A", x), LONG_MSG));
	free(x);
}
END_TEST

Suite *name_limits_suite(void)
{
	Suite *s = suite_create("name_limits");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, topo_link_end_over_the_limit);
	tcase_add_test(tc, topo_names_at_the_limit_are_fine);
	tcase_add_test(tc, add_link_is_all_or_nothing);
	tcase_add_test(tc, elp_names_over_the_limit);
	tcase_add_test(tc, rules_names_over_the_limit);
	suite_add_tcase(s, tc);
	return s;
}
