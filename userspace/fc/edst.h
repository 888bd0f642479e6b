/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Edge-disjoint spanning trees (EDST) of the switch graph, and routing
 * inside them: the CBD-free baseline of TCP Bolt / DF-EDST that the
 * Flattened Clos paper compares against (section 4.1, table 2).
 *
 * The trees come from matroid partitioning (Edmonds; Knuth's "matroid
 * partitioning" algorithm): links are inserted one at a time into k
 * forests, and a link that closes a cycle in every forest displaces a link
 * of one of those cycles along a shortest (BFS) chain of swaps, which keeps
 * every forest acyclic. Links are offered in breadth-first order from one
 * switch, which keeps the trees shallow (the paper notes that EDST
 * algorithms guarantee no height). k forests of N-1 links each are k
 * spanning trees; if the graph has fewer, k is lowered until they fit. A
 * random s-regular graph has s/2 of them with high probability.
 *
 * Each pair then has one path per tree, the unique tree path: inside a tree
 * no path turns back, so no dependency cycle can form; trees share no
 * links, so the union of all trees' paths is CBD-free.
 *
 * API:
 *   edst_find(t, k, &trees)       number of spanning trees found (<= k; k <=
 *                                 0: as many as links / (N-1) allows)
 *   edst_route(t, &trees, out, &st)  every ordered switch pair, one path
 *                                 per tree, into out (may be NULL)
 *   edst_free(&trees)
 */
#ifndef __TAGGER_EDST_H
#define __TAGGER_EDST_H

#include "model/elp.h"
#include "analyze/path_stats.h"
#include "model/topo.h"

struct edst {
	int k; /* spanning trees */
	int nsw; /* switches */
	int *sw_node; /* switch index -> node id */
	int *node_sw; /* node id -> switch index, -1 for hosts */
	int *tree_of_port; /* port id -> tree 0..k-1, -1 if in none */
	int unused_links; /* switch links in no tree */
};

int edst_find(const struct topo *t, int k, struct edst *trees);
void edst_route(const struct topo *t, const struct edst *trees, struct elp *out,
		struct path_stats *st);
void edst_free(struct edst *trees);

#endif /* __TAGGER_EDST_H */
