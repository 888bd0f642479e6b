/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A rollout plan: the switches of a fabric in batches, each batch updated
 * to the rules of its stage, such that every set of versions that can be
 * live at once is deadlock-free (tagger-fabric(8), PLAN).
 *
 * While a batch is under way any of its switches may run the old or the
 * new rules, and the others run what they run: the versions live during
 * a batch are every version the fabric runs before it plus the stage's.
 * Each batch's set is checked with the union check (fabric_union), so a
 * plan holds whatever order the batch's switches change in, and however
 * far a killed rollout got. Stages go through the given intermediate
 * rule sets (--via) in order, then to the new rules; after a stage every
 * switch runs its rules.
 *
 * The document (format tagger-fabric-plan/1, JSON):
 *   "format", "inventory", "state_digest" (fabric_state.h), "switches":
 *   [{"name", "switch", "generation", "rules_digest"}] as planned from,
 *   "stages": [{"rules": absolute path, "digest", "batches": [{"switches":
 *   [names], "live": [digests], "buffers", "dependencies"}]}]
 *
 * API:
 *   fabric_plan_make(st, vs, n, topo, batch, &plan, &u)
 *       the plan taking the state st through the versions vs[0..n-1] (the
 *       last is the new rules) in batches of at most batch switches (0:
 *       one batch per stage): EXIT_OK with plan; EXIT_PROBLEM with u
 *       (the first cyclic union; the caller frees it); EXIT_USAGE after
 *       p_err (the union could not be checked)
 *   fabric_plan_load(path, &doc)    a plan document, checked for its
 *                                   form: 0, or EXIT_USAGE after input_err
 *   fabric_plan_check(doc, st, why, len)
 *       EXIT_OK if the plan was made from state st and its rules files
 *       still have their digests; else EXIT_PROBLEM, why saying what
 *       changed
 */
#ifndef __TAGGER_FABRIC_PLAN_H
#define __TAGGER_FABRIC_PLAN_H

#include <stddef.h>
#include <jansson.h>

#include "fabric/fabric_state.h"

#define FABRIC_PLAN_FORMAT "tagger-fabric-plan/1"
#define FABRIC_PLAN_MAX_BYTES (64UL << 20)

int fabric_plan_make(const struct fabric_state *st,
		     const struct fabric_version *const *vs, int n,
		     const char *topo, int batch, json_t **plan,
		     struct fabric_union *u);
int fabric_plan_load(const char *path, json_t **doc);
int fabric_plan_check(json_t *doc, const struct fabric_state *st, char *why,
		      size_t len);

#endif /* __TAGGER_FABRIC_PLAN_H */
