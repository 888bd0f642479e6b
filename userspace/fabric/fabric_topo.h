/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The cabling of a fabric as LLDP sees it (tagger-topo(8), DISCOVER):
 * "lldpcli -f json show neighbors" on every switch of the inventory,
 * through its transport (fabric_run.h), read by fabric_lldp.h.
 *
 * The topology: a switch per inventory host (its tagger_switch name, in
 * inventory order, no layers); a link per cable, with the port names of
 * both ends, once even when both ends heard each other. A neighbour whose
 * system name is an inventory host or switch is that switch; any other is
 * a host node. A cable heard by one of two inventory switches only is
 * still a link, with a warning; a port heard to reach two places (a hub,
 * or two reports that contradict each other) keeps the first and warns.
 *
 * The check compares that with the topology the rules were compiled for,
 * cable by cable, where the inventory can see (a link with an end on an
 * inventory switch):
 *   missing  a link of the topology of which neither end port is cabled
 *   differs  a link of the topology whose ends are cabled otherwise
 *            (swapped or moved cables); the cables found at its ends
 *   extra    a cable between ports the topology does not use
 *
 * API:
 *   fabric_discover(inv, &t, warnings)
 *       EXIT_OK with the topology in *t; EXIT_USAGE after a message
 *       naming the switch when its lldpcli output is not understood;
 *       EXIT_RUNTIME after p_err when lldpcli could not run or failed on
 *       a switch. Warnings are printed (pr_warn) and, if warnings is a
 *       JSON array, appended to it.
 *   fabric_topo_diff(want, got)
 *       a JSON array of the differences above, each {"kind", "link"
 *       ("A:PA B:PB"), "found" (differs: the cables at its ends)}; the
 *       topology's order, then the extra cables in got's order
 */
#ifndef __TAGGER_FABRIC_TOPO_H
#define __TAGGER_FABRIC_TOPO_H

#include <jansson.h>

#include "fabric/fabric_inv.h"
#include "model/topo.h"

int fabric_discover(const struct fabric_inv *inv, struct topo **t,
		    json_t *warnings);
json_t *fabric_topo_diff(const struct topo *want, const struct topo *got);

#endif /* __TAGGER_FABRIC_TOPO_H */
