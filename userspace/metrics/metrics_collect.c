// SPDX-License-Identifier: GPL-2.0
/* Read every node tagger metrics is to report; see metrics.h. */
#include <limits.h>
#include <string.h>

#include "dataplane/dp_switch.h"
#include "lib/log.h"
#include "metrics/metrics.h"
#include "pfc/pfc_node.h"
#include "pfc/pfc_state.h"

static const char *const kind_names[] = {
	[METRICS_SWITCH] = "switch",
	[METRICS_PFC] = "pfc",
};

static int read_node(enum metrics_kind kind, const char *name, json_t **doc)
{
	struct dp_opts o = { .name = name, .class_id = -1 };
	char dir[PATH_MAX];

	if (kind == METRICS_SWITCH)
		return dp_switch_json(&o, doc);
	if (pfc_dir(name, dir, sizeof(dir))) {
		p_err("%s: state directory name too long", name);
		return EXIT_USAGE;
	}
	return pfc_show_json(name, dir, doc);
}

/* One node; a node that cannot be read is reported, not fatal, to serve. */
static int collect_one(struct prom *p, enum metrics_kind kind, const char *name)
{
	struct prom_label l[] = { { "kind", kind_names[kind] },
				  { "node", name } };
	json_t *doc = NULL;
	int r = read_node(kind, name, &doc);

	prom_add(p, "tagger_metrics_collect_success", PROM_GAUGE,
		 "1 if a node's counters could be read at this collection.", l,
		 2, !r);
	if (r)
		return r;
	if (kind == METRICS_SWITCH)
		metrics_switch(p, doc);
	else
		metrics_pfc(p, doc);
	json_decref(doc);
	return 0;
}

int metrics_collect(struct prom *p, const struct metrics_nodes *n)
{
	struct metrics_nodes found = { 0 };
	const struct metrics_nodes *use = n;
	int k, i, r, ret = 0;

	if (n->discover) {
		ret = metrics_discover(&found);
		use = &found;
	}
	for (k = 0; k < 2; k++)
		for (i = 0; i < use->n[k]; i++) {
			r = collect_one(p, k, use->names[k][i]);
			ret = ret ?: r;
		}
	metrics_nodes_free(&found);
	return ret;
}
