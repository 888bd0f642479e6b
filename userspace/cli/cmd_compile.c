// SPDX-License-Identifier: GPL-2.0
/* tagger compile TOPO ELP: the tag compiler's command line. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/bound.h"
#include "cli/cmd.h"
#include "cli/cmd_compile_exact.h"
#include "compile/compile.h"
#include "compile/tag_sat.h"
#include "model/rules.h"
#include "analyze/verify.h"
#include "lib/log.h"
#include "lib/outfile.h"
#include "cli/opts.h"
#include "lib/util.h"

struct compile_cli {
	const char *topo;
	const char *elp;
	const char *out;
	const char *table;
	const char *dot;
	const char *core; /* --exact-core: where the core's paths go */
	bool verify;
	bool bound;
	bool exact;
	double exact_seconds;
	struct bound_opts bopts;
};

/* --exact: the SAT search's whole time limit unless --exact-seconds says */
#define EXACT_SAT_SECONDS 60

/* "a,b,c-d" of distinct values in [0, hi] into out[]; its length or -1. */
static int parse_distinct(const char *s, int hi, int *out)
{
	int *v, n, i, j;

	n = split_list(s, 0, hi, &v);
	if (n < 1 || n > TAG_MAX) {
		if (n > 0)
			free(v);
		return -1;
	}
	for (i = 0; i < n; i++)
		for (j = 0; j < i; j++)
			if (v[i] == v[j]) {
				free(v);
				return -1;
			}
	memcpy(out, v, n * sizeof(int));
	free(v);
	return n;
}

static int check_opts(const struct compile_opts *o)
{
	int i;

	for (i = 0; i < o->nprios; i++)
		if (o->prios[i] == o->lossy_prio)
			return usage_err(
				NULL,
				"priority %d is both lossless and the lossy priority",
				o->lossy_prio);
	for (i = 0; i < o->ndscp; i++)
		if (o->dscp[i] == o->lossy_dscp)
			return usage_err(
				NULL,
				"DSCP %d is both a lossless tag and the lossy tag",
				o->lossy_dscp);
	if ((o->cnp_dscp < 0) != (o->cnp_prio < 0))
		return usage_err(NULL, "--cnp-dscp and --cnp-priority go "
				       "together");
	return 0;
}

static int algo_opt(const struct opt *opt, const char *val)
{
	const struct tag_algo **algo = opt->out;

	*algo = compile_find_algo(val);
	if (!*algo) {
		p_err("What is algorithm \"%s\"? (best | order | greedy | brute | clos)",
		      val);
		return 1;
	}
	return 0;
}

static int prios_opt(const struct opt *opt, const char *val)
{
	struct compile_opts *o = opt->out;

	o->nprios = parse_distinct(val, 7, o->prios);
	if (o->nprios < 0) {
		p_err("--priorities takes distinct priorities 0-7, not \"%s\"",
		      val);
		return 1;
	}
	return 0;
}

static int dscp_opt(const struct opt *opt, const char *val)
{
	struct compile_opts *o = opt->out;

	o->ndscp = parse_distinct(val, 63, o->dscp);
	if (o->ndscp < 0) {
		p_err("--dscp takes distinct codepoints 0-63, not \"%s\"", val);
		return 1;
	}
	return 0;
}

/* --algorithm's values, for the usage (compile_find_algo() looks up). */
static const struct opt_enum algo_names[] = {
	{ "best", 0 },	{ "order", 1 }, { "greedy", 2 },
	{ "brute", 3 }, { "clos", 4 },	{ NULL, 0 },
};

/*
 * The options write here (one compile per process; parse_args resets it
 * first), and the help prints the same table.
 */
static struct {
	struct compile_opts o;
	struct compile_cli c;
	bool no_verify, no_bound, no_two;
	int seconds;
} arg;

