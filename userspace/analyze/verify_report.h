/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the verifier (verify.h) found, and its report: the counts, the
 * cycle of the buffer dependency graph if there is one, and the problems
 * (witnesses, at most max_problems of each kind), as JSON or as text,
 * both made from struct verify_result (a problem carries its text and its
 * JSON witness, made together).
 *
 * API:
 *   verify_result_json(t, e, r, res)      the document of tagger verify -j
 *   verify_result_print(f, t, e, r, res)  the same as text
 *   verify_result_free(&res)
 *   verify_rule_text(r, sw, rule)         "S rewrite[i] (tag ...)", malloc'd
 *   verify_add_problem(&res, kind, text, json)   takes text and json
 */
#ifndef __TAGGER_VERIFY_REPORT_H
#define __TAGGER_VERIFY_REPORT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <jansson.h>

#include "model/elp.h"
#include "model/rules.h"
#include "model/topo.h"

/* One BDG edge: (port in, prio) of one switch waits on the next one. */
struct verify_edge {
	int from_port; /* topology port ids (in-ports) */
	int from_prio;
	int to_port;
	int to_prio;
	int sw; /* rules switch whose rewrite rule makes it */
	int rule;
	int path; /* an ELP path that takes it, or -1 */
};

enum verify_kind {
	VERIFY_CYCLE,
	VERIFY_LOSSY_PATH,
	VERIFY_DECREASING_TAG,
};

struct verify_problem {
	enum verify_kind kind;
	char *text; /* one line or more, no trailing newline */
	json_t *json; /* the same, structured */
};

struct verify_result {
	bool ok; /* everything holds: exit 0 */
	bool deadlock_free; /* the BDG is acyclic */
	bool monotonic;
	int64_t paths;
	int64_t walks; /* paths x classes */
	int64_t lossless_paths; /* lossless for every class */
	int64_t lossy_walks;
	int64_t decreasing; /* rules that lower a tag */
	int64_t bdg_nodes;
	int64_t bdg_edges;
	struct verify_edge *cycle;
	int cycle_len;
	struct verify_problem *problems;
	int nproblems;
	int nclasses;
	double seconds;
};

json_t *verify_result_json(const struct topo *t, const struct elp *e,
			   const struct rules *r,
			   const struct verify_result *res);
void verify_result_print(FILE *f, const struct topo *t, const struct elp *e,
			 const struct rules *r,
			 const struct verify_result *res);
void verify_result_free(struct verify_result *res);

char *verify_rule_text(const struct rules *r, int sw, int rule);
void verify_add_problem(struct verify_result *res, enum verify_kind kind,
			char *text, json_t *json);

#endif /* __TAGGER_VERIFY_REPORT_H */
