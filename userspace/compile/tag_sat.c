// SPDX-License-Identifier: GPL-2.0
/* Exact priority minimum by SAT: the encodings and the lazy loop; see tag_sat.h. */
#include <ccadical.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "compile/sat_cycles.h"
#include "compile/tag_sat.h"
#include "lib/log.h"
#include "lib/rng.h"
#include "lib/util.h"

/*
 * Variables a formula may number (the solver allocates per index): many
 * priorities on a large ELP answer "unknown" instead of exhausting memory.
 */
#define SAT_MAX_VARS 100000000LL

struct enc {
	CCaDiCaL *s;
	const struct topo *t;
	const struct sat_trie *tr;
	enum sat_model model;
	int k;
	int one; /* a variable fixed true: constants in clauses */
	int yb, wb, eb; /* SAT_TAGGING: first variable of each family */
	int qb, fb; /* SAT_PRIORITIES */
	int nvars;
	int64_t clauses;
	double deadline;
	int64_t next_edge; /* where the next round's cycle search starts */
	int grow_first; /* paths in the first batch (0: all) */
	double grow_until; /* past it, the next batch is all the rest */
	bool growing; /* solving a batch of fewer than all the paths */
	const int *hint; /* per prefix: a tag to start from, or NULL */
	char *released; /* per prefix: no longer held to the hint */
	char *active; /* per prefix: its clauses are in the formula */
	int nactive;
};

static void clause(struct enc *c, const int *lits, int n)
{
	int i;

	for (i = 0; i < n; i++)
		ccadical_add(c->s, lits[i]);
	ccadical_add(c->s, 0);
	c->clauses++;
}

#define CLAUSE(c, ...)                                \
	do {                                          \
		const int l_[] = { __VA_ARGS__ };     \
		clause((c), l_, (int)ARRAY_SIZE(l_)); \
	} while (0)

/* "tag of node n >= t", t = 0..k: constants at both ends. */
static int y(const struct enc *c, int n, int t)
{
	if (t <= 0)
		return c->one;
	if (t >= c->k)
		return -c->one;
	return c->yb + n * (c->k - 1) + (t - 1);
}

/* "key (t, transition tr) answers at least s", t < s < k */
static int w(const struct enc *c, int tr, int t, int s)
{
	return c->wb + (tr * c->k + t) * c->k + s;
}

/* "some hop over tr stays in tag t" (SAT_TAGGING) */
static int e_var(const struct enc *c, int tr, int t)
{
	return c->eb + tr * c->k + t;
}

static int q(const struct enc *c, int n, int p)
{
	return c->qb + n * c->k + p;
}

/* "some hop over tr goes from priority p to p2" (SAT_PRIORITIES) */
static int f_var(const struct enc *c, int tr, int p, int p2)
{
	return c->fb + (tr * c->k + p) * c->k + p2;
}

/* One hop parent -> node of the tagging model. */
static void tagging_hop(struct enc *c, int par, int n, int tr)
{
	int k = c->k, t, s;

	for (t = 1; t < k; t++)
		CLAUSE(c, -y(c, par, t), y(c, n, t));
	for (t = 0; t < k; t++) {
		/* not (tag(par) == t) is: not y(par, t) or y(par, t + 1) */
		int a = -y(c, par, t), b = y(c, par, t + 1);

		for (s = t + 1; s < k; s++) {
			CLAUSE(c, a, b, -y(c, n, s), w(c, tr, t, s));
			CLAUSE(c, a, b, y(c, n, s), -w(c, tr, t, s));
		}
		CLAUSE(c, a, b, y(c, n, t + 1), e_var(c, tr, t));
	}
}

/* The clauses of one prefix (its tag, and the hop from its parent). */
static void tagging_node(struct enc *c, int n)
{
	const struct sat_trie *tr = c->tr;
	int k = c->k, t;

	for (t = 1; t + 1 < k; t++)
		CLAUSE(c, -y(c, n, t + 1), y(c, n, t));
	if (tr->parent[n] < 0) {
		/* one class: every packet enters with tag 0 */
		if (k > 1)
			CLAUSE(c, -y(c, n, 1));
		return;
	}
	tagging_hop(c, tr->parent[n], n, tr->tr[n]);
}

