// SPDX-License-Identifier: GPL-2.0
/*
 * tagger paths KIND TOPO [OPTIONS] [-o FILE]: write an expected lossless
 * path set (ELP) for a topology.
 *
 * Kinds are a table: a new kind is one line in paths_kinds[] plus its run
 * function (gen_cli.h), which parses the kind's own options (opts_parse),
 * picks the endpoints (paths_job_ends) and streams paths into job->sink.
 */
#include <stdio.h>
#include <string.h>

#include "cli/cmd.h"
#include "cli/cmd_fc.h"
#include "cli/gen_cli.h"
#include "lib/log.h"
#include "cli/opts.h"
#include "lib/outfile.h"
#include "lib/util.h"

#define MAX_BOUNCES 16
#define MAX_KSP 100000

struct paths_kind {
	const char *name;
	long k_min, k_max; /* NAME=K / NAME K kinds; k_max 0: no K */
	const char *usage; /* options after TOPO */
	const char *doc;
	paths_run_fn *run; /* see gen_cli.h */
};

int paths_job_ends(const struct paths_job *job, bool relay,
		   struct gen_ends *ends)
{
	return gen_ends(job->t, job->between, relay, ends) ? EXIT_USAGE :
							     EXIT_OK;
}

static int run_updown(const struct paths_job *job, int argc, char **argv)
{
	struct gen_ends ends;
	int rc;

	if (opts_parse(NULL, argc, argv, NULL, 0, NULL) ||
	    paths_job_ends(job, false, &ends))
		return EXIT_USAGE;
	rc = paths_updown(job->t, &ends, job->sink) ? EXIT_USAGE : EXIT_OK;
	gen_ends_free(&ends);
	return rc;
}

static int run_bounce(const struct paths_job *job, int argc, char **argv)
{
	struct gen_ends ends;
	bool simple = false;
	const struct opt opts[] = {
		{ .name = "--simple", .type = OPT_FLAG, .out = &simple }, { 0 }
	};
	int rc;

	if (opts_parse(opts, argc, argv, NULL, 0, NULL) ||
	    paths_job_ends(job, false, &ends))
		return EXIT_USAGE;
	rc = paths_bounce(job->t, &ends, job->k, simple, job->sink) ?
		     EXIT_USAGE :
		     EXIT_OK;
	gen_ends_free(&ends);
	return rc;
}

static int run_shortest(const struct paths_job *job, int argc, char **argv)
{
	struct shortest_opts o = { 0 };
	const char *seed = NULL;
	struct gen_ends ends;
	bool relay = false;
	const struct opt opts[] = {
		{ .name = "--seed", .type = OPT_STR, .out = &seed },
		{ .name = "--relay-hosts", .type = OPT_FLAG, .out = &relay },
		{ 0 }
	};
	int rc;

	if (opts_parse(opts, argc, argv, NULL, 0, NULL) ||
	    (seed && !opt_u64("--seed", seed, &o.seed)))
		return EXIT_USAGE;
	o.random = seed != NULL;
	if (paths_job_ends(job, relay, &ends))
		return EXIT_USAGE;
	rc = paths_shortest(job->t, &ends, &o, job->sink) ? EXIT_USAGE :
							    EXIT_OK;
	gen_ends_free(&ends);
	return rc;
}

static int run_ecmp(const struct paths_job *job, int argc, char **argv)
{
	int max = ECMP_DEFAULT_MAX_PER_PAIR, rc;
	struct gen_ends ends;
	bool relay = false;
	const struct opt opts[] = {
		{ .name = "--max-per-pair",
		  .type = OPT_INT,
		  .min = 1,
		  .max = 1000000000,
		  .out = &max },
		{ .name = "--relay-hosts", .type = OPT_FLAG, .out = &relay },
		{ 0 }
	};

	if (opts_parse(opts, argc, argv, NULL, 0, NULL) ||
	    paths_job_ends(job, relay, &ends))
		return EXIT_USAGE;
	rc = paths_ecmp(job->t, &ends, max, job->sink) ? EXIT_USAGE : EXIT_OK;
	gen_ends_free(&ends);
	return rc;
}

static int run_ksp(const struct paths_job *job, int argc, char **argv)
{
	struct gen_ends ends;
	bool relay = false;
	int threads = 1;
	const struct opt opts[] = {
		{ .name = "--relay-hosts", .type = OPT_FLAG, .out = &relay },
		{ .name = "--threads",
		  .type = OPT_INT,
		  .min = 1,
		  .max = 256,
		  .out = &threads },
		{ 0 }
	};
	int rc;

	if (opts_parse(opts, argc, argv, NULL, 0, NULL) ||
	    paths_job_ends(job, relay, &ends))
		return EXIT_USAGE;
	rc = paths_ksp(job->t, &ends, job->k, threads, job->sink) ? EXIT_USAGE :
								    EXIT_OK;
	gen_ends_free(&ends);
	return rc;
}

