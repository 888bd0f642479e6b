// SPDX-License-Identifier: GPL-2.0
/*
 * The union check over N rule sets (dp_union_check_sets), as tagger fabric
 * runs it over every live version: around a triangle A -> B -> C -> A,
 * three versions each forward tag 5 losslessly at one switch only. Any two
 * together leave a path, all three close the cycle: the union of N sets is
 * not the pairwise unions.
 */
#include <check.h>

#include "dataplane/dp_union.h"
#include "testlib.h"

#define HEAD                                                                   \
	"{\"format\":\"tagger-rules/1\",\"lossy\":{\"tag\":0,\"priority\":0}," \
	"\"tags\":[{\"tag\":5,\"priority\":1}],\"switches\":{"
#define LINKS \
	"\"links\":[[\"A:b\",\"B:a\"],[\"B:c\",\"C:b\"],[\"C:a\",\"A:c\"]]}"
/* The version that forwards at X: the others' rewrites answer lossy. */
static const char *version(int at)
{
	static const char *v[3] = {
		HEAD
		"\"A\":{\"ports\":[\"c\",\"b\"],\"classify\":[{\"in\":\"c\","
		"\"tag\":5,\"priority\":1}],\"rewrite\":[{\"tag\":5,\"in\":"
		"\"c\",\"out\":\"b\",\"new_tag\":5}]},"
		"\"B\":{\"ports\":[\"a\",\"c\"],\"classify\":[{\"in\":\"a\","
		"\"tag\":5,\"priority\":1}],\"rewrite\":[]},"
		"\"C\":{\"ports\":[\"b\",\"a\"],\"classify\":[{\"in\":\"b\","
		"\"tag\":5,\"priority\":1}],\"rewrite\":[]}}," LINKS,
		HEAD
		"\"A\":{\"ports\":[\"c\",\"b\"],\"classify\":[{\"in\":\"c\","
		"\"tag\":5,\"priority\":1}],\"rewrite\":[]},"
		"\"B\":{\"ports\":[\"a\",\"c\"],\"classify\":[{\"in\":\"a\","
		"\"tag\":5,\"priority\":1}],\"rewrite\":[{\"tag\":5,\"in\":"
		"\"a\",\"out\":\"c\",\"new_tag\":5}]},"
		"\"C\":{\"ports\":[\"b\",\"a\"],\"classify\":[{\"in\":\"b\","
		"\"tag\":5,\"priority\":1}],\"rewrite\":[]}}," LINKS,
		HEAD
		"\"A\":{\"ports\":[\"c\",\"b\"],\"classify\":[{\"in\":\"c\","
		"\"tag\":5,\"priority\":1}],\"rewrite\":[]},"
		"\"B\":{\"ports\":[\"a\",\"c\"],\"classify\":[{\"in\":\"a\","
		"\"tag\":5,\"priority\":1}],\"rewrite\":[]},"
		"\"C\":{\"ports\":[\"b\",\"a\"],\"classify\":[{\"in\":\"b\","
		"\"tag\":5,\"priority\":1}],\"rewrite\":[{\"tag\":5,\"in\":"
		"\"b\",\"out\":\"a\",\"new_tag\":5}]}}," LINKS,
	};
	return v[at];
}

START_TEST(three_sets_close_a_cycle_no_two_do)
{
	json_t *d[3];
	struct rules *r[3];
	const struct rules *rs[3];
	struct dp_union_result res;
	struct dp_links l;
	int k, j, seen[3] = { 0 };

	for (k = 0; k < 3; k++) {
		r[k] = rules_from_str(version(k), &d[k]);
		ck_assert_ptr_nonnull(r[k]);
	}
	ck_assert_int_eq(dp_links_from_json(d[0], "t.json", &l), 1);
	for (k = 0; k < 3; k++)
		for (j = 0; j < 3; j++) {
			rs[0] = r[k];
			rs[1] = r[j];
			ck_assert_int_eq(dp_union_check_sets(rs, 2, &l, &res),
					 1);
			dp_union_free(&res);
		}
	for (k = 0; k < 3; k++)
		rs[k] = r[k];
	ck_assert_int_eq(dp_union_check_sets(rs, 3, &l, &res), 0);
	ck_assert_int_eq(res.len, 3);
	/* Each edge of the cycle comes from another version. */
	for (k = 0; k < res.len; k++) {
		ck_assert_int_eq(res.cycle[k].to,
				 res.cycle[(k + 1) % res.len].from);
		ck_assert_int_lt(res.cycle[k].rules, 3);
		seen[res.cycle[k].rules]++;
	}
	ck_assert(seen[0] == 1 && seen[1] == 1 && seen[2] == 1);
	dp_union_free(&res);
	/* The two-set form is the same check. */
	ck_assert_int_eq(dp_union_check(r[0], r[1], &l, &res), 1);
	dp_union_free(&res);
	/* No sets, or more than it takes: refused, nothing to free. */
	ck_assert_int_eq(dp_union_check_sets(rs, 0, &l, &res), -1);
	ck_assert_int_eq(
		dp_union_check_sets(rs, DP_UNION_MAX_SETS + 1, &l, &res), -1);
	ck_assert_int_eq(res.len, 0);
	dp_links_free(&l);
	for (k = 0; k < 3; k++) {
		rules_free(r[k]);
		json_decref(d[k]);
	}
}
END_TEST

Suite *dp_union_sets_suite(void)
{
	Suite *s = suite_create("dp_union_sets");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, three_sets_close_a_cycle_no_two_do);
	suite_add_tcase(s, tc);
	return s;
}
