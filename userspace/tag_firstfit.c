// SPDX-License-Identifier: GPL-2.0
/* Experimental: per-key first fit. */
#include "tagging.h"

static void ff_decide(struct tagging *tg, const struct tag_unit *u, uint8_t *tags)
{
	int k;

	for (k = 0; k < u->nkeys; k++) {
		struct tag_unit one = *u;
		int tag = rule_key_tag(u->keys[k]);

		one.keys = &u->keys[k];
		one.nkeys = 1;
		tags[k] = (uint8_t)tag;
		if (!tagging_add_edges(tg, &one, &tags[k]))
			tags[k] = (uint8_t)(tag + 1);
	}
}

const struct tag_algo tag_algo_firstfit = {
	.name = "firstfit",
	.decide = ff_decide,
};
