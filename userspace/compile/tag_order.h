/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Order-based tagging: internal interfaces shared by its files.
 *
 * The link dependency graph of the ELP has a vertex per in-port and an
 * edge u -> v where some path enters v right after u. Given a total order
 * of the in-ports, a packet's tag grows by one exactly where it crosses a
 * backward edge. Same-tag edges then all go forward in one order, so each
 * tag's graph is acyclic by construction, tags never decrease, and the
 * tags a path needs are 1 + its backward edges: the order to look for is
 * the one that minimises the largest number of backward edges on one path.
 *
 * On a layered topology the up-down order (up links by rising layer, then
 * down links by falling layer; Flattened Clos theorem 8) makes exactly the
 * down-up bounces backward, which is the optimum of the Tagger paper's
 * Clos section; the search below finds such orders without being told
 * about layers.
 *
 * API:
 *   ldg_build(tg, &g)          weighted graph (weight = paths using the edge)
 *   ldg_from_weights(w, n, &g) the same from key2(u, v) -> weight
 *   ldg_order_els(&g, pos)     Eades-Lin-Smyth feedback-arc-set order
 *   ldg_order_mean(tg, pos)    ports by their mean relative hop index
 *   order_search(tg, pos, budget)   local search on the min-max objective;
 *                              returns the largest backward count
 *   order_backward(tg, pos, i) backward edges of path i
 *   order_start(tg, s, pos)    start s (0: Eades-Lin-Smyth, 1: mean hop
 *                              index) searched; its largest backward count
 *   order_starts(tg)           how many starts order_best tries
 *   order_best(tg, pos)        the order --algorithm order uses: the start
 *                              with the fewest tags
 */
#ifndef __TAGGER_TAG_ORDER_H
#define __TAGGER_TAG_ORDER_H

#include <stdint.h>

#include "compile/tagging.h"

struct ldg {
	int n;
	int64_t *ostart, *istart;
	int *oto, *ito;
	int64_t *ow, *iw;
};

void ldg_build(const struct tagging *tg, struct ldg *g);
void ldg_from_weights(const struct hmap *w, int n, struct ldg *g);
void ldg_free(struct ldg *g);
void ldg_order_els(const struct ldg *g, int *pos);
void ldg_order_mean(const struct tagging *tg, int *pos);
int order_backward(const struct tagging *tg, const int *pos, int i);
int order_search(const struct tagging *tg, int *pos, uint64_t budget);
int order_start(const struct tagging *tg, int start, int *pos);
int order_starts(const struct tagging *tg);
int order_best(const struct tagging *tg, int *pos);

#endif /* __TAGGER_TAG_ORDER_H */
