/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Subcommands of tagger switch that live in files of their own.
 *
 * API:
 *   do_switch_export(argc, argv)   tagger switch export (cmd_switch_export.c)
 *   do_switch_check(argc, argv)    tagger switch check (cmd_switch_check.c)
 */
#ifndef __TAGGER_CMD_SWITCH_H
#define __TAGGER_CMD_SWITCH_H

int do_switch_export(int argc, char **argv);
int do_switch_check(int argc, char **argv);

#endif /* __TAGGER_CMD_SWITCH_H */
