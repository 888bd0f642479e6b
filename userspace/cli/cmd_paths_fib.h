/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tagger paths from-fib, diff and check-fib: the paths the switches'
 * routing uses now (fabric/fib_walk.h), compared with a path set and
 * with attached rules; called by cmd_paths.c before its generated kinds.
 *
 * API:
 *   do_paths_from_fib(argc, argv)    tagger paths from-fib TOPO INVENTORY
 *   do_paths_diff(argc, argv)        tagger paths diff A B
 *   do_paths_check_fib(argc, argv)   tagger paths check-fib RULES TOPO
 *                                    INVENTORY
 *   paths_fib_help()                 their lines of tagger paths help
 * argv starts after the verb. EXIT_OK; EXIT_PROBLEM (diff: the sets
 * differ; check-fib: a path is not kept lossless); EXIT_USAGE;
 * EXIT_RUNTIME (a command could not run on a switch).
 */
#ifndef __TAGGER_CMD_PATHS_FIB_H
#define __TAGGER_CMD_PATHS_FIB_H

int do_paths_from_fib(int argc, char **argv);
int do_paths_diff(int argc, char **argv);
int do_paths_check_fib(int argc, char **argv);
void paths_fib_help(void);

#endif /* __TAGGER_CMD_PATHS_FIB_H */
