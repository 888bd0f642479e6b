// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the ELP parser never crashes or leaks. The input is a
 * topology and a path set separated by a line "%%", so both the grammar
 * and the hop resolution (parallel links, named ports) are explored.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "model/elp.h"
#include "fuzz_common.h"
#include "lib/log.h"
#include "model/topo.h"

static const char fallback[] =
	"switch a layer=0\nswitch b layer=1\nswitch c\nhost h\n"
	"link a:1 b:1\nlink a:2 b:2\nlink b:3 c:1\nlink h:0 a:3\n";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *in = (const char *)data, *sep = memmem(in, size, "%%\n", 3);
	const char *topo = fallback, *paths = in;
	size_t tlen = sizeof(fallback) - 1, plen = size;
	struct topo *t;
	struct elp *e;

	log_quiet = true;
	if (sep) {
		topo = in;
		tlen = sep - in;
		paths = sep + 3;
		plen = size - tlen - 3;
	}
	t = fuzz_topo(topo, tlen);
	if (!t)
		return 0;
	e = fuzz_elp(t, paths, plen);
	elp_free(e);
	topo_free(t);
	return 0;
}
