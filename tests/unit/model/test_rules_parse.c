// SPDX-License-Identifier: GPL-2.0
/*
 * Rules JSON: a valid set parses and answers lookups with the documented
 * wildcard precedence; every validation error is reported with its
 * location (file:line:col for syntax, file: json.path for semantics).
 */
#include <check.h>
#include <jansson.h>

#include "model/rules.h"
#include "testlib.h"

static char dir[] = "/tmp/tagger-rules-XXXXXX";
static char file[sizeof(dir) + 16];

/* Test documents use ' for " so they stay readable. */
static struct rules *parse_str(const char *doc)
{
	struct rules *r;
	char *s = xstrdup(doc), *p;
	FILE *f;

	for (p = s; *p; p++)
		if (*p == '\'')
			*p = '"';
	f = fopen(file, "w");
	ck_assert_ptr_nonnull(f);
	fputs(s, f);
	fclose(f);
	free(s);
	r = rules_parse(file);
	return r;
}

/* Parse doc, expect failure, and return what went to stderr. */
static const char *parse_err(const char *doc)
{
	struct rules *r;
	const char *msg;

	capture_begin();
	r = parse_str(doc);
	msg = capture_end();
	ck_assert_msg(!r, "accepted: %s", doc);
	return msg;
}

#define HEAD                                                               \
	"{'format': 'tagger-rules/1', 'lossy': {'tag': 0, 'priority': 0}," \
	"'tags': [{'tag': 10, 'priority': 3}, {'tag': 11, 'priority': 4}],"
#define SW(body) \
	HEAD "'switches': {'A': {'ports': ['p1', 'p2', 'p3'], " body "}}}"

#define assert_err(doc, expect)                                              \
	do {                                                                 \
		const char *m_ = parse_err(doc);                             \
		ck_assert_msg(strstr(m_, expect), "got \"%s\", want \"%s\"", \
			      m_, expect);                                   \
	} while (0)

START_TEST(valid_rules_parse_with_ranks_and_priorities)
{
	struct rules *r = parse_str(
		HEAD
		"'hosts': {'h1': {'tag': 10}}, 'compiler': {'anything': [1]},"
		"'future_key': 3, 'switches': {'A': {'ports': ['p1', 'p2'],"
		"'classify': [{'in': 'p1', 'tag': 10, 'priority': 3}],"
		"'rewrite': [{'tag': 10, 'in': 'p1', 'out': 'p2', 'new_tag': 11}]}}}");

	ck_assert_ptr_nonnull(r);
	ck_assert_int_eq(r->ntags, 2);
	ck_assert_int_eq(rules_tag_rank(r, 10), 0);
	ck_assert_int_eq(rules_tag_rank(r, 11), 1);
	ck_assert_int_eq(rules_tag_rank(r, 0), 2); /* lossy ranks above all */
	ck_assert_int_eq(rules_tag_rank(r, 5), -1);
	ck_assert_int_eq(rules_tag_prio(r, 11), 4);
	ck_assert_int_eq(rules_tag_prio(r, 0), -1);
	ck_assert_int_eq(rules_find_host(r, "h1"), 0);
	ck_assert_int_eq(r->hosts[0].tag, 10);
	ck_assert_int_eq(rules_find_switch(r, "A"), 0);
	ck_assert_int_eq(rules_find_port(r, 0, "p2"), 1);
	ck_assert_int_eq(rules_find_port(r, 0, "p9"), -1);
	ck_assert_int_eq(rules_classify(r, 0, 0, 10, NULL), 3);
	ck_assert_int_eq(rules_classify(r, 0, 1, 10, NULL), RULES_LOSSY);
	ck_assert_int_eq(rules_rewrite(r, 0, 10, 0, 1, NULL), 11);
	ck_assert_int_eq(rules_rewrite(r, 0, 10, 1, 0, NULL), RULES_LOSSY);
	rules_free(r);
}
END_TEST

START_TEST(rewrite_wildcards_most_specific_wins)
{
	struct rules *r = parse_str(
		SW("'rewrite': ["
		   "{'tag': 10, 'in': '*', 'out': '*', 'new_tag': 11},"
		   "{'tag': 10, 'in': '*', 'out': 'p3', 'new_tag': 10},"
		   "{'tag': 10, 'in': 'p1', 'out': '*', 'new_tag': 0},"
		   "{'tag': 10, 'in': 'p1', 'out': 'p3', 'new_tag': 11}]"));
	int rule;

	ck_assert_ptr_nonnull(r);
	/* exact (in,out) beats everything */
	ck_assert_int_eq(rules_rewrite(r, 0, 10, 0, 2, &rule), 11);
	ck_assert_int_eq(rule, 3);
	/* (in,*) beats (*,out): an explicit lossy exception */
	ck_assert_int_eq(rules_rewrite(r, 0, 10, 0, 1, &rule), RULES_LOSSY);
	ck_assert_int_eq(rule, 2);
	/* (*,out) beats (*,*) */
	ck_assert_int_eq(rules_rewrite(r, 0, 10, 1, 2, &rule), 10);
	ck_assert_int_eq(rule, 1);
	ck_assert_int_eq(rules_rewrite(r, 0, 10, 1, 0, &rule), 11);
	ck_assert_int_eq(rule, 0);
	/* nothing for tag 11: lossy by default */
	ck_assert_int_eq(rules_rewrite(r, 0, 11, 1, 0, &rule), RULES_LOSSY);
	ck_assert_int_eq(rule, -1);
	rules_free(r);
}
END_TEST

