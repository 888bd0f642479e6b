// SPDX-License-Identifier: GPL-2.0
/*
 * What the flat (layerless) generators share: ring, line, Jellyfish and
 * Xpander all name their switches sw1..swN, hang H hosts off each, and the
 * two random regular graphs check the same size and connectivity limits.
 */
#include <stdio.h>

#include "gen/gen.h"
#include "lib/log.h"

struct topo *gen_flat_switches(int n, int hosts)
{
	struct topo *t = topo_new("-");
	char name[32];
	int i, j;

	for (i = 0; i < n; i++) {
		snprintf(name, sizeof(name), "sw%d", i + 1);
		topo_add_node(t, name, NODE_SWITCH, LAYER_NONE);
	}
	for (i = 0; i < n; i++)
		for (j = 0; j < hosts; j++) {
			int h;

			snprintf(name, sizeof(name), "h%lld",
				 (long long)i * hosts + j + 1);
			h = topo_add_node(t, name, NODE_HOST, LAYER_NONE);
			topo_link_auto(t, h, i);
		}
	return t;
}

bool gen_regular_fits(const char *kind, int n, int d, int hosts)
{
	if ((long long)n * (1 + hosts) > GEN_MAX_NODES ||
	    (long long)n * (d + 2 * hosts) > GEN_MAX_PORTS) {
		p_err("%s: %d switches of degree %d is too large", kind, n, d);
		return false;
	}
	if (n > 2 && d < 2) {
		p_err("%s: %d switches of degree %d cannot be connected", kind,
		      n, d);
		return false;
	}
	return true;
}