static int run_bcube(const struct paths_job *job, int argc, char **argv)
{
	enum bcube_order order = BCUBE_HIGH_FIRST;
	const char *ord = NULL;
	struct gen_ends ends;
	const struct opt opts[] = {
		{ .name = "--order", .type = OPT_STR, .out = &ord }, { 0 }
	};
	int rc;

	if (opts_parse(opts, argc, argv, NULL, 0, NULL))
		return EXIT_USAGE;
	if (ord && !strcmp(ord, "low-first")) {
		order = BCUBE_LOW_FIRST;
	} else if (ord && !strcmp(ord, "parallel")) {
		order = BCUBE_PARALLEL;
	} else if (ord && strcmp(ord, "high-first")) {
		p_err("--order wants high-first, low-first or parallel, not \"%s\"",
		      ord);
		return EXIT_USAGE;
	}
	if (paths_job_ends(job, true, &ends))
		return EXIT_USAGE;
	rc = paths_bcube(job->t, &ends, order, job->sink) ? EXIT_USAGE :
							    EXIT_OK;
	gen_ends_free(&ends);
	return rc;
}

static int run_fc(const struct paths_job *job, int argc, char **argv)
{
	return paths_fc_run(job->t, job->between, job->sink, argc, argv,
			    &((struct paths_job *)job)->extra);
}

static int run_edst(const struct paths_job *job, int argc, char **argv)
{
	return paths_edst_run(job->t, job->between, job->sink, argc, argv,
			      &((struct paths_job *)job)->extra);
}

static const struct paths_kind paths_kinds[] = {
	{ "updown", 0, 0, "",
	  "All shortest up-down paths (needs layer= on every switch; hosts sit\n"
	  "below layer 0): up hops to higher layers, then down hops, of the least\n"
	  "length any such path between the pair has.",
	  run_updown },
	{ "bounce", 0, MAX_BOUNCES, "[--simple]",
	  "bounce=K (or bounce K): the up-down paths plus paths with up to K\n"
	  "bounces (a down hop followed by an up hop). For each pair: every walk\n"
	  "of up and down hops with at most K down->up turns, at most the pair's\n"
	  "shortest up-down length + 2K hops long, never taking one directed link\n"
	  "twice, crossing only switches and stopping at the destination. The\n"
	  "length bound keeps the set finite; bounce=0 is updown. --simple also\n"
	  "forbids visiting a node twice (no T1 L1 T1 loops).",
	  run_bounce },
	{ "shortest", 0, 0, "[--seed S] [--relay-hosts]",
	  "One shortest path per pair, destination-based like a routing table:\n"
	  "each node's next hop toward a destination is its first port (topology\n"
	  "order) that leads one hop closer; with --seed, a uniformly random one\n"
	  "of those ports (deterministic for a seed). The paths to a destination\n"
	  "form a tree.",
	  run_shortest },
	{ "ecmp", 0, 0, "[--max-per-pair N] [--relay-hosts]",
	  "All shortest paths per pair, depth first in port order, at most N per\n"
	  "pair (default 64).",
	  run_ecmp },
	{ "ksp", 1, MAX_KSP, "[--relay-hosts] [--threads T]",
	  "ksp=K (or ksp K): the K shortest simple paths per pair by Yen's\n"
	  "algorithm (hop count; ties broken by egress port ids). --threads T\n"
	  "splits the destinations among T threads (identical output).",
	  run_ksp },
	{ "bcube", 0, 0, "[--order high-first|low-first|parallel]",
	  "BCube dimension-order routing between servers: correct the differing\n"
	  "address digits one level at a time, from the highest level (default,\n"
	  "BCubeRouting's order) or from level 0, relaying through servers.\n"
	  "parallel: one path per differing digit i, correcting from level i\n"
	  "down cyclically (BCube's DCRouting(A,B,i) parallel paths). The\n"
	  "topology must be wired as 'tagger topo bcube' does.",
	  run_bcube },
	{ "fc", 0, 0, PATHS_FC_USAGE, paths_fc_doc, run_fc },
	{ "edst", 0, 0, PATHS_EDST_USAGE, paths_edst_doc, run_edst },
	{ 0 }
};

static int help(int argc, char **argv)
{
	const struct paths_kind *k;

	if (json_output) /* main() prints the null */
		return 0;
	fprintf(stderr,
		"Usage: %s [-j] paths KIND TOPO [--between hosts|switches|tors] [OPTIONS] [-o FILE]\n",
		bin_name);
	for (k = paths_kinds; k->name; k++)
		fprintf(stderr, "       %s paths %s%s TOPO%s%s\n", bin_name,
			k->name, k->k_max ? "=K" : "", *k->usage ? " " : "",
			k->usage);
	fprintf(stderr, "       %s paths stats TOPO ELP\n", bin_name);
	fprintf(stderr,
		"\n"
		"Writes one path a line (ELP format) to FILE, stdout by default, for every\n"
		"ordered pair of distinct endpoints, grouped by destination. Endpoints:\n"
		"hosts when the topology has any, else switches, or as --between says\n"
		"(tors: layer-0 switches, or switches with hosts where there are no\n"
		"layers). Paths never cross hosts unless --relay-hosts (bcube always).\n"
		"With -j, prints a summary (paths, max_len and avg_len in hops,\n"
		"unreachable pairs, seconds) instead; the paths then go only to -o FILE.\n"
		"'%s paths KIND help' describes a kind.\n",
		bin_name);
	return 0;
}

