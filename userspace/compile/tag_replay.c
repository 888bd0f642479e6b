// SPDX-License-Identifier: GPL-2.0
/*
 * The replay algorithm: answers the engine's keys from a map decided
 * elsewhere (the SAT solver's tagging), so a solver's answer becomes rules
 * through the same engine, rule writer and verifier as every algorithm.
 * A key the map lacks turns lossy, which compile reports as lossy paths.
 */
#include <stddef.h>

#include "compile/tag_sat.h"

static void replay_decide(struct tagging *tg, const struct tag_unit *u,
			  uint8_t *tags)
{
	const struct tag_algo_replay *rp =
		(const struct tag_algo_replay *)((const char *)tg->algo -
						 offsetof(
							 struct tag_algo_replay,
							 algo));
	uint64_t v;
	int k;

	for (k = 0; k < u->nkeys; k++)
		tags[k] = hmap_get(rp->keys, u->keys[k], &v) ? (uint8_t)v :
							       TAG_LOSSY;
}

void tag_algo_replay_init(struct tag_algo_replay *rp, const struct hmap *keys)
{
	rp->algo = (struct tag_algo){
		.name = "sat",
		.decide = replay_decide,
	};
	rp->keys = keys;
}
