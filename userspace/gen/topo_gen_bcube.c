// SPDX-License-Identifier: GPL-2.0
/*
 * BCube(n,k) (Guo et al., SIGCOMM 2009): n^(k+1) servers, each with k+1
 * ports, and k+1 levels of n^k n-port switches. A server's address is k+1
 * base-n digits a_k..a_0; the level-i switch of a server joins the n servers
 * that differ from it only in digit i. Servers relay traffic, so they are
 * hosts with several ports, and there are no layers.
 *
 * Server port eth<i> goes to its level-i switch; switch port eth<d+1> goes
 * to the server whose digit i is d. paths_bcube() relies on that order and
 * checks it.
 */
#include <stdio.h>
#include <string.h>

#include "gen/gen.h"
#include "lib/log.h"

/* Digits of x (k+1 of them), most significant first, skipping digit skip. */
static void digits(char *buf, size_t len, long long x, int n, int k, int skip)
{
	long long p = 1;
	size_t o = 0;
	int i;

	for (i = 0; i < k; i++)
		p *= n;
	buf[0] = '\0';
	for (i = k; i >= 0; i--, p /= n) {
		int d = (int)(x / p % n);

		if (i == skip)
			continue;
		o += snprintf(buf + o, len - o, "%s%d", o && n > 10 ? "." : "",
			      d);
	}
}

static bool bcube_valid(int n, int k)
{
	long long servers = 1;
	int i;

	if (n < 2 || k < 0) {
		p_err("bcube: needs n >= 2 and k >= 0 (got %d, %d)", n, k);
		return false;
	}
	for (i = 0; i <= k; i++) {
		servers *= n;
		if (servers > GEN_MAX_NODES) {
			p_err("bcube: BCube(%d,%d) is too large", n, k);
			return false;
		}
	}
	if (servers + (k + 1) * servers / n > GEN_MAX_NODES ||
	    2 * (k + 1) * servers > GEN_MAX_PORTS) {
		p_err("bcube: BCube(%d,%d) is too large", n, k);
		return false;
	}
	return true;
}

struct topo *topo_gen_bcube(int n, int k)
{
	long long servers = n, per_level, pi, x, sw;
	char name[96], dig[80];
	int level, d, sw0;
	struct topo *t;

	if (!bcube_valid(n, k))
		return NULL;
	for (level = 0; level < k; level++)
		servers *= n;
	per_level = servers / n;
	t = topo_new("-");
	for (x = 0; x < servers; x++) {
		digits(dig, sizeof(dig), x, n, k, -1);
		snprintf(name, sizeof(name), "s%s", dig);
		topo_add_node(t, name, NODE_HOST, LAYER_NONE);
	}
	sw0 = t->nnodes;
	for (level = 0, pi = 1; level <= k; level++, pi *= n)
		for (sw = 0; sw < per_level; sw++) {
			x = sw / pi * pi * n +
			    sw % pi; /* its server with digit 0 */
			digits(dig, sizeof(dig), x, n, k, level);
			if (k)
				snprintf(name, sizeof(name), "w%d-%s", level,
					 dig);
			else
				snprintf(name, sizeof(name), "w%d", level);
			topo_add_node(t, name, NODE_SWITCH, LAYER_NONE);
		}
	for (level = 0, pi = 1; level <= k; level++, pi *= n)
		for (sw = 0; sw < per_level; sw++)
			for (d = 0; d < n; d++) {
				x = sw / pi * pi * n + d * pi + sw % pi;
				topo_link_auto(
					t, (int)x,
					sw0 + (int)(level * per_level + sw));
			}
	return t;
}
