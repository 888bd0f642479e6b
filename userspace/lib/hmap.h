/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Hash map from 64-bit keys to 64-bit values (open addressing, linear
 * probing). The compiler, verifier and parsers key everything they look up
 * per hop by packed integers, so one fast map serves them all.
 *
 * API:
 *   hmap_init/hmap_free
 *   hmap_get(m, key, &val)   true if present
 *   hmap_put(m, key, val)    insert or overwrite
 *   hmap_slot(m, key, &inserted)  pointer to the value, inserting 0 if
 *                            absent
 *   hmap_slot_addr(m, key)   where key's probe starts (to prefetch a few
 *                            keys ahead in a loop over scattered keys)
 *   HMAP_FOR_EACH            iterate (order unspecified)
 * HMAP_EMPTY is reserved and cannot be used as a key.
 */
#ifndef __TAGGER_HMAP_H
#define __TAGGER_HMAP_H

#include <stdbool.h>
#include <stdint.h>

#define HMAP_EMPTY UINT64_MAX

struct hmap_entry {
	uint64_t key;
	uint64_t val;
};

struct hmap {
	struct hmap_entry *e;
	uint64_t mask;
	uint64_t n;
};

static inline uint64_t hmap_mix(uint64_t x)
{
	/* splitmix64 finaliser: packed keys differ in few bits. */
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ULL;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

static inline const struct hmap_entry *hmap_slot_addr(const struct hmap *m,
						      uint64_t key)
{
	return &m->e[hmap_mix(key) & m->mask];
}

void hmap_init(struct hmap *m, uint64_t hint);
void hmap_free(struct hmap *m);
bool hmap_get(const struct hmap *m, uint64_t key, uint64_t *val);
void hmap_put(struct hmap *m, uint64_t key, uint64_t val);
uint64_t *hmap_slot(struct hmap *m, uint64_t key, bool *inserted);

#define HMAP_FOR_EACH(m, it)                                               \
	for ((it) = (m)->e; (it) && (it) < (m)->e + (m)->mask + 1; (it)++) \
		if ((it)->key != HMAP_EMPTY)

/* Pack small fields into one key; callers document their layouts. */
static inline uint64_t key2(uint32_t a, uint32_t b)
{
	return ((uint64_t)a << 32) | b;
}

#endif /* __TAGGER_HMAP_H */
