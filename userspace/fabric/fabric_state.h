/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A fabric's state, gathered switch by switch through the inventory's
 * transports (fabric_run.h): what each switch runs and whether every
 * version that runs somewhere, taken together, is deadlock-free.
 *
 * Per switch, "tagger -j switch show SW" gives the data path (mode,
 * ports), the generation and the rules digest (dp_packed.h), and "tagger
 * -j pfc show NODE" the agent's health if the inventory names one; the
 * switches are asked FABRIC_GATHER_JOBS at a time (threads). A
 * version is a digest; its rules come once per version, from one of its
 * switches ("switch show SW --packed"). A switch that changed between the
 * two reads is taken as it is at the second read, and another switch is
 * asked for a version nobody was read with yet; so every version in the
 * result is one some switch ran while the state was gathered.
 *
 * The union check is the one switch update runs before a swap, over every
 * version at once (dp_union_check_sets): any switch may run any of them,
 * and packets in flight may meet any mix. The links are the versions'
 * own ("links", all the same set) or topo's.
 *
 * The state digest (state_digest) names what was gathered: SHA-256 of a
 * line "NAME SWITCH GENERATION DIGEST" per switch, in inventory order.
 * A generation changes with every update, so any update since makes
 * another digest (a plan made from it is stale).
 *
 * API:
 *   fabric_gather(inv, &st)          gather; 0, or EXIT_USAGE/EXIT_RUNTIME
 *                                    after p_err for what stops it all;
 *                                    per switch errors are in st.sw[k]
 *   fabric_union(vs, n, topo, &u)    the union of n versions (read): 1
 *                                    acyclic, 0 with u.res.cycle, -1
 *                                    after p_err (no or different links,
 *                                    more than DP_UNION_MAX_SETS)
 *   fabric_state_versions(&st, &vs)  the state's versions as such an
 *                                    array (malloc'ed), their count
 *   fabric_union_json(&u)            its verdict as -j prints it
 *   fabric_union_free(&u)
 *   fabric_rules_load(path, &v)      a rules file (JSON or packed) as a
 *                                    version: its rules, links, digest;
 *                                    0, or EXIT_USAGE after input_err
 *   fabric_exit(&st)                 the state's exit code (see
 *                                    tagger-fabric(8), EXIT STATUS)
 *   fabric_state_json(&st)           the document status -j prints
 *   fabric_state_free(&st)
 *   fabric_version_free(&v)
 */
#ifndef __TAGGER_FABRIC_STATE_H
#define __TAGGER_FABRIC_STATE_H

#include <stdbool.h>
#include <jansson.h>

#include "dataplane/dp_union.h"
#include "fabric/fabric_inv.h"
#include "lib/digest.h"
#include "model/rules.h"

#define FABRIC_GATHER_JOBS 16 /* switches asked at once */

enum fabric_sw_status {
	FABRIC_SW_OK,
	FABRIC_SW_REFUSED, /* tagger there said no (exit 2): not attached */
	FABRIC_SW_FAILED, /* tagger there failed (exit 3), bad output */
	FABRIC_SW_UNREACHABLE, /* the transport failed, timed out */
};

struct fabric_version {
	char digest[DIGEST_STR];
	struct rules *r; /* NULL until read */
	json_t *doc; /* holds its "links" */
	const char *file; /* fabric_rules_load's path */
};

struct fabric_sw {
	const struct fabric_host *h;
	enum fabric_sw_status status;
	char err[600];
	long long generation;
	char digest[DIGEST_STR];
	int version; /* index in versions, -1 if none */
	bool fetched; /* its rules were read (--packed) */
	json_t *show; /* switch show -j, without "ports" counters */
	json_t *agent; /* {"node", "status", "healthy"} or NULL */
	bool agent_bad;
};

struct fabric_state {
	const struct fabric_inv *inv;
	struct fabric_sw *sw;
	struct fabric_version *v;
	int nv;
	char digest[DIGEST_STR]; /* state_digest */
};

struct fabric_union {
	int acyclic; /* 1, 0, -1 not checked */
	const struct fabric_version **vs; /* res's rule set indexes (a copy) */
	int n;
	struct dp_union_result res;
};

int fabric_gather(const struct fabric_inv *inv, struct fabric_state *st);
int fabric_union(const struct fabric_version *const *vs, int n,
		 const char *topo, struct fabric_union *u);
int fabric_state_versions(const struct fabric_state *st,
			  const struct fabric_version ***vs);
json_t *fabric_union_json(const struct fabric_union *u);
void fabric_union_free(struct fabric_union *u);
int fabric_rules_load(const char *path, struct fabric_version *v);
int fabric_exit(const struct fabric_state *st);
json_t *fabric_state_json(const struct fabric_state *st);
void fabric_state_free(struct fabric_state *st);
void fabric_version_free(struct fabric_version *v);

#endif /* __TAGGER_FABRIC_STATE_H */
