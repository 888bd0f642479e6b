/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Subcommand dispatch in the style of bpftool and ip: a table of exact
 * keywords per level, "help" at every level, "What is "x"?" for the rest.
 *
 * API:
 *   struct cmd, cmd_select(cmds, argc, argv, help)
 *   is_help(arg)           "help", "-h", "--help"; sets help_asked, and
 *                          main() prints the null of -j after any help
 *   usage_err(help, fmt)   message + that level's help, returns EXIT_USAGE
 *   usage_help(help)       that level's help after an error already
 *                          reported (not under -j), returns EXIT_USAGE
 *   do_<subcommand>        one per userspace/cmd_<subcommand>.c
 */
#ifndef __TAGGER_CMD_H
#define __TAGGER_CMD_H

#include <stdbool.h>
#include <jansson.h>

struct cmd {
	const char *cmd;
	int (*func)(int argc, char **argv);
};

extern const char *bin_name;
extern bool help_asked;

int cmd_select(const struct cmd *cmds, int argc, char **argv,
	       int (*help)(int argc, char **argv));
bool is_help(const char *arg);
int usage_err(int (*help)(int argc, char **argv), const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
int usage_help(int (*help)(int argc, char **argv));

int do_topo(int argc, char **argv);
int do_paths(int argc, char **argv);
int do_cbd(int argc, char **argv);
int do_compile(int argc, char **argv);
int do_verify(int argc, char **argv);
int do_stats(int argc, char **argv);
int do_maps(int argc, char **argv);
int do_export(int argc, char **argv);
int do_switch(int argc, char **argv);
int do_host(int argc, char **argv);
int do_lab(int argc, char **argv);
int do_flow(int argc, char **argv);
int do_pfc(int argc, char **argv);
int do_throughput(int argc, char **argv);
int do_metrics(int argc, char **argv);
int do_fabric(int argc, char **argv);

#endif /* __TAGGER_CMD_H */
