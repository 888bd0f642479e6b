// SPDX-License-Identifier: GPL-2.0
/*
 * --algorithm order: order-based tagging (tag_order.h explains the idea).
 * An Eades-Lin-Smyth order of the weighted link dependency graph, improved
 * by local search on the largest number of backward edges per path; the
 * tag then grows by one exactly on backward edges. No knowledge of the
 * topology's structure is used.
 */
#include <stdlib.h>
#include <string.h>

#include "lib/log.h"
#include "compile/tag_order.h"
#include "lib/util.h"

/* Events the local search may process: ~1-2 s on the largest benchmark. */
#define ORDER_SEARCH_BUDGET 200000000ULL

struct order {
	int *pos;
};

int order_start(const struct tagging *tg, int start, int *pos)
{
	double t0 = now_seconds();
	struct ldg g;
	int b;

	if (start == 0) {
		ldg_build(tg, &g);
		ldg_order_els(&g, pos);
		ldg_free(&g);
		pr_debug("order: Eades-Lin-Smyth order %.3f s\n",
			 now_seconds() - t0);
	} else {
		ldg_order_mean(tg, pos);
	}
	b = order_search(tg, pos, ORDER_SEARCH_BUDGET / 2);
	pr_info("order: start %d: %d backward edges per path at most (%.3f s)\n",
		start, b, now_seconds() - t0);
	return b;
}

int order_starts(const struct tagging *tg)
{
	/* A second start pays on small graphs; large ones keep the ELS start. */
	return tg->e->nhops < 1000000 ? 2 : 1;
}

int order_best(const struct tagging *tg, int *best_pos)
{
	int *pos = xmalloc((tg->t->nports + 1) * sizeof(int)), best = 1 << 30,
	    start;

	for (start = 0; start < order_starts(tg); start++) {
		int b = order_start(tg, start, pos);

		if (b < best) {
			best = b;
			memcpy(best_pos, pos, tg->t->nports * sizeof(int));
		}
	}
	free(pos);
	return best;
}

static int order_begin(struct tagging *tg)
{
	struct order *o = xcalloc(1, sizeof(*o));

	o->pos = xmalloc((tg->t->nports + 1) * sizeof(int));
	order_best(tg, o->pos);
	tg->priv = o;
	/* same-tag edges all go forward in this order: no reorder ever */
	tg->hint = o->pos;
	return 0;
}

static void order_decide(struct tagging *tg, const struct tag_unit *u,
			 uint8_t *tags)
{
	struct order *o = tg->priv;
	int k;

	for (k = 0; k < u->nkeys; k++) {
		int in = rule_key_in(u->keys[k]);

		tags[k] = (uint8_t)(rule_key_tag(u->keys[k]) +
				    (o->pos[in] > o->pos[u->port]));
	}
	/*
	 * Same-tag edges all go forward in one order, so this cannot fail;
	 * the check keeps the invariant tested rather than assumed.
	 */
	if (!tagging_add_edges(tg, u, tags)) {
		pr_warn("order: a same-tag cycle at port %d; its keys turn lossy\n",
			u->port);
		for (k = 0; k < u->nkeys; k++)
			tags[k] = TAG_LOSSY;
	}
}

static void order_end(struct tagging *tg)
{
	struct order *o = tg->priv;

	tg->hint = NULL;
	free(o->pos);
}

const struct tag_algo tag_algo_order = {
	.name = "order",
	.begin = order_begin,
	.decide = order_decide,
	.end = order_end,
};
