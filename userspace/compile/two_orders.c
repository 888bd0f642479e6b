// SPDX-License-Identifier: GPL-2.0
/*
 * Two priorities from two orders, searched locally; see two_orders.h.
 *
 * pi0 starts as the order heuristic's (a path with at most one backward
 * edge fits with pi1 = pi0, switching on that edge) and is searched
 * further with pi1 tied to it (every move made in both orders): one order
 * is where a path fits most easily. Then pi1 starts as pi0 or as the
 * Eades-Lin-Smyth order of the suffixes after each path's first
 * pi0-backward edge, whichever leaves fewer paths unfit. The search
 * repairs a few paths: with too many unfit at the start (Clos with two
 * bounces: over half) it is not tried.
 *
 * From there the walk of two_orders_walk.h moves in-ports (a move:
 * two_orders_move.h), within a work budget of work_per_visit events per
 * (path, in-port) visit.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "compile/tag_order.h"
#include "compile/two_orders.h"
#include "compile/two_orders_move.h"
#include "compile/two_orders_walk.h"
#include "lib/log.h"
#include "lib/util.h"

#define MAX_EDGES 63 /* a path's backward edges are one 64-bit mask */
/* Events of each further pass of the order heuristic's search on pi0. */
#define ORDER_MORE_BUDGET 100000000ULL
/* The share of the budget for pi0 alone (pi1 tied): 1 / TIED_SHARE_DIV. */
#define TIED_SHARE_DIV 4

/* Distinct in-port sequences, as chains of trie nodes; false if too long. */
static bool build_paths(struct tw *w)
{
	const struct sat_trie *tr = w->tr;
	char *seen = xcalloc(tr->n + 1, 1);
	int64_t len = 0;
	int i, n, d;

	w->pstart = xmalloc((tr->npaths + 1) * sizeof(int64_t));
	w->pstart[0] = 0;
	for (i = 0; i < tr->npaths; i++) {
		n = tr->path_end[i];
		if (n < 0 || seen[n])
			continue;
		seen[n] = 1;
		for (d = 0; n >= 0; n = tr->parent[n])
			d++;
		if (d - 1 > MAX_EDGES) {
			free(seen);
			return false;
		}
		len += d;
		w->pstart[++w->np] = len;
	}
	w->seq = xmalloc((len + 1) * sizeof(int));
	memset(seen, 0, tr->n + 1);
	w->np = 0;
	for (i = 0; i < tr->npaths; i++) {
		int64_t at;

		n = tr->path_end[i];
		if (n < 0 || seen[n])
			continue;
		seen[n] = 1;
		at = w->pstart[w->np + 1];
		for (; n >= 0; n = tr->parent[n])
			w->seq[--at] = n;
		w->np++;
	}
	free(seen);
	return true;
}

static void build_visits(struct tw *w)
{
	int64_t p, s, *fill;
	int v;

	w->vstart = xcalloc(w->n + 1, sizeof(int64_t));
	for (s = 0; s < w->pstart[w->np]; s++)
		w->vstart[port_at(w, s) + 1]++;
	for (v = 0; v < w->n; v++)
		w->vstart[v + 1] += w->vstart[v];
	fill = xmalloc((w->n + 1) * sizeof(int64_t));
	memcpy(fill, w->vstart, (w->n + 1) * sizeof(int64_t));
	w->vpath = xmalloc((w->vstart[w->n] + 1) * sizeof(int));
	w->vidx = xmalloc(w->vstart[w->n] + 1);
	for (p = 0; p < w->np; p++)
		for (s = w->pstart[p]; s < w->pstart[p + 1]; s++) {
			v = port_at(w, s);
			w->vpath[fill[v]] = (int)p;
			w->vidx[fill[v]++] = (uint8_t)(s - w->pstart[p]);
		}
	free(fill);
}

/*
 * pi0: the order heuristic's (tag_order.c); of its starts the one that
 * leaves the fewest paths with two backward edges or more.
 */
