// SPDX-License-Identifier: GPL-2.0
/*
 * tagger topo fc: a Flattened Clos topology, with the number of virtual
 * layers chosen by strategy (*) of section 3.2.3 unless given.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cmd_fc.h"
#include "fc/fc_route.h"
#include "fc/fc_topo.h"
#include "lib/log.h"
#include "cli/opts.h"
#include "lib/util.h"

#define FC_MAX_TORS 100000

const char topo_fc_doc[] =
	"Flattened Clos (NSDI 2023): N ToRs T1..TN (layer=0), each with H hosts\n"
	"h<i>-1.. on ports eth1.. (default 14) and S fabric ports (default 18;\n"
	"the paper's 32-port switches). Each ToR is split into K virtual layers;\n"
	"layer j owns L_j fabric ports, named v<j>p1.. (the virtual layer lives\n"
	"in the port name; tagger paths fc reads it back). Adjacent layers are\n"
	"wired by random bipartite graphs (equation 2), never inside one switch\n"
	"and without parallel links where N allows, reproducible from --seed\n"
	"(default 1). --split gives L_1..L_K; --layers K takes the even split\n"
	"(largest (a_1+1)..(a_(K-1)+1)). Without either, strategy (*): K = k_min\n"
	"of inequality (4), and k_min+1 if some ToR pair then has fewer than\n"
	"--min-paths (default 2) edge-disjoint up-down paths (--threads T for\n"
	"that check). 'testbed': the 4-switch testbed of figure 4(a), S1..S4,\n"
	"split 1,2,1, H hosts each (default 4).";

struct fc_cli {
	int hosts, fabric, layers, min_paths, threads;
	const char *split;
	uint64_t seed;
};

/* The options of topo fc (topo_fc_make resets them first). */
static struct fc_cli cli;

const struct opt topo_fc_opts[] = {
	OPT_INT("--hosts", &cli.hosts, 0, 10000, "H",
		"hosts per ToR (default 14; testbed: 4)"),
	OPT_INT("--fabric", &cli.fabric, 2, 10000, "S",
		"fabric ports per ToR (default 18)"),
	OPT_INT("--layers", &cli.layers, 2, FC_MAX_LAYERS, "K",
		"K virtual layers, the even split"),
	OPT_STR("--split", &cli.split, "L1,..,Lk",
		"the fabric ports of each virtual layer"),
	OPT_INT("--min-paths", &cli.min_paths, 1, 10000, "M",
		"strategy (*): paths every ToR pair needs (default 2)"),
	OPT_U64("--seed", &cli.seed, "S", "seed of the wiring (default 1)"),
	OPT_INT("--threads", &cli.threads, 1, 256, "T",
		"threads of the strategy's path check"),
	{ 0 }
};

static int parse_split(const char *s, struct fc_spec *sp)
{
	int *arr = NULL, n = split_list(s, 1, 100000, &arr), j;

	if (n < 2 || n > FC_MAX_LAYERS) {
		p_err("--split wants 2 to %d port counts like 3,6,6,3, not \"%s\"",
		      FC_MAX_LAYERS, s);
		free(arr);
		return -1;
	}
	sp->k = n;
	for (j = 0; j < n; j++)
		sp->split[j] = arr[j];
	free(arr);
	return 0;
}

static struct topo *build(const struct fc_spec *sp)
{
	char err[256];
	struct topo *t = fc_build(sp, err, sizeof(err));

	if (!t)
		p_err("topo fc: %s", err);
	return t;
}

/* Minimum number of paths of any pair, or -1 once one falls below min. */
static int min_paths(const struct topo *t, const struct fc_cli *c)
{
	struct fc_route_opts o = { .threads = c->threads,
				   .stop_below = c->min_paths };
	struct path_stats st;
	struct fc_layout L;
	char err[256];
	int r;

	if (fc_layout_from_names(t, &L, err, sizeof(err))) {
		p_err("topo fc: %s", err);
		return -2;
	}
	r = fc_route(t, &L, &o, NULL, &st);
	fc_layout_free(&L);
	return r ? -1 : st.min_paths;
}

