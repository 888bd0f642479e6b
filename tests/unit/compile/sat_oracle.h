/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Oracles of the SAT and two-order suites: seeded random instances (small
 * graphs of switches, random walks with hairpins and repeated ports), the
 * exhaustive searches of both models (every rewrite function, every
 * per-prefix priority choice), and the check that a tagging compiles
 * through the replay algorithm into rules the verifier accepts.
 *
 * The exhaustive searches share nothing with the solver or the two-order
 * search: they walk the paths hop by hop, branch on every undecided choice
 * and prune a branch as soon as an edge closes a cycle.
 */
#ifndef __TAGGER_SAT_ORACLE_H
#define __TAGGER_SAT_ORACLE_H

#include <check.h>
#include <jansson.h>

#include "analyze/verify.h"
#include "compile/compile.h"
#include "compile/tag_sat.h"
#include "model/rules.h"
#include "testlib.h"

#define MAXP 6 /* paths */
#define MAXL 6 /* hops per path */
#define MAXK 4 /* priorities tried */
#define MAXV 160 /* graph nodes: ports x priorities */

/* xorshift: the same instances on every run and machine */
static uint64_t rng = 0x2545f4914f6cdd1dULL;

static inline unsigned int draw(unsigned int n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (unsigned int)(rng % n);
}

static inline struct topo *random_topo(void)
{
	struct topo *t = topo_new("rand.topo");
	int n = 3 + draw(4), extra = draw(n + 1), i;
	char name[16];

	for (i = 0; i < n; i++) {
		snprintf(name, sizeof(name), "s%d", i);
		topo_add_node(t, name, NODE_SWITCH, LAYER_NONE);
	}
	for (i = 1; i < n; i++)
		topo_link_auto(t, i, draw(i));
	for (i = 0; i < extra; i++) {
		int a = draw(n), b = draw(n);

		if (a != b && topo_port_toward(t, a, b) == PORT_NONE)
			topo_link_auto(t, a, b);
	}
	return t;
}

static inline struct elp *random_walks(const struct topo *t)
{
	struct elp *e = elp_new("rand.elp");
	int npaths = 1 + draw(MAXP), i, k;
	int32_t hops[MAXL];

	for (i = 0; i < npaths; i++) {
		int node = draw(t->nnodes), len = 1 + draw(MAXL);

		for (k = 0; k < len; k++) {
			const struct topo_node *nd = &t->nodes[node];

			hops[k] = nd->ports[draw(nd->nports)];
			node = port_peer_node(t, hops[k]);
		}
		elp_add(e, hops, len, i + 1);
	}
	return e;
}

/* The exhaustive searches' state: every node of these graphs is a switch. */
struct brute {
	const struct topo *t;
	const struct elp *e;
	int k;
	int in[MAXP][MAXL]; /* in-port of each hop */
	int val[MAXP][MAXL]; /* tag / priority of each hop */
	int keys[MAXP * MAXL][4]; /* tag, in, out, answer */
	int nkeys;
	int adj[MAXV][MAXV]; /* edge multiplicities */
	int nv;
};

static inline bool reaches(struct brute *b, int from, int to, char *seen)
{
	int v;

	if (from == to)
		return true;
	seen[from] = 1;
	for (v = 0; v < b->nv; v++)
		if (b->adj[from][v] && !seen[v] && reaches(b, v, to, seen))
			return true;
	return false;
}

/* Add edge a -> b unless it closes a cycle. */
static inline bool add_edge(struct brute *b, int a, int c)
{
	char seen[MAXV] = { 0 };

	if (reaches(b, c, a, seen))
		return false;
	b->adj[a][c]++;
	return true;
}

static inline void setup(struct brute *b, const struct topo *t,
			 const struct elp *e, int k)
{
	int i, j;

	memset(b, 0, sizeof(*b));
	b->t = t;
	b->e = e;
	b->k = k;
	b->nv = t->nports * k;
	ck_assert_int_le(b->nv, MAXV);
	for (i = 0; i < e->npaths; i++)
		for (j = 0; j < elp_len(e, i); j++)
			b->in[i][j] = t->ports[elp_hops(e, i)[j]].peer;
}

static inline bool tag_walk(struct brute *b, int i, int j);

/* Hop j of path i carries tag u into hop j + 1. */
static inline bool tag_next(struct brute *b, int i, int j, int u)
{
	int tag = b->val[i][j], np = b->t->nports;
	int from = tag * np + b->in[i][j], to = u * np + b->in[i][j + 1];
	bool ok;

	if (u == tag && !add_edge(b, from, to))
		return false;
	b->val[i][j + 1] = u;
	ok = tag_walk(b, i, j + 1);
	if (u == tag)
		b->adj[from][to]--;
	return ok;
}