static void first_order(struct tw *w, const struct topo *t, const struct elp *e)
{
	struct tagging tg = { .t = t, .e = e };
	int *pos = xmalloc((w->n + 1) * sizeof(int)), start;
	int64_t best = INT64_MAX, p, u;

	tg.forwards = elp_forwarding(t, e);
	/* both starts whatever the size: the search pays for them */
	for (start = 0; start < 2; start++) {
		int64_t was = INT64_MAX;

		order_start(&tg, start, pos);
		/* the heuristic stops while a pass still pays a little */
		for (;;) {
			for (u = p = 0; p < w->np; p++)
				u += ones(tw_back_mask(w, p, pos)) > 1;
			if (u >= was)
				break;
			was = u;
			order_search(&tg, pos, ORDER_MORE_BUDGET);
		}
		u = was;
		pr_debug("two orders: start %d: %lld paths do not fit\n", start,
			 (long long)u);
		if (u < best) {
			best = u;
			memcpy(w->pos[0], pos, w->n * sizeof(int));
		}
	}
	free(pos);
	free(tg.forwards);
}

/*
 * A pi1 of its own: the Eades-Lin-Smyth order of the tag-1 graph that
 * pi0 implies (each path's edges after its first pi0-backward edge,
 * weighted by the paths using them), which only has to hold for those
 * suffixes, where pi0 has to hold everywhere.
 */
static void suffix_order(const struct tw *w, int *pos)
{
	struct hmap wm;
	struct ldg g;
	int64_t p, s;

	hmap_init(&wm, 1024);
	for (p = 0; p < w->np; p++) {
		uint64_t b0 = w->mask[0][p];
		int m = nedges(w, p), i;

		if (!b0)
			continue;
		s = w->pstart[p];
		for (i = __builtin_ctzll(b0) + 1; i < m; i++)
			(*hmap_slot(
				&wm,
				key2(port_at(w, s + i), port_at(w, s + i + 1)),
				NULL))++;
	}
	ldg_from_weights(&wm, w->n, &g);
	ldg_order_els(&g, pos);
	ldg_free(&g);
	hmap_free(&wm);
}

static int by_pos_then_id(const void *a, const void *b, void *pos)
{
	const int *p = pos, x = *(const int *)a, y = *(const int *)b;

	if (p[x] != p[y])
		return p[x] < p[y] ? -1 : 1;
	return (x > y) - (x < y);
}

static void permutation(int n, int *pos, int *at)
{
	int i;

	for (i = 0; i < n; i++)
		at[i] = i;
	qsort_r(at, n, sizeof(int), by_pos_then_id, pos);
	for (i = 0; i < n; i++)
		pos[at[i]] = i;
}

/*
 * The tagging of two_orders.h: F = each path's edges before its last
 * pi1-backward edge stay in tag 0, every other transition switches.
 */
static int *tags_from_orders(const struct tw *w)
{
	const struct sat_trie *tr = w->tr;
	char *in_f = xcalloc(tr->ntr + 1, 1);
	int *tag = xcalloc(tr->n + 1, sizeof(int));
	int64_t p;
	int n, i;

	for (p = 0; p < w->np; p++) {
		uint64_t b1 = w->mask[1][p];
		int last = b1 ? 64 - __builtin_clzll(b1) : 0; /* 1-based */

		for (i = 0; i + 1 < last; i++)
			in_f[tr->tr[w->seq[w->pstart[p] + i + 1]]] = 1;
	}
	/* parents come before their children in the trie */
	for (n = 0; n < tr->n; n++) {
		int par = tr->parent[n];

		tag[n] = par < 0 ? 0 : tag[par] ? 1 : !in_f[tr->tr[n]];
	}
	free(in_f);
	return tag;
}

/* Every same-tag edge forward in its tag's order: both graphs acyclic. */
static bool tags_ok(const struct tw *w, const int *tag)
{
	int64_t p, s;

	for (p = 0; p < w->np; p++)
		for (s = w->pstart[p] + 1; s < w->pstart[p + 1]; s++) {
			int a = w->seq[s - 1], b = w->seq[s];

			if (tag[a] == tag[b] &&
			    w->pos[tag[a]][w->tr->port[a]] >
				    w->pos[tag[a]][w->tr->port[b]])
				return false;
		}
	return true;
}

static void tags_to_keys(const struct topo *t, const struct sat_trie *tr,
			 const int *tag, struct hmap *keys)
{
	int n;

	hmap_init(keys, 1024);
	for (n = 0; n < tr->n; n++) {
		int par = tr->parent[n];

		if (par >= 0)
			hmap_put(keys,
				 rule_key(tag[par], tr->port[par],
					  t->ports[tr->port[n]].peer),
				 (uint64_t)tag[n]);
	}
}

