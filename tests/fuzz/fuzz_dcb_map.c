// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the DCB form of every switch of a rule set the parser
 * accepts, with the next hops from the document's "links" (any strings:
 * "node:port" or not, names of switches, hosts or nothing), never crashes
 * or leaks, and keeps its tables in range: app and rewr priorities and
 * tags below 8 and 64, PFC never on the lossy priority, every problem's
 * ports and tag within the switch.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <jansson.h>

#include "lib/log.h"
#include "model/dcb_map.h"
#include "model/rules.h"

#define LINKS_MAX 256

static void check_map(const struct rules *r, const struct dcb_map *m)
{
	int p, k;

	for (p = 0; p < m->nports * RULES_NTAGS; p++)
		if (m->app[p] >= RULES_NPRIOS)
			abort();
	for (p = 0; p < m->nports; p++) {
		if (m->pfc[p] & (1u << r->lossy_prio))
			abort();
		for (k = 0; k < RULES_NPRIOS; k++)
			if ((m->rewr_set[p] & (1u << k)) &&
			    m->rewr[p * RULES_NPRIOS + k] >= RULES_NTAGS)
				abort();
	}
	for (k = 0; k < m->nproblems; k++) {
		const struct dcb_problem *q = &m->problems[k];

		if (q->in >= m->nports || q->out >= m->nports ||
		    q->tag >= RULES_NTAGS || q->kind < 0 ||
		    q->kind >= DCB_KINDS || !q->msg)
			abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *a[LINKS_MAX], *b[LINKS_MAX];
	struct dcb_peer *peers;
	json_error_t jerr;
	struct dcb_map m;
	struct rules *r;
	json_t *root, *l;
	size_t i;
	int n = 0, s;

	log_quiet = true;
	root = json_loadb((const char *)data, size, JSON_REJECT_DUPLICATES,
			  &jerr);
	if (!root)
		return 0;
	r = rules_from_json(root, "fuzz");
	json_array_foreach(json_object_get(root, "links"), i, l) {
		const char *x = json_string_value(json_array_get(l, 0));
		const char *y = json_string_value(json_array_get(l, 1));

		if (x && y && n < LINKS_MAX) {
			a[n] = (char *)x;
			b[n++] = (char *)y;
		}
	}
	for (s = 0; r && s < r->nsw; s++) {
		peers = calloc(r->sw[s].nports + 1, sizeof(*peers));
		if (!peers)
			break;
		dcb_peers(r, s, a, b, n, peers);
		dcb_map_build(r, s, peers, &m);
		check_map(r, &m);
		dcb_map_free(&m);
		dcb_map_build(r, s, NULL, &m);
		check_map(r, &m);
		dcb_map_free(&m);
		free(peers);
	}
	rules_free(r);
	json_decref(root);
	return 0;
}
