// SPDX-License-Identifier: GPL-2.0
/* The exact search over priority counts; see tag_sat.h. */
#include <stdlib.h>
#include <string.h>

#include "compile/compile.h"
#include "compile/tag_sat.h"
#include "compile/two_orders.h"
#include "lib/log.h"
#include "lib/util.h"

/*
 * The tagging model first grows its formula from this many paths (a small
 * core proves UNSAT fast and can be checked alone), doubling, for at most
 * EXACT_GROW_SHARE of the time left (EXACT_GROW_SECONDS without a limit);
 * then all the rest go in at once.
 */
#define EXACT_GROW_FIRST 64
#define EXACT_GROW_SHARE 0.1
#define EXACT_GROW_SECONDS 30
/* The two-order search may use this share of the time left. */
#define TWO_ORDERS_TIME_SHARE 0.5

static struct exact_step *step(struct exact_search *x,
			       const struct sat_answer *a)
{
	struct exact_step *s = &x->steps[x->nsteps++];

	*s = (struct exact_step){ .k = a->k,
				  .model = a->model,
				  .result = a->result,
				  .seconds = a->seconds,
				  .cpu_seconds = a->cpu_seconds,
				  .vars = a->vars,
				  .clauses = a->clauses,
				  .rounds = a->rounds,
				  .cycles = a->cycles,
				  .paths = a->paths,
				  .search = "sat" };
	pr_info("exact: %d priorit%s, %s model: %s (%.2f s, %d variables, "
		"%lld clauses, %d solver calls, %d cycle clauses)\n",
		a->k, a->k == 1 ? "y" : "ies", sat_model_name(a->model),
		a->result > 0  ? "solvable" :
		a->result == 0 ? "UNSAT" :
				 "unknown (time limit or too large)",
		a->seconds, a->vars, (long long)a->clauses, a->rounds,
		a->cycles);
	return s;
}

/*
 * Compile the solver's tagging through the engine. It must come out with
 * at most k tags and no lossy path; anything else is a bug in the encoding
 * and keeps the old result.
 */
static int adopt(const struct topo *t, const struct elp *e,
		 const struct compile_opts *o, int k, struct compile_result *r,
		 struct exact_search *x)
{
	struct compile_opts one = *o;
	struct compile_result cand;

	tag_algo_replay_init(&x->replay, &x->ans.keys);
	one.algo = &x->replay.algo;
	if (compile_run(t, e, &one, &cand))
		return -1;
	if (cand.ntags > k || cand.lossy) {
		p_err("exact: the solver's tagging compiles to %d tags and %d "
		      "lossy paths, not %d and 0: a bug",
		      cand.ntags, cand.lossy, k);
		compile_result_free(&cand);
		return -1;
	}
	compile_result_free(r);
	*r = cand;
	x->improved = true;
	return 0;
}

/*
 * Two priorities without the solver (two_orders.h): on success the
 * search's tagging becomes x->ans, as a solver's answer would.
 */
static int two_orders_at(const struct topo *t, const struct elp *e,
			 const struct sat_trie *tr, double deadline,
			 struct exact_search *x, int **hint)
{
	struct two_orders_opts opts;
	struct two_orders w;
	struct exact_step *s;
	double now = now_seconds();
	int res;

	two_orders_opts_init(&opts);
	if (deadline > 0)
		opts.deadline = now + TWO_ORDERS_TIME_SHARE * (deadline - now);
	res = two_orders_search(t, e, tr, &opts, &w);
	if (res < 0 || w.skipped) {
		two_orders_free(&w);
		return 0;
	}
	s = &x->steps[x->nsteps++];
	*s = (struct exact_step){ .k = 2,
				  .model = SAT_TAGGING,
				  .search = "two-orders",
				  .result = res > 0 ? 1 : -1,
				  .seconds = w.seconds,
				  .cpu_seconds = w.cpu_seconds,
				  .paths = (int)w.paths };
	pr_info("exact: 2 priorities by two orders: %s (%.2f s, %lld of %lld "
		"paths did not fit one order, %lld do not fit two)\n",
		res > 0 ? "found" : "not found", w.seconds,
		(long long)w.unfit_start, (long long)w.paths,
		(long long)w.unfit);
	if (res == 0) {
		/* the solver starts from where the search stopped */
		*hint = w.tag;
		return 0;
	}
	memset(&x->ans, 0, sizeof(x->ans));
	x->ans.result = 1;
	x->ans.k = 2;
	x->ans.model = SAT_TAGGING;
	x->ans.tag = w.tag;
	x->ans.keys = w.keys;
	return 1;
}

/* The paths of a core as an ELP of their own. */
static struct elp *core_elp(const struct elp *e, const int *core, int n)
{
	struct elp *c = elp_new(e->file);
	int i;

	for (i = 0; i < n; i++)
		elp_add(c, elp_hops(e, core[i]), elp_len(e, core[i]),
			e->line[core[i]]);
	return c;
}

/*
 * The solver proved k impossible on a subset of the paths: check that
 * subset again on its own (its own trie, its own forwarding nodes, all at
 * once, a new solver), which is exactly what running `tagger compile
 * --exact` on the written core does. Only then is it reported as the core:
 * a subset that is UNSAT only inside the whole formula (a relay host that
 * forwards for paths outside it) still proves k impossible, as "sat".
 */
static void confirm_core(const struct topo *t, const struct elp *e,
			 const struct sat_answer *a, double deadline,
			 struct exact_search *x)
{
	struct elp *c = core_elp(e, a->core, a->ncore);
	struct sat_trie tr;
	struct sat_answer b;