/* pi1: pi0 itself, or the suffixes' own order if fewer paths then fail. */
static void second_order(struct tw *w)
{
	int *pos = xmalloc((w->n + 1) * sizeof(int));
	int *at = xmalloc((w->n + 1) * sizeof(int));
	int64_t p, u = 0;

	suffix_order(w, pos);
	permutation(w->n, pos, at);
	for (p = 0; p < w->np; p++)
		u += tw_path_cost(w->mask[0][p], tw_back_mask(w, p, pos),
				  nedges(w, p)) > 0;
	pr_debug("two orders: pi1 = pi0: %lld paths do not fit; the suffixes' "
		 "order: %lld\n",
		 (long long)w->unfit, (long long)u);
	if (u < w->unfit) {
		memcpy(w->pos[1], pos, w->n * sizeof(int));
		memcpy(w->at[1], at, w->n * sizeof(int));
		for (p = 0; p < w->np; p++) {
			w->mask[1][p] = tw_back_mask(w, p, w->pos[1]);
			tw_set_cost(w, p);
		}
	}
	free(pos);
	free(at);
}

static void tw_free(struct tw *w)
{
	int x;

	for (x = 0; x < 2; x++) {
		free(w->mask[x]);
		free(w->pos[x]);
		free(w->at[x]);
		free(w->dirty[x]);
		free(w->best_pos[x]);
	}
	free(w->weight);
	free(w->ulist);
	free(w->uidx);
	free(w->pstart);
	free(w->seq);
	free(w->cost);
	free(w->vstart);
	free(w->vpath);
	free(w->vidx);
	free(w->ev);
	free(w->evtmp);
	free(w->dist);
	free(w->first);
	free(w->pstamp);
	free(w->pslot);
	free(w->state);
	free(w->c4);
	free(w->skip);
	free(w->stamp);
}

/*
 * A diagnostic: with TAGGER_TWO_ORDERS_UNFIT set, write the indices (from
 * 0, in ELP order) of the paths that do not fit the best orders to that
 * file, one a line, to start a search for an infeasible subset from them.
 */
static void dump_unfit(const struct tw *w)
{
	const char *file = getenv("TAGGER_TWO_ORDERS_UNFIT");
	char *bad;
	int64_t p;
	FILE *f;
	int i;

	if (!file || !*file)
		return;
	f = fopen(file, "w");
	if (!f) {
		pr_warn("two orders: %s: cannot write\n", file);
		return;
	}
	bad = xcalloc(w->tr->n + 1, 1);
	for (p = 0; p < w->np; p++)
		if (w->cost[p] > 0)
			bad[w->seq[w->pstart[p + 1] - 1]] = 1;
	for (i = 0; i < w->tr->npaths; i++)
		if (w->tr->path_end[i] >= 0 && bad[w->tr->path_end[i]])
			fprintf(f, "%d\n", i);
	free(bad);
	fclose(f);
}

/*
 * A diagnostic: with TAGGER_TWO_ORDERS_ORDERS set, write the best orders
 * to that file, one in-port a line: its node, the node at the link's other
 * end, and its positions in pi0 and pi1.
 */
static void dump_orders(const struct topo *t, const struct tw *w)
{
	const char *file = getenv("TAGGER_TWO_ORDERS_ORDERS");
	FILE *f;
	int v;

	if (!file || !*file)
		return;
	f = fopen(file, "w");
	if (!f) {
		pr_warn("two orders: %s: cannot write\n", file);
		return;
	}
	for (v = 0; v < w->n; v++)
		fprintf(f, "%s %s %d %d\n", t->nodes[port_node(t, v)].name,
			t->nodes[port_node(t, t->ports[v].peer)].name,
			w->pos[0][v], w->pos[1][v]);
	fclose(f);
}

static void finish(const struct topo *t, struct tw *w, struct two_orders *res)
{
	int *tag;

	tw_restore_best(w);
	res->unfit = w->unfit;
	res->moves = w->moves;
	res->passes = w->passes;
	res->rounds = w->rounds;
	res->bumps = w->bumps;
	res->resets = w->resets;
	res->work = w->work;
	dump_unfit(w);
	dump_orders(t, w);
	if (w->unfit) {
		/* a start for the solver: cycles only near the paths left */
		if (!res->skipped)
			res->tag = tags_from_orders(w);
		res->result = 0;
		return;
	}
	tag = tags_from_orders(w);
	if (!tags_ok(w, tag)) {
		pr_warn("two orders: the tagging has a backward same-tag edge: a bug\n");
		free(tag);
		res->result = 0;
		return;
	}
	res->tag = tag;
	tags_to_keys(t, w->tr, tag, &res->keys);
	res->result = 1;
}

