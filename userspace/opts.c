// SPDX-License-Identifier: GPL-2.0
/* Table-driven options of the generator subcommands; see opts.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "opts.h"
#include "util.h"

bool opt_number(const char *name, const char *s, long min, long max, int *out)
{
	unsigned long v;

	if (!parse_uint(s, (unsigned long)max, &v) || (long)v < min) {
		p_err("%s wants a number from %ld to %ld, not \"%s\"", name, min, max, s);
		return false;
	}
	*out = (int)v;
	return true;
}

bool opt_u64(const char *name, const char *s, uint64_t *out)
{
	unsigned long long v;
	char *end;

	errno = 0;
	if (*s < '0' || *s > '9' || (v = strtoull(s, &end, 10), errno || *end)) {
		p_err("%s wants a number from 0 to 2^64-1, not \"%s\"", name, s);
		return false;
	}
	*out = v;
	return true;
}

static const struct opt *lookup(const struct opt *opts, const char *arg,
				const char **val)
{
	size_t len;

	for (; opts && opts->name; opts++) {
		len = strlen(opts->name);
		if (strncmp(arg, opts->name, len))
			continue;
		if (!arg[len]) {
			*val = NULL;
			return opts;
		}
		if (arg[len] == '=' && opts->type != OPT_FLAG) {
			*val = arg + len + 1;
			return opts;
		}
	}
	return NULL;
}

static bool set(const struct opt *o, const char *val)
{
	switch (o->type) {
	case OPT_INT:
		return opt_number(o->name, val, o->min, o->max, o->out);
	case OPT_U64:
		return opt_u64(o->name, val, o->out);
	case OPT_STR:
		*(const char **)o->out = val;
		return true;
	case OPT_FLAG:
		*(bool *)o->out = true;
		return true;
	}
	return false;
}

int opts_parse(const struct opt *opts, int argc, char **argv, char **pos,
	       int npos, int *got)
{
	int i, n = 0;

	for (i = 0; i < argc; i++) {
		const struct opt *o;
		const char *val;

		if (argv[i][0] != '-' || !argv[i][1] || !(o = lookup(opts, argv[i], &val))) {
			if ((argv[i][0] == '-' && argv[i][1]) || n == npos) {
				p_err("What is \"%s\"?", argv[i]);
				return EXIT_USAGE;
			}
			pos[n++] = argv[i];
			continue;
		}
		if (!val && o->type != OPT_FLAG) {
			if (i + 1 == argc) {
				p_err("%s wants a value", o->name);
				return EXIT_USAGE;
			}
			val = argv[++i];
		}
		if (!set(o, val))
			return EXIT_USAGE;
	}
	if (got)
		*got = n;
	return EXIT_OK;
}

int opts_take(int *argc, char **argv, const char *name, char **val)
{
	size_t len = strlen(name);
	int i, w;

	for (i = 0; i < *argc; i++) {
		int used;

		if (strncmp(argv[i], name, len) || (argv[i][len] && argv[i][len] != '='))
			continue;
		if (argv[i][len] == '=') {
			*val = argv[i] + len + 1;
			used = 1;
		} else if (i + 1 < *argc) {
			*val = argv[i + 1];
			used = 2;
		} else {
			p_err("%s wants a value", name);
			return -1;
		}
		for (w = i; w + used < *argc; w++)
			argv[w] = argv[w + used];
		*argc -= used;
		return 1;
	}
	return 0;
}
