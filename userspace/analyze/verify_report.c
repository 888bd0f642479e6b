// SPDX-License-Identifier: GPL-2.0
/* The verifier's findings as text and as JSON; see verify_report.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"
#include "analyze/verify_report.h"

char *verify_rule_text(const struct rules *r, int sw, int rule)
{
	const struct rules_rewrite *rw = &r->sw[sw].rewrite[rule];
	char *s;

	if (asprintf(&s, "%s rewrite[%d] (tag %d in %s out %s -> %d%s)",
		     r->sw[sw].name, rule, rw->tag,
		     rules_port_name(r, sw, rw->in),
		     rules_port_name(r, sw, rw->out), rw->new_tag,
		     rw->new_tag == r->lossy_tag ? " lossy" : "") < 0)
		abort();
	return s;
}

void verify_add_problem(struct verify_result *res, enum verify_kind kind,
			char *text, json_t *json)
{
	res->problems = xrealloc(res->problems,
				 (res->nproblems + 1) * sizeof(*res->problems));
	res->problems[res->nproblems].kind = kind;
	res->problems[res->nproblems].text = text;
	res->problems[res->nproblems++].json = json;
}

void verify_result_free(struct verify_result *res)
{
	int i;

	for (i = 0; i < res->nproblems; i++) {
		free(res->problems[i].text);
		json_decref(res->problems[i].json);
	}
	free(res->problems);
	free(res->cycle);
	memset(res, 0, sizeof(*res));
}

static json_t *bdg_node_json(const struct topo *t, int port, int prio)
{
	return json_pack("{s:s,s:s,s:i}", "switch",
			 t->nodes[port_node(t, port)].name, "port",
			 t->ports[port].name, "priority", prio);
}

static json_t *cycle_json(const struct topo *t, const struct elp *e,
			  const struct rules *r,
			  const struct verify_result *res)
{
	json_t *arr = json_array();
	int k;

	for (k = 0; k < res->cycle_len; k++) {
		const struct verify_edge *ed = &res->cycle[k];
		char *rt = verify_rule_text(r, ed->sw, ed->rule), name[32];
		json_t *o;

		snprintf(name, sizeof(name), "rewrite[%d]", ed->rule);
		o = json_pack("{s:o,s:o,s:s,s:s,s:s}", "from",
			      bdg_node_json(t, ed->from_port, ed->from_prio),
			      "to", bdg_node_json(t, ed->to_port, ed->to_prio),
			      "switch", r->sw[ed->sw].name, "rule", name,
			      "rule_text", rt);
		if (ed->path >= 0) {
			char *p = elp_path_text(t, e, ed->path);

			json_object_set_new(o, "path", json_string(p));
			json_object_set_new(o, "line",
					    json_integer(e->line[ed->path]));
			free(p);
		} else {
			json_object_set_new(o, "path", json_null());
		}
		json_array_append_new(arr, o);
		free(rt);
	}
	return arr;
}

json_t *verify_result_json(const struct topo *t, const struct elp *e,
			   const struct rules *r,
			   const struct verify_result *res)
{
	json_t *probs = json_array();
	int i;

	for (i = 0; i < res->nproblems; i++)
		json_array_append(probs, res->problems[i].json);
	return json_pack(
		"{s:b,s:b,s:b,s:I,s:I,s:I,s:I,s:I,s:i,s:o,s:I,s:o,s:I,s:I,s:f}",
		"ok", res->ok, "deadlock_free", res->deadlock_free, "monotonic",
		res->monotonic, "paths", (json_int_t)res->paths,
		"lossless_paths", (json_int_t)res->lossless_paths,
		"lossy_paths", (json_int_t)(res->paths - res->lossless_paths),
		"walks", (json_int_t)res->walks, "lossy_walks",
		(json_int_t)res->lossy_walks, "classes", res->nclasses, "cycle",
		res->cycle_len ? cycle_json(t, e, r, res) : json_null(),
		"decreasing_rules", (json_int_t)res->decreasing, "problems",
		probs, "bdg_nodes", (json_int_t)res->bdg_nodes, "bdg_edges",
		(json_int_t)res->bdg_edges, "seconds", res->seconds);
}

static void print_node(FILE *f, const struct topo *t, int port, int prio)
{
	fprintf(f, "(%s, in %s, prio %d)", t->nodes[port_node(t, port)].name,
		t->ports[port].name, prio);
}

static void print_cycle(FILE *f, const struct topo *t, const struct elp *e,
			const struct rules *r, const struct verify_result *res)
{
	int k;

	for (k = 0; k < res->cycle_len; k++) {
		const struct verify_edge *ed = &res->cycle[k];
		char *rt = verify_rule_text(r, ed->sw, ed->rule), *p;

		fputs("  ", f);
		print_node(f, t, ed->from_port, ed->from_prio);
		fputs(" waits on ", f);
		print_node(f, t, ed->to_port, ed->to_prio);
		fprintf(f, "\n      by rule %s\n", rt);
		free(rt);
		if (ed->path < 0)
			continue;
		p = elp_path_text(t, e, ed->path);
		fprintf(f, "      by path %s", p);
		free(p);
		if (e->line[ed->path])
			fprintf(f, " (%s:%d)", e->file, e->line[ed->path]);
		fputc('\n', f);
	}
}

/* Problems of one kind in the list (at most --max-problems are). */
static int64_t problems_of(const struct verify_result *res,
			   enum verify_kind kind)
{
	int64_t n = 0;
	int i;

	for (i = 0; i < res->nproblems; i++)
		n += res->problems[i].kind == kind;
	return n;
}

static void print_header(FILE *f, const struct verify_result *res)
{
	fprintf(f,
		"%s: deadlock-free %s, tags monotonic %s, %lld of %lld paths lossless",
		res->ok ? "verified" : "NOT verified",
		res->deadlock_free ? "yes" : "NO",
		res->monotonic ? "yes" : "NO", (long long)res->lossless_paths,
		(long long)res->paths);
	if (res->nclasses > 1)
		fprintf(f, " in all %d classes", res->nclasses);
	fprintf(f,
		"\n  buffer dependency graph: %lld nodes, %lld edges; %.3f s\n",
		(long long)res->bdg_nodes, (long long)res->bdg_edges,
		res->seconds);
}

void verify_result_print(FILE *f, const struct topo *t, const struct elp *e,
			 const struct rules *r, const struct verify_result *res)
{
	int64_t shown, more;
	int i;

	print_header(f, res);
	for (i = 0; i < res->nproblems; i++) {
		fprintf(f, "%s\n", res->problems[i].text);
		if (res->problems[i].kind == VERIFY_CYCLE)
			print_cycle(f, t, e, r, res);
	}
	shown = problems_of(res, VERIFY_LOSSY_PATH);
	if (res->lossy_walks > shown)
		fprintf(f,
			"... %lld more lossy walks not shown (%lld paths lossy in all)\n",
			(long long)(res->lossy_walks - shown),
			(long long)(res->paths - res->lossless_paths));
	more = res->decreasing - problems_of(res, VERIFY_DECREASING_TAG);
	if (more > 0)
		fprintf(f, "... %lld more decreasing rules not shown\n",
			(long long)more);
}
