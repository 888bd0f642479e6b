// SPDX-License-Identifier: GPL-2.0
/* The tagging engine: rounds, units, forced keys; see tagging.h. */
#include <stdlib.h>
#include <string.h>

#include "lib/log.h"
#include "compile/tagging.h"
#include "lib/util.h"

#define TAG_COLLECTED 0xfd /* a pending key already put in its unit */
/*
 * The rules map is large and its keys scattered: loops over keys load the
 * slot of the key this far ahead (written out in each loop, since GCC
 * drops a helper whose only effect is a prefetch).
 */
#define PREFETCH_AHEAD 16

int tagging_node_forwards(const struct tagging *tg, int node)
{
	return tg->forwards[node];
}

static int find_node(const struct tagging *tg, int port, int tag)
{
	uint64_t v;

	return hmap_get(&tg->nodes, node_key(port, tag), &v) ? (int)v : -1;
}

static int ensure_node(struct tagging *tg, int port, int tag)
{
	bool fresh;
	uint64_t *v = hmap_slot(&tg->nodes, node_key(port, tag), &fresh);

	if (fresh) {
		int64_t n = tg->t->nports,
			at = tg->hint ? tg->hint[port] : tg->dag.n;

		/* unique: the hint is a permutation; creation order is unique too */
		*v = (uint64_t)dyn_dag_add_node(&tg->dag,
						tg->hint ? tag * n + at : at);
		if (tag + 1 > tg->ntags)
			tg->ntags = tag + 1;
	}
	return (int)*v;
}

/*
 * Edges from keys that keep their tag lie inside one tag's graph. A target
 * node that does not exist yet has no out-edges, so edges into it cannot
 * close a cycle; otherwise each edge goes through the dynamic order, and
 * a failure rolls back the ones this call added.
 */
bool tagging_add_edges(struct tagging *tg, const struct tag_unit *u,
		       const uint8_t *tags)
{
	int *added = NULL, nadded = 0, cap = 0, k, b;

	for (k = 0; k < u->nkeys; k++) {
		int tag = rule_key_tag(u->keys[k]), a;

		if (tags[k] != tag)
			continue;
		b = find_node(tg, u->port, tag);
		if (b < 0)
			b = ensure_node(tg, u->port, tag);
		a = find_node(tg, rule_key_in(u->keys[k]), tag);
		if (!dyn_dag_add_edge(&tg->dag, a, b)) {
			while (nadded) {
				nadded -= 2;
				dyn_dag_pop_edge(&tg->dag, added[nadded],
						 added[nadded + 1]);
			}
			free(added);
			return false;
		}
		VEC_PUSH(added, nadded, cap, a);
		VEC_PUSH(added, nadded, cap, b);
	}
	free(added);
	return true;
}

struct pending {
	int inst; /* path index */
	int port; /* in-port of the next hop */
	uint64_t key;
};

struct round {
	struct pending *pend;
	struct pending *sorted;
	int npend;
	int *count; /* per port, for the counting sort */
	uint64_t *keys;
	uint8_t *tags;
	int keys_cap;
};

static void sort_by_port(struct tagging *tg, struct round *r)
{
	int i, nports = tg->t->nports, sum = 0;

	memset(r->count, 0, (nports + 1) * sizeof(int));
	for (i = 0; i < r->npend; i++)
		r->count[r->pend[i].port + 1]++;
	for (i = 0; i <= nports; i++) {
		int c = r->count[i];

		r->count[i] = sum;
		sum += c;
	}
	for (i = 0; i < r->npend; i++)
		r->sorted[r->count[r->pend[i].port + 1]++] = r->pend[i];
}

/* Decide the undecided keys of one unit, then move its packets on. */
static void run_unit(struct tagging *tg, struct round *r, int lo, int hi,
		     int cls, int hop, uint8_t *cur)
{
	struct tag_unit u = { .cls = cls,
			      .hop = hop,
			      .port = r->sorted[lo].port };
	int i, k;

	for (i = lo; i < hi; i++) {
		uint64_t *v;

		if (i + PREFETCH_AHEAD < hi)
			__builtin_prefetch(hmap_slot_addr(
				&tg->rules, r->sorted[i + PREFETCH_AHEAD].key));
		v = hmap_slot(&tg->rules, r->sorted[i].key, NULL);

		if (*v != TAG_PENDING)
			continue;
		*v = TAG_COLLECTED;
		if (u.nkeys == r->keys_cap) {
			r->keys_cap = r->keys_cap ? 2 * r->keys_cap : 64;
			r->keys = xrealloc(r->keys,
					   r->keys_cap * sizeof(*r->keys));
			r->tags = xrealloc(r->tags, r->keys_cap);
		}
		r->keys[u.nkeys++] = r->sorted[i].key;
	}
	u.keys = r->keys;
	u.max_prev = 0;
	for (k = 0; k < u.nkeys; k++)
		if (rule_key_tag(u.keys[k]) > u.max_prev)
			u.max_prev = rule_key_tag(u.keys[k]);
	tg->algo->decide(tg, &u, r->tags);
	tg->units++;
	for (k = 0; k < u.nkeys; k++) {
		uint8_t tag = r->tags[k];

		if (tag != TAG_LOSSY && tag >= TAG_MAX) {
			tg->overflow++;
			tag = TAG_LOSSY;
		}
		if (tag == TAG_LOSSY)
			tg->lossy_keys++;
		hmap_put(&tg->rules, u.keys[k], tag);
		if (tag != TAG_LOSSY)
			ensure_node(tg, u.port, tag);
	}
	for (i = lo; i < hi; i++) {
		uint64_t v;

		if (i + PREFETCH_AHEAD < hi)
			__builtin_prefetch(hmap_slot_addr(
				&tg->rules, r->sorted[i + PREFETCH_AHEAD].key));
		hmap_get(&tg->rules, r->sorted[i].key, &v);
		cur[(size_t)r->sorted[i].inst * tg->nclasses + cls] =
			(uint8_t)v;
	}
}