START_TEST(classify_exact_port_beats_wildcard)
{
	struct rules *r = parse_str(
		SW("'classify': [{'in': '*', 'tag': 10, 'priority': 3},"
		   "{'in': 'p2', 'tag': 10, 'priority': 0},"
		   "{'in': 'p3', 'tag': 10, 'priority': 5}]"));
	int rule;

	ck_assert_ptr_nonnull(r);
	ck_assert_int_eq(rules_classify(r, 0, 0, 10, &rule), 3);
	ck_assert_int_eq(rule, 0);
	ck_assert_int_eq(rules_classify(r, 0, 1, 10, &rule), RULES_LOSSY);
	ck_assert_int_eq(rule, 1);
	ck_assert_int_eq(rules_classify(r, 0, 2, 10, &rule), 5);
	ck_assert_int_eq(rules_classify(r, 0, 2, 11, &rule), RULES_LOSSY);
	ck_assert_int_eq(rule, -1);
	rules_free(r);
}
END_TEST

START_TEST(classes_and_host_class_tags_parse)
{
	struct rules *r = parse_str(
		HEAD
		"'classes': [{'class': 0, 'tag': 10}, {'class': 1, 'tag': 11}],"
		"'hosts': {'h1': {'classes': [10, 11]}}, 'switches': {}}");

	ck_assert_ptr_nonnull(r);
	ck_assert_int_eq(r->nclasses, 2);
	ck_assert_int_eq(r->class_tags[1], 11);
	ck_assert_int_eq(r->hosts[0].tag, -1);
	ck_assert_int_eq(r->hosts[0].nclasses, 2);
	ck_assert_int_eq(r->hosts[0].classes[1], 11);
	rules_free(r);
}
END_TEST

START_TEST(json_syntax_error_has_line_and_column)
{
	assert_err("{'format': 'tagger-rules/1',\n'lossy': {'tag': 0,,}}",
		   "r.json:2:");
	assert_err("{'format': 'tagger-rules/1', 'format': 'x'}", "r.json:1:");
	assert_err("{'format': 'tagger-rules/1', 'format': 'x'}", "duplicate");
}
END_TEST

START_TEST(format_must_be_tagger_rules_1)
{
	assert_err("{'lossy': {'tag': 0, 'priority': 0}}",
		   "r.json: format: missing (expected \"tagger-rules/1\")");
	assert_err("{'format': 'tagger-rules/2'}",
		   "r.json: format: must be \"tagger-rules/1\"");
	assert_err("[1]", "r.json: expected an object, found an array");
}
END_TEST

START_TEST(tags_and_priorities_must_be_in_range)
{
	assert_err(
		"{'format': 'tagger-rules/1', 'lossy': {'tag': 64, 'priority': 0}}",
		"r.json: lossy.tag: 64 is not a DSCP codepoint (0..63)");
	assert_err(
		"{'format': 'tagger-rules/1', 'lossy': {'tag': 0, 'priority': 0},"
		"'tags': [{'tag': 1, 'priority': 8}]}",
		"r.json: tags[0].priority: 8 is not an 802.1p priority (0..7)");
	assert_err(
		SW("'rewrite': [{'tag': 10, 'in': 'p1', 'out': 'p2', 'new_tag': -1}]"),
		"r.json: switches.A.rewrite[0].new_tag: -1 is not a DSCP codepoint");
}
END_TEST

START_TEST(tag_listed_twice_or_lossy_among_lossless)
{
	assert_err(
		"{'format': 'tagger-rules/1', 'lossy': {'tag': 0, 'priority': 0},"
		"'tags': [{'tag': 1, 'priority': 1}, {'tag': 1, 'priority': 2}], 'switches': {}}",
		"r.json: tags[1]: tag 1 is listed twice");
	assert_err(
		"{'format': 'tagger-rules/1', 'lossy': {'tag': 0, 'priority': 0},"
		"'tags': [{'tag': 1, 'priority': 1}, {'tag': 0, 'priority': 2}], 'switches': {}}",
		"r.json: tags[1]: tag 0 is the lossy tag");
	assert_err(
		"{'format': 'tagger-rules/1', 'lossy': {'tag': 0, 'priority': 0},"
		"'tags': [{'tag': 1, 'priority': 0}], 'switches': {}}",
		"r.json: tags[0]: priority 0 is the lossy priority");
}
END_TEST

