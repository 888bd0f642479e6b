/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Which ports of a switch can share one filter table per direction: the
 * ports whose flower list (flower_table.h) of that direction is the same,
 * filter for filter. tc binds such ports to one shared block (clsact's
 * ingress_block / egress_block), and a switch driver that offloads the
 * block keeps its filters once in the ASIC's ACL for all of them, where
 * per-port filters take one copy a port.
 *
 * Ingress lists are alike wherever two ports classify every tag alike,
 * the common case (a Clos leaf's uplinks, a spine's ports). Egress lists
 * match the in-port (indev) in their rewrite chain, so two out-ports'
 * lists are the same only where their rewrites are, for every in-port:
 * less common, and found here rather than assumed.
 *
 * API:
 *   flower_list_equal(a, b)          the same filters in the same order
 *   flower_share(fp, n, egress, first, rep)
 *                                    rep[p] for each of the n ports: the
 *                                    lowest port whose list of that
 *                                    direction is p's (p itself for the
 *                                    first of a group), or -1 when no
 *                                    other port has p's list; ports below
 *                                    first never share (rep -1); the
 *                                    number of groups of two or more
 *   flower_share_entries(fp, n, egress, rep)
 *                                    the filters of that direction when
 *                                    each group's list is installed once
 *                                    (flower_list_entries' count)
 */
#ifndef __TAGGER_FLOWER_SHARE_H
#define __TAGGER_FLOWER_SHARE_H

#include <stdbool.h>

#include "model/flower_table.h"

bool flower_list_equal(const struct flower_list *a,
		       const struct flower_list *b);
int flower_share(const struct flower_port *fp, int n, bool egress, int first,
		 int *rep);
long flower_share_entries(const struct flower_port *fp, int n, bool egress,
			  const int *rep);

#endif /* __TAGGER_FLOWER_SHARE_H */
