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
#include "cli/cmd_paths_fib.h"
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
	const struct opt *opts; /* the kind's own options, after TOPO */
	const char *doc;
	paths_run_fn *run; /* see gen_cli.h */
};

/* The options of every kind, taken out before the kind's own. */
static const char *out_file;
static enum gen_between between;

static const struct opt_enum between_names[] = { { "hosts", BETWEEN_HOSTS },
						 { "switches",
						   BETWEEN_SWITCHES },
						 { "tors", BETWEEN_TORS },
						 { NULL } };

static int between_opt(const struct opt *o, const char *val)
{
	return gen_between_parse(val, o->out) ? 1 : 0;
}

static const struct opt paths_common[] = {
	OPT_FUNC("--between", between_opt, &between, NULL,
		 "the endpoints (default: hosts if any, else switches)",
		 .names = between_names),
	OPT_STR("-o", &out_file, "FILE",
		"write to FILE, whole or not at all (-: stdout)"),
	{ 0 }
};

/*
 * The options of the kinds. A kind's table writes here and its run
 * function resets its fields first; the help prints the same tables.
 */
static struct {
	bool simple, relay;
	bool random;
	uint64_t seed;
	int max, threads;
	int order; /* enum bcube_order */
} arg;

int paths_job_ends(const struct paths_job *job, bool relay,
		   struct gen_ends *ends)
{
	return gen_ends(job->t, job->between, relay, ends) ? EXIT_USAGE :
							     EXIT_OK;
}

static const struct opt no_opts[] = { { 0 } };

static int run_updown(const struct paths_job *job, int argc, char **argv)
{
	struct gen_ends ends;
	int rc;

	if (opts_parse(no_opts, argc, argv, NULL, 0, NULL) ||
	    paths_job_ends(job, false, &ends))
		return EXIT_USAGE;
	rc = paths_updown(job->t, &ends, job->sink) ? EXIT_USAGE : EXIT_OK;
	gen_ends_free(&ends);
	return rc;
}

static const struct opt bounce_opts[] = { OPT_FLAG("--simple", &arg.simple,
						   "never visit a node twice"),
					  { 0 } };

static int run_bounce(const struct paths_job *job, int argc, char **argv)
{
	struct gen_ends ends;
	int rc;

	arg.simple = false;
	if (opts_parse(bounce_opts, argc, argv, NULL, 0, NULL) ||
	    paths_job_ends(job, false, &ends))
		return EXIT_USAGE;
	rc = paths_bounce(job->t, &ends, job->k, arg.simple, job->sink) ?
		     EXIT_USAGE :
		     EXIT_OK;
	gen_ends_free(&ends);
	return rc;
}

/* --seed S: a random shortest path of each node, from seed S. */
static int seed_opt(const struct opt *o, const char *val)
{
	if (!opt_u64(o->name, val, &arg.seed))
		return 1;
	arg.random = true;
	return 0;
}

#define RELAY_OPT OPT_FLAG("--relay-hosts", &arg.relay, "paths may cross hosts")

static const struct opt shortest_opts[] = {
	OPT_FUNC("--seed", seed_opt, NULL, "S",
		 "a random shortest next hop, from seed S"),
	RELAY_OPT,
	{ 0 }
};

static int run_shortest(const struct paths_job *job, int argc, char **argv)
{
	struct shortest_opts o = { 0 };
	struct gen_ends ends;
	int rc;

	arg.random = arg.relay = false;
	if (opts_parse(shortest_opts, argc, argv, NULL, 0, NULL))
		return EXIT_USAGE;
	o.random = arg.random;
	o.seed = arg.seed;
	if (paths_job_ends(job, arg.relay, &ends))
		return EXIT_USAGE;
	rc = paths_shortest(job->t, &ends, &o, job->sink) ? EXIT_USAGE :
							    EXIT_OK;
	gen_ends_free(&ends);
	return rc;
}

static const struct opt ecmp_opts[] = {
	OPT_INT("--max-per-pair", &arg.max, 1, 1000000000, "N",
		"paths per pair at most (default 64)"),
	RELAY_OPT,
	{ 0 }
};

