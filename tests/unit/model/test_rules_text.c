// SPDX-License-Identifier: GPL-2.0
/*
 * A switch's rules written straight as compact JSON text (rules_text.h)
 * against jansson's compact dump of the same switch as a tree
 * (rules_switch_json): byte for byte, with wildcards, explicit lossy
 * answers and switches without rules or ports, and with port names
 * jansson has to escape (quotes, a backslash, a control byte, non-ASCII:
 * no checked rules hold such names, but the writer must not depend on
 * it); and a port index past the switch's ports, and a name that is no
 * UTF-8, refused instead of read past the names or written as no JSON.
 */
#include <check.h>
#include <jansson.h>

#include "model/rules_blob.h"
#include "model/rules_text.h"
#include "testlib.h"

static const char *odd_json =
	"{\"format\":\"tagger-rules/1\",\"lossy\":{\"tag\":0,\"priority\":0},"
	"\"tags\":[{\"tag\":5,\"priority\":1},{\"tag\":9,\"priority\":2}],"
	"\"hosts\":{\"h1\":{\"tag\":5}},"
	"\"switches\":{"
	"\"A\":{\"ports\":[\"x\",\"y\",\"z\"],"
	"\"classify\":[{\"in\":\"x\",\"tag\":5,\"priority\":1},"
	"{\"in\":\"*\",\"tag\":9,\"priority\":2},"
	"{\"in\":\"z\",\"tag\":9,\"priority\":0}],"
	"\"rewrite\":[{\"tag\":5,\"in\":\"x\",\"out\":\"y\","
	"\"new_tag\":9},"
	"{\"tag\":9,\"in\":\"*\",\"out\":\"z\",\"new_tag\":5},"
	"{\"tag\":5,\"in\":\"y\",\"out\":\"*\",\"new_tag\":0},"
	"{\"tag\":9,\"in\":\"*\",\"out\":\"*\",\"new_tag\":0}]},"
	"\"B\":{\"ports\":[\"a\"],\"classify\":[],\"rewrite\":[]},"
	"\"C\":{\"ports\":[],\"classify\":[],\"rewrite\":[]}}}";

/* Switch A's ports renamed to names a JSON string must escape. */
static void odd_names(struct rules *r)
{
	static const char *const odd[] = { "x\"1\\", "y/\xc3\xa9", "z\001" };
	int k;

	for (k = 0; k < 3; k++) {
		free(r->sw[0].ports[k]);
		r->sw[0].ports[k] = xstrdup(odd[k]);
	}
}

static char *tree_text(const struct rules *r, int sw)
{
	json_t *j = rules_switch_json(r, sw);
	char *s = json_dumps(j, JSON_COMPACT);

	json_decref(j);
	return s;
}

START_TEST(text_is_the_trees_compact_dump)
{
	json_t *doc;
	struct rules *r = rules_from_str(odd_json, &doc);
	int sw, rc = -2;

	ck_assert_int_eq(r->nsw, 3);
	odd_names(r);
	for (sw = 0; sw < r->nsw; sw++) {
		char *want = tree_text(r, sw);
		char *got = CAPTURE(f, rc = rules_switch_write(f, r, sw));

		ck_assert_int_eq(rc, 0);
		ck_assert_str_eq(got, want);
		free(got);
		free(want);
	}
	rules_free(r);
	json_decref(doc);
}
END_TEST

START_TEST(port_past_the_switch_is_refused)
{
	json_t *doc;
	struct rules *r = rules_from_str(odd_json, &doc);
	int rc = 0;

	r->sw[0].rewrite[1].out = (uint16_t)r->sw[0].nports;
	free(CAPTURE(f, rc = rules_switch_write(f, r, 0)));
	ck_assert_int_eq(rc, -1);
	r->sw[0].rewrite[1].out = RULES_ANY;
	r->sw[0].classify[0].in = 7;
	free(CAPTURE(f, rc = rules_switch_write(f, r, 0)));
	ck_assert_int_eq(rc, -1);
	/* not UTF-8: no JSON string */
	free(r->sw[1].ports[0]);
	r->sw[1].ports[0] = xstrdup("a\xff");
	free(CAPTURE(f, rc = rules_switch_write(f, r, 1)));
	ck_assert_int_eq(rc, -1);
	rules_free(r);
	json_decref(doc);
}
END_TEST

Suite *rules_text_suite(void)
{
	Suite *s = suite_create("rules_text");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, text_is_the_trees_compact_dump);
	tcase_add_test(tc, port_past_the_switch_is_refused);
	suite_add_tcase(s, tc);
	return s;
}
