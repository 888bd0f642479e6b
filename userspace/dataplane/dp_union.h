/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The check before a live update: while the swap is under way some switches
 * run the old rules and some the new, and packets in flight carry old tags,
 * so the union of both rule sets (as relations) must be deadlock-free.
 * Buffers are (switch, in port, priority). A packet that enters A on i
 * with tag t, is lossless there (priority pA), leaves on o with a lossless
 * tag t' = rewrite(A, t, i, o) and enters switch B on j, where t' is
 * lossless (priority pB), makes (A, i, pA) wait on (B, j, pB). A switch
 * classifies and rewrites one packet with one rule set (the data plane
 * keeps them together); the next switch may run either. The union is safe
 * iff that graph is acyclic. It covers everything the rules let a packet
 * do, not only the ELP paths, so it also holds for off-path traffic.
 *
 * API:
 *   dp_links_from_json(doc, file, &l)   the rules file's "links"; -1 after
 *                                       input_err, 0 if it has none, else 1
 *   dp_links_from_topo(t, &l)
 *   dp_links_free(&l)
 *   dp_union_check(old, new, &l, &res)  1 if acyclic; 0 with res.cycle
 *   dp_union_check_sets(rs, n, &l, &res)   the same for n rule sets (1 to
 *                                       DP_UNION_MAX_SETS), any of which
 *                                       any switch may run: a rollout
 *                                       over a fabric (tagger-fabric(8));
 *                                       a cycle edge's "rules" is the
 *                                       index in rs of the upstream set;
 *                                       -1 (res empty) for another n
 *   dp_union_check_delta(old, new, &l, &res)   the same verdict for a
 *                                       small change, PROVIDED the old
 *                                       rules alone are acyclic over l:
 *                                       searches only from the
 *                                       dependencies the changed rules
 *                                       make (dp_union_delta.c); -1 (res
 *                                       empty) if the change is not small:
 *                                       other switches, ports or tags, or
 *                                       more than DP_UNION_DELTA_MAX rules,
 *                                       or more than DP_UNION_DELTA_VISIT
 *                                       buffers reached. res.buffers and
 *                                       res.deps count what it searched
 *   dp_union_free(&res)
 */
#ifndef __TAGGER_DP_UNION_H
#define __TAGGER_DP_UNION_H

#include <stdint.h>
#include <stdio.h>
#include <jansson.h>

#include "model/rules.h"
#include "model/topo.h"

#define DP_UNION_MAX_SETS 16 /* rule sets of dp_union_check_sets */
#define DP_UNION_DELTA_MAX 64 /* changed rules, old and new counted */
#define DP_UNION_DELTA_VISIT 4096 /* buffers the search may reach */

struct dp_links {
	char **a; /* "node:port" */
	char **b;
	int n, cap;
};

struct dp_union_edge {
	int from, to; /* buffer ids: port id * 8 + priority */
	uint8_t tag, new_tag;
	uint8_t rules; /* 0: old, 1: new rules at the upstream switch (the
			* index in rs of dp_union_check_sets) */
};

struct dp_union_result {
	int64_t buffers; /* buffers with an edge */
	int64_t deps; /* distinct dependencies */
	int len; /* cycle length, 0 if acyclic */
	struct dp_union_edge *cycle;
	char **port_names; /* by port id, for printing */
	int nports;
};

int dp_links_from_json(json_t *doc, const char *file, struct dp_links *l);
void dp_links_from_topo(const struct topo *t, struct dp_links *l);
void dp_links_free(struct dp_links *l);
int dp_union_check(const struct rules *old, const struct rules *new,
		   const struct dp_links *l, struct dp_union_result *res);
int dp_union_check_sets(const struct rules *const *rs, int n,
			const struct dp_links *l, struct dp_union_result *res);
int dp_union_check_delta(const struct rules *old, const struct rules *new,
			 const struct dp_links *l, struct dp_union_result *res);
json_t *dp_union_cycle_json(const struct dp_union_result *res);
void dp_union_free(struct dp_union_result *res);

#endif /* __TAGGER_DP_UNION_H */
