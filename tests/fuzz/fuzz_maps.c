// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the maps reader never crashes or leaks; maps it
 * accepts answer every query without reading out of bounds, their rules
 * (compile/maps_rules.h) read back, answer every lookup and reproduce
 * the maps (the independent check), and the maps document they write
 * reads back.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <jansson.h>

#include "analyze/maps_verify.h"
#include "compile/maps_rules.h"
#include "fuzz_common.h"
#include "lib/log.h"
#include "model/maps.h"

static void probe(const struct maps *m)
{
	int s, in, d, c, out;

	for (s = 0; s < m->nsw; s++) {
		const struct maps_switch *ms = maps_find(m, s);
		int n = ms->nports < 4 ? ms->nports : 4;

		for (in = 0; in < n; in++)
			for (d = 0; d < RULES_NTAGS; d++)
				maps_class(ms, in, d);
		for (c = 0; c < maps_known(ms); c++)
			for (out = 0; out < n; out++)
				maps_queue(m, ms, c, out);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	json_t *root, *rdoc, *mdoc, *rep;
	struct rules *skel, *run, *back;
	json_error_t jerr;
	struct maps m, m2;

	log_quiet = true;
	root = json_loadb((const char *)data, size, JSON_REJECT_DUPLICATES,
			  &jerr);
	if (!root)
		return 0;
	skel = maps_from_json(root, "fuzz", &m);
	json_decref(root);
	if (!skel)
		return 0;
	probe(&m);
	maps_set_limits(&m, MAPS_MAX_CLASSES, RULES_NPRIOS);
	rdoc = maps_rules_json(&m, NULL);
	run = rules_from_json(rdoc, "fuzz");
	if (!run)
		abort(); /* the reader's checks are the rules reader's */
	fuzz_probe_rules(run);
	m.r = run;
	rep = maps_verify(&m, NULL, 1);
	if (!json_is_true(json_object_get(rep, "ok")))
		abort(); /* the rules do not do what the maps say */
	json_decref(rep);
	mdoc = maps_json(&m, "fuzz");
	back = maps_from_json(mdoc, "fuzz", &m2);
	if (!back)
		abort(); /* what the writer writes, the reader reads */
	maps_free(&m2);
	rules_free(back);
	json_decref(mdoc);
	rules_free(run);
	json_decref(rdoc);
	maps_free(&m);
	rules_free(skel);
	return 0;
}
