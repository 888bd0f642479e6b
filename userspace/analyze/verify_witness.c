// SPDX-License-Identifier: GPL-2.0
/*
 * The verifier's records turned into problems: a cycle, decreasing
 * rewrite rules, lossy walks, each with its text and JSON witness; see
 * verify_ctx.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/verify_ctx.h"

static char *where(const struct vctx *c, int path)
{
	char *p = elp_path_text(c->t, c->e, path), *s;
	int line = c->e->line[path];

	if (line ? asprintf(&s, "%s (%s:%d)", p, c->e->file, line) < 0 :
		   asprintf(&s, "%s", p) < 0)
		abort();
	free(p);
	return s;
}

/*
 * Why walk l became lossy at node (in, out: its ports there), as text;
 * *rt names the answering rule and *missing the table that had none.
 */
static char *lossy_why(const struct vctx *c, const struct lossy_rec *l,
		       int node, const char *in, const char *out, char **rt,
		       const char **missing)
{
	const struct rules *r = c->r;
	const char *nm = c->t->nodes[node].name;
	int sw = c->node_sw[node];
	char *why = NULL, *x;

	switch (l->why) {
	case LOSSY_INITIAL:
		if (asprintf(&why, "the source %s has no lossless initial tag",
			     nm) < 0)
			abort();
		break;
	case LOSSY_NO_RULES:
		if (asprintf(&why,
			     "at %s: %s forwards but is not in \"switches\"",
			     nm, nm) < 0)
			abort();
		break;
	case LOSSY_CLASSIFY:
		if (l->rule < 0) {
			*missing = "classify";
			if (asprintf(&why,
				     "at %s: no classify rule for in %s tag %d",
				     nm, in, l->tag) < 0)
				abort();
		} else {
			const struct rules_classify *cl =
				&r->sw[sw].classify[l->rule];

			if (asprintf(rt, "classify[%d]", l->rule) < 0 ||
			    asprintf(
				    &why,
				    "at %s: %s (in %s tag %d priority %d) queues it lossy",
				    nm, *rt, rules_port_name(r, sw, cl->in),
				    cl->tag, cl->prio) < 0)
				abort();
		}
		break;
	case LOSSY_REWRITE:
		if (l->rule < 0) {
			*missing = "rewrite";
			if (asprintf(
				    &why,
				    "at %s: no rewrite rule for tag %d in %s out %s",
				    nm, l->tag, in, out) < 0)
				abort();
		} else {
			x = verify_rule_text(r, sw, l->rule);
			if (asprintf(rt, "rewrite[%d]", l->rule) < 0 ||
			    asprintf(&why, "at %s: %s demotes it to lossy", nm,
				     x) < 0)
				abort();
			free(x);
		}
		break;
	}
	return why;
}

static void lossy_problem(struct vctx *c, const struct lossy_rec *l)
{
	const struct topo *t = c->t;
	const struct rules *r = c->r;
	const int32_t *h = elp_hops(c->e, l->path);
	int n = elp_len(c->e, l->path),
	    node = l->hop ? port_peer_node(t, h[l->hop - 1]) :
			    port_node(t, h[0]);
	const char *nm = t->nodes[node].name, *in = NULL, *out = NULL,
		   *missing = NULL;
	char *w = where(c, l->path), *rt = NULL, *why, cls[32] = "", *text;
	char *plain = elp_path_text(t, c->e, l->path);
	json_t *j;

	if (l->hop)
		in = t->ports[t->ports[h[l->hop - 1]].peer].name;
	if (l->hop && l->hop < n)
		out = t->ports[h[l->hop]].name;
	if (r->nclasses > 1)
		snprintf(cls, sizeof(cls), ", class %d", r->class_ids[l->cls]);
	why = lossy_why(c, l, node, in, out, &rt, &missing);
	if (asprintf(&text, "lossy path %s%s: %s", w, cls, why) < 0)
		abort();
	j = json_pack("{s:s,s:s,s:i,s:s,s:i,s:i,s:s?,s:s?,s:s?,s:s?,s:s}",
		      "kind", "lossy_path", "path", plain, "line",
		      c->e->line[l->path], "node", nm, "hop", l->hop, "tag",
		      l->tag, "in", in, "out", out, "missing", missing, "rule",
		      rt, "message", text);
	if (r->nclasses)
		json_object_set_new(j, "class",
				    json_integer(r->class_ids[l->cls]));
	verify_add_problem(c->res, VERIFY_LOSSY_PATH, text, j);
	free(plain);
	free(w);
	free(rt);
	free(why);
}

static void decreasing_problem(struct vctx *c, const struct dec_rec *d)
{
	const struct rules *r = c->r;
	const struct rules_rewrite *rw = &r->sw[d->sw].rewrite[d->rule];
	char *rt = verify_rule_text(r, d->sw, d->rule), *w = NULL,
	     *plain = NULL;
	char *text, name[32];
	json_t *j;

	if (d->path >= 0) {
		w = where(c, d->path);
		plain = elp_path_text(c->t, c->e, d->path);
	}
	if (asprintf(&text, "decreasing tag: %s lowers rank %d to %d%s%s", rt,
		     r->rank[rw->tag], r->rank[rw->new_tag],
		     w ? "\n      on path " : "", w ? w : "") < 0)
		abort();
	snprintf(name, sizeof(name), "rewrite[%d]", d->rule);
	j = json_pack("{s:s,s:s,s:s,s:i,s:s,s:s,s:i,s:s?,s:s}", "kind",
		      "decreasing_tag", "switch", r->sw[d->sw].name, "rule",
		      name, "tag", rw->tag, "in",
		      rules_port_name(r, d->sw, rw->in), "out",
		      rules_port_name(r, d->sw, rw->out), "new_tag",
		      rw->new_tag, "path", plain, "message", text);
	if (w) {
		json_object_set_new(j, "line",
				    json_integer(c->e->line[d->path]));
		json_object_set_new(j, "hop", json_integer(d->hop));
	}
	verify_add_problem(c->res, VERIFY_DECREASING_TAG, text, j);
	free(plain);
	free(rt);
	free(w);
}

/* Raw records -> problems (text and JSON), at most c->max of each kind. */
void verify_witnesses(struct vctx *c)
{
	struct verify_result *res = c->res;
	char *text;
	int i;

	if (res->cycle_len) {
		if (asprintf(&text, "cycle of %d buffer dependencies",
			     res->cycle_len) < 0)
			abort();
		verify_add_problem(res, VERIFY_CYCLE, text,
				   json_pack("{s:s,s:i,s:s}", "kind", "cycle",
					     "length", res->cycle_len,
					     "message", text));
	}
	for (i = 0; i < c->ndec && i < c->max; i++)
		decreasing_problem(c, &c->dec[i]);
	for (i = 0; i < c->nlossy; i++)
		lossy_problem(c, &c->lossy[i]);
}
