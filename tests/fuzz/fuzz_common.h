/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers of the fuzz targets: a topology or a path set parsed from the
 * fuzzer's bytes (not NUL-terminated, so by length), NULL when refused;
 * every lookup of a rule set the parser accepted.
 */
#ifndef __TAGGER_FUZZ_COMMON_H
#define __TAGGER_FUZZ_COMMON_H

#include <stddef.h>

#include "lib/lines.h"
#include "model/elp.h"
#include "model/rules.h"
#include "model/topo.h"

static inline struct topo *fuzz_topo(const char *data, size_t len)
{
	struct lines lr;
	struct topo *t;

	lines_open_mem(&lr, "topo", data, len);
	t = topo_parse_lines(&lr);
	lines_close(&lr);
	return t;
}

static inline struct elp *fuzz_elp(const struct topo *t, const char *data,
				   size_t len)
{
	struct lines lr;
	struct elp *e;

	lines_open_mem(&lr, "elp", data, len);
	e = elp_parse_lines(t, &lr);
	lines_close(&lr);
	return e;
}

/* Every lookup of an accepted rule set, so that none reads out of bounds. */
static inline void fuzz_probe_rules(const struct rules *r)
{
	int sw, i, o, tag, rule;

	for (sw = 0; sw < r->nsw; sw++) {
		int n = r->sw[sw].nports < 4 ? r->sw[sw].nports : 4;

		for (tag = 0; tag < RULES_NTAGS; tag++) {
			rules_tag_rank(r, tag);
			for (i = 0; i < n; i++) {
				rules_classify(r, sw, i, tag, &rule);
				for (o = 0; o < n; o++)
					rules_rewrite(r, sw, tag, i, o, &rule);
			}
		}
	}
}

#endif /* __TAGGER_FUZZ_COMMON_H */
