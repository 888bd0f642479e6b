// SPDX-License-Identifier: GPL-2.0
/* The two-order search's walk: descent, then breakout; see two_orders_walk.h. */
#include <stdlib.h>
#include <string.h>

#include "compile/two_orders_walk.h"
#include "lib/log.h"
#include "lib/util.h"

/* The breakout may climb a 1 / RESET_BEST_DIV of its best above it ... */
#define RESET_BEST_DIV 10
/* ... or a 1 / RESET_PATHS_DIV of the paths, if more (see reset_margin). */
#define RESET_PATHS_DIV 4000

/* Back to the best orders seen, when the search ended above them. */
void tw_restore_best(struct tw *w)
{
	int64_t p;
	int x, v;

	if (w->unfit <= w->best)
		return;
	for (x = 0; x < 2; x++) {
		memcpy(w->pos[x], w->best_pos[x], w->n * sizeof(int));
		for (v = 0; v < w->n; v++)
			w->at[x][w->pos[x][v]] = v;
	}
	for (p = 0; p < w->np; p++) {
		w->mask[0][p] = tw_back_mask(w, p, w->pos[0]);
		w->mask[1][p] = tw_back_mask(w, p, w->pos[1]);
		tw_set_cost(w, p);
	}
}

/*
 * How far above its best the breakout may climb before its weights are
 * reset: a share of the best, but never less than a share of the paths
 * searched, or a search with a few paths left could not climb at all.
 */
static int64_t reset_margin(const struct tw *w)
{
	int64_t a = w->best / RESET_BEST_DIV, b = w->np / RESET_PATHS_DIV;

	return a > b ? a : b;
}

/* Every path weighs 1 again, and every port is worth evaluating. */
static void fresh_weights(struct tw *w)
{
	int64_t p;
	int x;

	for (p = 0; p < w->np; p++)
		w->weight[p] = 1;
	w->wunfit = w->nul;
	for (x = 0; x < 2; x++)
		memset(w->dirty[x], 1, w->n);
}

/*
 * Fresh weights when the breakout has climbed too far above its best:
 * the weights piled up on paths that fit long ago push it away from
 * every good region. The walk goes on from where it is (going back to
 * the best orders as well, or keeping extra weight on the paths left
 * there, left more paths unfit: Documentation/measurements.md).
 */
static void reset_weights(struct tw *w)
{
	if (w->unfit <= w->best + reset_margin(w))
		return;
	fresh_weights(w);
	w->resets++;
	pr_debug(
		"two orders: fresh weights, %lld paths do not fit (best %lld)\n",
		(long long)w->unfit, (long long)w->best);
}

/*
 * A port on many paths left first: one move there can make several fit,
 * and the ports of the paths it fixes then need no move.
 */
static int by_count_then_id(const void *a, const void *b, void *count)
{
	const int *c = count, x = *(const int *)a, y = *(const int *)b;

	if (c[x] != c[y])
		return c[x] > c[y] ? -1 : 1;
	return (x > y) - (x < y);
}

static bool past(double deadline)
{
	return deadline > 0 && now_seconds() > deadline;
}

/*
 * Breakout (Morris 1993): rounds over the in-ports of the paths that do
 * not fit, moving each in each order where that lowers the objective; a
 * round that moves nothing is a local minimum, and every path that does
 * not fit then weighs one more, which reshapes the objective until a
 * move pays. A port is evaluated again only once something on its paths
 * changed (a move, a weight). No randomness: the same walk on every run.
 */
static void breakout(struct tw *w, uint64_t budget, double deadline)
{
	int *ports = xmalloc((w->n + 1) * sizeof(int));
	uint32_t *seen = xcalloc(w->n + 1, sizeof(uint32_t));
	int *count = xcalloc(w->n + 1, sizeof(int));
	int64_t i, s;
	int n, j, x;

	while (w->nul && w->work < budget && !past(deadline)) {
		bool any = false;

		/* each port of a path left once, the most paths left first */
		w->rounds++;
		for (n = 0, i = 0; i < w->nul; i++)
			for (s = w->pstart[w->ulist[i]];
			     s < w->pstart[w->ulist[i] + 1]; s++) {
				int v = port_at(w, s);

				if (seen[v] != (uint32_t)w->rounds) {
					seen[v] = (uint32_t)w->rounds;
					count[v] = 0;
					ports[n++] = v;
				}
				count[v]++;
			}
		qsort_r(ports, n, sizeof(int), by_count_then_id, count);
		for (j = 0; j < n && w->nul && w->work < budget; j++) {
			for (x = !w->tied; x >= 0; x--)
				if (w->dirty[x][ports[j]])
					any |= tw_improve(w, ports[j], x);
			if (!(j & 63) && past(deadline))
				break;
		}
		if (!any) {
			for (i = 0; i < w->nul; i++) {
				w->weight[w->ulist[i]]++;
				tw_mark_path(w, w->ulist[i]);
			}
			w->wunfit += w->nul;
			w->bumps++;
			reset_weights(w);
		}
		if (!(w->rounds & 63))
			pr_debug("two orders: round %d: %lld paths do not fit, "
				 "%d weight bumps, %d resets, %llu events\n",
				 w->rounds, (long long)w->unfit, w->bumps,
				 w->resets, (unsigned long long)w->work);
	}
	free(ports);
	free(seen);
	free(count);
}

void tw_walk(struct tw *w, uint64_t budget, double deadline)
{
	bool any = true;
	int v, x;

	while (any && w->unfit && w->work < budget && !past(deadline)) {
		int64_t before = w->unfit;

		any = false;
		for (x = !w->tied; x >= 0; x--)
			for (v = 0; v < w->n && w->unfit && w->work < budget;
			     v++) {
				any |= tw_improve(w, v, x);
				if (!(v & 255) && past(deadline))
					break;
			}
		w->passes++;
		pr_debug(
			"two orders: pass %d: %lld paths do not fit (were %lld), "
			"cost %lld, %lld moves, %llu events\n",
			w->passes, (long long)w->unfit, (long long)before,
			(long long)w->total, (long long)w->moves,
			(unsigned long long)w->work);
	}
	breakout(w, budget, deadline);
}

void tw_one_order(struct tw *w, uint64_t budget, double deadline)
{
	w->tied = true;
	tw_walk(w, budget, deadline);
	w->tied = false;
	tw_restore_best(w);
	fresh_weights(w);
	pr_debug("two orders: one order: %lld paths do not fit, %llu events\n",
		 (long long)w->unfit, (unsigned long long)w->work);
}
