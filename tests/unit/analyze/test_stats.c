// SPDX-License-Identifier: GPL-2.0
/* Rule-set metrics: priorities used, rule counts, the bottleneck switch. */
#include <check.h>
#include <jansson.h>

#include "analyze/stats.h"
#include "model/flower_table.h"
#include "testlib.h"

static struct rules *rules_str(const char *doc)
{
	char *s = xstrdup(doc), *p;
	struct rules *r;
	json_t *root;

	for (p = s; *p; p++)
		if (*p == '\'')
			*p = '"';
	root = json_loads(s, 0, NULL);
	ck_assert_ptr_nonnull(root);
	r = rules_from_json(root, "r.json");
	ck_assert_ptr_nonnull(r);
	json_decref(root);
	free(s);
	return r;
}

/*
 * Priorities: 3 and 4 from "tags", 6 only from a classify answer, the
 * lossy priority 0 never; B is the bottleneck, A and C tie (by name).
 */
static const char *doc =
	"{'format': 'tagger-rules/1', 'lossy': {'tag': 0, 'priority': 0},"
	"'tags': [{'tag': 10, 'priority': 3}, {'tag': 11, 'priority': 4}],"
	"'switches': {"
	"'C': {'ports': ['1'], 'classify': [{'in': '1', 'tag': 10, 'priority': 3}]},"
	"'B': {'ports': ['1', '2'], 'classify': [{'in': '*', 'tag': 10, 'priority': 6},"
	"  {'in': '1', 'tag': 11, 'priority': 0}],"
	"  'rewrite': [{'tag': 10, 'in': '*', 'out': '2', 'new_tag': 11},"
	"  {'tag': 10, 'in': '1', 'out': '2', 'new_tag': 11}]},"
	"'A': {'ports': ['1'], 'rewrite': [{'tag': 10, 'in': '1', 'out': '1', 'new_tag': 0}]},"
	"'D': {'ports': []}}}";

START_TEST(counts_priorities_and_the_bottleneck)
{
	struct rules *r = rules_str(doc);
	struct rules_stats s;

	rules_stats(r, &s);
	ck_assert_int_eq(s.priorities, 3);
	ck_assert_int_eq(s.prio_mask, (1 << 3) | (1 << 4) | (1 << 6));
	ck_assert_int_eq(s.lossless_tags, 2);
	ck_assert_int_eq(s.classify, 3);
	ck_assert_int_eq(s.rewrite, 3);
	ck_assert_int_eq(s.total, 6);
	ck_assert_int_eq(s.wildcard, 2);
	ck_assert_int_eq(s.nsw, 4);
	ck_assert_str_eq(r->sw[s.per[0].sw].name, "B");
	ck_assert_int_eq(s.per[0].total, 4);
	ck_assert_str_eq(r->sw[s.per[1].sw].name, "A");
	ck_assert_str_eq(r->sw[s.per[2].sw].name, "C");
	ck_assert_str_eq(r->sw[s.per[3].sw].name, "D");
	ck_assert_int_eq(s.per[3].total, 0);
	ck_assert(s.avg == 1.5);
	rules_stats_free(&s);
	rules_free(r);
}
END_TEST

START_TEST(json_has_the_paper_metrics)
{
	struct rules *r = rules_str(doc);
	struct rules_stats s;
	json_t *j;

	rules_stats(r, &s);
	j = rules_stats_json(&s);
	ck_assert_int_eq(json_integer_value(json_object_get(j, "priorities")),
			 3);
	ck_assert_int_eq(json_integer_value(json_object_get(j, "rules")), 6);
	ck_assert_int_eq(
		json_integer_value(json_object_get(j, "max_switch_rules")), 4);
	ck_assert_int_eq(
		json_integer_value(json_object_get(j, "min_switch_rules")), 0);
	ck_assert_str_eq(json_string_value(json_object_get(
				 json_object_get(j, "bottleneck"), "switch")),
			 "B");
	ck_assert_int_eq(
		json_integer_value(json_object_get(
			json_object_get(json_object_get(j, "per_switch"), "B"),
			"classify")),
		2);
	json_decref(j);
	rules_stats_free(&s);
	rules_free(r);
}
END_TEST

/* The text is printed from the same counts: the names, the table, --top. */
START_TEST(text_from_the_counts)
{
	struct rules *r = rules_str(doc);
	struct rules_stats s;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	rules_stats(r, &s);
	rules_stats_print(f, &s, 2);
	fclose(f);
	ck_assert_str_eq(
		buf,
		"lossless priorities: 3 (3 4 6), lossy priority 0\n"
		"lossless tags: 2\n"
		"rules: 6 (classify 3, rewrite 3), 2 with wildcards\n"
		"per switch: min 0 (D), avg 1.5, max 4 (B, the bottleneck)\n"
		"\n"
		"switch classify  rewrite    rules\n"
		"B             2        2        4\n"
		"A             0        1        1\n"
		"... 2 more switches\n");
	free(buf);
	rules_stats_free(&s);
	rules_free(r);
}
END_TEST

/*
 * --datapath flower: each switch's filters are its ports' lists' tc
 * filters summed, max-port the largest port's; D (no ports) has none and
 * no port; the totals, the JSON and the text follow.
 */
START_TEST(flower_filters_per_switch_and_port)
{
	struct rules *r = rules_str(doc);
	struct rules_stats s;
	struct flower_port fp;
	long want, port, big;
	int64_t total = 0;
	json_t *j, *b;
	int i, p;

	rules_stats(r, &s);
	ck_assert(!s.flower);
	ck_assert_int_eq(rules_stats_flower(r, &s), 0);
	ck_assert(s.flower);
	for (i = 0; i < s.nsw; i++) {
		want = 0;
		big = 0;
		for (p = 0; p < r->sw[s.per[i].sw].nports; p++) {
			ck_assert_int_eq(
				flower_port_build(r, s.per[i].sw, p, &fp), 0);
			port = flower_list_entries(&fp.in) +
			       flower_list_entries(&fp.out);
			flower_port_free(&fp);
			want += port;
			if (port > big)
				big = port;
		}
		ck_assert_int_eq(s.per[i].flower, want);
		ck_assert_int_eq(s.per[i].flower_port, big);
		ck_assert(want > 0 || r->sw[s.per[i].sw].nports == 0);
		total += want;
	}
	ck_assert_int_eq(s.flower_total, total);
	ck_assert_int_eq(s.flower_min, 0);
	ck_assert_str_eq(s.flower_min_name, "D");
	ck_assert_str_eq(s.flower_max_name, "B");
	ck_assert_str_eq(s.flower_port_sw, "B");
	j = rules_stats_json(&s);
	b = json_object_get(j, "flower");
	ck_assert_int_eq(json_integer_value(json_object_get(b, "filters")),
			 total);
	ck_assert_int_eq(
		json_integer_value(json_object_get(b, "filters_per_ip_rule")),
		4);
	ck_assert_int_eq(
		json_integer_value(json_object_get(
			json_object_get(json_object_get(j, "per_switch"), "B"),
			"flower_filters")),
		s.flower_max);
	json_decref(j);
	rules_stats_free(&s);
	rules_free(r);
}
END_TEST

Suite *stats_suite(void)
{
	Suite *s = suite_create("stats");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, counts_priorities_and_the_bottleneck);
	tcase_add_test(tc, json_has_the_paper_metrics);
	tcase_add_test(tc, text_from_the_counts);
	tcase_add_test(tc, flower_filters_per_switch_and_port);
	suite_add_tcase(s, tc);
	return s;
}
