/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The two-order search's working state and its move (two_orders.h says
 * what the search does). two_orders.c builds the paths and the starting
 * orders, two_orders_walk.c walks from them; two_orders_move.c holds one
 * move: take an in-port out of one order and put it into the gap that
 * lowers the objective the most, every gap weighed in one sweep.
 *
 *   tw_back_mask(w, p, pos)  path p's backward edges in order pos (bit i:
 *                            the edge from its i-th in-port)
 *   tw_path_cost(b0, b1, m)  the edges that break the best switch point of
 *                            a path of m edges, 0 if it fits
 *   tw_set_cost(w, p)        path p's cost again from its masks, and the
 *                            totals and the list of paths left with it
 *   tw_improve(w, v, x)      move in-port v within order x to its best
 *                            gap, if that lowers (weighted unfit, cost)
 *   tw_mark_path(w, p)       p's ports are worth evaluating again
 *   tw_keep_best(w)          remember the orders if the fewest unfit yet
 */
#ifndef __TAGGER_TWO_ORDERS_MOVE_H
#define __TAGGER_TWO_ORDERS_MOVE_H

#include <stdbool.h>
#include <stdint.h>

#include "compile/tag_sat.h"

struct event {
	int at; /* the neighbour's position */
	int visit; /* index into the moved port's visits */
	int flip; /* 2: its pred edge turns forward, 1: its succ edge backward */
};

struct tw {
	const struct sat_trie *tr;
	int n; /* in-ports */
	int64_t np; /* paths (distinct in-port sequences) */
	int64_t *pstart; /* per path: its trie nodes in seq[] */
	int *seq;
	uint64_t *mask[2]; /* per path: its backward edges in pi0, pi1 */
	uint8_t *cost;
	int64_t *vstart; /* per in-port: its visits (CSR) */
	int *vpath;
	uint8_t *vidx; /* the visit's index in its path */
	int *pos[2], *at[2];
	int64_t unfit, total;
	uint64_t work;
	int64_t moves;
	/* one move's scratch */
	struct event *ev, *evtmp;
	int *dist, *first; /* distinct event positions, bucket starts */
	uint32_t *pstamp; /* per position: seen in this move */
	int *pslot; /* per position: its bucket */
	uint32_t pepoch;
	uint8_t *state;
	uint8_t (*c4)[4];
	char *skip;
	int64_t scap;
	uint32_t *stamp; /* per path: paths that visit a port twice */
	uint32_t epoch;
	/* the paths that do not fit, and their breakout weights */
	int *ulist;
	int64_t *uidx; /* per path: its index in ulist, -1 if it fits */
	int64_t nul;
	uint32_t *weight;
	char *dirty[2]; /* per port: worth evaluating again in that order */
	int64_t wunfit; /* the weights of the paths that do not fit */
	/* the orders that left the fewest paths unfit so far */
	int *best_pos[2];
	int64_t best;
	bool tied; /* pi1 is pi0: a move in pi0 is made in both */
	/* the walk's counts, as struct two_orders reports them */
	int passes, rounds, bumps, resets;
};

static inline int port_at(const struct tw *w, int64_t s)
{
	return w->tr->port[w->seq[s]];
}

static inline int nedges(const struct tw *w, int64_t p)
{
	return (int)(w->pstart[p + 1] - w->pstart[p] - 1);
}

/* Set bits; backward edges are few, and no popcount instruction is assumed. */
static inline int ones(uint64_t b)
{
	int c = 0;

	for (; b; b &= b - 1)
		c++;
	return c;
}

uint64_t tw_back_mask(const struct tw *w, int64_t p, const int *pos);
int tw_path_cost(uint64_t b0, uint64_t b1, int m);
void tw_set_cost(struct tw *w, int64_t p);
bool tw_improve(struct tw *w, int v, int x);
void tw_mark_path(struct tw *w, int p);
void tw_keep_best(struct tw *w);

#endif /* __TAGGER_TWO_ORDERS_MOVE_H */
