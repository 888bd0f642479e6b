// SPDX-License-Identifier: GPL-2.0
/* The network graph: nodes, ports, links; see topo.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/topo.h"
#include "lib/util.h"

struct topo *topo_new(const char *file)
{
	struct topo *t = xcalloc(1, sizeof(*t));

	t->file = xstrdup(file ? file : "-");
	strmap_init(&t->names);
	strmap_init(&t->port_names);
	hmap_init(&t->adj, 64);
	return t;
}

void topo_free(struct topo *t)
{
	int i;

	if (!t)
		return;
	for (i = 0; i < t->nnodes; i++) {
		free(t->nodes[i].name);
		free(t->nodes[i].ports);
	}
	for (i = 0; i < t->nports; i++)
		free(t->ports[i].name);
	free(t->nodes);
	free(t->ports);
	strmap_free(&t->names);
	strmap_free(&t->port_names);
	hmap_free(&t->adj);
	free(t->file);
	free(t);
}

int topo_add_node(struct topo *t, const char *name, enum node_kind kind,
		  int layer)
{
	struct topo_node n = { .kind = kind, .layer = layer };

	if (!strmap_add(&t->names, name, t->nnodes))
		return -1;
	n.name = xstrdup(name);
	VEC_PUSH(t->nodes, t->nnodes, t->nodes_cap, n);
	return t->nnodes - 1;
}

/* "node:port" of two names of at most NAME_MAX_LEN bytes each */
#define PORT_KEY_LEN (2 * NAME_MAX_LEN + 2)

static int port_key(char *buf, size_t len, const struct topo *t, int node,
		    const char *port)
{
	return snprintf(buf, len, "%s:%s", t->nodes[node].name, port) <
			       (int)len ?
		       0 :
		       -1;
}

static int add_port(struct topo *t, int node, const char *name)
{
	struct topo_port p = { .node = node, .peer = -1 };
	struct topo_node *n = &t->nodes[node];
	char key[PORT_KEY_LEN];

	if (port_key(key, sizeof(key), t, node, name) ||
	    !strmap_add(&t->port_names, key, t->nports))
		return -1;
	p.name = xstrdup(name);
	VEC_PUSH(t->ports, t->nports, t->ports_cap, p);
	VEC_PUSH(n->ports, n->nports, n->ports_cap, t->nports - 1);
	return t->nports - 1;
}

static void note_adjacency(struct topo *t, int a, int b, int pa)
{
	bool fresh;
	uint64_t *v = hmap_slot(&t->adj, key2(a, b), &fresh);

	/* Parallel links make "a b" ambiguous: the path must name the port. */
	*v = fresh ? (uint64_t)pa : (uint64_t)(int64_t)PORT_AMBIGUOUS;
}

static bool port_fits(const struct topo *t, int node, const char *port)
{
	char key[PORT_KEY_LEN];

	return !port_key(key, sizeof(key), t, node, port);
}

/* All or nothing: a failure leaves no half-added port behind. */
int topo_add_link(struct topo *t, int a, const char *pa, int b, const char *pb)
{
	int x, y;

	if (!port_fits(t, a, pa) || !port_fits(t, b, pb) ||
	    (a == b && !strcmp(pa, pb)) || topo_find_port(t, a, pa) >= 0 ||
	    topo_find_port(t, b, pb) >= 0)
		return -1;
	x = add_port(t, a, pa);
	y = add_port(t, b, pb);
	t->ports[x].peer = y;
	t->ports[y].peer = x;
	note_adjacency(t, a, b, x);
	note_adjacency(t, b, a, y);
	return x;
}

/*
 * Generated port names: hosts count from eth0, switches from eth1, the way
 * Linux hosts and whitebox switches usually name their data ports.
 */
static void next_port_name(const struct topo *t, int node, char *buf,
			   size_t len)
{
	int i = t->nodes[node].kind == NODE_HOST ? 0 : 1;

	for (;; i++) {
		snprintf(buf, len, "eth%d", i);
		if (topo_find_port(t, node, buf) < 0)
			return;
	}
}

int topo_link_auto(struct topo *t, int a, int b)
{
	char pa[32], pb[32];

	next_port_name(t, a, pa, sizeof(pa));
	next_port_name(t, b, pb, sizeof(pb));
	return topo_add_link(t, a, pa, b, pb);
}

int topo_find_node(const struct topo *t, const char *name)
{
	return strmap_get(&t->names, name);
}

int topo_find_port(const struct topo *t, int node, const char *port)
{
	char key[PORT_KEY_LEN];

	if (port_key(key, sizeof(key), t, node, port))
		return -1;
	return strmap_get(&t->port_names, key);
}

/* Port of a whose link leads to b: PORT_NONE, PORT_AMBIGUOUS or the id. */
int topo_port_toward(const struct topo *t, int a, int b)
{
	uint64_t v;

	if (!hmap_get(&t->adj, key2(a, b), &v))
		return PORT_NONE;
	return (int)(int64_t)v;
}

int topo_nswitches(const struct topo *t)
{
	int i, n = 0;

	for (i = 0; i < t->nnodes; i++)
		n += t->nodes[i].kind == NODE_SWITCH;
	return n;
}

bool topo_has_layers(const struct topo *t)
{
	int i;

	for (i = 0; i < t->nnodes; i++)
		if (t->nodes[i].kind == NODE_SWITCH &&
		    t->nodes[i].layer == LAYER_NONE)
			return false;
	return topo_nswitches(t) > 0;
}

int topo_write(FILE *f, const struct topo *t)
{
	int i;

	for (i = 0; i < t->nnodes; i++) {
		const struct topo_node *n = &t->nodes[i];

		if (n->kind == NODE_HOST)
			fprintf(f, "host %s\n", n->name);
		else if (n->layer == LAYER_NONE)
			fprintf(f, "switch %s\n", n->name);
		else
			fprintf(f, "switch %s layer=%d\n", n->name, n->layer);
	}
	for (i = 0; i < t->nports; i++) {
		const struct topo_port *p = &t->ports[i],
				       *q = &t->ports[p->peer];

		if (p->peer < i)
			continue;
		fprintf(f, "link %s:%s %s:%s\n", t->nodes[p->node].name,
			p->name, t->nodes[q->node].name, q->name);
	}
	return ferror(f) ? -1 : 0;
}