/* The rule key path i takes at hop (hop >= 2), or HMAP_EMPTY if none. */
static uint64_t hop_key(const struct tagging *tg, int i, int cls, int hop,
			const uint8_t *cur)
{
	const struct elp *e = tg->e;
	const int32_t *h = elp_hops(e, i);
	uint8_t tag = cur[(size_t)i * tg->nclasses + cls];

	if (elp_len(e, i) < hop || tag == TAG_LOSSY)
		return HMAP_EMPTY;
	return rule_key(tag, tg->t->ports[h[hop - 2]].peer, h[hop - 1]);
}

/* Move every packet of class cls from hop-1 to hop. */
static void run_class_round(struct tagging *tg, struct round *r, int cls,
			    int hop, uint8_t *cur)
{
	const struct topo *t = tg->t;
	const struct elp *e = tg->e;
	int i, lo;

	r->npend = 0;
	for (i = 0; i < e->npaths; i++) {
		const int32_t *h = elp_hops(e, i);
		uint8_t *tag = &cur[(size_t)i * tg->nclasses + cls];
		int in, prev_in, next;
		uint64_t *slot, key;
		bool fresh;

		if (hop > 1 && i + PREFETCH_AHEAD < e->npaths) {
			key = hop_key(tg, i + PREFETCH_AHEAD, cls, hop, cur);
			if (key != HMAP_EMPTY)
				__builtin_prefetch(
					hmap_slot_addr(&tg->rules, key));
		}
		if (elp_len(e, i) < hop)
			continue;
		if (hop == 1) {
			/* Class c enters the network with tag c (the M+N scheme). */
			*tag = cls < TAG_MAX ? cls : TAG_LOSSY;
			in = t->ports[h[0]].peer;
			if (*tag != TAG_LOSSY && tg->forwards[port_node(t, in)])
				ensure_node(tg, in, *tag);
			continue;
		}
		if (*tag == TAG_LOSSY)
			continue;
		prev_in = t->ports[h[hop - 2]].peer;
		in = t->ports[h[hop - 1]].peer;
		next = port_node(t, in);
		key = rule_key(*tag, prev_in, h[hop - 1]);
		slot = hmap_slot(&tg->rules, key, &fresh);
		if (!tg->forwards[next]) {
			/* Into a sink (a destination host): the tag stays. */
			*slot = *tag;
			continue;
		}
		if (!fresh && *slot != TAG_PENDING) {
			*tag = (uint8_t)*slot;
			tg->forced++;
			continue;
		}
		*slot = TAG_PENDING;
		r->pend[r->npend++] =
			(struct pending){ .inst = i, .port = in, .key = key };
	}
	if (!r->npend)
		return;
	sort_by_port(tg, r);
	for (lo = 0; lo < r->npend;) {
		int hi = lo + 1;

		while (hi < r->npend &&
		       r->sorted[hi].port == r->sorted[lo].port)
			hi++;
		run_unit(tg, r, lo, hi, cls, hop, cur);
		lo = hi;
	}
}

int tagging_run(struct tagging *tg, const struct topo *t, const struct elp *e,
		int nclasses, const struct tag_algo *algo)
{
	struct round r = { 0 };
	uint8_t *cur;
	int hop, cls, err = 0;

	memset(tg, 0, sizeof(*tg));
	tg->t = t;
	tg->e = e;
	tg->algo = algo;
	tg->nclasses = nclasses;
	hmap_init(&tg->rules, 1024);
	hmap_init(&tg->nodes, 1024);
	dyn_dag_init(&tg->dag);
	tg->forwards = elp_forwarding(tg->t, tg->e);
	tg->maxlen = elp_max_len(e);
	if (algo->begin && algo->begin(tg))
		return -1;
	cur = xmalloc((size_t)e->npaths * nclasses);
	r.pend = xmalloc(e->npaths * sizeof(*r.pend));
	r.sorted = xmalloc(e->npaths * sizeof(*r.sorted));
	r.count = xmalloc((t->nports + 1) * sizeof(int));
	for (hop = 1; hop <= tg->maxlen; hop++) {
		for (cls = 0; cls < nclasses; cls++) {
			run_class_round(tg, &r, cls, hop, cur);
			if (algo->end_round)
				algo->end_round(tg, cls, hop);
		}
	}
	if (algo->end)
		algo->end(tg);
	pr_debug(
		"%s: %d nodes, %llu units, %llu forced, %llu reorders over %llu nodes\n",
		algo->name, tg->dag.n, (unsigned long long)tg->units,
		(unsigned long long)tg->forced,
		(unsigned long long)tg->dag.reorders,
		(unsigned long long)tg->dag.visited);
	free(cur);
	free(r.pend);
	free(r.sorted);
	free(r.count);
	free(r.keys);
	free(r.tags);
	return err;
}

void tagging_free(struct tagging *tg)
{
	free(tg->forwards);
	hmap_free(&tg->rules);
	hmap_free(&tg->nodes);
	dyn_dag_free(&tg->dag);
	free(tg->priv);
	memset(tg, 0, sizeof(*tg));
}
