// SPDX-License-Identifier: GPL-2.0
/*
 * Brute-force tagging (Tagger, algorithm 1): the tag grows by one at every
 * hop, so it is the hop index (plus the class offset). Every edge goes
 * from tag t to t+1; no tag's graph has an edge, let alone a cycle. Uses
 * as many tags as the longest path has switches.
 */
#include "compile/tagging.h"

static void brute_decide(struct tagging *tg, const struct tag_unit *u,
			 uint8_t *tags)
{
	int k;

	for (k = 0; k < u->nkeys; k++)
		tags[k] = (uint8_t)(rule_key_tag(u->keys[k]) + 1);
}

const struct tag_algo tag_algo_brute = {
	.name = "brute",
	.decide = brute_decide,
};