static const struct opt compile_opts_table[] = {
	OPT_STR("-o", &arg.c.out, "RULES.json",
		"write the rules to RULES.json, whole or not at all"),
	OPT_STR("--output", &arg.c.out, "RULES.json", "the same as -o"),
	OPT_FUNC("--algorithm", algo_opt, &arg.o.algo, NULL,
		 "the tagging algorithm (default best, see above)",
		 .names = algo_names),
	OPT_INT("--classes", &arg.o.nclasses, 1, 8, "N",
		"N lossless classes, class c starting at tag c (M+N)"),
	OPT_FUNC("--priorities", prios_opt, &arg.o, "LIST",
		 "lossless priorities available, in order (default 1-7)"),
	OPT_FUNC("--dscp", dscp_opt, &arg.o, "LIST",
		 "DSCP codepoint of tag 0, 1, ... (default 1,2,3,...)"),
	OPT_INT("--lossy-priority", &arg.o.lossy_prio, 0, 7, "P",
		"the lossy priority (default 0)"),
	OPT_INT("--lossy-dscp", &arg.o.lossy_dscp, 0, 63, "D",
		"the lossy tag's DSCP codepoint (default 0)"),
	OPT_INT("--cnp-dscp", &arg.o.cnp_dscp, 0, 63, "D",
		"RoCEv2 CNPs a class of their own: this DSCP (\"cnp\")"),
	OPT_INT("--cnp-priority", &arg.o.cnp_prio, 0, 7, "P",
		"... and this priority, no lossless tag's (with --cnp-dscp)"),
	OPT_FLAG("--strict", &arg.o.strict,
		 "exit 1 if any path cannot stay lossless"),
	OPT_FLAG("--compress", &arg.o.compress,
		 "wildcard rules where they change no packet's treatment"),
	OPT_STR("--table", &arg.c.table, "FILE",
		"per-switch tables like the paper's ('-' = stdout)"),
	OPT_STR("--dot", &arg.c.dot, "FILE",
		"Graphviz picture of the tagged graph"),
	OPT_FLAG("--no-verify", &arg.no_verify,
		 "skip the independent verifier (run by default)"),
	OPT_FLAG("--no-bound", &arg.no_bound,
		 "skip the lower bound / exact minimum"),
	OPT_FLAG("--exact", &arg.c.exact,
		 "the exact minimum by SAT (one class only)"),
	OPT_INT("--exact-seconds", &arg.seconds, 0, 3600, "S",
		"time limit of the exact minimum (default 3, --exact: 60)"),
	OPT_STR("--exact-core", &arg.c.core, "FILE",
		"with --exact: the proof's core (an ELP) to FILE"),
	OPT_FLAG("--no-two-orders", &arg.no_two,
		 "with --exact: at 2 priorities the solver only"),
	OPT_INT("--threads", &arg.o.threads, 1, COMPILE_THREADS_MAX, "T",
		"T threads (default: one per CPU); same output"),
	{ 0 }
};

static int help(int argc, char **argv)
{
	fprintf(stderr,
		"Usage: %s [-j] compile TOPO ELP [OPTIONS]\n"
		"\n"
		"Compiles the expected lossless paths into per-switch rules: classify\n"
		"(in-port, tag) -> priority and rewrite (tag, in-port, out-port) -> tag.\n"
		"Algorithms: best (default): order and greedy, the fewer priorities;\n"
		"order: tag +1 on backward edges of a searched order; greedy: the\n"
		"paper's merging; brute: tag = hop index; clos: +1 per down-up bounce\n"
		"(needs layer=). --exact-seconds limits GLPK's search per count\n"
		"(default 3), or with --exact the SAT search's total (default 60);\n"
		"when it runs out: not proved. --exact proves the count optimal or\n"
		"finds fewer priorities (CaDiCaL).\n"
		"Without -o the rules go to stdout (unless -j, which prints a summary).\n"
		"Every option is --name V or --name=V, spelled in full.\n"
		"\n"
		"OPTIONS:\n",
		bin_name);
	opts_usage(stderr, compile_opts_table);
	return 0;
}

static int parse_args(int argc, char **argv, struct compile_opts *o,
		      struct compile_cli *c)
{
	int got, rc;
	char *pos[2];