static void tagging_vars(struct enc *c)
{
	const struct sat_trie *tr = c->tr;
	int k = c->k;

	c->yb = c->one + 1;
	c->wb = c->yb + tr->n * (k - 1);
	c->eb = c->wb + tr->ntr * k * k;
	c->nvars = c->eb + tr->ntr * k - 1;
}

static void priorities_node(struct enc *c, int n)
{
	const struct sat_trie *tr = c->tr;
	int k = c->k, p, p2, lits[TAG_MAX];

	for (p = 0; p < k; p++) {
		lits[p] = q(c, n, p);
		for (p2 = p + 1; p2 < k; p2++)
			CLAUSE(c, -q(c, n, p), -q(c, n, p2));
	}
	clause(c, lits, k);
	/* priorities are interchangeable: name the first prefix's one 0 */
	if (n == 0)
		CLAUSE(c, q(c, 0, 0));
	if (tr->parent[n] < 0)
		return;
	for (p = 0; p < k; p++)
		for (p2 = 0; p2 < k; p2++)
			CLAUSE(c, -q(c, tr->parent[n], p), -q(c, n, p2),
			       f_var(c, tr->tr[n], p, p2));
}

static void priorities_vars(struct enc *c)
{
	const struct sat_trie *tr = c->tr;
	int k = c->k;

	c->qb = c->one + 1;
	c->fb = c->qb + tr->n * k;
	c->nvars = c->fb + tr->ntr * k * k - 1;
}

/* Add prefix n and every prefix above it not yet in the formula. */
static void activate(struct enc *c, int n)
{
	for (; n >= 0 && !c->active[n]; n = c->tr->parent[n]) {
		c->active[n] = 1;
		c->nactive++;
		if (c->model == SAT_TAGGING)
			tagging_node(c, n);
		else
			priorities_node(c, n);
	}
}

static void read_tags(const struct enc *c, int *tag)
{
	int n, t, p;

	for (n = 0; n < c->tr->n; n++) {
		tag[n] = 0;
		if (!c->active[n])
			continue;
		if (c->model == SAT_TAGGING) {
			for (t = 1; t < c->k; t++)
				tag[n] += ccadical_val(c->s, y(c, n, t)) > 0;
			continue;
		}
		for (p = 0; p < c->k; p++)
			if (ccadical_val(c->s, q(c, n, p)) > 0)
				tag[n] = p;
	}
}

/*
 * SAT_TAGGING: one graph per tag over in-ports (nodes t * nports + port
 * keep them apart); SAT_PRIORITIES: one graph over (port, priority).
 * Either way one graph of nports * k nodes holds all of them.
 */
static void collect_used(const struct enc *c, const int *tag,
			 struct sat_used *u)
{
	const struct sat_trie *tr = c->tr;
	int np = c->t->nports, k = c->k, n;
	char *seen = xcalloc((size_t)tr->ntr * k * k + 1, 1);

	u->m = 0;
	u->nnodes = np * k;
	for (n = 0; n < tr->n; n++) {
		int par = tr->parent[n], x, a, b;
		size_t at;

		if (par < 0 || !c->active[n])
			continue;
		a = tag[par];
		b = tag[n];
		if (c->model == SAT_TAGGING && a != b)
			continue;
		at = ((size_t)tr->tr[n] * k + a) * k + b;
		if (seen[at])
			continue;
		seen[at] = 1;
		x = c->model == SAT_TAGGING ? e_var(c, tr->tr[n], a) :
					      f_var(c, tr->tr[n], a, b);
		sat_used_push(u, a * np + tr->port[par], b * np + tr->port[n],
			      x);
	}
	free(seen);
}

static int cmp_int(const void *x, const void *y)
{
	int a = *(const int *)x, b = *(const int *)y;

	return (a > b) - (a < b);
}

static int terminate(void *arg)
{
	const struct enc *c = arg;
	double now = now_seconds();

	return (c->deadline > 0 && now > c->deadline) ||
	       (c->growing && c->grow_until > 0 && now > c->grow_until);
}

static void answer_keys(const struct enc *c, struct sat_answer *a)
{
	const struct sat_trie *tr = c->tr;
	int n;

	hmap_init(&a->keys, 1024);
	for (n = 0; n < tr->n; n++) {
		int par = tr->parent[n];

		if (par < 0)
			continue;
		hmap_put(&a->keys,
			 rule_key(a->tag[par], tr->port[par],
				  c->t->ports[tr->port[n]].peer),
			 (uint64_t)a->tag[n]);
	}
}

