/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The command line of tagger switch and tagger host: positional words,
 * PORT=IFNAME maps and --options in any order after the keyword.
 *
 * The options are one table in cmd_dp_args.c: each line names the verbs
 * that take the option ("host attach", "switch *") and the option itself
 * (opts.h's macros). Adding an option is one line there and a field of
 * struct dp_opts.
 *
 * API:
 *   struct dp_verb               name: "switch attach", the table's key;
 *                                words: the positional words expected
 *                                ("NAME RULES.json"); maps: PORT=IFNAME
 *                                words follow them; json: -j prints a
 *                                document (the usage line says [-j]);
 *                                run: does it (dataplane/), print: its
 *                                report as plain text, help
 *   dp_cli_run(argc, argv, v)
 *       the words fill o.name, then o.rules_file (two words) or o.ifname
 *       and o.rules_file (three); the options of the table that v->name
 *       takes fill the rest. Runs the verb and prints its report (-j: as
 *       it is). Returns run's exit code, or EXIT_USAGE after the help.
 *       NAME must be valid_name(), IFNAME (and the IFNAME of every
 *       map) pass dp_valid_ifname(): both become bpffs path components.
 *   dp_cli_opts(which)           the options "obj verb" takes, or every
 *                                verb of "obj"; a malloc()ed table that
 *                                ends with a zeroed entry
 *   dp_cli_usage_line(f, lead, v)  v's usage line after lead ("Usage: "),
 *                                its options from the table
 *   dp_cli_usage(f, verbs, n)    the usage lines of the n verbs of a
 *                                table, the first after "Usage: "
 *   dp_valid_ifname(s)           as the kernel's dev_valid_name()
 */
#ifndef __TAGGER_DP_CLI_H
#define __TAGGER_DP_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "dataplane/dp_switch.h"

bool dp_valid_ifname(const char *s);
struct dp_verb {
	const char *name;
	const char *words;
	bool maps;
	bool json;
	int (*run)(const struct dp_opts *o, struct dp_report *rep);
	void (*print)(const struct dp_opts *o, const struct dp_report *rep);
	int (*help)(int argc, char **argv);
};

struct opt;

int dp_cli_run(int argc, char **argv, const struct dp_verb *v);
struct opt *dp_cli_opts(const char *which);
void dp_cli_usage_line(FILE *f, const char *lead, const struct dp_verb *v);
void dp_cli_usage(FILE *f, const struct dp_verb *verbs, size_t n);

#endif /* __TAGGER_DP_CLI_H */