static int run_ecmp(const struct paths_job *job, int argc, char **argv)
{
	struct gen_ends ends;
	int rc;

	arg.max = ECMP_DEFAULT_MAX_PER_PAIR, arg.relay = false;
	if (opts_parse(ecmp_opts, argc, argv, NULL, 0, NULL) ||
	    paths_job_ends(job, arg.relay, &ends))
		return EXIT_USAGE;
	rc = paths_ecmp(job->t, &ends, arg.max, job->sink) ? EXIT_USAGE :
							     EXIT_OK;
	gen_ends_free(&ends);
	return rc;
}

static const struct opt ksp_opts[] = {
	RELAY_OPT,
	OPT_INT("--threads", &arg.threads, 1, 256, "T",
		"threads (same output; default 1)"),
	{ 0 }
};

static int run_ksp(const struct paths_job *job, int argc, char **argv)
{
	struct gen_ends ends;
	int rc;

	arg.relay = false, arg.threads = 1;
	if (opts_parse(ksp_opts, argc, argv, NULL, 0, NULL) ||
	    paths_job_ends(job, arg.relay, &ends))
		return EXIT_USAGE;
	rc = paths_ksp(job->t, &ends, job->k, arg.threads, job->sink) ?
		     EXIT_USAGE :
		     EXIT_OK;
	gen_ends_free(&ends);
	return rc;
}

static const struct opt_enum order_names[] = { { "high-first",
						 BCUBE_HIGH_FIRST },
					       { "low-first", BCUBE_LOW_FIRST },
					       { "parallel", BCUBE_PARALLEL },
					       { NULL } };

static int order_opt(const struct opt *o, const char *val)
{
	const struct opt_enum *e;

	for (e = o->names; e->name; e++)
		if (!strcmp(val, e->name)) {
			arg.order = e->val;
			return 0;
		}
	p_err("--order wants high-first, low-first or parallel, not \"%s\"",
	      val);
	return 1;
}

static const struct opt bcube_opts[] = {
	OPT_FUNC("--order", order_opt, NULL, NULL,
		 "the order of the levels (default high-first)",
		 .names = order_names),
	{ 0 }
};

