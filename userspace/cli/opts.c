// SPDX-License-Identifier: GPL-2.0
/* Table-driven options of every subcommand; see opts.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/log.h"
#include "cli/opts.h"
#include "lib/units.h"
#include "lib/util.h"

bool opt_number(const char *name, const char *s, long min, long max, int *out)
{
	unsigned long v;

	if (!parse_uint(s, (unsigned long)max, &v) || (long)v < min) {
		p_err("%s wants a number from %ld to %ld, not \"%s\"", name,
		      min, max, s);
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
	if (*s < '0' || *s > '9' ||
	    (v = strtoull(s, &end, 10), errno || *end)) {
		p_err("%s wants a number from 0 to 2^64-1, not \"%s\"", name,
		      s);
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

/* "--flag=V": a flag given a value, not an unknown word. */
static bool flag_with_value(const struct opt *opts, const char *arg)
{
	for (; opts && opts->name; opts++) {
		size_t len = strlen(opts->name);

		if (opts->type == OPT_FLAG && !strncmp(arg, opts->name, len) &&
		    arg[len] == '=') {
			p_err("%s takes no value", opts->name);
			return true;
		}
	}
	return false;
}

/* An old bare keyword, when a value follows it (else it is a word). */
static const struct opt *lookup_deprecated(const struct opt *opts, int argc,
					   char **argv, int i)
{
	if (i + 1 >= argc)
		return NULL;
	for (; opts && opts->name; opts++)
		if (opts->deprecated && !strcmp(argv[i], opts->deprecated)) {
			pr_warn("\"%s\" is deprecated, use %s\n", argv[i],
				opts->name);
			return opts;
		}
	return NULL;
}

/* v into the integer target of OPT_INT or OPT_ENUM, of .size bytes. */
static void store_int(const struct opt *o, long v)
{
	switch (o->size) {
	case 1:
		*(uint8_t *)o->out = (uint8_t)v;
		break;
	case 2:
		*(uint16_t *)o->out = (uint16_t)v;
		break;
	case 8:
		*(uint64_t *)o->out = (uint64_t)v;
		break;
	default: /* 0: an int, as tables without the macros have it */
		*(uint32_t *)o->out = (uint32_t)v;
	}
}

/* "a | b | c", an enum's names. */
static void enum_names(const struct opt *o, char *buf, size_t len)
{
	const struct opt_enum *e;
	size_t n = 0;

	buf[0] = '\0';
	for (e = o->names; e->name && n < len; e++)
		n += snprintf(buf + n, len - n, "%s%s",
			      e == o->names ? "" : " | ", e->name);
}

static bool set_enum(const struct opt *o, const char *val)
{
	const struct opt_enum *e;
	char names[256];

	for (e = o->names; e->name; e++)
		if (!strcmp(val, e->name)) {
			store_int(o, e->val);
			return true;
		}
	enum_names(o, names, sizeof(names));
	p_err("%s wants one of %s, not \"%s\"", o->name, names, val);
	return false;
}

static bool set_int(const struct opt *o, const char *val)
{
	unsigned long v;

	if (!parse_uint(val, (unsigned long)o->max, &v) || (long)v < o->min) {
		p_err("%s wants a number from %ld to %ld, not \"%s\"", o->name,
		      o->min, o->max, val);
		return false;
	}
	store_int(o, (long)v);
	return true;
}

static bool set_bytes(const struct opt *o, const char *val)
{
	bool rate = o->type == OPT_RATE;
	uint64_t v;

	if (!(rate ? parse_rate(val, &v) : parse_size(val, &v)) ||
	    v < (uint64_t)o->min) {
		p_err("%s wants a %s, not \"%s\"", o->name,
		      rate ? "rate (100mbit, 1gbit)" : "size (1500, 64k, 1m)",
		      val);
		return false;
	}
	*(uint64_t *)o->out = v;
	return true;
}

static bool set_list(const struct opt *o, const char *val)
{
	struct opt_list *l = o->out;
	int *v, n = split_list(val, (int)o->min, (int)o->max, &v);

	if (n < 1) {
		p_err("%s wants a list of numbers from %ld to %ld (1,3-5), not \"%s\"",
		      o->name, o->min, o->max, val);
		return false;
	}
	free(l->v);
	l->v = v;
	l->n = n;
	return true;
}

static bool set_func(const struct opt *o, const char *val)
{
	int r = o->func(o, val);

	if (r < 0)
		p_err("%s: bad value \"%s\"", o->name, val);
	return !r;
}

