// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: every path generator on any topology the parser
 * accepts (parallel links, multi-homed hosts, odd layers, islands) never
 * crashes or leaks, and emits only walks of the topology.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "gen/gen.h"
#include "fuzz_common.h"
#include "lib/log.h"
#include "model/topo.h"

static const struct topo *cur;

static void check_walk(struct path_sink *s, const int32_t *h, int n)
{
	int k;

	if (n < 1)
		__builtin_trap();
	for (k = 0; k < n; k++) {
		if (h[k] < 0 || h[k] >= cur->nports)
			__builtin_trap();
		if (k + 1 < n &&
		    port_peer_node(cur, h[k]) != port_node(cur, h[k + 1]))
			__builtin_trap();
	}
}

static void run(const struct topo *t, enum gen_between b, bool relay)
{
	struct shortest_opts first = { 0 }, rnd = { .random = true, .seed = 5 };
	struct path_sink s = { .emit = check_walk };
	struct gen_ends ends;

	if (gen_ends(t, b, relay, &ends))
		return;
	paths_shortest(t, &ends, &first, &s);
	paths_shortest(t, &ends, &rnd, &s);
	paths_ecmp(t, &ends, 4, &s);
	paths_ksp(t, &ends, 3, 1, &s);
	if (t->nports <= 60) {
		paths_updown(t, &ends, &s);
		paths_bounce(t, &ends, 1, false, &s);
		paths_bounce(t, &ends, 1, true, &s);
	}
	paths_bcube(t, &ends, BCUBE_HIGH_FIRST, &s);
	gen_ends_free(&ends);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct topo *t;

	log_quiet = true;
	t = fuzz_topo((const char *)data, size);
	if (t && t->nnodes <= 40 && t->nports <= 200) {
		cur = t;
		run(t, BETWEEN_AUTO, false);
		run(t, BETWEEN_SWITCHES, true);
		run(t, BETWEEN_TORS, false);
	}
	topo_free(t);
	return 0;
}