	arg.o = *o;
	arg.c = *c;
	arg.no_verify = arg.no_bound = arg.no_two = false;
	arg.seconds = -1;
	rc = opts_parse(compile_opts_table, argc, argv, pos, 2, &got);
	*o = arg.o;
	*c = arg.c;
	if (rc)
		return usage_help(help);
	if (got != 2)
		return usage_err(help, "compile takes TOPO and ELP");
	c->topo = pos[0];
	c->elp = pos[1];
	c->verify = !arg.no_verify;
	c->bound = !arg.no_bound;
	if (arg.seconds >= 0)
		c->bopts.seconds = arg.seconds;
	c->exact_seconds = arg.seconds >= 0 ? arg.seconds : EXACT_SAT_SECONDS;
	if (c->exact) {
		if (o->nclasses != 1)
			return usage_err(NULL,
					 "--exact handles one class only");
		if (arg.no_bound)
			return usage_err(
				NULL,
				"--exact needs the lower bound (drop --no-bound)");
		if (c->core && !*c->core)
			return usage_err(NULL,
					 "--exact-core needs a file name");
		/* SAT supersedes the 0-1 program: skip GLPK */
		c->bopts.max_vars = 0;
	}
	if (c->core && !c->exact)
		return usage_err(NULL, "--exact-core needs --exact");
	if (arg.no_two && !c->exact)
		return usage_err(NULL, "--no-two-orders needs --exact");
	o->two_orders = !arg.no_two;
	return check_opts(o) ? EXIT_USAGE : 0;
}

/* What outfile_write() fills: the rules document, or a table or picture. */
struct rules_out {
	const struct topo *t;
	const struct compile_result *r;
	const struct compile_opts *o;
	const struct rules *rules;
	bool compact;
};

struct table_out {
	const struct topo *t;
	const struct compile_result *r;
	const struct compile_opts *o;
};

static int fill_rules(FILE *f, const void *arg)
{
	const struct rules_out *x = arg;

	return compile_rules_write(f, x->t, x->r, x->o, x->rules, x->compact) ||
	       fputc('\n', f) == EOF;
}

static int fill_table(FILE *f, const void *arg)
{
	const struct table_out *x = arg;

	return rules_write_table(f, x->t, x->r, x->o);
}

static int fill_dot(FILE *f, const void *arg)
{
	const struct table_out *x = arg;

	return tagged_write_dot(f, x->t, x->r, x->o);
}

/*
 * Every file goes through lib/outfile.h's atomic writer: a compile killed
 * or failing mid-write leaves the previous file whole.
 */
static int write_outputs(const struct topo *t, const struct compile_result *r,
			 const struct compile_opts *o,
			 const struct compile_cli *c, const struct rules *rules)
{
	struct table_out tab = { t, r, o };

	if (c->out || !json_output) {
		/* big rule sets compact, one line; the order is the rules' */
		struct rules_out x = { t, r, o, rules, r->nrules > 20000 };

		if (outfile_write(c->out, fill_rules, &x))
			return -1;
	}
	if (c->table && outfile_write(c->table, fill_table, &tab))
		return -1;
	if (c->dot && outfile_write(c->dot, fill_dot, &tab))
		return -1;
	return 0;
}

static void report_lossy(const struct topo *t, const struct elp *e,
			 const struct compile_result *r)
{
	int i;

	pr_warn("%d path%s (x class) cannot stay lossless with the priorities "
		"available (%d tags needed, %d lossless):\n",
		r->lossy, r->lossy == 1 ? "" : "s", r->ntags, r->nlossless);
	for (i = 0; i < r->nlossy_list; i++) {
		const struct lossy_path *lp = &r->lossy_list[i];
		const int32_t *h = elp_hops(e, lp->path);
		int node = lp->hop ? port_peer_node(t, h[lp->hop - 1]) :
				     port_node(t, h[0]);

		pr_warn("  %s:%d class %d: lossy from %s (hop %d)\n", e->file,
			e->line[lp->path], lp->cls, t->nodes[node].name,
			lp->hop);
	}
	if (r->lossy > r->nlossy_list)
		pr_warn("  ... and %d more\n", r->lossy - r->nlossy_list);
}

/* What proves the optimum (or the exact minimum) reported; NULL if nothing. */
static const char *proof_method(const struct outcome *oc)
{
	if (oc->exact)
		return oc->x.optimum >= 0 ? oc->x.method : NULL;
	if (!oc->bounded || (oc->b.optimal != 1 && oc->b.exact < 0))
		return NULL;
	return strstr(oc->b.why, "MIP") ? "mip" : "lower-bound";
}