static bool set(const struct opt *o, const char *val)
{
	switch (o->type) {
	case OPT_ENUM:
		return set_enum(o, val);
	case OPT_SIZE:
	case OPT_RATE:
		return set_bytes(o, val);
	case OPT_LIST:
		return set_list(o, val);
	case OPT_FUNC:
		return set_func(o, val);
	case OPT_INT:
		return set_int(o, val);
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

/* The usage's name for the value of o ("" for a flag). */
static const char *metavar(const struct opt *o, char *buf, size_t len)
{
	static const char *const of_type[] = {
		[OPT_INT] = "N",     [OPT_U64] = "N",	   [OPT_STR] = "VALUE",
		[OPT_FLAG] = "",     [OPT_SIZE] = "BYTES", [OPT_RATE] = "RATE",
		[OPT_LIST] = "LIST", [OPT_FUNC] = "VALUE",
	};
	size_t n;

	if (o->names) {
		n = snprintf(buf, len, "{ ");
		enum_names(o, buf + n, len - n);
		n = strlen(buf);
		snprintf(buf + n, len - n, " }");
		return buf;
	}
	return o->metavar ?: of_type[o->type];
}

/* "--name METAVAR", or "--name" for a flag; its length. */
static int usage_left(const struct opt *o, char *buf, size_t len, char *mv,
		      size_t mvlen)
{
	const char *m = metavar(o, mv, mvlen);

	return snprintf(buf, len, "%s%s%s", o->name, *m ? " " : "", m);
}

void opts_usage_with(FILE *f, const struct opt *opts, const struct opt *more)
{
	const struct opt *tables[] = { opts, more }, *o;
	char mv[256], left[320];
	int w = 0, n, i;

	for (i = 0; i < 2; i++)
		for (o = tables[i]; o && o->name; o++) {
			n = usage_left(o, left, sizeof(left), mv, sizeof(mv));
			if (n > w && n <= 30)
				w = n;
		}
	for (i = 0; i < 2; i++)
		for (o = tables[i]; o && o->name; o++) {
			usage_left(o, left, sizeof(left), mv, sizeof(mv));
			if (!o->help)
				fprintf(f, "  %s\n", left);
			else if ((int)strlen(left) > w)
				fprintf(f, "  %s\n  %*s  %s\n", left, w, "",
					o->help);
			else
				fprintf(f, "  %-*s  %s\n", w, left, o->help);
		}
}

void opts_usage(FILE *f, const struct opt *opts)
{
	opts_usage_with(f, opts, NULL);
}

void opts_synopsis(FILE *f, const struct opt *opts)
{
	const struct opt *o;
	char mv[256], left[320];

	for (o = opts; o && o->name; o++) {
		usage_left(o, left, sizeof(left), mv, sizeof(mv));
		fprintf(f, " [%s]", left);
	}
}

/*
 * $TAGGER_OPTS_TABLE: the table, for tools/check-man-options.py; "nohelp"
 * after an option without its one-line help.
 */
static void print_table(const struct opt *opts)
{
	const struct opt *o;
	const struct opt_enum *e;

	for (o = opts; o && o->name; o++) {
		printf("opt %s", o->name);
		for (e = o->names; e && e->name; e++)
			printf(" %s", e->name);
		printf("\n");
		if (!o->help) /* the usage would print it bare */
			printf("nohelp %s\n", o->name);
	}
	fflush(stdout);
}

int opts_parse(const struct opt *opts, int argc, char **argv, char **pos,
	       int npos, int *got)
{
	int i, n = 0;

	if (getenv("TAGGER_OPTS_TABLE")) {
		print_table(opts);
		exit(EXIT_OK);
	}

	for (i = 0; i < argc; i++) {
		const struct opt *o;
		const char *val;

		val = NULL;
		o = lookup_deprecated(opts, argc, argv, i);
		if (!o && (argv[i][0] != '-' || !argv[i][1] ||
			   !(o = lookup(opts, argv[i], &val)))) {
			if ((argv[i][0] == '-' && argv[i][1]) || n == npos) {
				if (!flag_with_value(opts, argv[i]))
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

int opts_take_all(const struct opt *opts, int *argc, char **argv)
{
	int i = 0, w, used;

	if (getenv("TAGGER_OPTS_TABLE")) /* part of the command's table */
		print_table(opts);

	while (i < *argc) {
		const struct opt *o;
		const char *val = NULL;

		if (argv[i][0] != '-' || !(o = lookup(opts, argv[i], &val))) {
			i++;
			continue;
		}
		used = 1;
		if (!val && o->type != OPT_FLAG) {
			if (i + 1 == *argc) {
				p_err("%s wants a value", o->name);
				return EXIT_USAGE;
			}
			val = argv[i + 1];
			used = 2;
		}
		if (!set(o, val))
			return EXIT_USAGE;
		for (w = i; w + used < *argc; w++)
			argv[w] = argv[w + used];
		*argc -= used;
	}
	return EXIT_OK;
}