	sat_trie_build(t, c, &tr);
	tag_sat_solve(t, &tr, a->k, a->model, deadline, &b);
	pr_info("exact: the core of %d paths alone at %d priorities: %s\n",
		a->ncore, a->k, b.result ? "not UNSAT" : "UNSAT");
	if (b.result == 0 && !x->core) {
		x->core = c;
		x->core_k = a->k;
		x->core_seconds = b.seconds;
		c = NULL;
	}
	tag_sat_answer_free(&b);
	sat_trie_free(&tr);
	elp_free(c);
}

/*
 * The rules' tag of every prefix, clipped below k: a tagging to start
 * from. Clipping keeps it a tagging (one answer per key, never
 * decreasing), only the top tag's graph may gain cycles.
 */
static int *hint_tags(const struct topo *t, const struct sat_trie *tr,
		      const struct compile_result *r, int k)
{
	int *tag = xcalloc(tr->n + 1, sizeof(int));
	int *full = xcalloc(tr->n + 1, sizeof(int));
	struct hmap rw;
	uint64_t v;
	int i, j, n;

	hmap_init(&rw, 1024);
	for (i = 0; i < r->nsw; i++)
		for (j = 0; j < r->sw[i].nrw; j++) {
			const struct rw_rule *w = &r->sw[i].rw[j];

			hmap_put(&rw, rule_key(w->tag, w->in, w->out),
				 (uint64_t)w->new_tag);
		}
	for (n = 0; n < tr->n; n++) {
		int par = tr->parent[n];

		if (par < 0)
			continue;
		v = 0;
		hmap_get(&rw,
			 rule_key(full[par], tr->port[par],
				  t->ports[tr->port[n]].peer),
			 &v);
		full[n] = (int)v;
		tag[n] = (int)v < k ? (int)v : k - 1;
	}
	free(full);
	hmap_free(&rw);
	return tag;
}

/*
 * The tagging model at k: grown from a few paths, and started from
 * `start` if given (the two-order search's tagging), else from the
 * heuristics' tagging clipped to k tags (tag_sat.h: the hint).
 */
static void tagging_at(const struct topo *t, const struct sat_trie *tr,
		       const struct compile_result *r, int k, double deadline,
		       const int *start, struct sat_answer *a)
{
	double now = now_seconds();
	struct sat_search p = {
		.deadline = deadline,
		.grow_first = EXACT_GROW_FIRST,
		.grow_until = now + (deadline > 0 ? EXACT_GROW_SHARE *
							    (deadline - now) :
						    EXACT_GROW_SECONDS),
	};
	int *hint = start ? NULL : hint_tags(t, tr, r, k);

	p.hint = start ? start : hint;
	tag_sat_run(t, tr, k, SAT_TAGGING, &p, a);
	free(hint);
}

/* Could any rule set do with k priorities? Only the relaxation can say no. */
static void any_rules(const struct topo *t, const struct sat_trie *tr, int k,
		      double deadline, struct exact_search *x)
{
	struct sat_answer a;

	if (k < 1) {
		x->any_rules = 1; /* no lossless path without a priority */
		return;
	}
	if (x->nsteps == EXACT_STEPS_MAX)
		return;
	/*
	 * All at once: grown from a few paths, the Clos 2-bounce relaxation
	 * stalled on its 64-path batch for over a minute (all at once: 1 s).
	 */
	tag_sat_solve(t, tr, k, SAT_PRIORITIES, deadline, &a);
	step(x, &a);
	x->any_rules = a.result == 0 ? 1 : a.result == 1 ? 0 : -1;
	x->timed_out |= a.result < 0;
	tag_sat_answer_free(&a);
}

int compile_exact(const struct topo *t, const struct elp *e,
		  const struct compile_opts *o, int lower, double seconds,
		  struct compile_result *r, struct exact_search *x)
{
	double t0 = now_seconds(), deadline = seconds > 0 ? t0 + seconds : 0;
	struct sat_trie tr;
	int k, err = 0;

	memset(x, 0, sizeof(*x));
	x->found = r->ntags;
	x->lower = lower;
	x->optimum = -1;
	x->any_rules = -1;
	sat_trie_build(t, e, &tr);
	pr_info("exact: %d prefixes, %d transitions\n", tr.n, tr.ntr);
	for (k = lower; k < x->found && x->nsteps < EXACT_STEPS_MAX - 1; k++) {
		struct sat_answer a;
		int *start = NULL;

		if (k == 2 && o->two_orders &&
		    x->nsteps < EXACT_STEPS_MAX - 2 &&
		    two_orders_at(t, e, &tr, deadline, x, &start)) {
			err = adopt(t, e, o, k, r, x);
			break;
		}
		tagging_at(t, &tr, r, k, deadline, start, &a);
		free(start);
		step(x, &a);
		if (a.result < 0) {
			x->timed_out = true;
			tag_sat_answer_free(&a);
			break;
		}
		if (a.result == 0) {
			/* the proof at the largest k impossible is the one shown */
			if (a.core) {
				elp_free(x->core);
				x->core = NULL;
				confirm_core(t, e, &a, deadline, x);
			}
			tag_sat_answer_free(&a);
			continue;
		}
		x->ans = a;
		err = adopt(t, e, o, k, r, x);
		break;
	}
	if (!err && !x->timed_out) {
		x->optimum = r->ntags;
		x->method = x->optimum <= lower ? "lower-bound" :
			    x->core && x->core_k == x->optimum - 1 ?
						  "sat-core" :
						  "sat";
		any_rules(t, &tr, x->optimum - 1, deadline, x);
	}
	sat_trie_free(&tr);
	x->seconds = now_seconds() - t0;
	return err;
}

void compile_exact_free(struct exact_search *x)
{
	if (x->ans.result == 1)
		tag_sat_answer_free(&x->ans);
	elp_free(x->core);
	memset(x, 0, sizeof(*x));
}