void two_orders_opts_init(struct two_orders_opts *o)
{
	*o = (struct two_orders_opts){ .work_per_visit =
					       TWO_ORDERS_WORK_PER_VISIT,
				       .max_share = TWO_ORDERS_MAX_SHARE };
}

int two_orders_search(const struct topo *t, const struct elp *e,
		      const struct sat_trie *tr,
		      const struct two_orders_opts *o, struct two_orders *res)
{
	struct tw w = { .tr = tr, .n = t->nports };
	double t0 = now_seconds();
	clock_t c0 = clock();
	int64_t p;
	int x;

	memset(res, 0, sizeof(*res));
	res->result = -1;
	if (!build_paths(&w)) {
		tw_free(&w);
		return res->result;
	}
	build_visits(&w);
	for (x = 0; x < 2; x++) {
		w.pos[x] = xmalloc((w.n + 1) * sizeof(int));
		w.at[x] = xmalloc((w.n + 1) * sizeof(int));
		w.mask[x] = xmalloc((w.np + 1) * sizeof(uint64_t));
		w.dirty[x] = xmalloc(w.n + 1);
		memset(w.dirty[x], 1, w.n + 1);
		w.best_pos[x] = xmalloc((w.n + 1) * sizeof(int));
	}
	first_order(&w, t, e);
	permutation(w.n, w.pos[0], w.at[0]);
	memcpy(w.pos[1], w.pos[0], w.n * sizeof(int));
	memcpy(w.at[1], w.at[0], w.n * sizeof(int));
	w.cost = xcalloc(w.np + 1, 1);
	w.ulist = xmalloc((w.np + 1) * sizeof(int));
	w.uidx = xmalloc((w.np + 1) * sizeof(int64_t));
	memset(w.uidx, -1, (w.np + 1) * sizeof(int64_t));
	w.weight = xmalloc((w.np + 1) * sizeof(uint32_t));
	for (p = 0; p < w.np; p++)
		w.weight[p] = 1;
	w.stamp = xcalloc(w.np + 1, sizeof(uint32_t));
	w.pstamp = xcalloc(w.n + 1, sizeof(uint32_t));
	w.pslot = xmalloc((w.n + 1) * sizeof(int));
	for (p = 0; p < w.np; p++) {
		w.mask[0][p] = w.mask[1][p] = tw_back_mask(&w, p, w.pos[0]);
		tw_set_cost(&w, p);
	}
	w.best = INT64_MAX;
	tw_keep_best(&w);
	res->paths = w.np;
	res->unfit_start = w.unfit;
	pr_info("two orders: %lld paths, %lld do not fit one order (%.2f s)\n",
		(long long)w.np, (long long)w.unfit, now_seconds() - t0);
	res->skipped = (double)w.unfit > o->max_share * (double)w.np;
	if (!res->skipped) {
		uint64_t budget = o->work_per_visit * (uint64_t)w.vstart[w.n];

		tw_one_order(&w, budget / TIED_SHARE_DIV, o->deadline);
		second_order(&w);
		w.best = INT64_MAX;
		tw_keep_best(&w);
		tw_walk(&w, budget, o->deadline);
	}
	finish(t, &w, res);
	tw_free(&w);
	res->seconds = now_seconds() - t0;
	res->cpu_seconds = (double)(clock() - c0) / CLOCKS_PER_SEC;
	pr_info("two orders: %s: %lld paths do not fit, %d passes, %lld moves "
		"(%.2f s)\n",
		res->result > 0 ? "2 tags" :
		res->skipped	? "not tried" :
				  "not found",
		(long long)res->unfit, res->passes, (long long)res->moves,
		res->seconds);
	return res->result;
}

void two_orders_free(struct two_orders *res)
{
	free(res->tag);
	if (res->result == 1)
		hmap_free(&res->keys);
	memset(res, 0, sizeof(*res));
}
