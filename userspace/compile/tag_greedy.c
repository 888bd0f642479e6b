// SPDX-License-Identifier: GPL-2.0
/*
 * Greedy tag merging (Tagger, algorithm 2), as the paper describes it.
 *
 * The paper walks the brute-force tagged graph in order of brute tag t
 * (= hop index) and keeps one current new tag t'. Each node (A_i, t) joins
 * G'_{t'} if that keeps G'_{t'} acyclic, else it goes to t'+1; after each
 * t, if any node went to t'+1, t' advances. Tags therefore never decrease
 * and every G'_k is acyclic.
 *
 * Here a node of the brute-force graph is a unit of the engine: the
 * packets entering one port at one hop. The order within one hop is the
 * order of the in-ports in the topology file (ports of the first declared
 * node first, each node's ports in the order its links are declared).
 * Keys an earlier hop already decided are forced on the unit's packets
 * (tagging.h explains why); only undecided keys are merged.
 *
 * Several lossless classes (the M+N scheme of the paper's discussion,
 * generalised as the paper suggests): class c starts at tag c and runs the
 * same procedure with its own t'_c, sharing tags and their acyclicity with
 * the other classes. With one class this is exactly algorithm 2.
 */
#include <stdlib.h>

#include "compile/tag_order.h"
#include "compile/tagging.h"
#include "lib/util.h"

struct greedy {
	int *hint; /* port order seeding the dynamic order (speed only) */
	int *cur; /* t'_c */
	bool *bumped; /* some unit of class c went to t'_c + 1 this round */
};

static int greedy_begin(struct tagging *tg)
{
	struct greedy *g = xcalloc(1, sizeof(*g));
	struct ldg ldg;
	int c;

	g->cur = xcalloc(tg->nclasses, sizeof(int));
	g->bumped = xcalloc(tg->nclasses, sizeof(bool));
	for (c = 0; c < tg->nclasses; c++)
		g->cur[c] = c;
	/*
	 * Where nodes start in the incremental order changes only how much
	 * reordering the cycle checks do, never their answers.
	 */
	g->hint = xmalloc((tg->t->nports + 1) * sizeof(int));
	ldg_build(tg, &ldg);
	ldg_order_els(&ldg, g->hint);
	ldg_free(&ldg);
	tg->hint = g->hint;
	tg->priv = g;
	return 0;
}

static void fill(uint8_t *tags, int n, int tag)
{
	int k;

	for (k = 0; k < n; k++)
		tags[k] = (uint8_t)tag;
}

static void greedy_decide(struct tagging *tg, const struct tag_unit *u,
			  uint8_t *tags)
{
	struct greedy *g = tg->priv;
	int tag = g->cur[u->cls];

	/* Forced keys of other classes may have carried a packet higher. */
	if (u->max_prev > tag)
		tag = u->max_prev;
	fill(tags, u->nkeys, tag);
	if (tagging_add_edges(tg, u, tags))
		return;
	/* Every key now crosses from tag <= t' to t'+1: no same-tag edge. */
	fill(tags, u->nkeys, tag + 1);
	tagging_add_edges(tg, u, tags);
	g->bumped[u->cls] = true;
}

static void greedy_end_round(struct tagging *tg, int cls, int hop)
{
	struct greedy *g = tg->priv;

	if (g->bumped[cls]) {
		g->cur[cls]++;
		g->bumped[cls] = false;
	}
}

static void greedy_end(struct tagging *tg)
{
	struct greedy *g = tg->priv;

	tg->hint = NULL;
	free(g->hint);
	free(g->cur);
	free(g->bumped);
}

const struct tag_algo tag_algo_greedy = {
	.name = "greedy",
	.begin = greedy_begin,
	.decide = greedy_decide,
	.end_round = greedy_end_round,
	.end = greedy_end,
};
