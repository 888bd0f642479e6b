// SPDX-License-Identifier: GPL-2.0
/* Endpoints of generated paths: hosts, switches or ToRs; see gen.h. */
#include <stdlib.h>
#include <string.h>

#include "gen/gen.h"
#include "lib/log.h"
#include "lib/util.h"

int gen_between_parse(const char *s, enum gen_between *out)
{
	static const char *const names[] = { "auto", "hosts", "switches",
					     "tors" };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(names); i++)
		if (!strcmp(s, names[i])) {
			*out = (enum gen_between)i;
			return 0;
		}
	p_err("--between wants hosts, switches or tors, not \"%s\"", s);
	return -1;
}

static bool has_host(const struct topo *t, int v)
{
	const struct topo_node *n = &t->nodes[v];
	int i;

	for (i = 0; i < n->nports; i++)
		if (t->nodes[port_peer_node(t, n->ports[i])].kind == NODE_HOST)
			return true;
	return false;
}

static bool is_end(const struct topo *t, int v, enum gen_between b, bool layers)
{
	const struct topo_node *n = &t->nodes[v];

	switch (b) {
	case BETWEEN_HOSTS:
		return n->kind == NODE_HOST;
	case BETWEEN_SWITCHES:
		return n->kind == NODE_SWITCH;
	case BETWEEN_TORS:
		if (n->kind != NODE_SWITCH)
			return false;
		return layers ? n->layer == 0 : has_host(t, v);
	default:
		return false;
	}
}

int gen_ends(const struct topo *t, enum gen_between between, bool relay_hosts,
	     struct gen_ends *ends)
{
	static const char *const what[] = { "", "hosts", "switches", "ToRs" };
	bool layers = topo_has_layers(t);
	int v, cap = 0;

	if (between == BETWEEN_AUTO)
		between = topo_nswitches(t) < t->nnodes ? BETWEEN_HOSTS :
							  BETWEEN_SWITCHES;
	*ends = (struct gen_ends){ .relay_hosts = relay_hosts };
	for (v = 0; v < t->nnodes; v++)
		if (is_end(t, v, between, layers))
			VEC_PUSH(ends->node, ends->n, cap, v);
	if (ends->n < 2) {
		p_err("%s: fewer than two %s to connect", t->file,
		      what[between]);
		gen_ends_free(ends);
		return -1;
	}
	return 0;
}

void gen_ends_free(struct gen_ends *ends)
{
	free(ends->node);
	ends->node = NULL;
	ends->n = 0;
}