static int run_bcube(const struct paths_job *job, int argc, char **argv)
{
	struct gen_ends ends;
	int rc;

	arg.order = BCUBE_HIGH_FIRST;
	if (opts_parse(bcube_opts, argc, argv, NULL, 0, NULL))
		return EXIT_USAGE;
	if (paths_job_ends(job, true, &ends))
		return EXIT_USAGE;
	rc = paths_bcube(job->t, &ends, arg.order, job->sink) ? EXIT_USAGE :
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
	{ "updown", 0, 0, no_opts,
	  "All shortest up-down paths (needs layer= on every switch; hosts sit\n"
	  "below layer 0): up hops to higher layers, then down hops, of the least\n"
	  "length any such path between the pair has.",
	  run_updown },
	{ "bounce", 0, MAX_BOUNCES, bounce_opts,
	  "bounce=K (or bounce K): the up-down paths plus paths with up to K\n"
	  "bounces (a down hop followed by an up hop). For each pair: every walk\n"
	  "of up and down hops with at most K down->up turns, at most the pair's\n"
	  "shortest up-down length + 2K hops long, never taking one directed link\n"
	  "twice, crossing only switches and stopping at the destination. The\n"
	  "length bound keeps the set finite; bounce=0 is updown. --simple also\n"
	  "forbids visiting a node twice (no T1 L1 T1 loops).",
	  run_bounce },
	{ "shortest", 0, 0, shortest_opts,
	  "One shortest path per pair, destination-based like a routing table:\n"
	  "each node's next hop toward a destination is its first port (topology\n"
	  "order) that leads one hop closer; with --seed, a uniformly random one\n"
	  "of those ports (deterministic for a seed). The paths to a destination\n"
	  "form a tree.",
	  run_shortest },
	{ "ecmp", 0, 0, ecmp_opts,
	  "All shortest paths per pair, depth first in port order, at most N per\n"
	  "pair (default 64).",
	  run_ecmp },
	{ "ksp", 1, MAX_KSP, ksp_opts,
	  "ksp=K (or ksp K): the K shortest simple paths per pair by Yen's\n"
	  "algorithm (hop count; ties broken by egress port ids). --threads T\n"
	  "splits the destinations among T threads (identical output).",
	  run_ksp },
	{ "bcube", 0, 0, bcube_opts,
	  "BCube dimension-order routing between servers: correct the differing\n"
	  "address digits one level at a time, from the highest level (default,\n"
	  "BCubeRouting's order) or from level 0, relaying through servers.\n"
	  "parallel: one path per differing digit i, correcting from level i\n"
	  "down cyclically (BCube's DCRouting(A,B,i) parallel paths). The\n"
	  "topology must be wired as 'tagger topo bcube' does.",
	  run_bcube },
	{ "fc", 0, 0, paths_fc_opts, paths_fc_doc, run_fc },
	{ "edst", 0, 0, paths_edst_opts, paths_edst_doc, run_edst },
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
	for (k = paths_kinds; k->name; k++) {
		fprintf(stderr, "       %s paths %s%s TOPO", bin_name, k->name,
			k->k_max ? "=K" : "");
		opts_synopsis(stderr, k->opts);
		fprintf(stderr, "\n");
	}
	fprintf(stderr, "       %s paths stats TOPO ELP\n", bin_name);
	paths_fib_help();
	fprintf(stderr,
		"\n"
		"Writes one path a line (ELP format) to FILE, stdout by default, for every\n"
		"ordered pair of distinct endpoints, grouped by destination. Endpoints:\n"
		"hosts when the topology has any, else switches, or as --between says\n"
		"(tors: layer-0 switches, or switches with hosts where there are no\n"
		"layers). Paths never cross hosts unless --relay-hosts (bcube always).\n"
		"With -j, prints a summary (paths, max_len and avg_len in hops,\n"
		"unreachable pairs, seconds) instead; the paths then go only to -o FILE.\n"
		"'%s paths KIND help' describes a kind and its OPTIONS.\n"
		"\n"
		"OPTIONS of every kind:\n",
		bin_name);
	opts_usage(stderr, paths_common);
	return 0;
}

static const struct paths_kind *kind_help_of;

static int kind_help(int argc, char **argv)
{
	const struct paths_kind *k = kind_help_of;

	if (json_output) /* main() prints the null */
		return 0;
	fprintf(stderr,
		"Usage: %s [-j] paths %s%s TOPO [--between hosts|switches|tors]",
		bin_name, k->name, k->k_max ? "=K" : "");
	opts_synopsis(stderr, k->opts);
	fprintf(stderr, " [-o FILE]\n\n%s\n\nOPTIONS:\n", k->doc);
	opts_usage_with(stderr, k->opts, paths_common);
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
	struct topo *t;
	int rc;

	if (argc < 1)
		return usage_err(help, "paths wants a KIND");
	if (is_help(argv[0]))
		return help(argc, argv);
	if (!strcmp(argv[0], "stats"))
		return do_paths_stats(argc - 1, argv + 1);
	if (!strcmp(argv[0], "from-fib"))
		return do_paths_from_fib(argc - 1, argv + 1);
	if (!strcmp(argv[0], "diff"))
		return do_paths_diff(argc - 1, argv + 1);
	if (!strcmp(argv[0], "check-fib"))
		return do_paths_check_fib(argc - 1, argv + 1);
	k = find_kind(&argc, &argv, &job.k);
	if (!k)
		return EXIT_USAGE;
	if (argc && is_help(argv[0]))
		return kind_help(0, NULL);
	if (!argc)
		return usage_err(kind_help, "paths %s wants TOPO", k->name);
	out_file = NULL;
	between = BETWEEN_AUTO;
	if (opts_take_all(paths_common, &argc, argv))
		return EXIT_USAGE;
	job.between = between;
	if (!argc || (argv[0][0] == '-' && argv[0][1]))
		return usage_err(kind_help,
				 "paths %s wants TOPO before its options",
				 k->name);
	t = topo_parse(argv[0]);
	if (!t)
		return EXIT_USAGE;
	job.t = t;
	job.sink = &sink;
	rc = generate(k, &job, out_file, argc - 1, argv + 1);
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
