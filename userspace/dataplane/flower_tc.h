/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A port's flower lists (flower_table.h) as tc commands, one a line, for
 * `tc -batch`: what an operator reviews or applies by hand, and what the
 * tests feed to a kernel with cls_flower.
 *
 * Layout on each port, per direction: chain 0 holds one filter that goes
 * to the running generation's first chain; generation g's chains are
 * FLOWER_TC_CHAIN(g, c) for c of enum flower_chain. An update writes the
 * other generation's chains, then replaces the chain-0 filter: no packet
 * meets half a table. Every logical filter becomes one tc filter per
 * family and VLAN encapsulation, each at its own pref (tc keys a filter
 * instance by pref and protocol), in list order.
 *
 * Software filters (hw false) are skip_hw, fix the IPv4 header checksum
 * after a DSCP rewrite (csum ip4h) and, at ingress, set the skb mark the
 * pause machinery reads (tagger_skb.h); hardware filters (hw true) are skip_sw,
 * without csum or mark, which switch drivers refuse. skbedit comes last in
 * a filter's actions: kernels near 5.7 offloaded nothing after it.
 *
 * API:
 *   flower_tc_write(f, fp, ifnames, port, gen, hw)
 *        the filters of port (ifnames[i]: port i's interface); 0, -E2BIG
 *        when a chain needs more prefs than tc has, or -EIO
 *   flower_tc_chain_used(egress, c)   whether a direction's lists use
 *        chain c (ingress: main and group, egress: main and rewrite)
 *   flower_tc_chain_entry(f, ifname, gen, egress, replace)
 *        the chain-0 filter of one direction (replace: over the running one)
 */
#ifndef __TAGGER_FLOWER_TC_H
#define __TAGGER_FLOWER_TC_H

#include <stdbool.h>
#include <stdio.h>

#include "dataplane/flower_table.h"

#define FLOWER_TC_CHAIN(gen, c) (1 + (gen)*FLOWER_CHAINS + (c))
#define FLOWER_TC_MAX_PREF 0xffff
#define FLOWER_TC_ENTRY_PREF 1 /* the chain-0 filter */

int flower_tc_write(FILE *f, const struct flower_port *fp, char *const *ifnames,
		    int port, int gen, bool hw);
bool flower_tc_chain_used(bool egress, int c);
int flower_tc_chain_entry(FILE *f, const char *ifname, int gen, bool egress,
			  bool replace);

#endif /* __TAGGER_FLOWER_TC_H */
