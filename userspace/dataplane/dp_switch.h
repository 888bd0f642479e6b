/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tagger switch: the programs on every port of a switch, its rules in
 * them, live updates, counters, detach. Each function is one subcommand:
 * it does the work, fills a report and returns its exit code (EXIT_OK,
 * EXIT_PROBLEM: the union check refused an update, EXIT_USAGE: bad input,
 * EXIT_RUNTIME: the kernel or the system failed). It prints errors and
 * warnings, never the command's output: the command line prints the
 * report (cli/cmd_switch.c). What the switch's files share among
 * themselves is dp_switch_int.h.
 *
 * API:
 *   struct dp_opts, struct dp_report     what the command line gave, what
 *                                        a subcommand did (dp_opts.h)
 *   dp_switch_attach/update/detach(&opts, &report)
 *   dp_switch_json(&opts, &out)          what show -j prints (tagger
 *                                        metrics reads it too)
 * update lives in dp_update.c, show in dp_show.c, host attach and detach
 * (the same opts and report) in dp_host.h.
 */
#ifndef __TAGGER_DP_SWITCH_H
#define __TAGGER_DP_SWITCH_H

#include <jansson.h>

#include "dataplane/dp_opts.h"

int dp_switch_attach(const struct dp_opts *o, struct dp_report *rep);
int dp_switch_update(const struct dp_opts *o, struct dp_report *rep);
int dp_switch_detach(const struct dp_opts *o, struct dp_report *rep);
int dp_switch_json(const struct dp_opts *o, json_t **out);

#endif /* __TAGGER_DP_SWITCH_H */
