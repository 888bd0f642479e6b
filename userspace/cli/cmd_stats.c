// SPDX-License-Identifier: GPL-2.0
/* tagger stats RULES.json: priorities and rules, total and per switch. */
#include <stdio.h>
#include <string.h>

#include "cli/cmd.h"
#include "lib/log.h"
#include "cli/opts.h"
#include "analyze/stats.h"
#include "lib/util.h"

static int top; /* --top: one stats per process */
static int datapath; /* --datapath */
static bool shared; /* --shared-blocks */

enum { DP_BPF, DP_FLOWER };

static const struct opt_enum datapaths[] = {
	{ "bpf", DP_BPF },
	{ "flower", DP_FLOWER },
	{ NULL },
};

static const struct opt stats_opts[] = {
	OPT_INT("--top", &top, 0, 1 << 30, "N",
		"the table lists only the N switches with the most rules"),
	OPT_ENUM("--datapath", &datapath, datapaths,
		 "flower: also the tc flower filters per switch and port"),
	OPT_FLAG("--shared-blocks", &shared,
		 "flower: also the filters when ports with the same tables "
		 "share a tc block"),
	{ 0 }
};

static int help(int argc, char **argv)
{
	fprintf(stderr, "Usage: %s [-j] stats RULES.json", bin_name);
	opts_synopsis(stderr, stats_opts);
	fprintf(stderr,
		"\n"
		"\n"
		"The Tagger paper's metrics of a rule set: lossless priorities used\n"
		"(ingress and egress queues), lossless tags, rules in total (classify\n"
		"and rewrite), per switch (min, average, max) and the bottleneck switch;\n"
		"with --datapath flower also the tc flower filters each switch and its\n"
		"largest port need (tagger switch export's offloaded form); with\n"
		"--shared-blocks also how many when ports with the same tables share\n"
		"one tc block (switch attach --shared-blocks), and how many fewer.\n"
		"Exit 0, 2 for bad input, or 3 out of memory.\n"
		"\n"
		"OPTIONS:\n");
	opts_usage(stderr, stats_opts);
	return 0;
}

int do_stats(int argc, char **argv)
{
	char *file = NULL;
	struct rules_stats s;
	struct rules *r;
	json_t *o;
	int got;

	if (argc >= 1 && is_help(argv[0]))
		return help(argc, argv);
	top = 0;
	datapath = DP_BPF;
	shared = false;
	if (opts_parse(stats_opts, argc, argv, &file, 1, &got))
		return usage_help(help);
	if (!got)
		return usage_err(help, "stats takes RULES.json");
	r = rules_parse(file);
	if (!r)
		return EXIT_USAGE;
	if (shared && datapath != DP_FLOWER) {
		rules_free(r);
		return usage_err(help,
				 "--shared-blocks is for --datapath flower");
	}
	rules_stats(r, &s);
	s.shared = shared;
	if (datapath == DP_FLOWER && rules_stats_flower(r, &s)) {
		p_err("stats: out of memory");
		rules_stats_free(&s);
		rules_free(r);
		return EXIT_RUNTIME;
	}
	if (json_output) {
		o = rules_stats_json(&s);
		json_emit(o);
	} else {
		rules_stats_print(stdout, &s, top);
	}
	rules_stats_free(&s);
	rules_free(r);
	return EXIT_OK;
}
