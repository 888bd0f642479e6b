// SPDX-License-Identifier: GPL-2.0
/* Ring and line of switches sw1..swN, each with optional hosts. */
#include <stdio.h>

#include "gen/gen.h"
#include "lib/log.h"

static struct topo *chain(const char *kind, int n, int hosts, bool close)
{
	int i, min = close ? 3 : 1;
	struct topo *t;

	if (n < min || n > GEN_MAX_NODES / 2 || hosts < 0 ||
	    (long long)n * (hosts + 1) > GEN_MAX_NODES) {
		p_err("%s: needs %d to %d switches and hosts >= 0 (got %d, %d)",
		      kind, min, GEN_MAX_NODES / 2, n, hosts);
		return NULL;
	}
	t = gen_flat_switches(n, hosts);
	/* A ring of 3 or more is simple; close it with the last link. */
	for (i = 0; i + 1 < n; i++)
		topo_link_auto(t, i, i + 1);
	if (close)
		topo_link_auto(t, n - 1, 0);
	return t;
}

struct topo *topo_gen_ring(int n, int hosts)
{
	return chain("ring", n, hosts, true);
}

struct topo *topo_gen_line(int n, int hosts)
{
	return chain("line", n, hosts, false);
}
