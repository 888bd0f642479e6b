// SPDX-License-Identifier: GPL-2.0
/*
 * The union check before a live update (userspace/dataplane/dp_union.c): two rule
 * sets, each deadlock-free alone, whose union closes a cycle of buffer
 * dependencies around a triangle A -> B -> C -> A.
 */
#include <check.h>

#include "dataplane/dp_union.h"
#include "testlib.h"

#define HEAD                                                                   \
	"{\"format\":\"tagger-rules/1\",\"lossy\":{\"tag\":0,\"priority\":0}," \
	"\"tags\":[{\"tag\":5,\"priority\":1}],"
#define LINKS \
	"\"links\":[[\"A:b\",\"B:a\"],[\"B:c\",\"C:b\"],[\"C:a\",\"A:c\"],[\"h:e\",\"A:h\"]]}"
#define PORTS(x, y) "\"ports\":[\"" x "\",\"" y "\",\"h\"]"

/* Old: A (from C) -> B -> C. */
static const char *old_json = HEAD
	"\"switches\":{"
	"\"A\":{" PORTS(
		"b",
		"c") ",\"classify\":[{\"in\":\"c\",\"tag\":5,\"priority\":1}],"
		     "\"rewrite\":[{\"tag\":5,\"in\":\"c\",\"out\":\"b\",\"new_tag\":5}]},"
		     "\"B\":{" PORTS(
			     "a",
			     "c") ",\"classify\":[{\"in\":\"a\",\"tag\":5,\"priority\":1}],"
				  "\"rewrite\":[{\"tag\":5,\"in\":\"a\",\"out\":\"c\",\"new_tag\":5}]},"
				  "\"C\":{" PORTS(
					  "a",
					  "b") ",\"classify\":[{\"in\":\"b\",\"tag\":5,\"priority\":1}],"
					       "\"rewrite\":[]}}," LINKS;

/* New: C (from B) -> A, nothing else. */
static const char *new_json = HEAD
	"\"switches\":{"
	"\"A\":{" PORTS(
		"b",
		"c") ",\"classify\":[{\"in\":\"c\",\"tag\":5,\"priority\":1}],"
		     "\"rewrite\":[]},"
		     "\"B\":{" PORTS(
			     "a",
			     "c") ",\"classify\":[],\"rewrite\":[]},"
				  "\"C\":{" PORTS(
					  "a",
					  "b") ",\"classify\":[{\"in\":\"b\",\"tag\":5,\"priority\":1}],"
					       "\"rewrite\":[{\"tag\":5,\"in\":\"b\",\"out\":\"a\",\"new_tag\":5}]}}," LINKS;

START_TEST(each_set_alone_is_acyclic_and_the_union_is_not)
{
	json_t *d1, *d2, *cyc;
	struct rules *a = rules_from_str(old_json, &d1),
		     *b = rules_from_str(new_json, &d2);
	struct dp_union_result res;
	struct dp_links l;
	int k;

	ck_assert_int_eq(dp_links_from_json(d1, "t.json", &l), 1);
	ck_assert_int_eq(l.n, 4);
	ck_assert_int_eq(dp_union_check(a, a, &l, &res), 1);
	ck_assert_int_eq(res.deps, 2);
	dp_union_free(&res);
	ck_assert_int_eq(dp_union_check(b, b, &l, &res), 1);
	ck_assert_int_eq(res.deps, 1);
	dp_union_free(&res);
	ck_assert_int_eq(dp_union_check(a, b, &l, &res), 0);
	ck_assert_int_eq(res.len, 3);
	for (k = 0; k < res.len; k++)
		ck_assert_int_eq(res.cycle[k].to,
				 res.cycle[(k + 1) % res.len].from);
	/* The closing dependency comes from the new rules at C. */
	for (k = 0; k < res.len; k++)
		if (!strcmp(res.port_names[res.cycle[k].from / 8], "C:b"))
			ck_assert_int_eq(res.cycle[k].rules, 1);
	cyc = dp_union_cycle_json(&res);
	ck_assert_int_eq(json_array_size(cyc), 3);
	json_decref(cyc);
	dp_union_free(&res);
	dp_links_free(&l);
	rules_free(a);
	rules_free(b);
	json_decref(d1);
	json_decref(d2);
}
END_TEST

START_TEST(without_the_closing_link_the_union_is_acyclic)
{
	json_t *d1, *d2, *links;
	struct rules *a = rules_from_str(old_json, &d1),
		     *b = rules_from_str(new_json, &d2);
	struct dp_union_result res;
	struct dp_links l;

	links = json_object_get(d1, "links");
	json_array_remove(links, 2); /* C:a - A:c */
	ck_assert_int_eq(dp_links_from_json(d1, "t.json", &l), 1);
	ck_assert_int_eq(dp_union_check(a, b, &l, &res), 1);
	dp_union_free(&res);
	dp_links_free(&l);
	rules_free(a);
	rules_free(b);
	json_decref(d1);
	json_decref(d2);
}
END_TEST

START_TEST(bad_links_are_input_errors)
{
	json_t *doc = json_loads("{\"links\":[[\"A:b\"]]}", 0, NULL);
	struct dp_links l;
	const char *err;

	capture_begin();
	ck_assert_int_eq(dp_links_from_json(doc, "t.json", &l), -1);
	err = capture_end();
	ck_assert_ptr_nonnull(strstr(err, "t.json: links[0]"));
	json_decref(doc);
	doc = json_loads("{}", 0, NULL);
	ck_assert_int_eq(dp_links_from_json(doc, "t.json", &l), 0);
	json_decref(doc);
}
END_TEST

Suite *dp_union_suite(void)
{
	Suite *s = suite_create("dp_union");
	TCase *tc = tcase_create("union");

	tcase_add_test(tc, each_set_alone_is_acyclic_and_the_union_is_not);
	tcase_add_test(tc, without_the_closing_link_the_union_is_acyclic);
	tcase_add_test(tc, bad_links_are_input_errors);
	suite_add_tcase(s, tc);
	return s;
}
