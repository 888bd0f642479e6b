// SPDX-License-Identifier: GPL-2.0
/*
 * tagger maps { RULES.json | MAPS.json }: the rules as per-port maps
 * (tagger-maps/1), a maps document read and checked, and either run as
 * rules (--rules).
 */
#include <stdio.h>
#include <string.h>

#include "analyze/maps_verify.h"
#include "cli/cmd.h"
#include "cli/cmd_maps.h"
#include "cli/opts.h"
#include "compile/maps_rules.h"
#include "compile/rules_maps.h"
#include "lib/log.h"
#include "lib/outfile.h"
#include "lib/util.h"

struct maps_args {
	const char *out;
	int max_classes, max_prios;
	bool rules;
};

#define MAPS_NOPTS 5

static void maps_opts(struct opt t[MAPS_NOPTS + 1], struct maps_args *a)
{
	const struct opt opts[] = {
		OPT_STR("-o", &a->out, "FILE", "write the document to FILE"),
		OPT_STR("--output", &a->out, "FILE", "the same as -o"),
		OPT_FLAG("--rules", &a->rules,
			 "write the maps as rules (tagger-rules/1) instead"),
		OPT_INT("--max-classes", &a->max_classes, 1, MAPS_MAX_CLASSES,
			"N",
			"traffic classes a switch has (default 8, or the maps "
			"document's)"),
		OPT_INT("--max-priorities", &a->max_prios, 1, RULES_NPRIOS, "N",
			"lossless priorities a switch has (default 8)"),
		{ 0 }
	};

	memcpy(t, opts, sizeof(opts));
}

static int help(int argc, char **argv)
{
	struct maps_args a;
	struct opt t[MAPS_NOPTS + 1];

	maps_opts(t, &a);
	fprintf(stderr,
		"Usage: %s [-j] maps { RULES.json | MAPS.json } [ { -o | --output } FILE ]\n"
		"                 [ --rules ] [ --max-classes N ] [ --max-priorities N ]\n"
		"\n"
		"The rules as per-port maps, for switches that remark by (class,\n"
		"out-port): classify (in-port, DSCP) -> class, class -> priority,\n"
		"rewrite (class, out-port) -> DSCP. The maps reproduce every rule\n"
		"exactly, with the fewest classes (one per distinct behaviour of an\n"
		"(in-port, DSCP) pair: optimal), checked by an independent verifier\n"
		"(and the buffer dependency graph, when the rules carry \"links\").\n"
		"A maps document (tagger-maps/1, from here or elsewhere) is read and\n"
		"checked the same way. --rules writes what a switch with the maps\n"
		"does as rules (tagger-rules/1), for tagger switch attach and\n"
		"tagger verify: every (in-port, DSCP) of a class leaves an out-port\n"
		"with the class's DSCP there.\n",
		bin_name);
	opts_usage(stderr, t);
	fprintf(stderr,
		"Without -o the document goes to stdout (unless -j, which prints a\n"
		"summary). Exit 0; 1 a switch needs more classes or priorities than\n"
		"allowed (the refusal names it and a witness); 2 bad input.\n");
	return 0;
}

/* The problems of a failed check on stderr; EXIT_PROBLEM. */
static int check_failed(const json_t *check, const char *what, const char *file)
{
	json_t *probs = json_object_get(check, "problems");
	size_t i;

	for (i = 0; i < json_array_size(probs); i++)
		pr_warn("maps check: %s\n",
			json_string_value(json_array_get(probs, i)));
	p_err("%s %s fail the check (%lld problems): a bug", what, file,
	      (long long)json_integer_value(
		      json_object_get(check, "problem_count")));
	return EXIT_PROBLEM;
}

/*
 * The rules of x's maps into x->rules, read back into *r: NULL after a
 * message when they do not read (a bug: the maps were checked).
 */
