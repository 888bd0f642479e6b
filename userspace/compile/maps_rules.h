/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Per-port maps (model/maps.h) -> rules: what a switch with these maps
 * does, written as an ordinary rules document ("tagger-rules/1"), so
 * that the data planes of the rules (tagger switch attach, the labs) run
 * the maps and the verifier checks them against an ELP.
 *
 *   classify (in, dscp) -> prio[class(in, dscp)]
 *   rewrite  (dscp, in, out) -> rw[class(in, dscp)][out]
 *
 * for every pair whose class is lossless (any other pair is lossy, as
 * no rule matching means), and every out-port whose new DSCP is not the
 * lossy tag. The rules keep the maps' coarser behaviour: all pairs of a
 * class leave an out-port with the class's one DSCP there, whatever DSCP
 * they came with. No wildcards: one rule a key, as the maps have.
 *
 * API:
 *   maps_rules_json(m, links)      the rules document (new reference) of
 *                                  every switch of m, in m's order (refused
 *                                  ones too: their maps are complete, but
 *                                  for a saturated one, which gets no
 *                                  rules); links (may be NULL): the
 *                                  topology's links, copied as "links"
 *   maps_rules_count(m)            the rules that document holds
 */
#ifndef __TAGGER_MAPS_RULES_H
#define __TAGGER_MAPS_RULES_H

#include <jansson.h>

#include "model/maps.h"

json_t *maps_rules_json(const struct maps *m, const json_t *links);
long maps_rules_count(const struct maps *m);

#endif /* __TAGGER_MAPS_RULES_H */
