/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Options of every subcommand: "--name VALUE" or "--name=VALUE" (exact
 * names, never a prefix), strict numbers with ranges, enums, sizes, rates,
 * lists, per-option callbacks and positional words, from a table.
 *
 * An option may keep an old bare keyword ("dir DIR" for "--dir DIR") for a
 * release: set .deprecated, and the word works with a warning on stderr.
 *
 * A table is one line per option, with the OPT_<TYPE>() macros below (a
 * type's name followed by "(" is its macro): the option, its target, its
 * limits, the METAVAR of the usage and a one-line help, e.g.
 *
 *   OPT_INT("--quanta", &c->quanta, 1, 65535, "Q", "PAUSE time, quanta"),
 *
 * The target's type is checked at compile time (an integer of any size for
 * OPT_INT and OPT_ENUM, uint64_t for OPT_U64, OPT_SIZE and OPT_RATE, ...),
 * so a table writes a configuration's fields directly. Extra fields follow
 * the help: OPT_STR("--dir", &dir, "DIR", "...", .deprecated = "dir").
 * The usage of a command prints its OPTIONS from the same table.
 *
 * API:
 *   opts_parse(opts, argc, argv, pos, npos, &got)
 *       fills each option's target; positional words go to pos[0..npos-1]
 *       (*got of them). EXIT_OK, or EXIT_USAGE after p_err() ("What is
 *       "x"?", "--pods wants a number from 1 to 1000, not "x"").
 *       Positional words may be interleaved with options.
 *       Under $TAGGER_OPTS_TABLE, it prints the table instead (one
 *       line per option: "opt", the name, an enum's values; then
 *       "nohelp NAME" if it has no help) and exits 0:
 *       tools/check-man-options.py compares that with the man pages,
 *       the help and the completion.
 *   opts_usage(f, opts)
 *       one line per option: "  --name METAVAR  help" (aligned).
 *   opts_usage_with(f, opts, more)
 *       the same for two tables (a kind's own and the shared), aligned
 *       together; more may be NULL.
 *   opts_synopsis(f, opts)
 *       " [--name METAVAR]" per option, for a usage line.
 *   opts_take_all(opts, &argc, argv)
 *       takes the options of a table out of argv wherever they are,
 *       filling their targets, and leaves the other words in order (the
 *       options every kind of a command shares, such as -o, before the
 *       kind's own table parses the rest). EXIT_OK, or EXIT_USAGE after
 *       p_err(). No deprecated words, no positionals. Under
 *       $TAGGER_OPTS_TABLE, it prints its table (without exiting) first.
 *   opt_number(name, s, min, max, &out)   one strict number, with p_err()
 *   opt_u64(name, s, &out)                 a 64-bit number (seeds)
 */
#ifndef __TAGGER_OPTS_H
#define __TAGGER_OPTS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

enum opt_type {
	OPT_INT, /* an integer of .size bytes (0: int), within [min, max] */
	OPT_U64, /* uint64_t, any value (seeds) */
	OPT_STR, /* const char * */
	OPT_FLAG, /* bool, no value */
	OPT_ENUM, /* as OPT_INT: the .names entry whose name is the value */
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
	/* OPT_ENUM's values, ends with { NULL }; an OPT_FUNC may name its
	 * values too, for its usage and the man page check */
	const struct opt_enum *names;
	/* OPT_FUNC: 0 taken, -1 a bad value (opts_parse says so), 1 refused
	 * and already reported with p_err() */
	int (*func)(const struct opt *o, const char *val);
	const char *deprecated; /* an old bare keyword for this option */
	unsigned char size; /* OPT_INT, OPT_ENUM: sizeof(target), 0: int */
	const char *metavar; /* the value in the usage; NULL: the type's */
	const char *help; /* one line for the usage */
};

/* sizeof(*p), and a compile error unless *p is an integer (not a bool). */
/* clang-format off */
#define OPT_ISIZE_(p)                                                   \
	_Generic(*(p),                                                  \
		signed char: 1,                                         \
		unsigned char: 1,                                       \
		short: sizeof(short),                                   \
		unsigned short: sizeof(short),                          \
		int: sizeof(int),                                       \
		unsigned int: sizeof(int),                              \
		long: sizeof(long),                                     \
		unsigned long: sizeof(long),                            \
		long long: sizeof(long long),                           \
		unsigned long long: sizeof(long long))
/* clang-format on */
/* p itself, and a compile error unless it has type T. */
#define OPT_PTR_(p, T) _Generic((p), T : (p))

#define OPT_INT(n, p, lo, hi, mv, h, ...)                               \
	{                                                               \
		.name = (n), .type = OPT_INT, .min = (lo), .max = (hi), \
		.out = (p), .size = OPT_ISIZE_(p), .metavar = (mv),     \
		.help = (h), ##__VA_ARGS__                              \
	}
#define OPT_ENUM(n, p, e, h, ...)                                 \
	{                                                         \
		.name = (n), .type = OPT_ENUM, .out = (p),        \
		.size = OPT_ISIZE_(p), .names = (e), .help = (h), \
		##__VA_ARGS__                                     \
	}
#define OPT_U64(n, p, mv, h, ...)                                             \
	{                                                                     \
		.name = (n), .type = OPT_U64, .out = OPT_PTR_(p, uint64_t *), \
		.metavar = (mv), .help = (h), ##__VA_ARGS__                   \
	}
#define OPT_SIZE(n, p, lo, mv, h, ...)                                        \
	{                                                                     \
		.name = (n), .type = OPT_SIZE, .min = (lo),                   \
		.out = OPT_PTR_(p, uint64_t *), .metavar = (mv), .help = (h), \
		##__VA_ARGS__                                                 \
	}
#define OPT_RATE(n, p, lo, mv, h, ...)                                        \
	{                                                                     \
		.name = (n), .type = OPT_RATE, .min = (lo),                   \
		.out = OPT_PTR_(p, uint64_t *), .metavar = (mv), .help = (h), \
		##__VA_ARGS__                                                 \
	}
#define OPT_STR(n, p, mv, h, ...)                                   \
	{                                                           \
		.name = (n), .type = OPT_STR,                       \
		.out = OPT_PTR_(p, const char **), .metavar = (mv), \
		.help = (h), ##__VA_ARGS__                          \
	}
#define OPT_FLAG(n, p, h, ...)                                             \
	{                                                                  \
		.name = (n), .type = OPT_FLAG, .out = OPT_PTR_(p, bool *), \
		.help = (h), ##__VA_ARGS__                                 \
	}
#define OPT_LIST(n, p, lo, hi, mv, h, ...)                               \
	{                                                                \
		.name = (n), .type = OPT_LIST, .min = (lo), .max = (hi), \
		.out = OPT_PTR_(p, struct opt_list *), .metavar = (mv),  \
		.help = (h), ##__VA_ARGS__                               \
	}
/* f(o, value) with o->out == p; p may be NULL */
#define OPT_FUNC(n, f, p, mv, h, ...)                                   \
	{                                                               \
		.name = (n), .type = OPT_FUNC, .func = (f), .out = (p), \
		.metavar = (mv), .help = (h), ##__VA_ARGS__             \
	}

int opts_parse(const struct opt *opts, int argc, char **argv, char **pos,
	       int npos, int *got);
void opts_usage(FILE *f, const struct opt *opts);
void opts_usage_with(FILE *f, const struct opt *opts, const struct opt *more);
void opts_synopsis(FILE *f, const struct opt *opts);
int opts_take_all(const struct opt *opts, int *argc, char **argv);
bool opt_number(const char *name, const char *s, long min, long max, int *out);
bool opt_u64(const char *name, const char *s, uint64_t *out);

#endif /* __TAGGER_OPTS_H */
