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

#include "log.h"
#include "tag_order.h"
#include "util.h"

/* Events the local search may process: ~1-2 s on the largest benchmark. */
#define ORDER_SEARCH_BUDGET 200000000ULL

struct order {
	int *pos;
};

static double *mean_sort_key;

static int by_mean(const void *a, const void *b)
{
	double x = mean_sort_key[*(const int *)a], y = mean_sort_key[*(const int *)b];

	if (x != y)
		return x < y ? -1 : 1;
	return *(const int *)a - *(const int *)b;
}

/* Ports ordered by where they sit on the paths through them, on average. */
static void mean_order(const struct tagging *tg, int *pos)
{
	const struct topo *t = tg->t;
	int n = t->nports, i, k;
	double *sum = xcalloc(n, sizeof(double)), *cnt = xcalloc(n, sizeof(double));
	int *idx = xmalloc(n * sizeof(int));

	for (i = 0; i < tg->e->npaths; i++) {
		int m = elp_len(tg->e, i);

		for (k = 0; k < m; k++) {
			int v = t->ports[elp_hops(tg->e, i)[k]].peer;

			sum[v] += (double)k / m;
			cnt[v] += 1;
		}
	}
	for (i = 0; i < n; i++) {
		sum[i] = cnt[i] ? sum[i] / cnt[i] : 2;
		idx[i] = i;
	}
	mean_sort_key = sum;
	qsort(idx, n, sizeof(int), by_mean);
	for (i = 0; i < n; i++)
		pos[idx[i]] = i;
	free(sum);
	free(cnt);
	free(idx);
}

static int order_begin(struct tagging *tg)
{
	struct order *o = xcalloc(1, sizeof(*o));
	int *pos = xmalloc((tg->t->nports + 1) * sizeof(int)), best = 1 << 30, start;
	struct ldg g;

	o->pos = xmalloc((tg->t->nports + 1) * sizeof(int));
	for (start = 0; start < 2; start++) {
		int b;

		if (start == 0) {
			ldg_build(tg, &g);
			ldg_order_els(&g, pos);
			ldg_free(&g);
		} else {
			mean_order(tg, pos);
		}
		b = order_search(tg, pos, ORDER_SEARCH_BUDGET / 2);
		pr_info("order: start %d: %d backward edges per path at most\n", start, b);
		if (b < best) {
			best = b;
			memcpy(o->pos, pos, tg->t->nports * sizeof(int));
		}
	}
	free(pos);
	tg->priv = o;
	return 0;
}

static void order_decide(struct tagging *tg, const struct tag_unit *u, uint8_t *tags)
{
	struct order *o = tg->priv;
	int k;

	for (k = 0; k < u->nkeys; k++) {
		int in = rule_key_in(u->keys[k]);

		tags[k] = (uint8_t)(rule_key_tag(u->keys[k]) + (o->pos[in] > o->pos[u->port]));
	}
	/*
	 * Same-tag edges all go forward in one order, so this cannot fail;
	 * the check keeps the invariant tested rather than assumed.
	 */
	if (!tagging_add_edges(tg, u, tags)) {
		pr_warn("order: a same-tag cycle at port %d; its keys turn lossy\n", u->port);
		for (k = 0; k < u->nkeys; k++)
			tags[k] = TAG_LOSSY;
	}
}

static void order_end(struct tagging *tg)
{
	struct order *o = tg->priv;

	free(o->pos);
}

const struct tag_algo tag_algo_order = {
	.name = "order",
	.begin = order_begin,
	.decide = order_decide,
	.end = order_end,
};
