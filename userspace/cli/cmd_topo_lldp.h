/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tagger topo discover and tagger topo check: the cabling LLDP sees on
 * every switch of an inventory (fabric/fabric_topo.h), as a topology or
 * against one; called by cmd_topo.c before its generated kinds.
 *
 * API:
 *   do_topo_discover(argc, argv)   tagger topo discover INVENTORY [-o FILE]
 *   do_topo_check(argc, argv)      tagger topo check TOPO INVENTORY
 *   topo_lldp_help()               their lines of tagger topo help
 * argv starts after the verb. EXIT_OK; EXIT_PROBLEM (check: the cabling
 * differs); EXIT_USAGE; EXIT_RUNTIME (lldpcli could not run or failed).
 */
#ifndef __TAGGER_CMD_TOPO_LLDP_H
#define __TAGGER_CMD_TOPO_LLDP_H

int do_topo_discover(int argc, char **argv);
int do_topo_check(int argc, char **argv);
void topo_lldp_help(void);

#endif /* __TAGGER_CMD_TOPO_LLDP_H */
