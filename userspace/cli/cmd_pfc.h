/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared by cmd_pfc.c and cmd_pfc_show.c.
 *
 * API:
 *   do_pfc_show(argc, argv)                  tagger pfc show NAME [dir DIR]
 *   pfc_node_dir(argc, argv, buf, len, help) NAME [--dir DIR] -> state dir,
 *                                            and NAME into argv[0]
 *   pfc_stop(node, dir)                      stop the agent, or clean up
 */
#ifndef __TAGGER_PFC_CMD_H
#define __TAGGER_PFC_CMD_H

#include <stddef.h>
#include <jansson.h>

int do_pfc_show(int argc, char **argv);
int pfc_node_dir(int argc, char **argv, char *buf, size_t len,
		 int (*help)(int argc, char **argv));
int pfc_stop(const char *node, const char *dir);

#endif /* __TAGGER_PFC_CMD_H */
