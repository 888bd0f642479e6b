/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The two-order search's walk from its starting orders (two_orders.c sets
 * them up). Passes over every in-port (pi1, then pi0) move each to its
 * best gap (two_orders_move.h) while that pays; then the breakout (Morris
 * 1993): rounds over the in-ports of the paths left, those on the most of
 * them first, and where a round moves nothing, each path left weighs one
 * more. The weights let it climb out of a local minimum; it remembers the
 * best orders met and, when it has climbed too far above them, starts the
 * weights afresh where it is. No randomness: the same walk on every run.
 *
 * API:
 *   tw_walk(w, budget, deadline)   until every path fits, w.work
 *                                       reaches budget or now_seconds()
 *                                       passes deadline (0: none); its
 *                                       passes, rounds, bumps and resets
 *                                       counted in w
 *   tw_one_order(w, budget, deadline)
 *                                       the same with pi1 tied to pi0 (a
 *                                       path fits with at most one
 *                                       backward edge), then back to its
 *                                       best orders with fresh weights
 *   tw_restore_best(w)                  back to the best orders met, if
 *                                       the walk ended above them
 */
#ifndef __TAGGER_TWO_ORDERS_WALK_H
#define __TAGGER_TWO_ORDERS_WALK_H

#include <stdint.h>

#include "compile/two_orders_move.h"

void tw_walk(struct tw *w, uint64_t budget, double deadline);
void tw_one_order(struct tw *w, uint64_t budget, double deadline);
void tw_restore_best(struct tw *w);

#endif /* __TAGGER_TWO_ORDERS_WALK_H */
