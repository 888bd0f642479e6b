/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A small deterministic PRNG (splitmix64) so that a seed reproduces the same
 * Flattened Clos wiring and the same random traffic on every machine and
 * libc: the outputs are part of what tests and benchmarks compare.
 *
 * API:
 *   fc_rng_seed(&r, seed)
 *   fc_rng_next(&r)          64 random bits
 *   fc_rng_below(&r, n)      uniform in [0, n), n > 0
 *   fc_rng_shuffle(&r, a, n) Fisher-Yates over ints
 */
#ifndef __TAGGER_FC_RNG_H
#define __TAGGER_FC_RNG_H

#include <stdint.h>

struct fc_rng {
	uint64_t s;
};

static inline void fc_rng_seed(struct fc_rng *r, uint64_t seed)
{
	r->s = seed;
}

static inline uint64_t fc_rng_next(struct fc_rng *r)
{
	uint64_t z = (r->s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* Lemire's multiply-shift; the bias for n << 2^64 is negligible here. */
static inline uint64_t fc_rng_below(struct fc_rng *r, uint64_t n)
{
	return (uint64_t)(((unsigned __int128)fc_rng_next(r) * n) >> 64);
}

static inline void fc_rng_shuffle(struct fc_rng *r, int *a, int n)
{
	int i, j, tmp;

	for (i = n - 1; i > 0; i--) {
		j = (int)fc_rng_below(r, (uint64_t)i + 1);
		tmp = a[i];
		a[i] = a[j];
		a[j] = tmp;
	}
}

#endif /* __TAGGER_FC_RNG_H */
