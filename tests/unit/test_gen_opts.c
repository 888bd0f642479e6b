// SPDX-License-Identifier: GPL-2.0
/* Options of the generator subcommands (opts.h). */
#include <check.h>

#include "log.h"
#include "opts.h"
#include "testlib.h"

struct vals {
	int n;
	uint64_t seed;
	const char *s;
	bool f;
};

static int parse(struct vals *v, int argc, char **argv, char **pos, int npos, int *got)
{
	const struct opt opts[] = {
		{ "--n", OPT_INT, 1, 10, &v->n },
		{ "--seed", OPT_U64, 0, 0, &v->seed },
		{ "--s", OPT_STR, 0, 0, &v->s },
		{ "--f", OPT_FLAG, 0, 0, &v->f },
		{ 0 }
	};
	int rc;

	*v = (struct vals){ .n = -1 };
	log_quiet = true;
	rc = opts_parse(opts, argc, argv, pos, npos, got);
	log_quiet = false;
	return rc;
}

START_TEST(values_after_space_or_equals_and_positionals)
{
	char *argv[] = { "a", "--n", "3", "--seed=18446744073709551615", "b", "--s=x", "--f" };
	char *pos[2];
	struct vals v;
	int got;

	ck_assert_int_eq(parse(&v, 7, argv, pos, 2, &got), EXIT_OK);
	ck_assert_int_eq(v.n, 3);
	ck_assert(v.seed == UINT64_MAX);
	ck_assert_str_eq(v.s, "x");
	ck_assert(v.f);
	ck_assert_int_eq(got, 2);
	ck_assert_str_eq(pos[0], "a");
	ck_assert_str_eq(pos[1], "b");
}
END_TEST

START_TEST(bad_words_are_usage_errors)
{
	char *out_of_range[] = { "--n", "11" }, *zero[] = { "--n=0" }, *junk[] = { "--n", "3x" };
	char *missing[] = { "--n" }, *unknown[] = { "--nn", "1" }, *extra[] = { "a", "b" };
	char *prefix[] = { "--se", "1" }, *flag_value[] = { "--f=1" }, *neg[] = { "--seed", "-1" };
	char *pos[1];
	struct vals v;

	ck_assert_int_eq(parse(&v, 2, out_of_range, NULL, 0, NULL), EXIT_USAGE);
	ck_assert_int_eq(parse(&v, 1, zero, NULL, 0, NULL), EXIT_USAGE);
	ck_assert_int_eq(parse(&v, 2, junk, NULL, 0, NULL), EXIT_USAGE);
	ck_assert_int_eq(parse(&v, 1, missing, NULL, 0, NULL), EXIT_USAGE);
	ck_assert_int_eq(parse(&v, 2, unknown, NULL, 0, NULL), EXIT_USAGE);
	ck_assert_int_eq(parse(&v, 2, extra, pos, 1, NULL), EXIT_USAGE);
	ck_assert_int_eq(parse(&v, 2, prefix, NULL, 0, NULL), EXIT_USAGE);
	ck_assert_int_eq(parse(&v, 1, flag_value, NULL, 0, NULL), EXIT_USAGE);
	ck_assert_int_eq(parse(&v, 2, neg, NULL, 0, NULL), EXIT_USAGE);
}
END_TEST

START_TEST(take_removes_a_shared_option_anywhere)
{
	char *argv[] = { "a", "-o", "f", "b", "--between=tors" }, *val = NULL;
	char *end[] = { "a", "-o" };
	int argc = 5, n = 2;

	ck_assert_int_eq(opts_take(&argc, argv, "-o", &val), 1);
	ck_assert_str_eq(val, "f");
	ck_assert_int_eq(argc, 3);
	ck_assert_str_eq(argv[1], "b");
	ck_assert_int_eq(opts_take(&argc, argv, "--between", &val), 1);
	ck_assert_str_eq(val, "tors");
	ck_assert_int_eq(argc, 2);
	ck_assert_int_eq(opts_take(&argc, argv, "-o", &val), 0);
	log_quiet = true;
	ck_assert_int_eq(opts_take(&n, end, "-o", &val), -1);
	log_quiet = false;
}
END_TEST

Suite *gen_opts_suite(void)
{
	Suite *s = suite_create("gen_opts");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, values_after_space_or_equals_and_positionals);
	tcase_add_test(tc, bad_words_are_usage_errors);
	tcase_add_test(tc, take_removes_a_shared_option_anywhere);
	suite_add_tcase(s, tc);
	return s;
}
