/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Independent check of compiled rules against the topology and the ELP
 * (Documentation/tagger-verify.8.rst). Shares nothing with the compiler but the
 * topology/ELP model and the rules parser.
 *
 * The buffer dependency graph (BDG) has a node per (switch, in-port,
 * lossless priority). A packet in (A, i, p) that leaves A on port o with a
 * lossless tag and is queued losslessly at the next switch B, port j,
 * priority q, waits on (B, j, q): an edge. Edges come from every rewrite
 * rule (wildcards expanded over the switch's ports, the in-port itself
 * included, because a route may send a packet back where it came from)
 * since a rerouted packet may combine any rules, and the ELP walks name
 * the paths behind them. Checked:
 *   1. the BDG is acyclic (deadlock_free);
 *   2. every ELP path, for every lossless class, is lossless at every node
 *      it crosses (lossless_paths == walks), unless allow_lossy;
 *   3. no rule and no path hop lowers a tag's rank (monotonic).
 *
 * API:
 *   verify_rules(t, e, r, &opts, &res)   EXIT_OK, EXIT_PROBLEM, or
 *                                        EXIT_USAGE after "file: ..." when
 *                                        the rules do not fit the topology
 *   verify_result_json / verify_result_print / verify_result_free
 *   verify_json_print(f, o, elp_file)    the text of verify_result_json()'s
 *                                        object (verify_result_print: both)
 * The ELP walks run in opts.threads threads (ranges of paths, merged in
 * path order): the result is the same for any number of threads.
 * Cost: O(expanded rewrite rules + total ELP hops x classes) hash probes,
 * O(BDG edges) memory; the cycle search is digraph.h's linear DFS.
 */
#ifndef __TAGGER_VERIFY_H
#define __TAGGER_VERIFY_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <jansson.h>

#include "model/elp.h"
#include "model/rules.h"
#include "model/topo.h"

struct verify_opts {
	bool allow_lossy; /* lossy ELP paths are counted, not problems */
	int max_problems; /* witnesses kept per kind; 0 means 10 */
	int threads; /* walks in parallel; 0: one thread per online CPU */
};

#define VERIFY_THREADS_MAX 64

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

int verify_rules(const struct topo *t, const struct elp *e,
		 const struct rules *r, const struct verify_opts *opts,
		 struct verify_result *res);
json_t *verify_result_json(const struct topo *t, const struct elp *e,
			   const struct rules *r,
			   const struct verify_result *res);
void verify_result_print(FILE *f, const struct topo *t, const struct elp *e,
			 const struct rules *r,
			 const struct verify_result *res);
void verify_json_print(FILE *f, const json_t *o, const char *elp_file);
void verify_result_free(struct verify_result *res);

/* Shared with verify_report.c. */
char *verify_rule_text(const struct rules *r, int sw, int rule);
void verify_add_problem(struct verify_result *res, enum verify_kind kind,
			char *text, json_t *json);

#endif /* __TAGGER_VERIFY_H */