START_TEST(ports_unique_and_rules_name_listed_ports)
{
	assert_err(HEAD "'switches': {'A': {'ports': ['p1', 'p2', 'p1']}}}",
		   "r.json: switches.A.ports[2]: port \"p1\" is listed twice");
	assert_err(
		SW("'classify': [{'in': 'p9', 'tag': 10, 'priority': 3}]"),
		"r.json: switches.A.classify[0].in: port \"p9\" is not in switches.A.ports");
	assert_err(
		SW("'rewrite': [{'tag': 10, 'in': 'p1', 'out': 'x', 'new_tag': 11}]"),
		"r.json: switches.A.rewrite[0].out: port \"x\" is not in switches.A.ports");
	assert_err(
		HEAD "'switches': {'A': {'ports': ['a b']}}}",
		"r.json: switches.A.ports[0]: \"a b\" is not a valid port name");
}
END_TEST

START_TEST(one_answer_per_key_even_the_same)
{
	assert_err(
		SW("'classify': [{'in': 'p1', 'tag': 10, 'priority': 3},"
		   "{'in': 'p1', 'tag': 10, 'priority': 3}]"),
		"r.json: switches.A.classify[1]: in p1 tag 10 is already answered by classify[0]");
	assert_err(
		SW("'rewrite': [{'tag': 10, 'in': '*', 'out': 'p2', 'new_tag': 11},"
		   "{'tag': 11, 'in': '*', 'out': 'p2', 'new_tag': 11},"
		   "{'tag': 10, 'in': '*', 'out': 'p2', 'new_tag': 11}]"),
		"r.json: switches.A.rewrite[2]: tag 10 in * out p2 is already answered by rewrite[0]");
}
END_TEST

START_TEST(wrong_types_unknown_and_missing_keys)
{
	assert_err(
		SW("'classify': [{'in': 'p1', 'tag': '10', 'priority': 3}]"),
		"r.json: switches.A.classify[0].tag: expected an integer, found a string");
	assert_err(
		SW("'classify': {}"),
		"r.json: switches.A.classify: expected an array, found an object");
	assert_err(
		SW("'rewrite': [{'tag': 10, 'in': 'p1', 'out': 'p2', 'new_tag': 11, 'prio': 1}]"),
		"r.json: switches.A.rewrite[0]: unknown key \"prio\"");
	assert_err(SW("'rewrite': [{'tag': 10, 'in': 'p1', 'out': 'p2'}]"),
		   "r.json: switches.A.rewrite[0]: missing \"new_tag\"");
	assert_err(
		SW("'rewrite': [{'tag': 10.5, 'in': 'p1', 'out': 'p2', 'new_tag': 11}]"),
		"r.json: switches.A.rewrite[0].tag: expected an integer, found a number");
	assert_err(HEAD "'switches': {'A': {'ports': ['p1'], 'rules': []}}}",
		   "r.json: switches.A: unknown key \"rules\"");
	assert_err(HEAD "'switches': {'A': {}}}",
		   "r.json: switches.A.ports: missing");
	assert_err(HEAD "'hosts': {'h1': {}}, 'switches': {}}",
		   "r.json: hosts.h1: missing \"tag\"");
	assert_err(
		"{'format': 'tagger-rules/1', 'lossy': {'tag': 0, 'priority': 0}}",
		"r.json: tags: missing");
}
END_TEST

START_TEST(rule_tags_must_be_known_and_lossy_stays_lossy)
{
	assert_err(
		SW("'classify': [{'in': 'p1', 'tag': 12, 'priority': 3}]"),
		"r.json: switches.A.classify[0].tag: tag 12 is neither in \"tags\" nor the lossy tag");
	assert_err(
		SW("'classify': [{'in': 'p1', 'tag': 0, 'priority': 3}]"),
		"r.json: switches.A.classify[0]: the lossy tag 0 must stay in the lossy priority 0");
	assert_err(
		HEAD "'hosts': {'h1': {'tag': 0}}, 'switches': {}}",
		"r.json: hosts.h1.tag: tag 0 is not a lossless tag of \"tags\"");
}
END_TEST