/* The hint's tag of prefix n, level t, as a literal. */
static int hint_lit(const struct enc *c, int n, int t)
{
	return c->hint[n] >= t ? y(c, n, t) : -y(c, n, t);
}

/* Solve near the hint: every active prefix not yet released keeps its tag. */
static void assume_hint(struct enc *c)
{
	int n, t;

	if (!c->hint)
		return;
	for (n = 0; n < c->tr->n; n++)
		if (c->active[n] && !c->released[n])
			for (t = 1; t < c->k; t++)
				ccadical_assume(c->s, hint_lit(c, n, t));
}

/*
 * UNSAT under the hint: release the prefixes whose assumed tags the
 * solver used in its refutation (the failed assumptions), every prefix
 * over the same transition (their keys must change together) and all
 * below them (tags never decrease), and try again; false when no
 * assumption was used: a refutation of the formula itself.
 */
static bool release_hint(struct enc *c)
{
	const struct sat_trie *tr = c->tr;
	char *hit;
	int n, t, failed = 0, freed = 0;

	if (!c->hint)
		return false;
	hit = xcalloc(tr->ntr + 1, 1);
	for (n = 0; n < tr->n; n++) {
		if (!c->active[n] || c->released[n])
			continue;
		for (t = 1; t < c->k; t++)
			if (ccadical_failed(c->s, hint_lit(c, n, t)))
				break;
		if (t == c->k)
			continue;
		failed++;
		c->released[n] = 1;
		if (tr->tr[n] >= 0)
			hit[tr->tr[n]] = 1;
	}
	/* parents come before their children in the trie */
	for (n = 0; n < tr->n && failed; n++) {
		int par = tr->parent[n];

		if (c->released[n])
			continue;
		if ((tr->tr[n] >= 0 && hit[tr->tr[n]]) ||
		    (par >= 0 && c->released[par])) {
			c->released[n] = 1;
			freed++;
		}
	}
	free(hit);
	pr_debug("sat: hint: %d failed, %d more prefixes released\n", failed,
		 freed);
	return failed > 0;
}

/* Solve, cut, solve again: 1, 0, -1 as tag_sat_solve. */
static int lazy_loop(struct enc *c, struct sat_answer *a)
{
	struct sat_used u = { 0 };
	int res, cut;

	for (;;) {
		if (terminate(c)) {
			res = -1;
			break;
		}
		assume_hint(c);
		res = ccadical_solve(c->s);
		a->rounds++;
		if (res == 20 && release_hint(c))
			continue;
		if (res != 10) {
			res = res == 20 ? 0 : -1;
			break;
		}
		read_tags(c, a->tag);
		collect_used(c, a->tag, &u);
		cut = sat_cut_cycles(c->s, &u, &c->next_edge);
		c->clauses += cut;
		a->cycles += cut;
		pr_debug(
			"sat: %s k=%d round %d: %lld used edges, %d cycles cut\n",
			sat_model_name(c->model), c->k, a->rounds,
			(long long)u.m, cut);
		if (!cut) {
			res = 1;
			break;
		}
	}
	sat_used_free(&u);
	return res;
}

/*
 * The paths enter the formula in a seeded random order, in batches that
 * double: the first ones solve fast and their cycle clauses and the
 * solver's saved phases carry over (every clause holds for any superset
 * of paths). UNSAT on a batch is UNSAT for all the paths (more paths only
 * add clauses); the last batch is all of them.
 */
