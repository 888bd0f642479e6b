/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Two priorities from two orders: a search for a 2-tag tagging that needs
 * no SAT solver, for cases where one order (tag_order.h) gives 3.
 *
 * With two tags a path is tag 0 up to the hop where it switches and tag 1
 * after it, and a switch is a rewrite answer: key (0, a, out) -> 1 for the
 * transition a -> b. Take an order pi0 for tag 0 and an order pi1 for tag
 * 1. A path *fits* if some hop j has every edge before it forward in pi0
 * and every edge after it forward in pi1: its cost, the smallest number of
 * edges that break this over all j, is 0. If every path fits, a tagging
 * follows at once: F = the edges of each path before its last pi1-backward
 * edge (a path must still be tag 0 there) all lie before that path's
 * switch point, so they are forward in pi0 and F is acyclic; switch on
 * every transition outside F (a function of the key, as rules need).
 * Each path then switches no earlier than its last pi1-backward edge, so
 * tag 1 is forward in pi1: both tags' graphs are acyclic. Conversely any
 * 2-tag tagging has such orders (topological orders of its two graphs),
 * so the search is complete in principle and only its heuristics can fail.
 *
 * The search keeps one invariant: it hands back the best orders it met
 * (fewest paths that do not fit), never worse than where it started, so a
 * 1 is a 2-tag tagging by the argument above and a 0 still gives the
 * solver a start. How it moves (descent, then a breakout with path
 * weights) is two_orders.c's; each tuning constant is documented at its
 * definition. The work is counted in events, so the answer never depends
 * on the machine's speed, only the deadline does.
 *
 * API:
 *   two_orders_search(t, e, tr, &opts, &res)
 *       1: res.tag (per trie node, 0 or 1) and res.keys (rule_key(tag, in,
 *       out) -> new tag, for tag_algo_replay) hold a 2-tag tagging;
 *       0: some paths still do not fit (res.unfit; res.skipped: too
 *       many at the start); unless skipped, res.tag is the tagging of
 *       the best orders met (a start for the solver, not acyclic);
 *       -1: not applicable (a path of 64 hops or more)
 *   two_orders_free(&res)
 *
 * Diagnostics (for tools/exact-subset.py): TAGGER_TWO_ORDERS_UNFIT=FILE
 * writes the indices of the ELP paths that do not fit the best orders,
 * TAGGER_TWO_ORDERS_ORDERS=FILE the orders, one in-port a line (its node,
 * the node it comes from, its position in pi0 and in pi1).
 */
#ifndef __TAGGER_TWO_ORDERS_H
#define __TAGGER_TWO_ORDERS_H

#include <stdint.h>

#include "compile/tag_sat.h"

/* The default budget: events per (path, in-port) visit. */
#define TWO_ORDERS_WORK_PER_VISIT 1000
/* Not tried when more of the paths than this do not fit at the start. */
#define TWO_ORDERS_MAX_SHARE 0.05

struct two_orders_opts {
	uint64_t work_per_visit; /* the budget, in events per visit */
	double max_share; /* of the paths not fitting one order at most */
	double deadline; /* now_seconds() past it: stop; 0: none */
};

struct two_orders {
	int result; /* as two_orders_search returns */
	int64_t paths; /* distinct in-port sequences searched */
	int64_t unfit_start; /* paths that did not fit with pi1 = pi0 */
	bool skipped; /* too many of them: not searched */
	int64_t unfit; /* paths that do not fit the best orders met */
	int64_t moves;
	int passes; /* descent passes over every port */
	int rounds; /* breakout rounds over the ports of the paths left */
	int bumps; /* rounds that raised the weights */
	int resets; /* of the weights, from too far above the best */
	uint64_t work; /* events processed */
	double seconds;
	double cpu_seconds;
	int *tag; /* per trie node (result 1, or 0 when searched) */
	struct hmap keys; /* result 1 */
};

void two_orders_opts_init(struct two_orders_opts *o);
int two_orders_search(const struct topo *t, const struct elp *e,
		      const struct sat_trie *tr,
		      const struct two_orders_opts *o, struct two_orders *res);
void two_orders_free(struct two_orders *res);

#endif /* __TAGGER_TWO_ORDERS_H */