static struct rules *rules_of_maps(struct maps_cli *x, const json_t *links,
				   const char *file)
{
	struct rules *r;

	x->rules = maps_rules_json(&x->m, links);
	r = rules_from_json(x->rules, file);
	if (!r)
		p_err("the rules of the maps in %s do not read back: a bug",
		      file);
	return r;
}

static int load_maps(const char *file, int max_classes, int max_prios,
		     struct maps_cli *x)
{
	const json_t *links = json_object_get(x->doc, "links");
	struct rules *own;

	x->from_maps = true;
	own = maps_from_json(x->doc, file, &x->m);
	if (!own)
		return EXIT_USAGE;
	maps_set_limits(&x->m, max_classes ? max_classes : x->m.max_classes,
			max_prios);
	/* Every switch, refused or not (their maps are complete): the rules
	 * number them as the maps do. */
	x->r = rules_of_maps(x, links, file);
	if (!x->r) {
		rules_free(own);
		return EXIT_PROBLEM;
	}
	x->m.r = x->r;
	rules_free(own);
	x->check = maps_verify(&x->m, links, 10);
	if (!x->check)
		return EXIT_USAGE;
	return json_is_true(json_object_get(x->check, "ok")) ?
		       EXIT_OK :
		       check_failed(x->check, "the rules of the maps of", file);
}

static int load_rules(const char *file, int max_classes, int max_prios,
		      bool want_rules, struct maps_cli *x)
{
	const json_t *links = json_object_get(x->doc, "links");
	struct rules *again;
	json_t *check;
	int rc;

	x->r = rules_from_json(x->doc, file);
	if (!x->r)
		return EXIT_USAGE;
	maps_build(x->r, max_classes ? max_classes : MAPS_DEFAULT_CLASSES,
		   max_prios, &x->m);
	x->check = maps_verify(&x->m, links, 10);
	if (!x->check)
		return EXIT_USAGE;
	if (!json_is_true(json_object_get(x->check, "ok")))
		return check_failed(x->check, "the maps of", file);
	if (!want_rules || x->m.refused)
		return EXIT_OK;
	/* The rules of the maps behave as the maps, hence as the rules. */
	again = rules_of_maps(x, links, file);
	if (!again)
		return EXIT_PROBLEM;
	x->m.r = again;
	check = maps_verify(&x->m, NULL, 10);
	x->m.r = x->r;
	rc = json_is_true(json_object_get(check, "ok")) ?
		     EXIT_OK :
		     check_failed(check, "the rules of the maps of", file);
	json_decref(check);
	rules_free(again);
	return rc;
}

int maps_cli_load(const char *file, int max_classes, int max_prios,
		  bool want_rules, struct maps_cli *x)
{
	const char *format;

	memset(x, 0, sizeof(*x));
	x->doc = maps_doc_load(file);
	if (!x->doc)
		return EXIT_USAGE;
	format = json_string_value(json_object_get(x->doc, "format"));
	if (format && !strcmp(format, MAPS_FORMAT))
		return load_maps(file, max_classes, max_prios, x);
	if (!format || strcmp(format, RULES_FORMAT)) {
		input_err(file, 0, "format: must be \"%s\" or \"%s\"",
			  RULES_FORMAT, MAPS_FORMAT);
		return EXIT_USAGE;
	}
	return load_rules(file, max_classes, max_prios, want_rules, x);
}

void maps_cli_free(struct maps_cli *x)
{
	maps_free(&x->m);
	json_decref(x->check);
	json_decref(x->rules);
	json_decref(x->doc);
	rules_free(x->r);
}

static int fill_json(FILE *f, const void *arg)
{
	return json_dumpf((const json_t *)arg, f, JSON_INDENT(1)) ||
	       fputc('\n', f) == EOF;
}