static const struct paths_kind *kind_help_of;

static int kind_help(int argc, char **argv)
{
	const struct paths_kind *k = kind_help_of;

	if (json_output) /* main() prints the null */
		return 0;
	fprintf(stderr,
		"Usage: %s [-j] paths %s%s TOPO [--between hosts|switches|tors]%s%s [-o FILE]\n\n%s\n",
		bin_name, k->name, k->k_max ? "=K" : "", *k->usage ? " " : "",
		k->usage, k->doc);
	return 0;
}

/* "bounce=2", or "bounce" then "2": the kind and its K. */
static const struct paths_kind *find_kind(int *argc, char ***argv, int *kval)
{
	const struct paths_kind *k;
	const char *word = (*argv)[0], *eq = strchr(word, '=');
	size_t len = eq ? (size_t)(eq - word) : strlen(word);
	char *kstr = NULL;

	for (k = paths_kinds; k->name; k++)
		if (strlen(k->name) == len && !strncmp(k->name, word, len))
			break;
	if (!k->name || (eq && !k->k_max)) {
		usage_err(help, "What is \"%s\"?", word);
		return NULL;
	}
	kind_help_of = k;
	(*argc)--, (*argv)++;
	if (!k->k_max)
		return k;
	if (eq) {
		kstr = (char *)eq + 1;
	} else if (*argc && !is_help((*argv)[0])) {
		kstr = (*argv)[0];
		(*argc)--, (*argv)++;
	} else if (!*argc) {
		usage_err(kind_help, "%s wants K", k->name);
		return NULL;
	}
	if (kstr && !opt_number("K", kstr, k->k_min, k->k_max, kval)) {
		if (!json_output)
			kind_help(0, NULL);
		return NULL;
	}
	return k;
}

static json_t *summary(const char *kind, const struct path_sink *s, double secs)
{
	return json_pack("{s:s,s:I,s:i,s:f,s:I,s:f}", "kind", kind, "paths",
			 (json_int_t)s->paths, "max_len", s->max_len, "avg_len",
			 s->paths ? (double)s->hops / s->paths : 0.0,
			 "unreachable", (json_int_t)s->unreachable, "seconds",
			 secs);
}

/* Paths go to FILE whole or not at all (outfile.h). */
static int generate(const struct paths_kind *k, struct paths_job *job,
		    const char *file, int argc, char **argv)
{
	struct path_sink copy;
	struct outfile out;
	int rc, err;

	if (json_output && (!file || !strcmp(file, "-"))) {
		sink_count(job->sink); /* -j alone: count, print the summary */
		return k->run(job, argc, argv);
	}
	if (outfile_open(&out, file))
		return EXIT_USAGE;
	sink_writer_open(job->sink, job->t, out.f);
	rc = k->run(job, argc, argv);
	copy = *job->sink;
	err = sink_writer_close(job->sink);
	*job->sink = copy;
	/* A write error leaves the stream in error: outfile_close reports it. */
	if (outfile_close(&out, !rc)) {
		rc = EXIT_USAGE;
	} else if (!rc && err) {
		p_err("cannot write %s", file ? file : "stdout");
		rc = EXIT_USAGE;
	}
	return rc;
}

int do_paths(int argc, char **argv)
{
	const struct paths_kind *k;
	struct paths_job job = { 0 };
	struct path_sink sink;
	double t0 = now_seconds();
	char *file = NULL, *between = NULL;
	struct topo *t;
	int rc;

	if (argc < 1)
		return usage_err(help, "paths wants a KIND");
	if (is_help(argv[0]))
		return help(argc, argv);
	if (!strcmp(argv[0], "stats"))
		return do_paths_stats(argc - 1, argv + 1);
	k = find_kind(&argc, &argv, &job.k);
	if (!k)
		return EXIT_USAGE;
	if (argc && is_help(argv[0]))
		return kind_help(0, NULL);
	if (!argc)
		return usage_err(kind_help, "paths %s wants TOPO", k->name);
	if (opts_take(&argc, argv, "-o", &file) < 0 ||
	    opts_take(&argc, argv, "--between", &between) < 0)
		return EXIT_USAGE;
	if (between && gen_between_parse(between, &job.between))
		return EXIT_USAGE;
	if (!argc || (argv[0][0] == '-' && argv[0][1]))
		return usage_err(kind_help,
				 "paths %s wants TOPO before its options",
				 k->name);
	t = topo_parse(argv[0]);
	if (!t)
		return EXIT_USAGE;
	job.t = t;
	job.sink = &sink;
	rc = generate(k, &job, file, argc - 1, argv + 1);
	if (!rc && sink.unreachable)
		pr_warn("%s: %lld endpoint pairs have no %s path\n", t->file,
			(long long)sink.unreachable, k->name);
	if (!rc && json_output) {
		json_t *sum = summary(k->name, &sink, now_seconds() - t0);

		if (job.extra)
			json_object_update(sum, job.extra);
		json_emit(sum);
	}
	json_decref(job.extra);
	topo_free(t);
	return rc;
}