static void print_summary(const struct elp *e, const struct compile_result *r,
			  const struct compile_opts *o,
			  const struct outcome *oc, double seconds)
{
	if (json_output) {
		json_t *j = json_pack(
			"{s:s,s:s,s:i,s:i,s:i,s:i,s:i,s:i,s:i,s:i,s:f}",
			"algorithm", o->algo->name, "chosen", r->algo->name,
			"priorities", r->nlossless, "tags_needed", r->ntags,
			"classes", o->nclasses, "rules", r->nrules,
			"max_switch_rules", r->max_switch_rules, "switches",
			r->nsw, "paths", e->npaths, "lossy_paths", r->lossy,
			"seconds", seconds);

		json_object_set_new(j, "lower_bound",
				    oc->bounded ? json_integer(oc->b.lower) :
						  json_null());
		json_object_set_new(j, "exact",
				    oc->bounded && oc->b.exact >= 0 ?
					    json_integer(oc->b.exact) :
					    json_null());
		json_object_set_new(
			j, "optimal",
			json_tristate(oc->bounded ? oc->b.optimal : -1));
		json_object_set_new(j, "method",
				    proof_method(oc) ?
					    json_string(proof_method(oc)) :
					    json_null());
		if (oc->exact)
			json_object_set_new(j, "exact_search",
					    compile_exact_json(oc));
		json_object_set_new(j, "verified", json_boolean(oc->verified));
		json_object_set_new(j, "deadlock_free",
				    oc->verified ?
					    json_boolean(oc->deadlock_free) :
					    json_null());
		json_emit(j);
		return;
	}
	fprintf(stderr,
		"%s: %d lossless priorit%s, %d rules (max %d per switch) on %d "
		"switches, %d paths, %d lossy, %.3f s\n",
		r->algo->name, r->nlossless, r->nlossless == 1 ? "y" : "ies",
		r->nrules, r->max_switch_rules, r->nsw, e->npaths, r->lossy,
		seconds);
	if (oc->bounded && oc->exact)
		compile_exact_print(oc);
	else if (oc->bounded)
		fprintf(stderr, "lower bound %d (%s)%s\n", oc->b.lower,
			oc->b.why,
			oc->b.optimal == 1 ? ": optimal" :
			oc->b.optimal == 0 ? ": not optimal" :
					     "");
	if (oc->verified)
		fprintf(stderr,
			"verified: deadlock-free, tags never decrease, %d of %d "
			"paths lossless (%.3f s)\n",
			e->npaths - r->lossy, e->npaths, oc->verify_seconds);
}

/*
 * The verifier checks the very rules the document is then written from
 * (compile_rules_write), handed over as a struct rules instead of read
 * back from a JSON tree of every rule (which took more memory than the
 * tagging itself). It is still an independent check: it shares no code
 * with the tagging, sees none of its bookkeeping (tags per key, the
 * per-tag orders, which paths were tagged how), and re-derives
 * deadlock-freedom from the rule tables alone: the buffer dependency
 * graph from every rewrite rule through the rules' own lookups, and
 * every ELP path walked hop by hop through classify and rewrite. The
 * rules went through rules_check(), the check every reader applies, so a
 * compiler bug in the tagging, in the rule lists or in their conversion
 * shows up here as a failed check, never as rules that deadlock in a
 * network; tagger verify still reads the written file end to end.
 */
static int verify_compiled(const struct topo *t, const struct elp *e,
			   const struct compile_result *r,
			   const struct rules *rules, int threads,
			   struct outcome *oc)
{
	struct verify_opts vo = { .allow_lossy = true, .threads = threads };
	struct verify_result vr;
	int rc;

	rc = verify_rules(t, e, rules, &vo, &vr);
	oc->verified = true;
	oc->deadlock_free = vr.deadlock_free;
	oc->verify_seconds = vr.seconds;
	if (rc != EXIT_OK || !vr.deadlock_free || !vr.monotonic ||
	    vr.lossy_walks != r->lossy) {
		verify_result_print(stderr, t, e, rules, &vr);
		p_err("the compiled rules fail verification (%lld lossy walks, %d expected): "
		      "a compiler bug",
		      (long long)vr.lossy_walks, r->lossy);
		rc = EXIT_PROBLEM;
	}
	verify_result_free(&vr);
	return rc;
}

/*
 * The rules out of the compile, through rules_check(). With a CNP class
 * the check's message names the options: the CNP's DSCP or priority
 * clashing with a tag the compile used is the one thing the user chose
 * that the check can refuse (the caller exits 2); anything else it
 * refuses is a compiler bug.
 */
