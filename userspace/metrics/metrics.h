/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tagger metrics: the counters of `switch show` and `pfc show` as
 * Prometheus metrics. They are read by the functions that build those
 * commands' -j documents (dp_switch_json, pfc_show_json) and translated
 * from the documents, so both always report the same numbers.
 *
 * API:
 *   struct metrics_nodes          the switches and pause agents to read
 *   metrics_nodes_add(n, kind, name)
 *   metrics_nodes_free(n)
 *   metrics_discover(n)           every switch under the bpffs root and
 *                                 every agent state directory of this
 *                                 network namespace (metrics_discover.c)
 *   metrics_collect(p, n)         all of n into p, with
 *                                 tagger_metrics_collect_success per node;
 *                                 0, or the first failing node's exit code
 *                                 after p_err (metrics_collect.c)
 *   metrics_switch(p, doc)        one `switch show -j` document into p
 *                                 (metrics_switch.c)
 *   metrics_pfc(p, doc)           one `pfc show -j` document into p
 *                                 (metrics_pfc.c)
 */
#ifndef __TAGGER_METRICS_H
#define __TAGGER_METRICS_H

#include <stdbool.h>
#include <jansson.h>

#include "metrics/prom.h"

enum metrics_kind { METRICS_SWITCH, METRICS_PFC };

struct metrics_nodes {
	char **names[2]; /* by enum metrics_kind */
	int n[2];
	bool discover; /* none named: find them on every collection */
};

void metrics_nodes_add(struct metrics_nodes *n, enum metrics_kind kind,
		       const char *name);
void metrics_nodes_free(struct metrics_nodes *n);
int metrics_discover(struct metrics_nodes *n);
int metrics_collect(struct prom *p, const struct metrics_nodes *n);
void metrics_switch(struct prom *p, json_t *doc);
void metrics_pfc(struct prom *p, json_t *doc);

#endif /* __TAGGER_METRICS_H */
