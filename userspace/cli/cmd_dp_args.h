/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The command line of tagger switch and tagger host: positional words,
 * PORT=IFNAME maps and --options in any order after the keyword.
 *
 * API:
 *   struct dp_verb               run: does it (dataplane/), print: its
 *                                report as plain text, help
 *   dp_cli_run(argc, argv, words, allowed, &verb)
 *       words: the positional words expected ("NAME RULES.json"); they fill
 *       o.name, then o.rules_file (two words) or o.ifname and o.rules_file
 *       (three); allowed: the --options (and "PORT=IFNAME") this command
 *       takes. Runs the verb and prints its report (-j: as it is).
 *       Returns run's exit code, or EXIT_USAGE after the help.
 *       NAME must be valid_name(), IFNAME (and the IFNAME of every
 *       map) pass dp_valid_ifname(): both become bpffs path components.
 *   dp_valid_ifname(s)           as the kernel's dev_valid_name()
 */
#ifndef __TAGGER_DP_CLI_H
#define __TAGGER_DP_CLI_H

#include <stdbool.h>

#include "dataplane/dp_switch.h"

bool dp_valid_ifname(const char *s);
struct dp_verb {
	int (*run)(const struct dp_opts *o, struct dp_report *rep);
	void (*print)(const struct dp_opts *o, const struct dp_report *rep);
	int (*help)(int argc, char **argv);
};

int dp_cli_run(int argc, char **argv, const char *words, const char *allowed,
	       const struct dp_verb *v);

#endif /* __TAGGER_DP_CLI_H */
