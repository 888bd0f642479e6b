// SPDX-License-Identifier: GPL-2.0
/* tagger throughput TOPO ELP: multi-commodity flow throughput (section 4). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cmd.h"
#include "lib/log.h"
#include "cli/opts.h"
#include "analyze/throughput.h"
#include "lib/util.h"

/* The options of one throughput (one per process); the help prints them. */
static struct {
	const char *traffic, *method;
	int meth, hosts;
	uint64_t seed;
	double eps;
} arg;

static const struct opt_enum methods[] = {
	{ "interior", THROUGHPUT_INTERIOR },
	{ "simplex", THROUGHPUT_SIMPLEX },
	{ "dual", THROUGHPUT_DUAL },
	{ "fptas", THROUGHPUT_FPTAS },
	{ NULL, 0 },
};

/* --method, with its own message. */
static int method_opt(const struct opt *o, const char *val)
{
	const struct opt_enum *m;

	for (m = o->names; m->name; m++)
		if (!strcmp(val, m->name)) {
			arg.meth = m->val;
			arg.method = m->name;
			return 0;
		}
	p_err("--method wants interior, simplex, dual or fptas, not \"%s\"",
	      val);
	return 1;
}

static int epsilon_opt(const struct opt *o, const char *val)
{
	char *end;
	double eps = strtod(val, &end);

	if (end == val || *end || !(eps > 0 && eps < 1)) {
		p_err("--epsilon wants 0 < E < 1, not \"%s\"", val);
		return 1;
	}
	arg.eps = eps;
	return 0;
}

static const struct opt throughput_opts[] = {
	OPT_STR("--traffic", &arg.traffic, "all-to-all|uniform=P|permutation",
		"the traffic matrix (default all-to-all, see above)"),
	OPT_U64("--seed", &arg.seed, "S", "random seed of uniform (default 1)"),
	OPT_INT("--hosts-per-tor", &arg.hosts, 1, 100000, "H",
		"hosts of a ToR without hosts (default 1)"),
	OPT_FUNC("--method", method_opt, NULL, NULL,
		 "the LP solver (default interior, see above)",
		 .names = methods),
	OPT_FUNC("--epsilon", epsilon_opt, NULL, "E",
		 "fptas: bounds within 1 + E (default 0.01)"),
	{ 0 }
};

static int help(int argc, char **argv)
{
	if (json_output) /* main() prints the null */
		return 0;
	fprintf(stderr, "Usage: %s [-j] throughput TOPO ELP", bin_name);
	opts_synopsis(stderr, throughput_opts);
	fprintf(stderr,
		"\n"
		"\n"
		"The largest theta such that theta times the traffic matrix can be\n"
		"carried over the ELP's paths (each ToR pair splits its demand freely\n"
		"over its own paths; every directed switch link has the capacity of one\n"
		"host link), as in section 4 of the Flattened Clos paper; an LP solved\n"
		"with GLPK. theta = 1: every server sends at line rate.\n"
		"  all-to-all   (default) every server to every other server equally\n"
		"  uniform=P    every ToR to a random fraction P of the ToRs (--seed,\n"
		"               default 1), e.g. uniform=0.1 as in figure 7(b)\n"
		"  permutation  the near-worst permutation: ToRs matched to maximise\n"
		"               the total shortest-path length (GLPK assignment)\n"
		"ToRs are the switches with hosts (without hosts: every switch, with\n"
		"--hosts-per-tor hosts, default 1). Host hops of the paths are ignored.\n"
		"--method: GLPK's interior point (default, exact), its primal / dual\n"
		"simplex, or fptas: the Garg-Koenemann/Fleischer scheme, which stops\n"
		"once its certified lower and upper bounds are within 1 + --epsilon\n"
		"(default 0.01) and prints both; for topologies of thousands of links,\n"
		"where the exact LP takes minutes.\n"
		"\n"
		"OPTIONS:\n");
	opts_usage(stderr, throughput_opts);
	return 0;
}

static const char *const traffic_names[] = { "all-to-all", "uniform",
					     "permutation" };

/* The result, as the -j document or as one line of text. */
static void report(const char *method, const char *traffic,
		   const struct traffic *tr, const struct traffic_matrix *tm,
		   const struct throughput_result *res)
{
	json_t *o;

	if (!json_output) {
		if (res->upper > res->theta)
			printf("throughput %.4f .. %.4f (%s, %d ToRs, %d commodities, %lld paths, "
			       "%d links, %d phases, %.2f s)\n",
			       res->theta, res->upper, traffic, tm->ntors,
			       res->commodities, (long long)res->paths,
			       res->links, res->phases, res->seconds);
		else
			printf("throughput %.4f (%s, %d ToRs, %d commodities, %lld paths, "
			       "%d links, %.2f s)\n",
			       res->theta, traffic, tm->ntors, res->commodities,
			       (long long)res->paths, res->links, res->seconds);
		return;
	}
	o = json_object();
	json_object_set_new(o, "throughput", json_real(res->theta));
	json_object_set_new(o, "upper", json_real(res->upper));
	json_object_set_new(o, "method", json_string(method));
	json_object_set_new(o, "traffic", json_string(traffic_names[tr->kind]));
	json_object_set_new(
		o, "fraction",
		json_real(tr->kind == TRAFFIC_UNIFORM ? tr->p : 1.0));
	json_object_set_new(o, "tors", json_integer(tm->ntors));
	json_object_set_new(o, "commodities", json_integer(res->commodities));
	json_object_set_new(o, "unrouted", json_integer(res->unrouted));
	json_object_set_new(o, "paths", json_integer(res->paths));
	json_object_set_new(o, "links", json_integer(res->links));
	json_object_set_new(o, "seconds", json_real(res->seconds));
	json_emit(o);
}

int do_throughput(int argc, char **argv)
{
	struct throughput_result res;
	struct traffic_matrix tm;
	int rc = EXIT_USAGE, got;
	struct traffic tr;
	struct topo *t;
	struct elp *e;
	char *pos[2];

	if (argc >= 1 && is_help(argv[0]))
		return help(argc, argv);
	arg.traffic = "all-to-all";
	arg.method = "interior";
	arg.meth = THROUGHPUT_INTERIOR;
	arg.hosts = 1;
	arg.seed = 1;
	arg.eps = 0.01;
	if (opts_parse(throughput_opts, argc, argv, pos, 2, &got))
		return usage_help(help);
	if (got != 2)
		return usage_err(help, "throughput takes TOPO and ELP");
	if (traffic_parse(arg.traffic, &tr))
		return EXIT_USAGE;
	e = elp_parse_files(pos[0], pos[1], &t);
	if (!e)
		return EXIT_USAGE;
	if (traffic_build(t, &tr, arg.seed, arg.hosts, &tm))
		goto out_elp;
	if (throughput_solve(t, e, &tm, arg.meth, arg.eps, &res))
		goto out_tm;
	rc = EXIT_OK;
	if (res.unrouted)
		pr_warn("%s: %d of %d ToR pairs with traffic have no path: throughput 0\n",
			pos[1], res.unrouted, res.commodities);
	report(arg.method, arg.traffic, &tr, &tm, &res);
out_tm:
	traffic_free(&tm);
out_elp:
	elp_free(e);
	topo_free(t);
	return rc;
}
