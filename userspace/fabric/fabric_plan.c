// SPDX-License-Identifier: GPL-2.0
/* Rollout plans: batches whose live versions are deadlock-free. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fabric/fabric_plan.h"
#include "lib/log.h"
#include "lib/util.h"

/* The distinct versions of cur[] and t, into set; their count. */
static int live_set(const struct fabric_version **cur, int n,
		    const struct fabric_version *t,
		    const struct fabric_version **set)
{
	int k, i, m = 0;

	set[m++] = t;
	for (k = 0; k < n; k++) {
		for (i = 0; i < m && set[i] != cur[k]; i++)
			;
		if (i == m && m <= DP_UNION_MAX_SETS)
			set[m++] = cur[k];
	}
	return m;
}

static json_t *digests(const struct fabric_version **set, int m)
{
	json_t *a = json_array();
	int k;

	for (k = 0; k < m; k++)
		json_array_append_new(a, json_string(set[k]->digest));
	return a;
}

static json_t *abs_path(const char *p)
{
	char buf[PATH_MAX];

	return json_string(realpath(p, buf) ? buf : p);
}

/* The switches as the state found them: name, switch, generation, rules. */
static json_t *switches_json(const struct fabric_state *st)
{
	json_t *sws = json_array();
	int k;

	for (k = 0; k < st->inv->n; k++)
		json_array_append_new(
			sws, json_pack("{s:s,s:s,s:I,s:s}", "name",
				       st->sw[k].h->name, "switch",
				       st->sw[k].h->sw, "generation",
				       (json_int_t)st->sw[k].generation,
				       "rules_digest", st->sw[k].digest));
	return sws;
}

/*
 * One batch of stage t: the union of every version live once it is done
 * (cur[], t) checked, then the next batch-size switches not on t, from
 * *k on, moved to t in cur[]. The batch, or NULL with *ret the exit code
 * when the union is not deadlock-free (EXIT_PROBLEM) or not made.
 */
static json_t *plan_batch(const struct fabric_state *st,
			  const struct fabric_version **cur,
			  const struct fabric_version *t, const char *topo,
			  int batch, int *k, int *movers,
			  struct fabric_union *u, int *ret)
{
	const struct fabric_version *set[DP_UNION_MAX_SETS + 2];
	int nsw = st->inv->n, m = live_set(cur, nsw, t, set);
	int got = fabric_union(set, m, topo, u);
	json_t *names, *b;

	if (got <= 0) {
		*ret = got < 0 ? EXIT_USAGE : EXIT_PROBLEM;
		return NULL;
	}
	names = json_array();
	for (; *k < nsw; (*k)++) {
		if (!strcmp(cur[*k]->digest, t->digest))
			continue;
		if (batch && (int)json_array_size(names) == batch)
			break;
		json_array_append_new(names, json_string(st->sw[*k].h->name));
		cur[*k] = t;
		(*movers)--;
	}
	b = json_pack("{s:o,s:o,s:I,s:I}", "switches", names, "live",
		      digests(set, m), "buffers", (json_int_t)u->res.buffers,
		      "dependencies", (json_int_t)u->res.deps);
	fabric_union_free(u);
	return b;
}

/*
 * Stage t: batches until every switch runs t. NULL with *ret set on a
 * refused batch; a stage with no batch (every switch on t already) is
 * left out: *ret 0 and NULL.
 */
static json_t *plan_stage(const struct fabric_state *st,
			  const struct fabric_version **cur,
			  const struct fabric_version *t, const char *topo,
			  int batch, struct fabric_union *u, int *ret)
{
	json_t *batches = json_array(), *b;
	int k, movers = 0;

	for (k = 0; k < st->inv->n; k++)
		movers += strcmp(cur[k]->digest, t->digest) != 0;
	for (k = 0; movers;) {
		b = plan_batch(st, cur, t, topo, batch, &k, &movers, u, ret);
		if (!b) {
			json_decref(batches);
			return NULL;
		}
		json_array_append_new(batches, b);
	}
	if (!json_array_size(batches)) {
		json_decref(batches);
		return NULL;
	}
	return json_pack("{s:o,s:s,s:o}", "rules", abs_path(t->file), "digest",
			 t->digest, "batches", batches);
}

int fabric_plan_make(const struct fabric_state *st,
		     const struct fabric_version *const *vs, int n,
		     const char *topo, int batch, json_t **plan,
		     struct fabric_union *u)
{
	const struct fabric_version **cur = xcalloc(st->inv->n, sizeof(*cur));
	json_t *stages = json_array(), *stage;
	int k, s, ret = EXIT_OK;

	*plan = NULL;
	for (k = 0; k < st->inv->n; k++)
		cur[k] = &st->v[st->sw[k].version];
	for (s = 0; s < n && ret == EXIT_OK; s++) {
		stage = plan_stage(st, cur, vs[s], topo, batch, u, &ret);
		if (stage)
			json_array_append_new(stages, stage);
	}
	free(cur);
	if (ret) {
		json_decref(stages);
		return ret;
	}
	*plan = json_pack("{s:s,s:s,s:s,s:o,s:o}", "format", FABRIC_PLAN_FORMAT,
			  "inventory", st->inv->path, "state_digest",
			  st->digest, "switches", switches_json(st), "stages",
			  stages);
	return EXIT_OK;
}

