/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The independent check of per-port maps (model/maps.h) against the
 * rules they came from, by the rules' own lookups and nothing of the
 * builder's (compile/rules_maps.c):
 *
 *   1. exact: for every switch whose maps were written, every in-port,
 *      DSCP 0..63 and out-port, the class's priority is the rules'
 *      classification (the lossy priority for a lossy one) and its new
 *      DSCP at the out-port the rules' rewrite (the lossy tag when none,
 *      or when the packet was classified lossy); the egress queue is the
 *      new DSCP's priority;
 *   2. limits: at most max_classes classes (and MAPS_MAX_CLASSES), at
 *      most max_prios lossless priorities on the switch;
 *   3. tags only grow: a lossless class never leaves with a lower-ranked
 *      lossless DSCP than one of the DSCPs it classifies;
 *   4. with links (a rules document's "links"): the buffer dependency
 *      graph the maps induce, over (switch, in-port, priority), from each
 *      lossless class at an in-port through each out-port whose new DSCP
 *      is lossless to the class the next switch puts it in, is acyclic.
 *
 * API:
 *   maps_verify(m, links, max_problems)
 *       the report (new reference): "ok", "switches", "triples" checked,
 *       "cbd" {nodes, edges, acyclic} (null without links) and "problems"
 *       (at most max_problems messages, "problem_count" all of them);
 *       NULL after "links[i]: ..." on stderr for links the rules do not
 *       name (exit 2)
 */
#ifndef __TAGGER_MAPS_VERIFY_H
#define __TAGGER_MAPS_VERIFY_H

#include <jansson.h>

#include "model/maps.h"

json_t *maps_verify(const struct maps *m, const json_t *links,
		    int max_problems);

#endif /* __TAGGER_MAPS_VERIFY_H */
