/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A small deterministic PRNG for the generators, so one seed gives the same
 * topology or path file on every machine and libc: xoshiro256** seeded by
 * splitmix64 (Blackman and Vigna), bounded draws by Lemire's multiply-and-
 * reject method (no modulo bias).
 *
 * API:
 *   rng_seed(&r, seed)
 *   rng_next(&r)          64 random bits
 *   rng_below(&r, n)      uniform in [0, n), n >= 1
 *   rng_shuffle(&r, a, n) Fisher-Yates on an int array
 */
#ifndef __TAGGER_RNG_H
#define __TAGGER_RNG_H

#include <stdint.h>

struct rng {
	uint64_t s[4];
};

void rng_seed(struct rng *r, uint64_t seed);
uint64_t rng_next(struct rng *r);
uint64_t rng_below(struct rng *r, uint64_t n);
void rng_shuffle(struct rng *r, int *a, int n);

#endif /* __TAGGER_RNG_H */
