// SPDX-License-Identifier: GPL-2.0
/* tagger maps RULES.json: the rules as per-port maps (tagger-maps/1). */
#include <stdio.h>
#include <string.h>

#include "analyze/maps_verify.h"
#include "cli/cmd.h"
#include "cli/cmd_maps.h"
#include "cli/opts.h"
#include "compile/rules_maps.h"
#include "lib/log.h"
#include "lib/outfile.h"
#include "lib/util.h"

struct maps_args {
	const char *out;
	int max_classes, max_prios;
};

static void maps_opts(struct opt t[5], struct maps_args *a)
{
	const struct opt opts[] = {
		OPT_STR("-o", &a->out, "FILE", "write the maps to FILE"),
		OPT_STR("--output", &a->out, "FILE", "the same as -o"),
		OPT_INT("--max-classes", &a->max_classes, 1, MAPS_MAX_CLASSES,
			"N", "traffic classes a switch has (default 8)"),
		OPT_INT("--max-priorities", &a->max_prios, 1, RULES_NPRIOS, "N",
			"lossless priorities a switch has (default 8)"),
		{ 0 }
	};

	memcpy(t, opts, sizeof(opts));
}

static int help(int argc, char **argv)
{
	struct maps_args a;
	struct opt t[5];

	maps_opts(t, &a);
	fprintf(stderr,
		"Usage: %s [-j] maps RULES.json [ { -o | --output } MAPS.json ]\n"
		"                 [ --max-classes N ] [ --max-priorities N ]\n"
		"\n"
		"The rules as per-port maps, for switches that remark by (class,\n"
		"out-port): classify (in-port, DSCP) -> class, class -> priority,\n"
		"rewrite (class, out-port) -> DSCP. The maps reproduce every rule\n"
		"exactly, with the fewest classes (one per distinct behaviour of an\n"
		"(in-port, DSCP) pair: optimal), checked by an independent verifier\n"
		"(and the buffer dependency graph, when the rules carry \"links\").\n",
		bin_name);
	opts_usage(stderr, t);
	fprintf(stderr,
		"Without -o the maps go to stdout (unless -j, which prints a summary).\n"
		"Exit 0; 1 a switch needs more classes or priorities than allowed\n"
		"(the refusal names it and a witness); 2 bad input.\n");
	return 0;
}

int maps_cli_load(const char *file, int max_classes, int max_prios,
		  struct maps_cli *x)
{
	json_t *probs;
	size_t i;

	memset(x, 0, sizeof(*x));
	x->r = rules_load(file, &x->doc);
	if (!x->r)
		return EXIT_USAGE;
	maps_build(x->r, max_classes, max_prios, &x->m);
	x->check = maps_verify(&x->m, json_object_get(x->doc, "links"), 10);
	if (!x->check)
		return EXIT_USAGE;
	if (json_is_true(json_object_get(x->check, "ok")))
		return EXIT_OK;
	probs = json_object_get(x->check, "problems");
	for (i = 0; i < json_array_size(probs); i++)
		pr_warn("maps check: %s\n",
			json_string_value(json_array_get(probs, i)));
	p_err("the maps of %s fail the check (%lld problems): a bug", file,
	      (long long)json_integer_value(
		      json_object_get(x->check, "problem_count")));
	return EXIT_PROBLEM;
}

void maps_cli_free(struct maps_cli *x)
{
	maps_free(&x->m);
	json_decref(x->check);
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
	return json_pack("{s:i,s:i,s:o,s:o,s:O}", "max_classes_used", maxc,
			 "max_classes", x->m.max_classes, "switches", sws,
			 "refused", ref, "check", x->check);
}

static void print_summary(const struct maps_cli *x, const json_t *j)
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
	fprintf(stderr, "\n");
}

int do_maps(int argc, char **argv)
{
	struct maps_args a = { .max_classes = MAPS_DEFAULT_CLASSES,
			       .max_prios = RULES_NPRIOS };
	struct maps_cli x;
	struct opt t[5];
	char *file = NULL;
	json_t *j, *doc;
	int got, rc, s;

	if (argc >= 1 && is_help(argv[0]))
		return help(argc, argv);
	maps_opts(t, &a);
	if (opts_parse(t, argc, argv, &file, 1, &got))
		return usage_help(help);
	if (!got)
		return usage_err(help, "maps takes RULES.json");
	rc = maps_cli_load(file, a.max_classes, a.max_prios, &x);
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
		doc = maps_json(&x.m, file);
		if (outfile_write(a.out, fill_json, doc))
			rc = EXIT_RUNTIME;
		json_decref(doc);
	}
	if (json_output)
		json_emit(j);
	else {
		if (!rc)
			print_summary(&x, j);
		json_decref(j);
	}
	maps_cli_free(&x);
	return rc;
}