static bool str_at(json_t *o, const char *key)
{
	return json_is_string(json_object_get(o, key));
}

int fabric_plan_load(const char *path, json_t **doc)
{
	json_error_t e;
	json_t *j, *v, *b;
	struct stat sb;
	size_t i, k;

	*doc = NULL;
	if (!stat(path, &sb) && S_ISREG(sb.st_mode) &&
	    (size_t)sb.st_size > FABRIC_PLAN_MAX_BYTES) {
		input_err(path, 0, "over %lu bytes: not a plan",
			  FABRIC_PLAN_MAX_BYTES);
		return EXIT_USAGE;
	}
	j = json_load_file(path, JSON_REJECT_DUPLICATES, &e);
	if (!j) {
		input_err(path, e.line, "%s", e.text);
		return EXIT_USAGE;
	}
	if (!json_is_object(j) ||
	    strcmp(json_string_value(json_object_get(j, "format")) ?: "",
		   FABRIC_PLAN_FORMAT)) {
		input_err(path, 0, "format: must be \"%s\"",
			  FABRIC_PLAN_FORMAT);
		goto bad;
	}
	if (!str_at(j, "state_digest") ||
	    !json_is_array(json_object_get(j, "switches")) ||
	    !json_is_array(json_object_get(j, "stages"))) {
		input_err(path, 0,
			  "expected \"state_digest\", \"switches\" and "
			  "\"stages\"");
		goto bad;
	}
	json_array_foreach(json_object_get(j, "switches"), i, v)
		if (!str_at(v, "name") || !str_at(v, "rules_digest") ||
		    !json_is_integer(json_object_get(v, "generation"))) {
			input_err(path, 0,
				  "switches[%zu]: expected \"name\", "
				  "\"generation\", \"rules_digest\"",
				  i);
			goto bad;
		}
	json_array_foreach(json_object_get(j, "stages"), i, v) {
		if (!str_at(v, "rules") || !str_at(v, "digest") ||
		    !json_is_array(json_object_get(v, "batches"))) {
			input_err(
				path, 0,
				"stages[%zu]: expected \"rules\", \"digest\", "
				"\"batches\"",
				i);
			goto bad;
		}
		json_array_foreach(json_object_get(v, "batches"), k, b)
			if (!json_is_array(json_object_get(b, "switches"))) {
				input_err(path, 0,
					  "stages[%zu].batches[%zu]: expected "
					  "\"switches\"",
					  i, k);
				goto bad;
			}
	}
	*doc = j;
	return 0;
bad:
	json_decref(j);
	return EXIT_USAGE;
}

/* The first switch whose state differs from the plan's, into why. */
static void what_changed(json_t *doc, const struct fabric_state *st, char *why,
			 size_t len)
{
	json_t *sws = json_object_get(doc, "switches"), *v;
	size_t i;
	int k;

	snprintf(why, len, "the inventory's switches are not the plan's");
	if (json_array_size(sws) != (size_t)st->inv->n)
		return;
	json_array_foreach(sws, i, v) {
		const struct fabric_sw *s = &st->sw[i];

		k = (int)i;
		if (strcmp(json_string_value(json_object_get(v, "name")),
			   s->h->name))
			return;
		if (s->generation != json_integer_value(json_object_get(
					     v, "generation")) ||
		    strcmp(json_string_value(
				   json_object_get(v, "rules_digest")),
			   s->digest)) {
			snprintf(why, len,
				 "switch %s: generation %lld (%.19s...) when "
				 "planned, %lld (%.19s...) now",
				 st->sw[k].h->name,
				 json_integer_value(
					 json_object_get(v, "generation")),
				 json_string_value(
					 json_object_get(v, "rules_digest")),
				 s->generation, s->digest);
			return;
		}
	}
}

int fabric_plan_check(json_t *doc, const struct fabric_state *st, char *why,
		      size_t len)
{
	struct fabric_version v;
	json_t *stage;
	const char *file;
	size_t i;
	int got;

	if (strcmp(json_string_value(json_object_get(doc, "state_digest")),
		   st->digest)) {
		what_changed(doc, st, why, len);
		return EXIT_PROBLEM;
	}
	json_array_foreach(json_object_get(doc, "stages"), i, stage) {
		file = json_string_value(json_object_get(stage, "rules"));
		got = fabric_rules_load(file, &v);
		if (got) {
			snprintf(why, len, "stage %zu: %s cannot be read", i,
				 file);
			return EXIT_PROBLEM;
		}
		got = strcmp(v.digest, json_string_value(json_object_get(
					       stage, "digest")));
		fabric_version_free(&v);
		if (got) {
			snprintf(why, len,
				 "stage %zu: %s changed since planning", i,
				 file);
			return EXIT_PROBLEM;
		}
	}
	return EXIT_OK;
}
