/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Hash map from strings to non-negative ints (node names, "node:port").
 *
 * API:
 *   strmap_init/strmap_free
 *   strmap_get(m, s)        value or -1
 *   strmap_add(m, s, v)     false if s is already present (the map copies s)
 */
#ifndef __TAGGER_STRMAP_H
#define __TAGGER_STRMAP_H

#include <stdbool.h>
#include <stdint.h>

struct strmap {
	char **keys;
	int *vals;
	uint32_t mask;
	uint32_t n;
};

void strmap_init(struct strmap *m);
void strmap_free(struct strmap *m);
int strmap_get(const struct strmap *m, const char *s);
bool strmap_add(struct strmap *m, const char *s, int v);

#endif /* __TAGGER_STRMAP_H */
