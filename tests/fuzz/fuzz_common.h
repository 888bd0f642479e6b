/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers of the fuzz targets: a topology or a path set parsed from the
 * fuzzer's bytes (not NUL-terminated, so by length), NULL when refused.
 */
#ifndef __TAGGER_FUZZ_COMMON_H
#define __TAGGER_FUZZ_COMMON_H

#include <stddef.h>

#include "lib/lines.h"
#include "model/elp.h"
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

#endif /* __TAGGER_FUZZ_COMMON_H */
