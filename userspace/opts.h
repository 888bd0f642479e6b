/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Options of the generator subcommands: "--name VALUE" or "--name=VALUE",
 * strict numbers with ranges, and positional words, from a table.
 *
 * API:
 *   opts_parse(opts, argc, argv, pos, npos, &got)
 *       fills each option's target; positional words go to pos[0..npos-1]
 *       (*got of them). EXIT_OK, or EXIT_USAGE after p_err() ("What is
 *       "x"?", "--pods wants a number from 1 to 1000, not "x"").
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
	OPT_INT,	/* int, within [min, max] */
	OPT_U64,	/* uint64_t, any value (seeds) */
	OPT_STR,	/* const char * */
	OPT_FLAG,	/* bool, no value */
};

struct opt {
	const char *name;
	enum opt_type type;
	long min, max;
	void *out;
};

int opts_parse(const struct opt *opts, int argc, char **argv, char **pos,
	       int npos, int *got);
int opts_take(int *argc, char **argv, const char *name, char **val);
bool opt_number(const char *name, const char *s, long min, long max, int *out);
bool opt_u64(const char *name, const char *s, uint64_t *out);

#endif /* __TAGGER_OPTS_H */
