// SPDX-License-Identifier: GPL-2.0
/* The exact search over priority counts; see tag_sat.h. */
#include <string.h>

#include "compile/compile.h"
#include "compile/tag_sat.h"
#include "lib/log.h"
#include "lib/util.h"

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
				  .cycles = a->cycles };
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

		tag_sat_solve(t, &tr, k, SAT_TAGGING, deadline, &a);
		step(x, &a);
		if (a.result < 0) {
			x->timed_out = true;
			tag_sat_answer_free(&a);
			break;
		}
		if (a.result == 0) {
			tag_sat_answer_free(&a);
			continue;
		}
		x->ans = a;
		err = adopt(t, e, o, k, r, x);
		break;
	}
	if (!err && !x->timed_out) {
		x->optimum = r->ntags;
		x->method = x->optimum <= lower ? "lower-bound" : "sat";
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
	memset(x, 0, sizeof(*x));
}
