// SPDX-License-Identifier: GPL-2.0
/* tagger stats RULES.json: priorities and rules, total and per switch. */
#include <stdio.h>
#include <string.h>

#include "cmd.h"
#include "log.h"
#include "stats.h"
#include "util.h"

static int help(int argc, char **argv)
{
	fprintf(stderr,
		"Usage: %s [-j] stats RULES.json [--top N]\n"
		"\n"
		"The Tagger paper's metrics of a rule set: lossless priorities used\n"
		"(ingress and egress queues), lossless tags, rules in total (classify\n"
		"and rewrite), per switch (min, average, max) and the bottleneck switch.\n"
		"  --top N   the table lists only the N switches with the most rules\n"
		"Exit 0, or 2 for bad input.\n",
		bin_name);
	return 0;
}

int do_stats(int argc, char **argv)
{
	const char *file = NULL;
	struct rules_stats s;
	struct rules *r;
	unsigned long top = 0;
	int i;

	if (argc >= 1 && is_help(argv[0]))
		return help(argc, argv);
	for (i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "--top")) {
			if (++i >= argc || !parse_uint(argv[i], 1u << 30, &top))
				return usage_err(help, "--top takes a number");
		} else if ((argv[i][0] == '-' && argv[i][1]) || file) {
			return usage_err(help, "What is \"%s\"?", argv[i]);
		} else {
			file = argv[i];
		}
	}
	if (!file)
		return usage_err(help, "stats takes RULES.json");
	r = rules_parse(file);
	if (!r)
		return EXIT_USAGE;
	rules_stats(r, &s);
	if (json_output)
		json_emit(rules_stats_json(r, &s));
	else
		rules_stats_print(stdout, r, &s, (int)top);
	rules_stats_free(&s);
	rules_free(r);
	return EXIT_OK;
}
