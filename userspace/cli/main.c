// SPDX-License-Identifier: GPL-2.0
/*
 * tagger: compile topologies and expected lossless paths into deadlock-free
 * tagging rules, and run them on Linux switch ports.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cmd.h"
#include "lib/log.h"

#ifndef TAGGER_VERSION /* the Makefile passes it from VERSION */
#define TAGGER_VERSION "unknown"
#endif

static int do_help(int argc, char **argv)
{
	fprintf(stderr,
		"Usage: %s [OPTIONS] OBJECT { COMMAND | help }\n"
		"       %s version\n"
		"where  OBJECT := { topo | paths | cbd | compile | verify | stats |\n"
		"                   throughput | switch | host | pfc | lab | flow |\n"
		"                   metrics }\n"
		"       OPTIONS := { -j[son] | -p[retty] | -v[erbose] | -q[uiet] }\n"
		"\n"
		"  topo KIND ...              write a topology (clos, leafspine, bcube,\n"
		"                             jellyfish, ring, line, fc)\n"
		"  paths KIND TOPO ...        write expected lossless paths (ELP)\n"
		"  cbd TOPO ELP               does the ELP have a cyclic buffer dependency?\n"
		"  compile TOPO ELP           ELP -> deadlock-free tagging rules (JSON)\n"
		"  verify TOPO ELP RULES      independent check of compiled rules\n"
		"  stats RULES                priorities and rules, total and per switch\n"
		"  throughput TOPO ELP        max multi-commodity flow over the paths\n"
		"  switch ...                 attach, update, show, detach rules on ports\n"
		"  host ...                   initial tags on host ports\n"
		"  pfc ...                    PFC-like pause agent for ports without DCB\n"
		"  lab plan TOPO ...          addresses and routes for a namespace lab\n"
		"  flow { send | recv } ...   constant-rate lossless-class test flows\n"
		"  metrics { show | serve }   the counters for Prometheus\n"
		"\n"
		"Exit status: 0 ok; 1 the check found a problem (a CBD, rules not\n"
		"deadlock-free, an update refused); 2 bad input or usage; 3 a system\n"
		"call or the kernel failed (socket, BPF load, netlink).\n"
		"Under -j every help prints null and every error is one\n"
		"{\"error\": ...} object on stdout.\n"
		"'%s OBJECT help' describes each object.\n",
		bin_name, bin_name, bin_name);
	return 0;
}

static int do_version(int argc, char **argv)
{
	if (json_output)
		json_emit(json_pack("{s:s}", "version", TAGGER_VERSION));
	else
		printf("%s %s\n", bin_name, TAGGER_VERSION);
	return 0;
}

static const struct cmd commands[] = {
	{ "help", do_help },	   { "version", do_version },
	{ "topo", do_topo },	   { "paths", do_paths },
	{ "cbd", do_cbd },	   { "lab", do_lab },
	{ "flow", do_flow },	   { "compile", do_compile },
	{ "verify", do_verify },   { "stats", do_stats },
	{ "switch", do_switch },   { "host", do_host },
	{ "pfc", do_pfc },	   { "throughput", do_throughput },
	{ "metrics", do_metrics }, { 0 }
};

static int global_option(const char *a)
{
	if (!strcmp(a, "-j") || !strcmp(a, "-json") || !strcmp(a, "--json"))
		json_output = true;
	else if (!strcmp(a, "-p") || !strcmp(a, "-pretty") ||
		 !strcmp(a, "--pretty"))
		json_output = pretty_output = true;
	else if (!strcmp(a, "-v") || !strcmp(a, "-verbose") ||
		 !strcmp(a, "--verbose"))
		log_level = log_level < LOG_DEBUG ? log_level + 1 : LOG_DEBUG;
	else if (!strcmp(a, "-q") || !strcmp(a, "-quiet") ||
		 !strcmp(a, "--quiet"))
		log_quiet = true;
	else if (!strcmp(a, "-V") || !strcmp(a, "--version"))
		return 2;
	else
		return -1;
	return 0;
}

int main(int argc, char **argv)
{
	int i, ret;

	for (i = 1; i < argc && argv[i][0] == '-' && argv[i][1]; i++) {
		int r = global_option(argv[i]);

		if (r == 2)
			return do_version(0, NULL);
		if (r < 0)
			return usage_err(do_help, "What is \"%s\"?", argv[i]);
	}
	ret = cmd_select(commands, argc - i, argv + i, do_help);
	/*
	 * Help text goes to stderr; under -j stdout holds one document, null,
	 * whichever help function ran (so none can forget it).
	 */
	if (json_output && help_asked && ret == EXIT_OK && !json_docs)
		json_emit(json_null());
	return ret;
}
