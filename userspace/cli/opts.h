/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Options of every subcommand: "--name VALUE" or "--name=VALUE" (exact
 * names, never a prefix), strict numbers with ranges, enums, sizes, rates,
 * lists, per-option callbacks and positional words, from a table.
 *
 * An option may keep an old bare keyword ("dir DIR" for "--dir DIR") for a
 * release: set .deprecated, and the word works with a warning on stderr.
 *
 * API:
 *   opts_parse(opts, argc, argv, pos, npos, &got)
 *       fills each option's target; positional words go to pos[0..npos-1]
 *       (*got of them). EXIT_OK, or EXIT_USAGE after p_err() ("What is
 *       "x"?", "--pods wants a number from 1 to 1000, not "x"").
 *       Positional words may be interleaved with options.
 *   opts_take(&argc, argv, name, &val)
 *       removes "name VALUE" / "name=VALUE" from argv (options every kind
 *       shares, such as -o); 1 if found, 0 if not, -1 if VALUE is missing.
 *   opt_number(name, s, min, max, &out)   one strict number, with p_err()
 *   opt_u64(name, s, &out)                 a 64-bit number (seeds)
 */
#ifndef __TAGGER_OPTS_H
#define __TAGGER_OPTS_H

#include <stdbool.h>
#include <stdint.h>

enum opt_type {
	OPT_INT, /* int, within [min, max] */
	OPT_U64, /* uint64_t, any value (seeds) */
	OPT_STR, /* const char * */
	OPT_FLAG, /* bool, no value */
	OPT_ENUM, /* int, the .names entry whose name is the value */
	OPT_SIZE, /* uint64_t bytes, tc style (64k, 1m), at least min */
	OPT_RATE, /* uint64_t bit/s, tc style (100mbit), at least min */
	OPT_LIST, /* struct opt_list, "1,3-5" of ints in [min, max] */
	OPT_FUNC, /* .func(o, value): anything else; may repeat */
};

struct opt_enum {
	const char *name;
	int val;
};

/* An OPT_LIST value: v is malloc()ed (the caller frees it), n >= 1. */
struct opt_list {
	int *v;
	int n;
};

struct opt {
	const char *name;
	enum opt_type type;
	long min, max;
	void *out;
	const struct opt_enum *names; /* OPT_ENUM, ends with { NULL } */
	/* OPT_FUNC: 0 taken, -1 a bad value (opts_parse says so), 1 refused
	 * and already reported with p_err() */
	int (*func)(const struct opt *o, const char *val);
	const char *deprecated; /* an old bare keyword for this option */
};

int opts_parse(const struct opt *opts, int argc, char **argv, char **pos,
	       int npos, int *got);
int opts_take(int *argc, char **argv, const char *name, char **val);
bool opt_number(const char *name, const char *s, long min, long max, int *out);
bool opt_u64(const char *name, const char *s, uint64_t *out);

#endif /* __TAGGER_OPTS_H */
