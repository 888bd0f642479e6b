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

static int do_help(int argc, char **argv);
static int do_version(int argc, char **argv);

/*
 * The objects, in the order of the help: the dispatch table and the
 * overview of `tagger help` both come from this list. X(name, args, doc):
 * do_<name> runs it; args and doc (more lines after "\n") are its line.
 */
#define OBJECTS(X)                                                           \
	X(topo, "KIND ...",                                                  \
	  "write a topology (clos, leafspine, bcube,\n"                      \
	  "jellyfish, ring, line, fc)")                                      \
	X(paths, "KIND TOPO ...", "write expected lossless paths (ELP)")     \
	X(cbd, "TOPO ELP", "does the ELP have a cyclic buffer dependency?")  \
	X(compile, "TOPO ELP", "ELP -> deadlock-free tagging rules (JSON)")  \
	X(verify, "TOPO ELP RULES", "independent check of compiled rules")   \
	X(stats, "RULES", "priorities and rules, total and per switch")      \
	X(maps, "RULES", "the rules as per-port maps (class, out-port)")     \
	X(export, "sonic RULES ...", "a switch's maps as SONiC config_db")   \
	X(throughput, "TOPO ELP", "max multi-commodity flow over the paths") \
	X(switch, "...", "attach, update, show, detach rules on ports")      \
	X(fabric, "{ status | plan } ...",                                   \
	  "every switch's rules, their union, rollouts")                     \
	X(host, "...", "initial tags on host ports")                         \
	X(pfc, "...", "PFC-like pause agent for ports without DCB")          \
	X(lab, "plan TOPO ...", "addresses and routes for a namespace lab")  \
	X(flow, "{ send | recv } ...",                                       \
	  "constant-rate lossless-class test flows")                         \
	X(metrics, "{ show | serve }", "the counters for Prometheus")

#define OBJECT_CMD(name, args, doc) { #name, do_##name },
static const struct cmd commands[] = { { "help", do_help },
				       { "version", do_version },
				       OBJECTS(OBJECT_CMD){ 0 } };

#define OBJECT_DOC(name, args, doc) { #name, args, doc },
static const struct {
	const char *name, *args, *doc;
} objects[] = { OBJECTS(OBJECT_DOC){ 0 } };

/* "where  OBJECT := { topo | paths | ... }", wrapped before 70 columns. */
static void object_list(void)
{
	const int indent = 19, width = 70;
	int i, col, n;

	col = fprintf(stderr, "where  OBJECT := {");
	for (i = 0; objects[i].name; i++) {
		n = (int)strlen(objects[i].name) + 3; /* " name |" or " }" */
		if (col + n > width)
			col = fprintf(stderr, "\n%*s", indent - 1, "") - 1;
		col += fprintf(stderr, " %s %s", objects[i].name,
			       objects[i + 1].name ? "|" : "}");
	}
	fprintf(stderr, "\n");
}

/* "  topo KIND ...   write a topology", a doc's lines aligned. */
static void object_overview(void)
{
	const char *d, *nl;
	char left[64];
	int i;

	for (i = 0; objects[i].name; i++) {
		snprintf(left, sizeof(left), "%s %s", objects[i].name,
			 objects[i].args);
		for (d = objects[i].doc; d; d = nl ? nl + 1 : NULL) {
			nl = strchr(d, '\n');
			fprintf(stderr, "  %-26s %.*s\n",
				d == objects[i].doc ? left : "",
				nl ? (int)(nl - d) : (int)strlen(d), d);
		}
	}
}

static int do_help(int argc, char **argv)
{
	fprintf(stderr,
		"Usage: %s [OPTIONS] OBJECT { COMMAND | help }\n"
		"       %s version\n",
		bin_name, bin_name);
	object_list();
	fprintf(stderr,
		"       OPTIONS := { -j[son] | -p[retty] | -v[erbose] | -q[uiet] }\n"
		"\n");
	object_overview();
	fprintf(stderr,
		"\n"
		"Exit status: 0 ok; 1 the check found a problem (a CBD, rules not\n"
		"deadlock-free, an update refused); 2 bad input or usage; 3 a system\n"
		"call or the kernel failed (socket, BPF load, netlink).\n"
		"Under -j every help prints null and every error is one\n"
		"{\"error\": ...} object on stdout.\n"
		"'%s OBJECT help' describes each object.\n",
		bin_name);
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
