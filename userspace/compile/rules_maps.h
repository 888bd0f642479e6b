/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Rules -> per-port maps (model/maps.h), with the fewest classes.
 *
 * The maps reproduce the rules exactly: for every in-port, DSCP 0..63 and
 * out-port, the class's priority is what the rules classify the packet
 * into and the class's DSCP at the out-port is what they rewrite it to (a
 * packet classified lossy leaves with the lossy tag, as on the data
 * plane; a missing rewrite rule is the lossy tag too).
 *
 * Minimum classes: call (priority, new DSCP at every out-port) the
 * behaviour of an (in-port, DSCP) pair. Two pairs in one class behave
 * alike (the class fixes both), and pairs that behave alike can share
 * one, so a switch needs exactly as many classes as it has distinct
 * behaviours: the conflict graph ("differ in priority or at some
 * out-port") is complete multipartite, and one class per part is an
 * optimal colouring, found in one pass without search. Any k + 1 pairs of
 * distinct behaviours witness that k classes do not suffice. Class 0 is
 * the lossy behaviour; the others are numbered by their first pair
 * (in-port order, then DSCP).
 *
 * API:
 *   maps_build(r, max_classes, max_prios, m)
 *       the maps of every switch of r into m: 0, or 1 when a switch needs
 *       more than max_classes classes or more than max_prios lossless
 *       priorities (its refused is set; the others' maps are complete)
 *   maps_refusal(m, ms, f)         why ms is refused, naming the switch and
 *                                  a witness (max_classes + 1 pairs that
 *                                  pairwise need different classes) or its
 *                                  priorities; a line each
 *   maps_refusal_json(m, ms)       the same as an object
 */
#ifndef __TAGGER_RULES_MAPS_H
#define __TAGGER_RULES_MAPS_H

#include <stdio.h>
#include <jansson.h>

#include "model/maps.h"
#include "model/rules.h"

int maps_build(const struct rules *r, int max_classes, int max_prios,
	       struct maps *m);
void maps_refusal(const struct maps *m, const struct maps_switch *ms, FILE *f);
json_t *maps_refusal_json(const struct maps *m, const struct maps_switch *ms);

#endif /* __TAGGER_RULES_MAPS_H */
