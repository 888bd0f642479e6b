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
 * a filter's actions: kernels near 5.7 offloaded nothing after it. A
 * software skbedit then goes to chain TAGGER_TC_CHAIN_PFC instead of
 * passing, and every software chain ends with a filter (pref
 * FLOWER_TC_HANDOFF_PREF) that sends what nothing matched there: tc ends
 * classification at a pass and never returns to chain 0 after a goto,
 * so the pause agent's programs (in chain 0 and in that chain) would
 * otherwise see no packet and no PFC frame of a flower switch.
 *
 * The expansion is one walk (flower_tc_walk) that the batch lines and the
 * netlink messages of flower_nl.h are both made from: the tc filter at
 * (direction, chain, pref) of a port comes from the logical filter the
 * walk names, which is how a filter's counters map back to the rules.
 *
 * API:
 *   flower_tc_walk(fp, gen, hw, cb, arg)
 *        calls cb(t, arg) for every tc filter of a port, ingress then
 *        egress, chain by chain, pref by pref; stops at cb's first
 *        nonzero return and returns it; -E2BIG as below
 *   flower_tc_proto(t), flower_tc_vlan_proto(t)
 *        a filter's protocol, and the one behind its VLAN tag (0: none),
 *        as ETH_P_* values
 *   flower_tc_origin(fp, gen, egress, chain, pref)
 *        the index in fp's list of that direction of the logical filter
 *        the tc filter at chain, pref comes from; -1 for none (chain 0's
 *        entry filter, or a filter tagger did not write)
 *   flower_tc_write(f, fp, ifnames, port, gen, hw)
 *        the filters of port (ifnames[i]: port i's interface); 0, -E2BIG
 *        when a chain needs more prefs than tc has, or -EIO
 *   flower_tc_handoffs(egress, hw)    the hand-on filters a port has in
 *        one direction: one per chain used in software, none in hardware
 *   flower_tc_chain_used(egress, c)   whether a direction's lists use
 *        chain c (ingress: main and group, egress: main and rewrite)
 *   flower_tc_chain_entry(f, ifname, gen, egress, replace)
 *        the chain-0 filter of one direction (replace: over the running one)
 */
#ifndef __TAGGER_FLOWER_TC_H
#define __TAGGER_FLOWER_TC_H

#include <stdbool.h>
#include <stdio.h>

#include "model/flower_table.h"

#define FLOWER_TC_CHAIN(gen, c) (1 + (gen)*FLOWER_CHAINS + (c))
#define FLOWER_TC_MAX_PREF 0xfffe
#define FLOWER_TC_HANDOFF_PREF \
	0xffff /* software: the rest to TAGGER_TC_CHAIN_PFC */
#define FLOWER_TC_ENTRY_PREF 1 /* the chain-0 filter */
#define FLOWER_TC_ENTRY_HANDLE 1

/* The group-address key of a filter. */
enum flower_tc_key {
	FLOWER_TC_KEY_NONE,
	FLOWER_TC_KEY_GROUP_ETH, /* dst_mac 01:00:00:00:00:00/01:... */
	FLOWER_TC_KEY_GROUP_IP4, /* dst_ip 224.0.0.0/4 */
	FLOWER_TC_KEY_BCAST_IP4, /* dst_ip 255.255.255.255 */
	FLOWER_TC_KEY_GROUP_IP6, /* dst_ip ff00::/8 */
};

/* One tc filter of a port. */
struct flower_tc_filter {
	const struct flower_filter *fl; /* the logical filter */
	int index; /* fl's index in its list */
	bool egress, hw;
	int chain, pref; /* tc's */
	int goto_chain; /* tc's, for FLOWER_GOTO */
	int encap; /* -1: any protocol (qinq: 802.1ad), or 0, 1 VLAN tags */
	int fam; /* 0 IPv4, 1 IPv6, -1 none */
	int key; /* enum flower_tc_key */
};

typedef int (*flower_tc_cb)(const struct flower_tc_filter *t, void *arg);

int flower_tc_walk(const struct flower_port *fp, int gen, bool hw,
		   flower_tc_cb cb, void *arg);
int flower_tc_proto(const struct flower_tc_filter *t);
int flower_tc_vlan_proto(const struct flower_tc_filter *t);
int flower_tc_origin(const struct flower_port *fp, int gen, bool egress,
		     int chain, int pref);
int flower_tc_write(FILE *f, const struct flower_port *fp, char *const *ifnames,
		    int port, int gen, bool hw);
bool flower_tc_chain_used(bool egress, int c);
int flower_tc_handoffs(bool egress, bool hw);
int flower_tc_chain_entry(FILE *f, const char *ifname, int gen, bool egress,
			  bool replace);

#endif /* __TAGGER_FLOWER_TC_H */
