/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The network graph every part of tagger works on: switches and hosts,
 * their ports, and point-to-point links between ports.
 *
 * Ports have global ids. A port belongs to exactly one link, so a directed
 * link is named by the port it leaves from, and the port it enters by is
 * ports[p].peer. Paths, rules and dependency graphs all speak in port ids.
 *
 * API:
 *   topo_new/topo_free
 *   topo_add_node(t, name, kind, layer)       node id, or -1 if the name exists
 *   topo_add_link(t, a, pa, b, pb)            port id of a's end, -1 (and
 *                                             nothing added) if a port name
 *                                             is taken or too long
 *   topo_link_auto(t, a, b)                   link with generated port names
 *   topo_find_node/topo_find_port/topo_port_toward
 *   topo_parse(path) / topo_parse_lines(lr)   NULL after "file:line: ..."
 *   topo_write(f, t)                          the text format back
 */
#ifndef __TAGGER_TOPO_H
#define __TAGGER_TOPO_H

#include <stdbool.h>
#include <stdio.h>

#include "lib/hmap.h"
#include "lib/lines.h"
#include "lib/strmap.h"

enum node_kind {
	NODE_SWITCH,
	NODE_HOST,
};

#define LAYER_NONE (-1)
#define PORT_NONE (-1)
#define PORT_AMBIGUOUS (-2)

struct topo_port {
	char *name;
	int node;
	int peer; /* the port at the other end of the link */
	int line; /* line of the link statement, 0 if generated */
};

struct topo_node {
	char *name;
	enum node_kind kind;
	int layer; /* LAYER_NONE where the topology has no layers */
	int line;
	int *ports; /* global port ids, in declaration order */
	int nports;
	int ports_cap;
};

struct topo {
	char *file;
	struct topo_node *nodes;
	int nnodes;
	int nodes_cap;
	struct topo_port *ports;
	int nports;
	int ports_cap;
	struct strmap names; /* node name -> node id */
	struct strmap port_names; /* "node:port" -> port id */
	struct hmap adj; /* key2(a, b) -> port of a toward b */
};

struct topo *topo_new(const char *file);
void topo_free(struct topo *t);
int topo_add_node(struct topo *t, const char *name, enum node_kind kind,
		  int layer);
int topo_add_link(struct topo *t, int a, const char *pa, int b, const char *pb);
int topo_link_auto(struct topo *t, int a, int b);
int topo_find_node(const struct topo *t, const char *name);
int topo_find_port(const struct topo *t, int node, const char *port);
int topo_port_toward(const struct topo *t, int a, int b);
int topo_nswitches(const struct topo *t);
bool topo_has_layers(const struct topo *t);

struct topo *topo_parse(const char *path);
struct topo *topo_parse_lines(struct lines *lr);
int topo_write(FILE *f, const struct topo *t);

static inline bool topo_is_switch(const struct topo *t, int node)
{
	return t->nodes[node].kind == NODE_SWITCH;
}

/* The node a port belongs to, and the node at the other end of its link. */
static inline int port_node(const struct topo *t, int port)
{
	return t->ports[port].node;
}

static inline int port_peer_node(const struct topo *t, int port)
{
	return t->ports[t->ports[port].peer].node;
}

#endif /* __TAGGER_TOPO_H */
