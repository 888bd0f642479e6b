// SPDX-License-Identifier: GPL-2.0
/* String-keyed open-addressing hash map; see strmap.h. */
#include <stdlib.h>
#include <string.h>

#include "lib/strmap.h"
#include "lib/util.h"

static uint32_t hash(const char *s)
{
	uint32_t h = 2166136261u; /* FNV-1a */

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h;
}

static void alloc_table(struct strmap *m, uint32_t size)
{
	m->keys = xcalloc(size, sizeof(*m->keys));
	m->vals = xmalloc(size * sizeof(*m->vals));
	m->mask = size - 1;
	m->n = 0;
}

void strmap_init(struct strmap *m)
{
	alloc_table(m, 64);
}

void strmap_free(struct strmap *m)
{
	uint32_t i;

	for (i = 0; m->keys && i <= m->mask; i++)
		free(m->keys[i]);
	free(m->keys);
	free(m->vals);
	memset(m, 0, sizeof(*m));
}

static uint32_t find(const struct strmap *m, const char *s)
{
	uint32_t i = hash(s) & m->mask;

	while (m->keys[i] && strcmp(m->keys[i], s))
		i = (i + 1) & m->mask;
	return i;
}

int strmap_get(const struct strmap *m, const char *s)
{
	uint32_t i = find(m, s);

	return m->keys[i] ? m->vals[i] : -1;
}

static void grow(struct strmap *m)
{
	char **keys = m->keys;
	int *vals = m->vals;
	uint32_t i, size = m->mask + 1;

	alloc_table(m, size * 2);
	for (i = 0; i < size; i++) {
		if (keys[i]) {
			uint32_t j = find(m, keys[i]);

			m->keys[j] = keys[i];
			m->vals[j] = vals[i];
			m->n++;
		}
	}
	free(keys);
	free(vals);
}

bool strmap_add(struct strmap *m, const char *s, int v)
{
	uint32_t i;

	if ((m->n + 1) * 4 > (m->mask + 1) * 3)
		grow(m);
	i = find(m, s);
	if (m->keys[i])
		return false;
	m->keys[i] = xstrdup(s);
	m->vals[i] = v;
	m->n++;
	return true;
}
