// SPDX-License-Identifier: GPL-2.0
/* Which virtual layer each fabric port belongs to; see fc_layout.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fc/fc_layout.h"
#include "fc/fc_topo.h"
#include "lib/util.h"

static void layout_alloc(const struct topo *t, struct fc_layout *L)
{
	int i;

	memset(L, 0, sizeof(*L));
	L->node_tor = xmalloc(t->nnodes * sizeof(int));
	L->tor_node = xmalloc(t->nnodes * sizeof(int));
	L->port_layer = xcalloc(t->nports ? t->nports : 1, sizeof(int));
	for (i = 0; i < t->nnodes; i++) {
		L->node_tor[i] = -1;
		if (topo_is_switch(t, i)) {
			L->node_tor[i] = L->ntors;
			L->tor_node[L->ntors++] = i;
		}
	}
}

void fc_layout_free(struct fc_layout *L)
{
	free(L->tor_node);
	free(L->node_tor);
	free(L->port_layer);
	memset(L, 0, sizeof(*L));
}

static bool is_fabric(const struct topo *t, int port)
{
	return topo_is_switch(t, port_node(t, port)) &&
	       topo_is_switch(t, port_peer_node(t, port));
}

/* Every fabric link must join adjacent virtual layers of two switches. */
static int layout_check(const struct topo *t, struct fc_layout *L, char *err,
			size_t errlen)
{
	int p;

	for (p = 0; p < t->nports; p++) {
		int q = t->ports[p].peer, d;

		if (!is_fabric(t, p))
			continue;
		d = L->port_layer[p] - L->port_layer[q];
		if (port_node(t, p) == port_node(t, q) || (d != 1 && d != -1)) {
			snprintf(err, errlen,
				 "%s:%d: link %s:%s %s:%s joins virtual "
				 "layers %d and %d, not adjacent ones",
				 t->file, t->ports[p].line,
				 t->nodes[port_node(t, p)].name,
				 t->ports[p].name,
				 t->nodes[port_node(t, q)].name,
				 t->ports[q].name, L->port_layer[p],
				 L->port_layer[q]);
			return -1;
		}
		if (L->port_layer[p] > L->k)
			L->k = L->port_layer[p];
	}
	if (L->k < 2) {
		snprintf(err, errlen, "%s: no links between virtual layers",
			 t->file);
		return -1;
	}
	return 0;
}

int fc_layout_from_names(const struct topo *t, struct fc_layout *L, char *err,
			 size_t errlen)
{
	int p;

	layout_alloc(t, L);
	for (p = 0; p < t->nports; p++) {
		if (!is_fabric(t, p))
			continue;
		L->port_layer[p] = fc_port_layer(t, p);
		if (!L->port_layer[p]) {
			snprintf(err, errlen,
				 "%s:%d: port %s:%s has no virtual layer "
				 "(name it v<layer>p<n> or give --split)",
				 t->file, t->ports[p].line,
				 t->nodes[port_node(t, p)].name,
				 t->ports[p].name);
			fc_layout_free(L);
			return -1;
		}
	}
	if (layout_check(t, L, err, errlen)) {
		fc_layout_free(L);
		return -1;
	}
	return 0;
}

static const struct topo *sort_topo;

static int port_name_cmp(const void *a, const void *b)
{
	return strverscmp(sort_topo->ports[*(const int *)a].name,
			  sort_topo->ports[*(const int *)b].name);
}

/*
 * A switch's fabric ports in natural name order (eth2 before eth10), the
 * first l_1 in layer 1, the next l_2 in layer 2, and so on: the way the
 * paper splits the testbed's ports 1 | 2 3 | 4.
 */
static int split_switch(const struct topo *t, struct fc_layout *L, int node,
			const int *split, int k, int *buf)
{
	const struct topo_node *n = &t->nodes[node];
	int x, m = 0, j, acc;

	for (x = 0; x < n->nports; x++)
		if (is_fabric(t, n->ports[x]))
			buf[m++] = n->ports[x];
	sort_topo = t;
	qsort(buf, m, sizeof(int), port_name_cmp);
	for (x = 0, j = 0, acc = 0; x < m; x++) {
		while (j < k && x >= acc + split[j])
			acc += split[j++];
		L->port_layer[buf[x]] = j < k ? j + 1 : 0;
	}
	return m;
}

int fc_layout_from_split(const struct topo *t, const int *split, int k,
			 struct fc_layout *L, char *err, size_t errlen)
{
	int i, j, total = 0, *buf;

	for (j = 0; j < k; j++)
		total += split[j];
	layout_alloc(t, L);
	buf = xmalloc((t->nports + 1) * sizeof(int));
	for (i = 0; i < L->ntors; i++) {
		const struct topo_node *n = &t->nodes[L->tor_node[i]];
		int m = split_switch(t, L, L->tor_node[i], split, k, buf);

		if (m != total) {
			snprintf(err, errlen,
				 "%s:%d: switch %s has %d switch-facing "
				 "ports, the split %d",
				 t->file, n->line, n->name, m, total);
			free(buf);
			fc_layout_free(L);
			return -1;
		}
	}
	free(buf);
	if (layout_check(t, L, err, errlen)) {
		fc_layout_free(L);
		return -1;
	}
	return 0;
}
