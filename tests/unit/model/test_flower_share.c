// SPDX-License-Identifier: GPL-2.0
/*
 * Ports with the same flower lists: which share, which stay private (the
 * first ports given, and those alike with no other), and the filters the
 * groups save; an egress list differs as soon as one rewrite does.
 */
#include <check.h>

#include "model/flower_share.h"
#include "testlib.h"

/* a, b, c classify tag 10 alike, d tag 20; rewrites only out of d. */
static const char *rules_json =
	"{\"format\":\"tagger-rules/1\",\"lossy\":{\"tag\":0,\"priority\":0},"
	"\"tags\":[{\"tag\":10,\"priority\":3},{\"tag\":20,\"priority\":4}],"
	"\"switches\":{\"S\":{\"ports\":[\"a\",\"b\",\"c\",\"d\"],"
	"\"classify\":[{\"in\":\"a\",\"tag\":10,\"priority\":3},"
	"{\"in\":\"b\",\"tag\":10,\"priority\":3},"
	"{\"in\":\"c\",\"tag\":10,\"priority\":3},"
	"{\"in\":\"d\",\"tag\":20,\"priority\":4}],"
	"\"rewrite\":[{\"tag\":10,\"in\":\"a\",\"out\":\"d\",\"new_tag\":20},"
	"{\"tag\":10,\"in\":\"b\",\"out\":\"c\",\"new_tag\":20}]}}}";

static struct flower_port fp[4];
static struct rules *r;
static json_t *root;

static void setup(void)
{
	json_error_t e;
	int p;

	root = json_loads(rules_json, 0, &e);
	r = rules_from_json(root, "t.json");
	ck_assert_ptr_nonnull(r);
	for (p = 0; p < 4; p++)
		ck_assert_int_eq(flower_port_build(r, 0, p, &fp[p]), 0);
}

static void teardown(void)
{
	int p;

	for (p = 0; p < 4; p++)
		flower_port_free(&fp[p]);
	rules_free(r);
	json_decref(root);
}

START_TEST(alike_ingress_ports_share)
{
	int rep[4];

	ck_assert_int_eq(flower_share(fp, 4, false, 0, rep), 1);
	ck_assert_int_eq(rep[0], 0);
	ck_assert_int_eq(rep[1], 0);
	ck_assert_int_eq(rep[2], 0);
	ck_assert_int_eq(rep[3], -1);
	ck_assert(flower_list_equal(&fp[0].in, &fp[2].in));
	ck_assert(!flower_list_equal(&fp[0].in, &fp[3].in));
	/* one copy of a's list for three ports: two saved */
	ck_assert_int_eq(flower_share_entries(fp, 4, false, rep),
			 flower_list_entries(&fp[0].in) +
				 flower_list_entries(&fp[3].in));
}
END_TEST

START_TEST(ports_below_first_stay_private)
{
	int rep[4];

	ck_assert_int_eq(flower_share(fp, 4, false, 1, rep), 1);
	ck_assert_int_eq(rep[0], -1);
	ck_assert_int_eq(rep[1], 1);
	ck_assert_int_eq(rep[2], 1);
	ck_assert_int_eq(rep[3], -1);
	ck_assert_int_eq(flower_share(fp, 4, false, 2, rep), 0);
	ck_assert_int_eq(rep[2], -1);
	ck_assert_int_eq(flower_share_entries(fp, 4, false, rep),
			 flower_list_entries(&fp[0].in) * 3 +
				 flower_list_entries(&fp[3].in));
}
END_TEST

/* a and b have no rewrite out of them, c and d differ: a, b alike. */
START_TEST(egress_differs_with_any_rewrite)
{
	int rep[4];

	ck_assert_int_eq(flower_share(fp, 4, true, 0, rep), 1);
	ck_assert_int_eq(rep[0], 0);
	ck_assert_int_eq(rep[1], 0);
	ck_assert_int_eq(rep[2], -1);
	ck_assert_int_eq(rep[3], -1);
	ck_assert(!flower_list_equal(&fp[2].out, &fp[3].out));
}
END_TEST

Suite *flower_share_suite(void)
{
	Suite *s = suite_create("flower_share");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, alike_ingress_ports_share);
	tcase_add_test(tc, ports_below_first_stay_private);
	tcase_add_test(tc, egress_differs_with_any_rewrite);
	suite_add_tcase(s, tc);
	return s;
}
