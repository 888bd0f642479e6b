/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tagger compile: topology + ELP -> per-switch rules.
 *
 * The tagging engine (tagging.h) and an algorithm produce tags 0..n-1; this
 * layer maps them to DSCP codepoints and priorities, turns tags beyond the
 * available lossless priorities into the lossy tag (and finds the paths
 * that therefore become lossy), optionally compresses rules with
 * wildcards, and builds the rules JSON (Documentation/tagger-formats.7.rst).
 *
 * API:
 *   compile_opts_init(o)          defaults (documented in cmd_compile.c)
 *   compile_run(t, e, o, r)       0, or -1 after a message (bad input, such as
 *                                 a switch over RULES_MAX_PORTS ports)
 *   compile_rules_json(t, r, o)   the rules document (new reference)
 *   compile_rules(t, r, o, name)  the rules as a struct rules, indexed and
 *                                 through rules_check() (rules_model.c); NULL
 *                                 after its "name: json.path: ..." message
 *   compile_rules_write(f, t, r, o, rules, compact)
 *                                 the document of those rules to f, the
 *                                 bytes json_dumpf() of compile_rules_json
 *                                 gives (JSON_COMPACT, else JSON_INDENT(1)),
 *                                 compact without a tree of the rules; 0 or
 *                                 -1 (a name no JSON string, a write error)
 *   compile_result_drop_tagging(r)  frees the tagging engine's maps once
 *                                 the rules are out (r->tg; what the DOT
 *                                 picture and lossy paths read)
 *   compile_result_free(r)
 *   compile_threads(o)            threads to use (o->threads, else one per
 *                                 online CPU); any number gives the same
 *                                 result, byte for byte
 * Per-switch rule lists (struct sw_rules) are what the JSON, the table,
 * the DOT picture and the compressor all work from.
 */
#ifndef __TAGGER_COMPILE_H
#define __TAGGER_COMPILE_H

#include <stdbool.h>
#include <jansson.h>

#include "model/elp.h"
#include "compile/tagging.h"
#include "model/rules.h"
#include "model/topo.h"

#define RULE_ANY (-1) /* the "*" wildcard of a port */
#define RULE_LOSSY (-2) /* an explicit lossy answer (after compression) */

struct cls_rule {
	int in; /* port id or RULE_ANY */
	int tag; /* tag index */
	int lossless; /* 0: an explicit lossy exception */
};

struct rw_rule {
	int tag;
	int in; /* port id or RULE_ANY */
	int out; /* port id or RULE_ANY */
	int new_tag; /* tag index or RULE_LOSSY */
};

struct sw_rules {
	int node;
	struct cls_rule *cls;
	int ncls;
	int cls_cap;
	struct rw_rule *rw;
	int nrw;
	int rw_cap;
};

struct compile_opts {
	const struct tag_algo *algo;
	int nclasses;
	int prios[TAG_MAX]; /* lossless priority of tag i */
	int nprios; /* how many lossless priorities are available */
	int dscp[TAG_MAX]; /* DSCP codepoint of tag i */
	int ndscp;
	int lossy_prio;
	int lossy_dscp;
	int cnp_dscp, cnp_prio; /* the CNP class ("cnp"), -1: none */
	bool strict;
	bool compress;
	int threads; /* 0: one per online CPU (at most COMPILE_THREADS_MAX) */
	bool two_orders; /* compile_exact: try two orders before SAT at 2 */
};

#define COMPILE_THREADS_MAX 64

struct lossy_path {
	int path;
	int cls;
	int hop; /* index of the node where it turns lossy */
};

struct compile_result {
	struct tagging tg;
	const struct tag_algo *algo; /* the one that produced the result */
	int ntags; /* tags the algorithm used */
	int nlossless; /* of those, tags that got a priority */
	struct sw_rules *sw; /* one per forwarding node, topology order */
	int nsw;
	int nrules;
	int max_switch_rules;
	int lossy; /* (path, class) pairs not lossless end to end */
	struct lossy_path *lossy_list; /* the first few, for messages */
	int nlossy_list;
	double seconds;
};

void compile_opts_init(struct compile_opts *o);
int compile_run(const struct topo *t, const struct elp *e,
		const struct compile_opts *o, struct compile_result *r);
json_t *compile_rules_json(const struct topo *t, const struct compile_result *r,
			   const struct compile_opts *o);
struct rules *compile_rules(const struct topo *t,
			    const struct compile_result *r,
			    const struct compile_opts *o, const char *name);
int compile_rules_write(FILE *f, const struct topo *t,
			const struct compile_result *r,
			const struct compile_opts *o, const struct rules *rules,
			bool compact);
void compile_result_drop_tagging(struct compile_result *r);
void compile_result_free(struct compile_result *r);
const struct tag_algo *compile_find_algo(const char *name);
int compile_threads(const struct compile_opts *o);

/* --algorithm best: order and greedy both run, the better result is kept. */
extern const struct tag_algo tag_algo_best;

void rules_compress(const struct topo *t, struct sw_rules *s);
int rules_write_table(FILE *f, const struct topo *t,
		      const struct compile_result *r,
		      const struct compile_opts *o);
int tagged_write_dot(FILE *f, const struct topo *t,
		     const struct compile_result *r,
		     const struct compile_opts *o);

#endif /* __TAGGER_COMPILE_H */
