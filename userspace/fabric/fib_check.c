// SPDX-License-Identifier: GPL-2.0
/* The routing's paths checked against rules and priorities; see fib_check.h. */
#include "analyze/verify.h"
#include "fabric/fib_check.h"
#include "lib/log.h"
#include "lib/util.h"

int fib_check_prios(const struct rules *r, const int *list, int n,
		    struct compile_opts *o)
{
	int i, j, k = 0;

	if (n) {
		for (i = 0; i < n; i++) {
			for (j = 0; j < i; j++)
				if (list[j] == list[i]) {
					p_err("--priorities: %d twice",
					      list[i]);
					return EXIT_USAGE;
				}
			if (list[i] == r->lossy_prio) {
				p_err("--priorities: %d is the rules' lossy "
				      "priority",
				      r->lossy_prio);
				return EXIT_USAGE;
			}
			o->prios[k++] = list[i];
		}
	} else {
		for (i = 0; i < RULES_NPRIOS; i++)
			if (i != r->lossy_prio && i != r->cnp_prio)
				o->prios[k++] = i;
	}
	o->nprios = k;
	o->lossy_prio = r->lossy_prio;
	o->lossy_dscp = r->lossy_tag;
	o->nclasses = r->nclasses ? r->nclasses : 1;
	return EXIT_OK;
}

/* The routing's paths that the rules do not keep lossless. */
static int not_lossless(const struct topo *t, const struct elp *e,
			const struct rules *r, struct fib_check *c)
{
	struct verify_opts vo = { .max_problems = 1 << 20 };
	struct verify_result res;
	int i, rc;

	c->not_lossless = json_array();
	c->walks = 0;
	rc = verify_rules(t, e, r, &vo, &res);
	if (rc == EXIT_USAGE)
		return rc;
	for (i = 0; i < res.nproblems; i++)
		if (res.problems[i].kind == VERIFY_LOSSY_PATH)
			json_array_append_new(
				c->not_lossless,
				json_pack("{s:s,s:O}", "text",
					  res.problems[i].text, "path",
					  json_object_get(res.problems[i].json,
							  "path")));
	c->walks = res.lossy_walks;
	verify_result_free(&res);
	return EXIT_OK;
}

/* What compiling the routing's paths for the available priorities gives. */
static int priorities(const struct topo *t, const struct elp *e,
		      const struct compile_opts *o, struct fib_check *c)
{
	struct compile_result cr;
	json_t *paths;
	int i;

	c->lossy = 0;
	if (compile_run(t, e, o, &cr))
		return EXIT_USAGE;
	paths = json_array();
	for (i = 0; i < cr.nlossy_list; i++) {
		char *text = elp_path_text(t, e, cr.lossy_list[i].path);

		json_array_append_new(paths, json_string(text));
		free(text);
	}
	c->lossy = cr.lossy;
	c->prios = json_pack("{s:i,s:i,s:i,s:o}", "needed", cr.ntags,
			     "available", o->nprios, "lossy_paths", cr.lossy,
			     "first_lossy", paths);
	compile_result_free(&cr);
	return EXIT_OK;
}

int fib_check(const struct topo *t, const struct elp *e, const struct rules *r,
	      const struct compile_opts *co, struct fib_check *c)
{
	int rc;

	*c = (struct fib_check){ 0 };
	rc = not_lossless(t, e, r, c);
	return rc ?: priorities(t, e, co, c);
}

void fib_check_free(struct fib_check *c)
{
	json_decref(c->not_lossless);
	json_decref(c->prios);
	*c = (struct fib_check){ 0 };
}
