/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The Tagger paper's evaluation metrics of a rule set: lossless priorities
 * and tags used, rules in total and per switch, the bottleneck switch.
 *
 * The counts are the report: the -j document and the text are both made
 * from struct rules_stats alone. Its names point into the rules counted,
 * which must outlive it.
 *
 * API:
 *   rules_stats(r, &s)            count (O(switches))
 *   rules_stats_json(&s)          the -j object of tagger stats
 *   rules_stats_print(f, &s, top) the same as text: a summary and a
 *                                 per-switch table of the `top` biggest
 *                                 switches (0: all)
 *   rules_stats_flower(r, &s)     after rules_stats: the tc flower filters
 *                                 each switch needs (model/flower_table.h),
 *                                 all ports' ingress and egress, and its
 *                                 largest port's, and with alike ports'
 *                                 tables in shared blocks as switch attach
 *                                 --shared-blocks binds them (reported if
 *                                 s.shared); the -j object and the
 *                                 text then report them too; -ENOMEM
 *   rules_stats_free(&s)
 */
#ifndef __TAGGER_STATS_H
#define __TAGGER_STATS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <jansson.h>

#include "model/rules.h"

struct switch_stats {
	int sw; /* index in the rules */
	const char *name; /* the rules' */
	int classify;
	int rewrite;
	int total;
	long flower; /* tc flower filters of all ports (rules_stats_flower) */
	long flower_port; /* those of its largest port */
	long flower_shared; /* with alike ports' tables shared (blocks) */
	int flower_blocks; /* the shared blocks that takes */
};

struct rules_stats {
	int priorities; /* lossless priorities a switch must keep */
	uint8_t prio_mask; /* which ones */
	int lossy_prio;
	int lossless_tags;
	int classes;
	int64_t classify;
	int64_t rewrite;
	int64_t total;
	int64_t wildcard; /* rules with a "*" port */
	int nsw;
	struct switch_stats *per; /* biggest first, then by name */
	double avg;
	bool flower; /* rules_stats_flower counted the below */
	int64_t flower_total;
	long flower_min, flower_max, flower_port_max;
	const char *flower_min_name, *flower_max_name;
	const char *flower_port_sw, *flower_port_name; /* the largest port */
	double flower_avg;
	bool shared; /* report the shared-block counts (--shared-blocks) */
	int64_t flower_shared_total, flower_blocks;
	long flower_shared_max;
};

void rules_stats(const struct rules *r, struct rules_stats *s);
json_t *rules_stats_json(const struct rules_stats *s);
void rules_stats_print(FILE *f, const struct rules_stats *s, int top);
int rules_stats_flower(const struct rules *r, struct rules_stats *s);
void rules_stats_free(struct rules_stats *s);

#endif /* __TAGGER_STATS_H */
