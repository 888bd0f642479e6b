// SPDX-License-Identifier: GPL-2.0
/* tagger compile --exact: the search's report and its core; see cmd_compile_exact.h. */
#include <stdio.h>
#include <string.h>

#include "cli/cmd_compile_exact.h"
#include "compile/tag_sat.h"
#include "lib/log.h"
#include "lib/outfile.h"

static const char *answer_name(int result)
{
	return result > 0 ? "sat" : result == 0 ? "unsat" : "unknown";
}

json_t *compile_exact_json(const struct outcome *oc)
{
	const struct exact_search *x = &oc->x;
	json_t *steps = json_array(), *j;
	int i;

	for (i = 0; i < x->nsteps; i++) {
		const struct exact_step *s = &x->steps[i];

		json_array_append_new(
			steps,
			json_pack(
				"{s:i,s:s,s:s,s:s,s:f,s:f,s:i,s:I,s:i,s:i,s:i}",
				"priorities", s->k, "model",
				sat_model_name(s->model), "search", s->search,
				"answer", answer_name(s->result), "seconds",
				s->seconds, "cpu_seconds", s->cpu_seconds,
				"variables", s->vars, "clauses",
				(json_int_t)s->clauses, "solver_calls",
				s->rounds, "cycle_clauses", s->cycles, "paths",
				s->paths));
	}
	j = json_pack("{s:i,s:o,s:b,s:b,s:f,s:f,s:o}", "found_before", x->found,
		      "optimum",
		      x->optimum >= 0 ? json_integer(x->optimum) : json_null(),
		      "improved", x->improved, "timed_out", x->timed_out,
		      "seconds", x->seconds, "time_limit", oc->exact_limit,
		      "steps", steps);
	json_object_set_new(j, "no_fewer_with_any_rules",
			    json_tristate(x->any_rules));
	json_object_set_new(
		j, "core",
		x->method && !strcmp(x->method, "sat-core") ?
			json_pack("{s:i,s:i,s:i,s:f,s:o}", "paths",
				  x->core->npaths, "of", oc->npaths,
				  "priorities", x->core_k, "seconds",
				  x->core_seconds, "file",
				  oc->core_file ? json_string(oc->core_file) :
						  json_null()) :
			json_null());
	return j;
}

void compile_exact_print(const struct outcome *oc)
{
	const struct exact_search *x = &oc->x;
	int i;

	for (i = 0; i < x->nsteps; i++) {
		const struct exact_step *s = &x->steps[i];

		fprintf(stderr,
			"exact: %d priorit%s (%s model%s): %s, %.2f s\n", s->k,
			s->k == 1 ? "y" : "ies", sat_model_name(s->model),
			strcmp(s->search, "sat") ? ", two orders" : "",
			s->result > 0  ? "possible" :
			s->result == 0 ? "impossible (UNSAT)" :
					 "unknown",
			s->seconds);
	}
	if (x->optimum < 0) {
		fprintf(stderr,
			"exact: not proved within %.0f s; keeping %d priorities\n",
			oc->exact_limit, x->found);
		return;
	}
	if (!strcmp(x->method, "sat-core"))
		fprintf(stderr,
			"exact: %d priorit%s impossible already for %d of %d "
			"paths%s%s\n",
			x->core_k, x->core_k == 1 ? "y" : "ies",
			x->core->npaths, oc->npaths,
			oc->core_file ? ", written to " : "",
			oc->core_file ? oc->core_file : "");
	fprintf(stderr, "exact: %d priorit%s optimal (%s)%s%s\n", x->optimum,
		x->optimum == 1 ? "y" : "ies", x->method,
		x->improved ? ", found by the solver" : "",
		x->any_rules == 1 ?
			", and no rule set of any kind does with fewer" :
			"");
}

/* The bound's fields after the search: what it proved, in the bound's terms. */
void compile_exact_to_bound(const struct exact_search *x, struct bound *b)
{
	int i;

	for (i = 0; i < x->nsteps; i++)
		if (x->steps[i].model == SAT_TAGGING && !x->steps[i].result &&
		    x->steps[i].k + 1 > b->lower) {
			b->lower = x->steps[i].k + 1;
			b->why = "exact (SAT)";
		}
	b->exact = x->optimum;
	b->optimal = x->optimum >= 0;
}

/*
 * --exact-core: the core's paths, one a line like any ELP, so `tagger
 * compile --exact` on that file alone shows the same UNSAT. Written only
 * when the optimum's proof has one; otherwise the file is left alone.
 */
struct core_out {
	const struct topo *t;
	const struct elp *core;
};

static int fill_core(FILE *f, const void *arg)
{
	const struct core_out *x = arg;

	return elp_write(f, x->t, x->core);
}

int compile_write_core(const char *path, const struct topo *t,
		       struct outcome *oc)
{
	struct exact_search *x = &oc->x;
	struct core_out co = { t, x->core };

	if (!x->method || strcmp(x->method, "sat-core")) {
		pr_warn("exact: the proof has no core of paths: %s not written\n",
			path);
		elp_free(x->core);
		x->core = NULL;
		return 0;
	}
	if (outfile_write(path, fill_core, &co))
		return -1;
	oc->core_file = path;
	return 0;
}
