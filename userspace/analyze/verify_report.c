// SPDX-License-Identifier: GPL-2.0
/* The verifier's findings as text and as JSON; see verify_report.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"
#include "analyze/verify_report.h"
#include "lib/json_get.h"

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

static void print_cycle(FILE *f, const json_t *cycle, const char *elp_file)
{
	const json_t *ed, *from, *to;
	size_t k;

	json_array_foreach(cycle, k, ed) {
		from = json_object_get(ed, "from");
		to = json_object_get(ed, "to");
		fprintf(f,
			"  (%s, in %s, prio %lld) waits on (%s, in %s, prio %lld)\n"
			"      by rule %s\n",
			jget_str(from, "switch"), jget_str(from, "port"),
			jget_int(from, "priority"), jget_str(to, "switch"),
			jget_str(to, "port"), jget_int(to, "priority"),
			jget_str(ed, "rule_text"));
		if (!json_is_string(json_object_get(ed, "path")))
			continue;
		fprintf(f, "      by path %s", jget_str(ed, "path"));
		if (jget_int(ed, "line"))
			fprintf(f, " (%s:%lld)", elp_file,
				jget_int(ed, "line"));
		fputc('\n', f);
	}
}

/* Problems of one kind in the list (at most --max-problems are). */
static long long problems_of(const json_t *probs, const char *kind)
{
	const json_t *p;
	long long n = 0;
	size_t i;

	json_array_foreach(probs, i, p)
		n += !strcmp(jget_str(p, "kind"), kind);
	return n;
}

static void print_header(FILE *f, const json_t *o)
{
	fprintf(f,
		"%s: deadlock-free %s, tags monotonic %s, %lld of %lld paths lossless",
		jget_bool(o, "ok") ? "verified" : "NOT verified",
		jget_bool(o, "deadlock_free") ? "yes" : "NO",
		jget_bool(o, "monotonic") ? "yes" : "NO",
		jget_int(o, "lossless_paths"), jget_int(o, "paths"));
	if (jget_int(o, "classes") > 1)
		fprintf(f, " in all %lld classes", jget_int(o, "classes"));
	fprintf(f,
		"\n  buffer dependency graph: %lld nodes, %lld edges; %.3f s\n",
		jget_int(o, "bdg_nodes"), jget_int(o, "bdg_edges"),
		jget_real(o, "seconds"));
}

void verify_json_print(FILE *f, const json_t *o, const char *elp_file)
{
	const json_t *probs = json_object_get(o, "problems"), *p;
	long long shown, more;
	size_t i;

	print_header(f, o);
	json_array_foreach(probs, i, p) {
		fprintf(f, "%s\n", jget_str(p, "message"));
		if (!strcmp(jget_str(p, "kind"), "cycle"))
			print_cycle(f, json_object_get(o, "cycle"), elp_file);
	}
	shown = problems_of(probs, "lossy_path");
	if (jget_int(o, "lossy_walks") > shown)
		fprintf(f,
			"... %lld more lossy walks not shown (%lld paths lossy in all)\n",
			jget_int(o, "lossy_walks") - shown,
			jget_int(o, "lossy_paths"));
	more = jget_int(o, "decreasing_rules") -
	       problems_of(probs, "decreasing_tag");
	if (more > 0)
		fprintf(f, "... %lld more decreasing rules not shown\n", more);
}

void verify_result_print(FILE *f, const struct topo *t, const struct elp *e,
			 const struct rules *r, const struct verify_result *res)
{
	json_t *o = verify_result_json(t, e, r, res);

	verify_json_print(f, o, e->file);
	json_decref(o);
}
