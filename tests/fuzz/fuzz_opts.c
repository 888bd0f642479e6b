// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the option parser (cli/opts.c) on any argv, against a
 * table with every option type, a shared table taken out first
 * (opts_take_all) and two positional words. It never crashes or leaks,
 * ends EXIT_OK or EXIT_USAGE, and says exactly one error (one {"error"}
 * document under -j) when it refuses, none when it accepts.
 *
 * The input is the words of argv, separated by NUL or newline bytes.
 */
#include <fcntl.h>
#include <sanitizer/common_interface_defs.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/opts.h"
#include "lib/log.h"

#define MAX_WORDS 64

static struct {
	uint8_t u8;
	uint16_t u16;
	int i;
	long l;
	int mode;
	uint64_t u64, size, rate;
	const char *str, *out;
	bool flag;
	struct opt_list list;
	int side, calls;
} v;

static const struct opt_enum modes[] = { { "wrr", 1 },
					 { "strict", 2 },
					 { "x", 3 },
					 { NULL } };

/* a or b; "bad...": a bad value (opts_parse says so); else refused here */
static int func_opt(const struct opt *o, const char *val)
{
	if (!strcmp(val, "a") || !strcmp(val, "b")) {
		(*(int *)o->out)++;
		return 0;
	}
	if (!strncmp(val, "bad", 3))
		return -1;
	p_err("%s refuses \"%s\"", o->name, val);
	return 1;
}

static const struct opt shared[] = { OPT_STR("-o", &v.out, "FILE", "output"),
				     OPT_FUNC("--side", func_opt, &v.side, NULL,
					      "a side", .names = modes),
				     { 0 } };

static const struct opt table[] = {
	OPT_INT("--u8", &v.u8, 0, 255, "N", "one byte"),
	OPT_INT("--u16", &v.u16, 1, 65535, "N", "two bytes"),
	OPT_INT("--int", &v.i, 0, 1000000, "N", "an int"),
	OPT_INT("--long", &v.l, 0, 1L << 40, "N", "a long"),
	OPT_ENUM("--mode", &v.mode, modes, "a mode"),
	OPT_U64("--seed", &v.u64, "S", "a seed"),
	OPT_SIZE("--size", &v.size, 1, "BYTES", "a size"),
	OPT_RATE("--rate", &v.rate, 1000, "RATE", "a rate"),
	OPT_STR("--dir", &v.str, "DIR", "a string", .deprecated = "dir"),
	OPT_FLAG("--flag", &v.flag, "a flag"),
	OPT_LIST("--prios", &v.list, 0, 7, "LIST", "a list"),
	OPT_FUNC("--cb", func_opt, &v.calls, "V", "a callback",
		 .deprecated = "cb"),
	{ 0 }
};

static int quiet_fd = -1, stderr_fd = -1;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	FILE *f = fopen("/dev/null", "w");

	unsetenv("TAGGER_OPTS_TABLE");
	/* Errors are JSON documents on stdout (counted), not printed. */
	json_output = true;
	if (!freopen("/dev/null", "w", stdout))
		abort();
	/* The parser's own stderr goes nowhere; sanitizer reports do not. */
	quiet_fd = open("/dev/null", O_WRONLY);
	stderr_fd = dup(2);
	if (quiet_fd < 0 || stderr_fd < 0 || !f)
		abort();
	__sanitizer_set_report_fd((void *)(intptr_t)stderr_fd);
	opts_usage_with(f, table, shared);
	opts_synopsis(f, table);
	fclose(f);
	return 0;
}

/* One error document per refusal, none otherwise. */
static void check(int rc, int docs)
{
	if (rc != EXIT_OK && rc != EXIT_USAGE)
		__builtin_trap();
	if (json_docs - docs != (rc == EXIT_USAGE))
		__builtin_trap();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = malloc(size + 1), *argv[MAX_WORDS], *pos[2];
	int argc = 0, n, got = -1, rc, docs;
	size_t i, start = 0;

	memcpy(buf, data, size);
	buf[size] = '\0';
	for (i = 0; i <= size && argc < MAX_WORDS; i++)
		if (i == size || buf[i] == '\0' || buf[i] == '\n') {
			buf[i] = '\0';
			argv[argc++] = buf + start;
			start = i + 1;
		}
	memset(&v, 0, sizeof(v));

	dup2(quiet_fd, 2);
	docs = json_docs;
	n = argc;
	rc = opts_take_all(shared, &n, argv);
	check(rc, docs);
	if (n > argc)
		__builtin_trap();
	if (!rc) {
		docs = json_docs;
		rc = opts_parse(table, n, argv, pos, 2, &got);
		check(rc, docs);
		if (!rc && (got < 0 || got > 2))
			__builtin_trap();
		if (v.list.n < 0 || (v.list.n && !v.list.v))
			__builtin_trap();
	}
	dup2(stderr_fd, 2);

	free(v.list.v);
	free(buf);
	return 0;
}
