// SPDX-License-Identifier: GPL-2.0
/* The Prometheus text exposition writer: names, escaping, grouping. */
#include <check.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "metrics/prom.h"
#include "testlib.h"

/* The exposition of p, as a string to free. */
static char *text(const struct prom *p)
{
	return CAPTURE(f, prom_write(p, f));
}

static int count(const char *hay, const char *needle)
{
	int n = 0;

	for (; (hay = strstr(hay, needle)); hay++)
		n++;
	return n;
}

START_TEST(escapes_label_values)
{
	struct prom_label l[] = { { "port", "a\\b\"c\nd" } };
	struct prom *p = prom_new();
	char *t;

	ck_assert_int_eq(prom_add(p, "x_total", PROM_COUNTER, "h", l, 1, 3), 0);
	t = text(p);
	ck_assert_str_eq(t, "# HELP x_total h\n# TYPE x_total counter\n"
			    "x_total{port=\"a\\\\b\\\"c\\nd\"} 3\n");
	free(t);
	prom_free(p);
}
END_TEST

START_TEST(escapes_help_but_not_quotes)
{
	char buf[64];

	ck_assert_int_eq(prom_escape("a\"b\\c\nd", true, buf, sizeof(buf)), 9);
	ck_assert_str_eq(buf, "a\"b\\\\c\\nd");
	ck_assert_int_eq(prom_escape("\"", false, buf, sizeof(buf)), 2);
	ck_assert_str_eq(buf, "\\\"");
	/* Truncated like snprintf: the length is still the whole. */
	ck_assert_int_eq(prom_escape("\\\\\\", false, buf, 4), 6);
	ck_assert_str_eq(buf, "\\\\\\");
}
END_TEST

START_TEST(help_and_type_once_samples_together)
{
	struct prom_label a[] = { { "node", "a" } }, b[] = { { "node", "b" } };
	struct prom *p = prom_new();
	char *t;

	/* Collected node by node: the families interleave. */
	prom_add(p, "f_total", PROM_COUNTER, "F", a, 1, 1);
	prom_add(p, "g", PROM_GAUGE, "G", a, 1, 0.5);
	prom_add(p, "f_total", PROM_COUNTER, "F", b, 1, 2);
	prom_add(p, "g", PROM_GAUGE, "G", b, 1, 1e21);
	t = text(p);
	ck_assert_int_eq(count(t, "# HELP f_total"), 1);
	ck_assert_int_eq(count(t, "# TYPE g gauge"), 1);
	ck_assert_str_eq(t, "# HELP f_total F\n# TYPE f_total counter\n"
			    "f_total{node=\"a\"} 1\nf_total{node=\"b\"} 2\n"
			    "# HELP g G\n# TYPE g gauge\n"
			    "g{node=\"a\"} 0.5\ng{node=\"b\"} 1e+21\n");
	free(t);
	prom_free(p);
}
END_TEST

START_TEST(refuses_bad_names)
{
	struct prom_label bad[] = { { "__x", "v" } }, num[] = { { "1x", "v" } };
	struct prom *p = prom_new();
	char *t;

	ck_assert_int_eq(prom_add(p, "no_suffix", PROM_COUNTER, "", NULL, 0, 1),
			 -EINVAL);
	ck_assert_int_eq(prom_add(p, "9lives", PROM_GAUGE, "", NULL, 0, 1),
			 -EINVAL);
	ck_assert_int_eq(prom_add(p, "a-b", PROM_GAUGE, "", NULL, 0, 1),
			 -EINVAL);
	ck_assert_int_eq(prom_add(p, "g", PROM_GAUGE, "", bad, 1, 1), -EINVAL);
	ck_assert_int_eq(prom_add(p, "g", PROM_GAUGE, "", num, 1, 1), -EINVAL);
	ck_assert_int_eq(prom_add(p, "ns:g", PROM_GAUGE, "", NULL, 0, 1), 0);
	/* A family keeps its first type. */
	ck_assert_int_eq(prom_add(p, "ns:g", PROM_COUNTER, "", NULL, 0, 1),
			 -EINVAL);
	t = text(p);
	ck_assert_str_eq(t, "# HELP ns:g \n# TYPE ns:g gauge\nns:g 1\n");
	free(t);
	prom_free(p);
}
END_TEST

START_TEST(json_holds_the_families)
{
	struct prom_label l[] = { { "node", "a" }, { "port", "p1" } };
	struct prom *p = prom_new();
	json_t *j;

	prom_add(p, "f_total", PROM_COUNTER, "F", l, 2, 42);
	j = json_array_get(prom_json(p), 0);
	ck_assert_str_eq(json_string_value(json_object_get(j, "type")),
			 "counter");
	j = json_array_get(json_object_get(j, "samples"), 0);
	ck_assert_str_eq(json_string_value(json_object_get(
				 json_object_get(j, "labels"), "port")),
			 "p1");
	ck_assert(json_is_integer(json_object_get(j, "value")));
	ck_assert_int_eq(json_integer_value(json_object_get(j, "value")), 42);
	prom_free(p);
}
END_TEST

Suite *prom_suite(void)
{
	Suite *s = suite_create("prom");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, escapes_label_values);
	tcase_add_test(tc, escapes_help_but_not_quotes);
	tcase_add_test(tc, help_and_type_once_samples_together);
	tcase_add_test(tc, refuses_bad_names);
	tcase_add_test(tc, json_holds_the_families);
	suite_add_tcase(s, tc);
	return s;
}