/* Per switch: classes and lossless priorities; the refusals. */
static json_t *summary(const struct maps_cli *x)
{
	json_t *sws = json_array(), *ref = json_array();
	int s, maxc = 0;

	for (s = 0; s < x->m.nsw; s++) {
		const struct maps_switch *ms = &x->m.sw[s];

		if (ms->nclasses > maxc)
			maxc = ms->nclasses;
		json_array_append_new(
			sws, json_pack("{s:s,s:i,s:i,s:b}", "switch",
				       x->r->sw[s].name, "classes",
				       ms->nclasses, "lossless_priorities",
				       ms->nprios, "refused", ms->refused));
		if (ms->refused)
			json_array_append_new(ref,
					      maps_refusal_json(&x->m, ms));
	}
	return json_pack("{s:s,s:i,s:i,s:o,s:o,s:O,s:I}", "input",
			 x->from_maps ? "maps" : "rules", "max_classes_used",
			 maxc, "max_classes", x->m.max_classes, "switches", sws,
			 "refused", ref, "check", x->check, "rules",
			 (json_int_t)(x->rules ? maps_rules_count(&x->m) : 0));
}

static void print_summary(const struct maps_cli *x, const json_t *j, bool rules)
{
	const json_t *cbd = json_object_get(x->check, "cbd");

	fprintf(stderr,
		"maps: %d switches, at most %lld classes on one (limit %d); "
		"exact on %lld (in-port, DSCP, out-port) triples",
		x->m.nsw,
		(long long)json_integer_value(
			json_object_get(j, "max_classes_used")),
		x->m.max_classes,
		(long long)json_integer_value(
			json_object_get(x->check, "triples")));
	if (json_is_object(cbd))
		fprintf(stderr, ", buffer dependency graph %s (%lld edges)",
			json_is_true(json_object_get(cbd, "acyclic")) ?
				"acyclic" :
				"CYCLIC",
			(long long)json_integer_value(
				json_object_get(cbd, "edges")));
	if (rules)
		fprintf(stderr, "; written as %lld rules",
			(long long)json_integer_value(
				json_object_get(j, "rules")));
	fprintf(stderr, "\n");
}

/* What goes out: the rules of the maps, or the maps (with the links). */
static json_t *output(const struct maps_cli *x, const char *file, bool rules)
{
	const json_t *links = json_object_get(x->doc, "links");
	const char *src = file;
	json_t *doc;

	if (rules)
		return json_incref(x->rules);
	if (x->from_maps && json_is_string(json_object_get(x->doc, "rules")))
		src = json_string_value(json_object_get(x->doc, "rules"));
	doc = maps_json(&x->m, src);
	if (links)
		json_object_set(doc, "links", (json_t *)links);
	return doc;
}

int do_maps(int argc, char **argv)
{
	struct maps_args a = { .max_prios = RULES_NPRIOS };
	struct opt t[MAPS_NOPTS + 1];
	struct maps_cli x;
	char *file = NULL;
	json_t *j, *doc;
	int got, rc, s;

	if (argc >= 1 && is_help(argv[0]))
		return help(argc, argv);
	maps_opts(t, &a);
	if (opts_parse(t, argc, argv, &file, 1, &got))
		return usage_help(help);
	if (!got)
		return usage_err(help, "maps takes RULES.json or MAPS.json");
	rc = maps_cli_load(file, a.max_classes, a.max_prios, a.rules, &x);
	if (rc) {
		maps_cli_free(&x);
		return rc;
	}
	j = summary(&x);
	if (x.m.refused) {
		for (s = 0; s < x.m.nsw && !json_output; s++)
			if (x.m.sw[s].refused) {
				fprintf(stderr, "%s: ", bin_name);
				maps_refusal(&x.m, &x.m.sw[s], stderr);
			}
		rc = EXIT_PROBLEM;
	} else if (a.out || !json_output) {
		doc = output(&x, file, a.rules);
		if (outfile_write(a.out, fill_json, doc))
			rc = EXIT_RUNTIME;
		json_decref(doc);
	}
	if (json_output)
		json_emit(j);
	else {
		if (!rc)
			print_summary(&x, j, a.rules);
		json_decref(j);
	}
	maps_cli_free(&x);
	return rc;
}
