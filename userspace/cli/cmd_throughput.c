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

static int help(int argc, char **argv)
{
	if (json_output) /* main() prints the null */
		return 0;
	fprintf(stderr,
		"Usage: %s [-j] throughput TOPO ELP [--traffic all-to-all|uniform=P|permutation]\n"
		"                     [--seed S] [--hosts-per-tor H]\n"
		"                     [--method interior|simplex|dual|fptas] [--epsilon E]\n"
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
		"where the exact LP takes minutes.\n",
		bin_name);
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
	const char *traffic = "all-to-all", *method = "interior";
	int meth;
	struct throughput_result res;
	struct traffic_matrix tm;
	int hosts = 1, rc = EXIT_USAGE, got;
	uint64_t seed = 1;
	double eps = 0.01;
	const char *epss = NULL;
	struct traffic tr;
	struct topo *t;
	struct elp *e;
	char *pos[2];
	const struct opt opts[] = {
		{ .name = "--traffic", .type = OPT_STR, .out = &traffic },
		{ .name = "--seed", .type = OPT_U64, .out = &seed },
		{ .name = "--hosts-per-tor",
		  .type = OPT_INT,
		  .min = 1,
		  .max = 100000,
		  .out = &hosts },
		{ .name = "--method", .type = OPT_STR, .out = &method },
		{ .name = "--epsilon", .type = OPT_STR, .out = &epss },
		{ 0 }
	};

	if (argc >= 1 && is_help(argv[0]))
		return help(argc, argv);
	if (opts_parse(opts, argc, argv, pos, 2, &got))
		return usage_err(help, "bad throughput options");
	if (got != 2)
		return usage_err(help, "throughput takes TOPO and ELP");
	if (traffic_parse(traffic, &tr))
		return EXIT_USAGE;
	if (epss) {
		char *end;

		eps = strtod(epss, &end);
		if (end == epss || *end || !(eps > 0 && eps < 1))
			return usage_err(
				help, "--epsilon wants 0 < E < 1, not \"%s\"",
				epss);
	}
	if (!strcmp(method, "interior"))
		meth = THROUGHPUT_INTERIOR;
	else if (!strcmp(method, "simplex"))
		meth = THROUGHPUT_SIMPLEX;
	else if (!strcmp(method, "dual"))
		meth = THROUGHPUT_DUAL;
	else if (!strcmp(method, "fptas"))
		meth = THROUGHPUT_FPTAS;
	else
		return usage_err(
			help,
			"--method wants interior, simplex, dual or fptas, not \"%s\"",
			method);
	e = elp_parse_files(pos[0], pos[1], &t);
	if (!e)
		return EXIT_USAGE;
	if (traffic_build(t, &tr, seed, hosts, &tm))
		goto out_elp;
	if (throughput_solve(t, e, &tm, meth, eps, &res))
		goto out_tm;
	rc = EXIT_OK;
	if (res.unrouted)
		pr_warn("%s: %d of %d ToR pairs with traffic have no path: throughput 0\n",
			pos[1], res.unrouted, res.commodities);
	report(method, traffic, &tr, &tm, &res);
out_tm:
	traffic_free(&tm);
out_elp:
	elp_free(e);
	topo_free(t);
	return rc;
}