static int grow_loop(struct enc *c, struct sat_answer *a)
{
	const struct sat_trie *tr = c->tr;
	int *order = xmalloc((tr->npaths + 1) * sizeof(int));
	int done = 0, end, res = 1, i;
	int first = c->grow_first;
	struct rng r;

	if (first <= 0 || first >= tr->npaths) {
		for (i = 0; i < tr->n; i++)
			activate(c, i);
		a->paths = tr->npaths;
		free(order);
		return lazy_loop(c, a);
	}

	for (i = 0; i < tr->npaths; i++)
		order[i] = i;
	rng_seed(&r, 1);
	rng_shuffle(&r, order, tr->npaths);
	do {
		end = done ? 2 * done : first;
		if (c->grow_until > 0 && now_seconds() > c->grow_until)
			end = tr->npaths;
		if (end > tr->npaths)
			end = tr->npaths;
		for (; done < end; done++)
			if (tr->path_end[order[done]] >= 0)
				activate(c, tr->path_end[order[done]]);
		a->paths = done;
		c->growing = done < tr->npaths;
		res = lazy_loop(c, a);
		pr_debug("sat: %s k=%d: %d of %d paths (%d prefixes): %d\n",
			 sat_model_name(c->model), c->k, done, tr->npaths,
			 c->nactive, res);
		/* a batch cut short by the growing phase's end: all the rest */
		if (res < 0 && c->growing &&
		    !(c->deadline > 0 && now_seconds() > c->deadline))
			res = 1;
	} while (res == 1 && done < tr->npaths);
	if (res == 0 && done < tr->npaths) {
		/* the paths that were enough, in the ELP's order */
		a->core = order;
		a->ncore = done;
		qsort(order, done, sizeof(int), cmp_int);
		return res;
	}
	free(order);
	return res;
}

bool tag_sat_too_large(const struct sat_trie *tr, int k)
{
	return (int64_t)tr->n * k + (int64_t)tr->ntr * (k * k + k) >
	       SAT_MAX_VARS;
}

int tag_sat_solve(const struct topo *t, const struct sat_trie *tr, int k,
		  enum sat_model model, double deadline, struct sat_answer *a)
{
	struct sat_search p = { .deadline = deadline };

	return tag_sat_run(t, tr, k, model, &p, a);
}

int tag_sat_run(const struct topo *t, const struct sat_trie *tr, int k,
		enum sat_model model, const struct sat_search *p,
		struct sat_answer *a)
{
	struct enc c = { .t = t,
			 .tr = tr,
			 .model = model,
			 .k = k,
			 .one = 1,
			 .deadline = p->deadline,
			 .grow_first = p->grow_first,
			 .grow_until = p->grow_until };
	double t0 = now_seconds();
	clock_t c0 = clock();

	memset(a, 0, sizeof(*a));
	a->k = k;
	a->model = model;
	if (k < 1 || k > TAG_MAX) {
		a->result = tr->n ? 0 : 1;
		return a->result;
	}
	if (tag_sat_too_large(tr, k)) {
		pr_warn("exact: %d priorities on %d prefixes: too large a formula\n",
			k, tr->n);
		a->result = -1;
		return a->result;
	}
	c.s = ccadical_init();
	ccadical_set_option(c.s, "quiet", 1);
	ccadical_set_terminate(c.s, &c, terminate);
	/*
	 * CaDiCaL's stable mode only (its "sat" configuration): on
	 * Jellyfish-250 shortest at 2 priorities 10.6 CPU s instead of 87.
	 */
	if (model == SAT_TAGGING)
		ccadical_set_option(c.s, "stabilizeonly", 1);
	CLAUSE(&c, c.one);
	if (model == SAT_TAGGING)
		tagging_vars(&c);
	else
		priorities_vars(&c);
	c.active = xcalloc(tr->n + 1, 1);
	c.released = xcalloc(tr->n + 1, 1);
	if (model == SAT_TAGGING)
		c.hint = p->hint;
	a->tag = xcalloc(tr->n + 1, sizeof(int));
	a->result = grow_loop(&c, a);
	free(c.active);
	free(c.released);
	if (a->result == 1 && model == SAT_TAGGING)
		answer_keys(&c, a);
	if (a->result != 1) {
		free(a->tag);
		a->tag = NULL;
	}
	a->vars = c.nvars;
	a->clauses = c.clauses;
	ccadical_release(c.s);
	a->seconds = now_seconds() - t0;
	a->cpu_seconds = (double)(clock() - c0) / CLOCKS_PER_SEC;
	return a->result;
}

void tag_sat_answer_free(struct sat_answer *a)
{
	free(a->tag);
	free(a->core);
	if (a->result == 1 && a->model == SAT_TAGGING)
		hmap_free(&a->keys);
	memset(a, 0, sizeof(*a));
}

const char *sat_model_name(enum sat_model m)
{
	return m == SAT_TAGGING ? "tagging" : "priorities";
}
