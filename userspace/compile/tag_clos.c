// SPDX-License-Identifier: GPL-2.0
/*
 * Clos bounce tagging (Tagger section 4 and appendix): the tag grows by one
 * each time a packet bounces, i.e. arrives at a switch from a higher layer
 * and leaves it toward a higher layer. Between bounces a packet follows an
 * up-down segment, and up-down segments are CBD-free (the partial order of
 * Flattened Clos theorem 8), so each tag's graph is acyclic and k bounces
 * need k+1 tags, which is optimal (pigeonhole argument of the paper).
 *
 * Needs layer= on every switch; hosts count as below layer 0. A hop that
 * stays inside one layer has no up or down and is rejected.
 */
#include <stdio.h>

#include "lib/log.h"
#include "compile/tagging.h"

static int layer_of(const struct topo *t, int node)
{
	return t->nodes[node].kind == NODE_HOST ? -1 : t->nodes[node].layer;
}

static int check_layers(const struct tagging *tg)
{
	const struct topo *t = tg->t;
	const struct elp *e = tg->e;
	int i, k;

	for (i = 0; i < t->nnodes; i++) {
		if (t->nodes[i].kind == NODE_SWITCH &&
		    t->nodes[i].layer == LAYER_NONE) {
			input_err(
				t->file, t->nodes[i].line,
				"the clos algorithm needs layer= on every switch (\"%s\" has none)",
				t->nodes[i].name);
			return -1;
		}
	}
	for (i = 0; i < e->npaths; i++) {
		const int32_t *h = elp_hops(e, i);

		for (k = 0; k < elp_len(e, i); k++) {
			int a = port_node(t, h[k]), b = port_peer_node(t, h[k]);

			if (layer_of(t, a) == layer_of(t, b)) {
				input_err(
					e->file, e->line[i],
					"hop \"%s\" -> \"%s\" stays in layer %d: not a Clos path "
					"(use --algorithm greedy)",
					t->nodes[a].name, t->nodes[b].name,
					layer_of(t, a));
				return -1;
			}
		}
	}
	return 0;
}

static int clos_begin(struct tagging *tg)
{
	return check_layers(tg);
}

static void clos_decide(struct tagging *tg, const struct tag_unit *u,
			uint8_t *tags)
{
	const struct topo *t = tg->t;
	int k;

	for (k = 0; k < u->nkeys; k++) {
		int in = rule_key_in(u->keys[k]),
		    out = rule_key_out(u->keys[k]);
		int here = layer_of(t, port_node(t, in));
		bool bounce = layer_of(t, port_peer_node(t, in)) > here &&
			      layer_of(t, port_peer_node(t, out)) > here;

		tags[k] = (uint8_t)(rule_key_tag(u->keys[k]) + bounce);
	}
	/*
	 * Theorem 8 makes this impossible on a layered topology; checking it
	 * costs little and turns a proof obligation into a tested invariant.
	 */
	if (!tagging_add_edges(tg, u, tags)) {
		pr_warn("clos: a same-tag cycle at port %d; demoting its keys to lossy\n",
			u->port);
		for (k = 0; k < u->nkeys; k++)
			if (tags[k] == rule_key_tag(u->keys[k]))
				tags[k] = TAG_LOSSY;
	}
}

const struct tag_algo tag_algo_clos = {
	.name = "clos",
	.begin = clos_begin,
	.decide = clos_decide,
};