/* Tagging model: branch on each undecided key (tag, in, out). */
static inline bool tag_walk(struct brute *b, int i, int j)
{
	int out, q, u;

	if (i == b->e->npaths)
		return true;
	if (j == elp_len(b->e, i) - 1) {
		if (i + 1 < b->e->npaths)
			b->val[i + 1][0] = 0;
		return tag_walk(b, i + 1, 0);
	}
	out = elp_hops(b->e, i)[j + 1];
	for (q = 0; q < b->nkeys; q++)
		if (b->keys[q][0] == b->val[i][j] &&
		    b->keys[q][1] == b->in[i][j] && b->keys[q][2] == out)
			return tag_next(b, i, j, b->keys[q][3]);
	q = b->nkeys++;
	b->keys[q][0] = b->val[i][j];
	b->keys[q][1] = b->in[i][j];
	b->keys[q][2] = out;
	for (u = b->val[i][j]; u < b->k; u++) {
		b->keys[q][3] = u;
		if (tag_next(b, i, j, u)) {
			b->nkeys--;
			return true;
		}
	}
	b->nkeys--;
	return false;
}

static inline bool prio_walk(struct brute *b, int i, int j);

/* Priorities model: hop j of path i gets priority p. */
static inline bool prio_set(struct brute *b, int i, int j, int p)
{
	int np = b->t->nports, from = 0, to = p * np + b->in[i][j];
	bool ok;

	if (j > 0) {
		from = b->val[i][j - 1] * np + b->in[i][j - 1];
		if (!add_edge(b, from, to))
			return false;
	}
	b->val[i][j] = p;
	ok = prio_walk(b, i, j + 1);
	if (j > 0)
		b->adj[from][to]--;
	return ok;
}

/* An earlier path with the same in-ports up to hop j fixes the priority. */
static inline int same_prefix(const struct brute *b, int i, int j)
{
	int i2, x;

	for (i2 = 0; i2 < i; i2++) {
		if (elp_len(b->e, i2) <= j)
			continue;
		for (x = 0; x <= j && b->in[i2][x] == b->in[i][x]; x++)
			;
		if (x > j)
			return i2;
	}
	return -1;
}

static inline bool prio_walk(struct brute *b, int i, int j)
{
	int p, i2;

	if (i == b->e->npaths)
		return true;
	if (j == elp_len(b->e, i))
		return prio_walk(b, i + 1, 0);
	i2 = same_prefix(b, i, j);
	if (i2 >= 0)
		return prio_set(b, i, j, b->val[i2][j]);
	for (p = 0; p < b->k; p++)
		if (prio_set(b, i, j, p))
			return true;
	return false;
}

static inline int brute_min(const struct topo *t, const struct elp *e,
			    enum sat_model m)
{
	static struct brute b;
	int k;

	for (k = 1; k <= MAXK; k++) {
		setup(&b, t, e, k);
		if (m == SAT_TAGGING ? tag_walk(&b, 0, 0) : prio_walk(&b, 0, 0))
			return k;
	}
	return MAXK + 1;
}

/* The solver's tagging, compiled by the replay algorithm and verified. */
static inline void check_rules(const struct topo *t, const struct elp *e,
			       const struct sat_answer *a)
{
	struct verify_opts vo = { 0 };
	struct tag_algo_replay rp;
	struct verify_result vr;
	struct compile_result r;
	struct compile_opts o;
	struct rules *rules;
	json_t *json;

	compile_opts_init(&o);
	tag_algo_replay_init(&rp, &a->keys);
	o.algo = &rp.algo;
	ck_assert_int_eq(compile_run(t, e, &o, &r), 0);
	ck_assert_int_le(r.ntags, a->k);
	ck_assert_int_eq(r.lossy, 0);
	json = compile_rules_json(t, &r, &o);
	rules = rules_from_json(json, "sat");
	ck_assert_ptr_nonnull(rules);
	ck_assert_int_eq(verify_rules(t, e, rules, &vo, &vr), EXIT_OK);
	ck_assert(vr.deadlock_free && vr.monotonic);
	ck_assert_int_eq(vr.lossless_paths, e->npaths);
	verify_result_free(&vr);
	rules_free(rules);
	json_decref(json);
	compile_result_free(&r);
}

#endif /* __TAGGER_SAT_ORACLE_H */
