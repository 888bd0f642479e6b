// SPDX-License-Identifier: GPL-2.0
/*
 * The prefix trie of the ELP's in-port sequences (tag_sat.h says why a
 * prefix has one tag). Identical paths and shared prefixes collapse, which
 * is what keeps the SAT formula of a million paths small.
 */
#include <stdlib.h>
#include <string.h>

#include "compile/tag_sat.h"
#include "lib/util.h"

struct trie_build {
	struct sat_trie *tr;
	struct hmap child; /* key2(parent + 1, port) -> node */
	struct hmap trans; /* key2(from, to) -> transition */
	int cap, tcap;
};

static int transition(struct trie_build *b, int from, int to)
{
	struct sat_trie *tr = b->tr;
	bool fresh;
	uint64_t *v = hmap_slot(&b->trans, key2(from, to), &fresh);

	if (fresh) {
		if (tr->ntr == b->tcap) {
			b->tcap = b->tcap ? 2 * b->tcap : 1024;
			tr->tr_from =
				xrealloc(tr->tr_from, b->tcap * sizeof(int));
			tr->tr_to = xrealloc(tr->tr_to, b->tcap * sizeof(int));
		}
		tr->tr_from[tr->ntr] = from;
		tr->tr_to[tr->ntr] = to;
		*v = (uint64_t)tr->ntr++;
	}
	return (int)*v;
}

static int child(struct trie_build *b, int parent, int port)
{
	struct sat_trie *tr = b->tr;
	bool fresh;
	uint64_t *v = hmap_slot(&b->child, key2(parent + 1, port), &fresh);

	if (fresh) {
		if (tr->n == b->cap) {
			b->cap = b->cap ? 2 * b->cap : 1024;
			tr->port = xrealloc(tr->port, b->cap * sizeof(int));
			tr->parent = xrealloc(tr->parent, b->cap * sizeof(int));
			tr->tr = xrealloc(tr->tr, b->cap * sizeof(int));
		}
		tr->port[tr->n] = port;
		tr->parent[tr->n] = parent;
		tr->tr[tr->n] =
			parent < 0 ? -1 : transition(b, tr->port[parent], port);
		*v = (uint64_t)tr->n++;
	}
	return (int)*v;
}

void sat_trie_build(const struct topo *t, const struct elp *e,
		    struct sat_trie *tr)
{
	struct trie_build b = { .tr = tr };
	bool *fw = elp_forwarding(t, e);
	int i, k;

	memset(tr, 0, sizeof(*tr));
	hmap_init(&b.child, 1024);
	hmap_init(&b.trans, 1024);
	tr->npaths = e->npaths;
	tr->path_end = xmalloc((e->npaths + 1) * sizeof(int));
	for (i = 0; i < e->npaths; i++) {
		const int32_t *h = elp_hops(e, i);
		int at = -1;

		for (k = 0; k < elp_len(e, i); k++) {
			int in = t->ports[h[k]].peer;

			if (fw[port_node(t, in)])
				at = child(&b, at, in);
		}
		tr->path_end[i] = at;
	}
	hmap_free(&b.child);
	hmap_free(&b.trans);
	free(fw);
}

void sat_trie_free(struct sat_trie *tr)
{
	free(tr->port);
	free(tr->parent);
	free(tr->tr);
	free(tr->tr_from);
	free(tr->tr_to);
	free(tr->path_end);
	memset(tr, 0, sizeof(*tr));
}
