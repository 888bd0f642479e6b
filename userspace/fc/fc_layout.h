/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The virtual layers of a Flattened Clos (section 3.2): which layer 1..k
 * each fabric port belongs to, from "v<j>p<n>" port names or from a split
 * over each switch's fabric ports taken in natural name order. Every fabric
 * link must join adjacent layers of two switches. The routing (fc_route.h),
 * the virtual graph (fc_vgraph.h) and the reroute (fc_reroute.h) read it.
 *
 * API:
 *   fc_layout_from_names(t, &L, err, len)      0 or -1 + err
 *   fc_layout_from_split(t, split, k, &L, err, len)
 *   fc_layout_free(&L)
 */
#ifndef __TAGGER_FC_LAYOUT_H
#define __TAGGER_FC_LAYOUT_H

#include <stddef.h>

#include "model/topo.h"

struct fc_layout {
	int k; /* virtual layers */
	int ntors;
	int *tor_node; /* ToR index -> node id */
	int *node_tor; /* node id -> ToR index, -1 for hosts */
	int *port_layer; /* port id -> virtual layer 1..k, 0 otherwise */
};

int fc_layout_from_names(const struct topo *t, struct fc_layout *L, char *err,
			 size_t errlen);
int fc_layout_from_split(const struct topo *t, const int *split, int k,
			 struct fc_layout *L, char *err, size_t errlen);
void fc_layout_free(struct fc_layout *L);

#endif /* __TAGGER_FC_LAYOUT_H */
