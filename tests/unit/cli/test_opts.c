// SPDX-License-Identifier: GPL-2.0
/* Options of the generator subcommands (opts.h). */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "lib/log.h"
#include "cli/cmd_dp_args.h"
#include "cli/opts.h"
#include "testlib.h"

struct vals {
	int n;
	uint64_t seed;
	const char *s;
	bool f;
};

static int parse(struct vals *v, int argc, char **argv, char **pos, int npos,
		 int *got)
{
	const struct opt opts[] = {
		{ .name = "--n",
		  .type = OPT_INT,
		  .min = 1,
		  .max = 10,
		  .out = &v->n },
		{ .name = "--seed", .type = OPT_U64, .out = &v->seed },
		{ .name = "--s", .type = OPT_STR, .out = &v->s },
		{ .name = "--f", .type = OPT_FLAG, .out = &v->f },
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
	char *argv[] = { "a", "--n",   "3",  "--seed=18446744073709551615",
			 "b", "--s=x", "--f" };
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
	char *out_of_range[] = { "--n", "11" }, *zero[] = { "--n=0" },
	     *junk[] = { "--n", "3x" };
	char *missing[] = { "--n" }, *unknown[] = { "--nn", "1" },
	     *extra[] = { "a", "b" };
	char *prefix[] = { "--se", "1" }, *flag_value[] = { "--f=1" },
	     *neg[] = { "--seed", "-1" };
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

START_TEST(take_all_removes_a_tables_options_anywhere)
{
	static const struct opt_enum sides[] = { { "hosts", 1 },
						 { "tors", 2 },
						 { NULL } };
	char *argv[] = { "a", "-o", "f", "b", "--between=tors", "-x", "--q" };
	char *end[] = { "a", "-o" }, *bad[] = { "--between", "racks" };
	const char *file = NULL;
	int side = 0, argc = 7, n = 2;
	bool q = false;
	const struct opt opts[] = { OPT_STR("-o", &file, "FILE", "output"),
				    OPT_ENUM("--between", &side, sides,
					     "endpoints"),
				    OPT_FLAG("--q", &q, "quiet"),
				    { 0 } };

	ck_assert_int_eq(opts_take_all(opts, &argc, argv), EXIT_OK);
	ck_assert_str_eq(file, "f");
	ck_assert_int_eq(side, 2);
	ck_assert(q);
	ck_assert_int_eq(argc, 3);
	ck_assert_str_eq(argv[0], "a");
	ck_assert_str_eq(argv[1], "b");
	ck_assert_str_eq(argv[2], "-x");
	ck_assert_int_eq(opts_take_all(opts, &argc, argv), EXIT_OK);
	ck_assert_int_eq(argc, 3);
	log_quiet = true;
	ck_assert_int_eq(opts_take_all(opts, &n, end), EXIT_USAGE);
	n = 2;
	ck_assert_int_eq(opts_take_all(opts, &n, bad), EXIT_USAGE);
	log_quiet = false;
}
END_TEST

struct typed {
	int e;
	uint64_t size, rate;
	struct opt_list l;
	int calls;
	const char *dir;
};

static struct typed *typed_cb;

static int count_cb(const struct opt *o, const char *val)
{
	if (strcmp(val, "ok"))
		return -1;
	typed_cb->calls++;
	return 0;
}

static int parse_typed(struct typed *t, int argc, char **argv, char **pos,
		       int npos)
{
	static const struct opt_enum modes[] = { { "wrr", 1 },
						 { "strict", 2 },
						 { NULL } };
	const struct opt opts[] = {
		{ .name = "--sched",
		  .type = OPT_ENUM,
		  .out = &t->e,
		  .names = modes },
		{ .name = "--size",
		  .type = OPT_SIZE,
		  .min = 1,
		  .out = &t->size },
		{ .name = "--rate", .type = OPT_RATE, .out = &t->rate },
		{ .name = "--prios",
		  .type = OPT_LIST,
		  .min = 0,
		  .max = 7,
		  .out = &t->l },
		{ .name = "--cb", .type = OPT_FUNC, .func = count_cb },
		{ .name = "--dir",
		  .type = OPT_STR,
		  .out = &t->dir,
		  .deprecated = "dir" },
		{ 0 }
	};
	int got, rc;

	typed_cb = t;
	log_quiet = true;
	rc = opts_parse(opts, argc, argv, pos, npos, &got);
	log_quiet = false;
	return rc;
}

START_TEST(typed_values_and_deprecated_words)
{
	char *argv[] = { "--sched=strict", "--size", "64k",  "--rate=1gbit",
			 "--prios",	   "3,5-6",  "--cb", "ok",
			 "--cb=ok",	   "NAME",   "dir",  "/tmp" };
	char *bad_enum[] = { "--sched", "fifo" }, *zero[] = { "--size=0" };
	char *bad_list[] = { "--prios=8" }, *bad_cb[] = { "--cb", "no" };
	char *pos[1];
	struct typed t = { 0 };

	ck_assert_int_eq(parse_typed(&t, 12, argv, pos, 1), EXIT_OK);
	ck_assert_int_eq(t.e, 2);
	ck_assert(t.size == 65536);
	ck_assert(t.rate == 1000000000ull);
	ck_assert_int_eq(t.l.n, 3);
	ck_assert_int_eq(t.l.v[2], 6);
	ck_assert_int_eq(t.calls, 2);
	ck_assert_str_eq(pos[0], "NAME");
	ck_assert_str_eq(t.dir, "/tmp");
	free(t.l.v);
	memset(&t, 0, sizeof(t));
	ck_assert_int_eq(parse_typed(&t, 2, bad_enum, NULL, 0), EXIT_USAGE);
	ck_assert_int_eq(parse_typed(&t, 1, zero, NULL, 0), EXIT_USAGE);
	ck_assert_int_eq(parse_typed(&t, 1, bad_list, NULL, 0), EXIT_USAGE);
	ck_assert_int_eq(parse_typed(&t, 2, bad_cb, NULL, 0), EXIT_USAGE);
}
END_TEST

/* Fields of every width, next to guards that a wider store would clobber. */
struct sized {
	uint8_t u8, guard8;
	uint16_t u16, guard16;
	uint32_t u32, guard32;
	enum { MODE_A, MODE_B = 3 } mode;
	uint32_t guard_mode;
	long l;
	uint64_t rate;
	const char *dir;
	bool flag;
};

static const struct opt_enum sized_modes[] = { { "a", MODE_A },
					       { "b", MODE_B },
					       { NULL } };

static int parse_sized(struct sized *z, int argc, char **argv)
{
	const struct opt opts[] = {
		OPT_INT("--u8", &z->u8, 0, 255, "N", "one byte"),
		OPT_INT("--u16", &z->u16, 1, 65535, "N", "two bytes"),
		OPT_INT("--u32", &z->u32, 0, 4000000000L, "N", "four bytes"),
		OPT_ENUM("--mode", &z->mode, sized_modes, "a mode"),
		OPT_INT("--long", &z->l, 0, 1L << 40, "N", "eight bytes"),
		OPT_RATE("--rate", &z->rate, 1000, "RATE", "a rate"),
		OPT_STR("--dir", &z->dir, "DIR", "a directory",
			.deprecated = "dir"),
		OPT_FLAG("--flag", &z->flag, "a flag"),
		{ 0 }
	};
	int rc;

	log_quiet = true;
	rc = opts_parse(opts, argc, argv, NULL, 0, NULL);
	log_quiet = false;
	return rc;
}

START_TEST(macro_tables_write_targets_of_their_own_width)
{
	char *argv[] = { "--u8=255",	 "--u16", "65535",  "--u32=4000000000",
			 "--mode",	 "b",	  "--long", "1099511627776",
			 "--rate=1gbit", "dir",	  "/d",	    "--flag" };
	char *too_big[] = { "--u8", "256" }, *slow[] = { "--rate=999bit" };
	char *zero16[] = { "--u16=0" };
	struct sized z;

	memset(&z, 0x5a, sizeof(z));
	ck_assert_int_eq(parse_sized(&z, 12, argv), EXIT_OK);
	ck_assert_uint_eq(z.u8, 255);
	ck_assert_uint_eq(z.guard8, 0x5a);
	ck_assert_uint_eq(z.u16, 65535);
	ck_assert_uint_eq(z.guard16, 0x5a5a);
	ck_assert_uint_eq(z.u32, 4000000000u);
	ck_assert_uint_eq(z.guard32, 0x5a5a5a5au);
	ck_assert_int_eq(z.mode, MODE_B);
	ck_assert_uint_eq(z.guard_mode, 0x5a5a5a5au);
	ck_assert_int_eq(z.l, 1L << 40);
	ck_assert(z.rate == 1000000000ull);
	ck_assert_str_eq(z.dir, "/d");
	ck_assert(z.flag);
	ck_assert_int_eq(parse_sized(&z, 2, too_big), EXIT_USAGE);
	ck_assert_int_eq(parse_sized(&z, 1, slow), EXIT_USAGE);
	ck_assert_int_eq(parse_sized(&z, 1, zero16), EXIT_USAGE);
}
END_TEST

START_TEST(usage_is_the_table)
{
	const struct opt opts[] = {
		OPT_INT("--n", &(int){ 0 }, 1, 9, "COUNT", "how many"),
		OPT_ENUM("--mode", &(int){ 0 }, sized_modes, "a mode"),
		OPT_FLAG("--f", &(bool){ 0 }, "a flag"),
		OPT_SIZE("--a-very-long-option-name", &(uint64_t){ 0 }, 1,
			 "BYTES-PER-PRIORITY", "wraps"),
		{ .name = "--bare", .type = OPT_STR },
		{ 0 }
	};
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	opts_usage(f, opts);
	fclose(f);
	ck_assert_str_eq(text,
			 "  --n COUNT         how many\n"
			 "  --mode { a | b }  a mode\n"
			 "  --f               a flag\n"
			 "  --a-very-long-option-name BYTES-PER-PRIORITY\n"
			 "                    wraps\n"
			 "  --bare VALUE\n");
	free(text);
}
END_TEST

/* The names of dp_cli_opts(which), space-separated. */
static void dp_names(const char *which, char *buf, size_t len)
{
	struct opt *opts = dp_cli_opts(which), *o;
	size_t n = 0;

	buf[0] = '\0';
	for (o = opts; o->name; o++)
		n += snprintf(buf + n, len - n, "%s%s", n ? " " : "", o->name);
	free(opts);
}

START_TEST(dataplane_verbs_take_the_options_naming_them)
{
	char buf[256];

	dp_names("switch attach", buf, sizeof(buf));
	ck_assert_str_eq(buf, "--bpf-root --mode --datapath --offload "
			      "--shared-blocks --speed --cable-length --mtu");
	dp_names("switch update", buf, sizeof(buf));
	ck_assert_str_eq(buf, "--bpf-root --topo --force");
	dp_names("switch show", buf, sizeof(buf));
	ck_assert_str_eq(buf, "--bpf-root --packed");
	dp_names("host detach", buf, sizeof(buf));
	ck_assert_str_eq(buf, "--bpf-root");
	dp_names("host attach", buf, sizeof(buf));
	ck_assert_str_eq(buf,
			 "--bpf-root --mode --class-dscp --udp-dport --class");
	/* an object: every option some verb of it takes */
	dp_names("switch", buf, sizeof(buf));
	ck_assert_str_eq(buf, "--bpf-root --mode --datapath --offload "
			      "--shared-blocks --speed --cable-length --mtu "
			      "--topo --force --packed");
	dp_names("hos", buf, sizeof(buf));
	ck_assert_str_eq(buf, "");
	dp_names("switch attac", buf, sizeof(buf));
	ck_assert_str_eq(buf, "--bpf-root");
}
END_TEST

Suite *opts_suite(void)
{
	Suite *s = suite_create("opts");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, values_after_space_or_equals_and_positionals);
	tcase_add_test(tc, bad_words_are_usage_errors);
	tcase_add_test(tc, take_all_removes_a_tables_options_anywhere);
	tcase_add_test(tc, typed_values_and_deprecated_words);
	tcase_add_test(tc, macro_tables_write_targets_of_their_own_width);
	tcase_add_test(tc, usage_is_the_table);
	tcase_add_test(tc, dataplane_verbs_take_the_options_naming_them);
	suite_add_tcase(s, tc);
	return s;
}