static void show_split(const char *what, const struct fc_spec *sp)
{
	char buf[256];
	int j, n = 0;

	for (j = 0; j < sp->k; j++)
		n += snprintf(buf + n, sizeof(buf) - n, "%s%d", j ? "," : "",
			      sp->split[j]);
	pr_info("topo fc: N=%d s=%d k=%d split %s (%s)\n", sp->ntors,
		sp->fabric, sp->k, buf, what);
}

/* Strategy (*): try k_min; if some pair has too few paths, k_min + 1. */
static struct topo *strategy(struct fc_spec *sp, const struct fc_cli *c)
{
	struct topo *t;
	int kmin = fc_kmin(sp->ntors, sp->fabric), m;

	if (kmin < 0 || fc_split_even(sp->fabric, kmin, sp->split)) {
		p_err("topo fc: %d fabric ports cannot reach %d ToRs in up-down "
		      "(inequality 4); give --layers or --split",
		      sp->fabric, sp->ntors);
		return NULL;
	}
	sp->k = kmin;
	t = build(sp);
	if (!t)
		return NULL;
	m = min_paths(t, c);
	if (m == -2) {
		topo_free(t);
		return NULL;
	}
	if (m >= 0) {
		show_split("k_min", sp);
		return t;
	}
	topo_free(t);
	if (fc_split_even(sp->fabric, kmin + 1, sp->split)) {
		p_err("topo fc: k_min=%d leaves pairs with fewer than %d paths and "
		      "k_min+1 has no split of %d ports",
		      kmin, c->min_paths, sp->fabric);
		return NULL;
	}
	sp->k = kmin + 1;
	t = build(sp);
	if (t)
		show_split("k_min+1", sp);
	return t;
}

int topo_fc_make(int argc, char **argv, struct topo **out)
{
	const struct fc_cli c0 = {
		.hosts = -1, .fabric = -1, .min_paths = 2, .seed = 1
	};
	const struct fc_cli *c = &cli;
	struct fc_spec sp = { 0 };
	char *pos[1];
	int got, n, j;

	*out = NULL;
	cli = c0;
	if (opts_parse(topo_fc_opts, argc, argv, pos, 1, &got))
		return EXIT_USAGE;
	if (got != 1) {
		p_err("topo fc wants N (the number of ToRs) or testbed");
		return EXIT_USAGE;
	}
	if (!strcmp(pos[0], "testbed")) {
		*out = fc_testbed(c->hosts < 0 ? 4 : c->hosts);
		return EXIT_OK;
	}
	if (!opt_number("N", pos[0], 2, FC_MAX_TORS, &n))
		return EXIT_USAGE;
	if (c->layers && c->split) {
		p_err("topo fc: --layers or --split, not both");
		return EXIT_USAGE;
	}
	sp = (struct fc_spec){ .ntors = n,
			       .hosts = c->hosts < 0 ? 14 : c->hosts,
			       .fabric = c->fabric < 0 ? 18 : c->fabric,
			       .seed = c->seed };
	if (c->split) {
		if (parse_split(c->split, &sp))
			return EXIT_USAGE;
		if (c->fabric < 0)
			for (sp.fabric = 0, j = 0; j < sp.k; j++)
				sp.fabric += sp.split[j];
		*out = build(&sp);
	} else if (c->layers) {
		sp.k = c->layers;
		if (fc_split_even(sp.fabric, sp.k, sp.split)) {
			p_err("topo fc: %d fabric ports have no even split into %d layers "
			      "(need an even count, at least 2 per layer gap)",
			      sp.fabric, sp.k);
			return EXIT_USAGE;
		}
		*out = build(&sp);
	} else {
		*out = strategy(&sp, c);
	}
	return *out ? EXIT_OK : EXIT_USAGE;
}