static struct rules *compiled_rules(const struct topo *t,
				    const struct compile_result *r,
				    const struct compile_opts *o)
{
	struct rules *rules =
		compile_rules(t, r, o,
			      o->cnp_dscp >= 0 ? "--cnp-dscp/--cnp-priority" :
						 "compiled rules");

	if (!rules && o->cnp_dscp < 0)
		p_err("the compiled rules fail the rules check: a compiler bug");
	if (rules && o->cnp_dscp >= 0) {
		/* what the verifier's messages call them */
		free(rules->file);
		rules->file = xstrdup("compiled rules");
	}
	return rules;
}

/*
 * --exact: search, and when the solver found fewer priorities, the rules
 * are rebuilt and verified again like any compiled result.
 */
static int run_exact(const struct topo *t, const struct elp *e,
		     const struct compile_opts *o, const struct compile_cli *c,
		     struct compile_result *r, struct outcome *oc,
		     struct rules **rules)
{
	oc->exact_limit = c->exact_seconds;
	oc->exact = true;
	oc->npaths = e->npaths;
	if (compile_exact(t, e, o, oc->b.lower, c->exact_seconds, r, &oc->x))
		return -1;
	compile_exact_to_bound(&oc->x, &oc->b);
	if (!oc->x.improved)
		return 0;
	rules_free(*rules);
	*rules = compiled_rules(t, r, o);
	if (!*rules)
		return -1;
	return c->verify ? verify_compiled(t, e, r, *rules, o->threads, oc) : 0;
}

int do_compile(int argc, char **argv)
{
	struct compile_cli c = { .verify = true, .bound = true };
	struct outcome oc = { 0 };
	struct compile_result r;
	struct compile_opts o;
	struct topo *t = NULL;
	struct elp *e = NULL;
	int ret = EXIT_USAGE;
	double t0 = now_seconds();
	struct phase_clock pc;
	struct rules *rules = NULL;

	phase_mark(&pc, NULL);
	compile_opts_init(&o);
	bound_opts_init(&c.bopts);
	if (argc >= 1 && is_help(argv[0]))
		return help(argc, argv);
	ret = parse_args(argc, argv, &o, &c);
	if (ret)
		return ret;
	ret = EXIT_USAGE;
	e = elp_parse_files(c.topo, c.elp, &t);
	phase_mark(&pc, "parse");
	if (!e || compile_run(t, e, &o, &r))
		goto out;
	phase_mark(&pc, "tagging");
	rules = compiled_rules(t, &r, &o);
	phase_mark(&pc, "rules");
	if (!rules) {
		ret = o.cnp_dscp >= 0 ? EXIT_USAGE : EXIT_PROBLEM;
		compile_result_free(&r);
		goto out;
	}
	/* only the DOT picture still reads the tagging's maps */
	if (!c.dot)
		compile_result_drop_tagging(&r);
	ret = EXIT_OK;
	if (c.verify && verify_compiled(t, e, &r, rules, o.threads, &oc))
		ret = EXIT_PROBLEM;
	if (c.verify)
		phase_mark(&pc, "verify");
	if (c.bound) {
		bool minimal =
			r.algo == &tag_algo_greedy || r.algo == &tag_algo_order;

		bound_compute(t, e, o.nclasses, r.ntags, minimal, &c.bopts,
			      &oc.b);
		oc.bounded = true;
		phase_mark(&pc, "bound");
	}
	if (c.exact && ret == EXIT_OK) {
		if (run_exact(t, e, &o, &c, &r, &oc, &rules))
			ret = EXIT_PROBLEM;
		phase_mark(&pc, "exact");
	}
	if (r.lossy) {
		report_lossy(t, e, &r);
		if (o.strict)
			ret = EXIT_PROBLEM;
	}
	if (ret != EXIT_PROBLEM && write_outputs(t, &r, &o, &c, rules))
		ret = EXIT_RUNTIME;
	if (ret != EXIT_RUNTIME && oc.exact && c.core &&
	    compile_write_core(c.core, t, &oc))
		ret = EXIT_RUNTIME;
	phase_mark(&pc, "write");
	print_summary(e, &r, &o, &oc, now_seconds() - t0);
	rules_free(rules);
	compile_result_free(&r);
	if (oc.exact)
		compile_exact_free(&oc.x);
out:
	elp_free(e);
	topo_free(t);
	return ret;
}
