// SPDX-License-Identifier: GPL-2.0
/*
 * BCube dimension-order routing (BCubeRouting of Guo et al., SIGCOMM 2009):
 * from server A to server B, correct one differing address digit at a time,
 * each time through the switch of that level to the server that has B's
 * digit there. Digits are corrected from level k down to 0 by default
 * (BCubeRouting with the permutation [k, ..., 0]), or from 0 up. A path is
 * server, switch, server, ..., 2 x (number of differing digits) hops.
 * BCUBE_PARALLEL gives, per pair, one such path for every differing digit
 * i, correcting from level i down cyclically (DCRouting(A, B, i), the
 * parallel paths of BCube's BuildPathSet without the detour paths
 * AltDCRouting adds for equal digits).
 *
 * The address is read from the wiring, not from names: server port i leads
 * to its level-i switch, and a server's digit i is its position among that
 * switch's ports (the layout topo_gen_bcube() writes). The whole structure
 * is checked first, so a topology that is not such a BCube is refused
 * instead of routed wrongly.
 */
#include <stdlib.h>
#include <string.h>

#include "gen/gen.h"
#include "lib/log.h"
#include "lib/util.h"

struct bcube {
	int n, k; /* BCube(n,k) */
	long long servers;
	long long *addr; /* per node: address of a server, -1 else */
	int *level; /* per node: level of a switch, -1 else */
};

static int bc_err(const struct topo *t, const char *what, const char *name)
{
	p_err("%s: not a BCube as \"tagger topo bcube\" wires it: %s%s%s",
	      t->file, what, name ? " at " : "", name ? name : "");
	return -1;
}

static int switch_pos(const struct topo *t, int sw, int port)
{
	const struct topo_node *n = &t->nodes[sw];
	int i;

	for (i = 0; i < n->nports; i++)
		if (n->ports[i] == port)
			return i;
	return -1;
}

/* Levels of switches, digits of servers, and every consistency check. */
static int bc_read(const struct topo *t, struct bcube *b)
{
	long long pw = 1;
	int v, i, seen_host = 0;
	char *taken;

	b->n = b->k = -1;
	b->addr = xmalloc(t->nnodes * sizeof(*b->addr));
	b->level = xmalloc(t->nnodes * sizeof(*b->level));
	for (v = 0; v < t->nnodes; v++) {
		b->addr[v] = -1;
		b->level[v] = -1;
		if (t->nodes[v].kind == NODE_SWITCH) {
			if (b->n < 0)
				b->n = t->nodes[v].nports;
			if (t->nodes[v].nports != b->n || b->n < 2)
				return bc_err(t,
					      "switches differ in port count",
					      t->nodes[v].name);
			continue;
		}
		if (!seen_host++)
			b->k = t->nodes[v].nports - 1;
		if (t->nodes[v].nports != b->k + 1 || b->k < 0)
			return bc_err(t, "servers differ in port count",
				      t->nodes[v].name);
	}
	if (b->n < 0 || b->k < 0)
		return bc_err(t, "needs servers (hosts) and switches", NULL);
	b->servers = 1;
	for (i = 0; i <= b->k; i++) {
		b->servers *= b->n;
		if (b->servers > seen_host)
			break;
	}
	if (b->servers != seen_host)
		return bc_err(t, "server count is not n^(k+1)", NULL);
	for (v = 0; v < t->nnodes; v++) {
		const struct topo_node *n = &t->nodes[v];

		if (n->kind != NODE_HOST)
			continue;
		b->addr[v] = 0;
		for (i = 0, pw = 1; i <= b->k; i++, pw *= b->n) {
			int sw = port_peer_node(t, n->ports[i]);

			if (t->nodes[sw].kind != NODE_SWITCH)
				return bc_err(t, "server linked to a server",
					      n->name);
			if (b->level[sw] >= 0 && b->level[sw] != i)
				return bc_err(t, "switch on two levels",
					      t->nodes[sw].name);
			b->level[sw] = i;
			b->addr[v] +=
				switch_pos(t, sw, t->ports[n->ports[i]].peer) *
				pw;
		}
	}
	taken = xcalloc(b->servers, 1);
	for (v = 0; v < t->nnodes; v++) {
		if (b->addr[v] < 0)
			continue;
		if (taken[b->addr[v]]++) {
			free(taken);
			return bc_err(t, "two servers with one address",
				      t->nodes[v].name);
		}
	}
	free(taken);
	return 0;
}