START_TEST(classes_must_match_hosts)
{
	assert_err(
		HEAD
		"'classes': [{'class': 0, 'tag': 10}, {'class': 0, 'tag': 11}],"
		"'switches': {}}",
		"r.json: classes[1]: class 0 is listed twice");
	assert_err(HEAD
		   "'classes': [{'class': 0, 'tag': 10}],"
		   "'hosts': {'h1': {'classes': [10, 11]}}, 'switches': {}}",
		   "r.json: hosts.h1.classes: 2 tags for 1 classes");
	assert_err(
		HEAD "'classes': [{'class': 0, 'tag': 10}],"
		     "'hosts': {'h1': {'classes': [3]}}, 'switches': {}}",
		"r.json: hosts.h1.classes[0]: 3 is not a lossless tag of \"tags\"");
}
END_TEST

START_TEST(missing_file_is_an_error)
{
	struct rules *r;
	const char *msg;

	capture_begin();
	r = rules_parse("/nonexistent/rules.json");
	msg = capture_end();
	ck_assert_ptr_null(r);
	ck_assert_ptr_nonnull(strstr(
		msg, "/nonexistent/rules.json: cannot open: No such file"));
}
END_TEST

/* "cnp": optional; a class of its own, or an error naming the member. */
START_TEST(cnp_class_parses_and_must_be_its_own)
{
	struct rules *r = parse_str(HEAD "'switches': {}}");

	ck_assert_ptr_nonnull(r);
	ck_assert_int_eq(r->cnp_tag, -1);
	ck_assert_int_eq(r->cnp_prio, -1);
	rules_free(r);
	r = parse_str(HEAD
		      "'cnp': {'tag': 46, 'priority': 6}, 'switches': {}}");
	ck_assert_ptr_nonnull(r);
	ck_assert_int_eq(r->cnp_tag, 46);
	ck_assert_int_eq(r->cnp_prio, 6);
	ck_assert_int_eq(rules_tag_rank(r, 46), -1); /* no rule may name it */
	rules_free(r);
	assert_err(HEAD "'cnp': {'tag': 0, 'priority': 6}, 'switches': {}}",
		   "r.json: cnp: tag 0 is the lossy tag");
	assert_err(HEAD "'cnp': {'tag': 11, 'priority': 6}, 'switches': {}}",
		   "r.json: cnp: tag 11 is a lossless tag of \"tags\"");
	assert_err(
		HEAD "'cnp': {'tag': 46, 'priority': 4}, 'switches': {}}",
		"r.json: cnp: priority 4 is the priority of lossless tag 11");
	assert_err(HEAD "'cnp': {'tag': 64, 'priority': 6}, 'switches': {}}",
		   "r.json: cnp.tag:");
	assert_err(HEAD "'cnp': {'tag': 46, 'priority': 8}, 'switches': {}}",
		   "r.json: cnp.priority:");
	assert_err(HEAD "'cnp': {'tag': 46}, 'switches': {}}",
		   "r.json: cnp: missing \"priority\"");
	assert_err(HEAD "'cnp': {'tag': 46, 'priority': 6, 'x': 1}, "
			"'switches': {}}",
		   "r.json: cnp: unknown key \"x\"");
	assert_err(HEAD "'cnp': 46, 'switches': {}}", "r.json: cnp:");
	assert_err(
		SW("'classify': [{'in': 'p1', 'tag': 46, 'priority': 6}]") "",
		"tag 46 is neither");
}
END_TEST

/* Unchecked fixtures run in the parent, so every forked test sees file. */
static void setup(void)
{
	if (!mkdtemp(dir))
		abort();
	snprintf(file, sizeof(file), "%s/r.json", dir);
}

static void teardown(void)
{
	unlink(file);
	rmdir(dir);
}

Suite *rules_parse_suite(void)
{
	Suite *s = suite_create("rules_parse");
	TCase *tc = tcase_create("core");

	tcase_add_unchecked_fixture(tc, setup, teardown);
	tcase_add_test(tc, valid_rules_parse_with_ranks_and_priorities);
	tcase_add_test(tc, rewrite_wildcards_most_specific_wins);
	tcase_add_test(tc, classify_exact_port_beats_wildcard);
	tcase_add_test(tc, classes_and_host_class_tags_parse);
	tcase_add_test(tc, json_syntax_error_has_line_and_column);
	tcase_add_test(tc, format_must_be_tagger_rules_1);
	tcase_add_test(tc, tags_and_priorities_must_be_in_range);
	tcase_add_test(tc, tag_listed_twice_or_lossy_among_lossless);
	tcase_add_test(tc, ports_unique_and_rules_name_listed_ports);
	tcase_add_test(tc, one_answer_per_key_even_the_same);
	tcase_add_test(tc, wrong_types_unknown_and_missing_keys);
	tcase_add_test(tc, rule_tags_must_be_known_and_lossy_stays_lossy);
	tcase_add_test(tc, classes_must_match_hosts);
	tcase_add_test(tc, missing_file_is_an_error);
	tcase_add_test(tc, cnp_class_parses_and_must_be_its_own);
	suite_add_tcase(s, tc);
	return s;
}