/* Every server of a level-i switch agrees on all digits but i. */
static int bc_check_switches(const struct topo *t, const struct bcube *b)
{
	int v, i;

	for (v = 0; v < t->nnodes; v++) {
		const struct topo_node *n = &t->nodes[v];
		long long pw = 1, rest = -1;

		if (n->kind != NODE_SWITCH)
			continue;
		if (b->level[v] < 0)
			return bc_err(t, "switch without servers", n->name);
		for (i = 0; i < b->level[v]; i++)
			pw *= b->n;
		for (i = 0; i < n->nports; i++) {
			int s = port_peer_node(t, n->ports[i]);
			long long a = b->addr[s];

			if (a < 0)
				return bc_err(t, "switch linked to a switch",
					      n->name);
			a -= a / pw % b->n * pw;
			if (rest >= 0 && a != rest)
				return bc_err(
					t,
					"servers of a switch differ in more than its digit",
					n->name);
			rest = a;
		}
	}
	return 0;
}

static void bc_free(struct bcube *b)
{
	free(b->addr);
	free(b->level);
}

static long long digit(const struct bcube *b, long long addr, int i)
{
	while (i--)
		addr /= b->n;
	return addr % b->n;
}

/*
 * Correct the differing digits level by level, starting at level first and
 * going down (or up) cyclically: BCube's DCRouting(A, B, first).
 */
static int route(const struct topo *t, const struct bcube *b, int src,
		 long long dst_addr, int first, bool down, int32_t *path)
{
	int step, len = 0, u = src, levels = b->k + 1;

	for (step = 0; step < levels; step++) {
		int i = ((down ? first - step : first + step) % levels +
			 levels) %
			levels;
		int d = (int)digit(b, dst_addr, i), sw;

		if (digit(b, b->addr[u], i) == d)
			continue;
		path[len++] = t->nodes[u].ports[i];
		sw = port_peer_node(t, path[len - 1]);
		path[len++] = t->nodes[sw].ports[d];
		u = port_peer_node(t, path[len - 1]);
	}
	return len;
}

static void emit_pair(const struct topo *t, const struct bcube *b, int src,
		      int dst, enum bcube_order order, int32_t *path,
		      struct path_sink *s)
{
	long long a = b->addr[src], z = b->addr[dst];
	int i;

	if (order == BCUBE_HIGH_FIRST) {
		sink_emit(s, path, route(t, b, src, z, b->k, true, path));
	} else if (order == BCUBE_LOW_FIRST) {
		sink_emit(s, path, route(t, b, src, z, 0, false, path));
	} else {
		for (i = b->k; i >= 0; i--)
			if (digit(b, a, i) != digit(b, z, i))
				sink_emit(s, path,
					  route(t, b, src, z, i, true, path));
	}
}

int paths_bcube(const struct topo *t, const struct gen_ends *ends,
		enum bcube_order order, struct path_sink *s)
{
	struct bcube b;
	int32_t *path;
	int d, i;

	if (bc_read(t, &b) || bc_check_switches(t, &b)) {
		bc_free(&b);
		return -1;
	}
	for (i = 0; i < ends->n; i++)
		if (b.addr[ends->node[i]] < 0) {
			p_err("%s: BCube paths run between servers, %s is a switch",
			      t->file, t->nodes[ends->node[i]].name);
			bc_free(&b);
			return -1;
		}
	path = xmalloc((2 * b.k + 3) * sizeof(*path));
	for (d = 0; d < ends->n; d++)
		for (i = 0; i < ends->n; i++)
			if (i != d)
				emit_pair(t, &b, ends->node[i], ends->node[d],
					  order, path, s);
	free(path);
	bc_free(&b);
	return 0;
}
