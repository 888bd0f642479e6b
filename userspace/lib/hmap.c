// SPDX-License-Identifier: GPL-2.0
/* Open-addressing hash map of 64-bit keys; see hmap.h. */
#include <stdlib.h>
#include <string.h>

#include "lib/hmap.h"
#include "lib/util.h"

static void alloc_table(struct hmap *m, uint64_t size)
{
	m->e = xmalloc(size * sizeof(*m->e));
	memset(m->e, 0xff, size * sizeof(*m->e));
	m->mask = size - 1;
	m->n = 0;
}

void hmap_init(struct hmap *m, uint64_t hint)
{
	uint64_t size = 16;

	while (size < hint * 2)
		size <<= 1;
	alloc_table(m, size);
}

void hmap_free(struct hmap *m)
{
	free(m->e);
	m->e = NULL;
	m->mask = m->n = 0;
}

static struct hmap_entry *find(const struct hmap *m, uint64_t key)
{
	uint64_t i = hmap_mix(key) & m->mask;

	while (m->e[i].key != key && m->e[i].key != HMAP_EMPTY)
		i = (i + 1) & m->mask;
	return &m->e[i];
}

static void grow(struct hmap *m)
{
	struct hmap_entry *old = m->e;
	uint64_t i, size = m->mask + 1;

	alloc_table(m, size * 2);
	for (i = 0; i < size; i++)
		if (old[i].key != HMAP_EMPTY)
			hmap_put(m, old[i].key, old[i].val);
	free(old);
}

bool hmap_get(const struct hmap *m, uint64_t key, uint64_t *val)
{
	const struct hmap_entry *e = find(m, key);

	if (e->key == HMAP_EMPTY)
		return false;
	if (val)
		*val = e->val;
	return true;
}

uint64_t *hmap_slot(struct hmap *m, uint64_t key, bool *inserted)
{
	struct hmap_entry *e;

	if ((m->n + 1) * 4 > (m->mask + 1) * 3)
		grow(m);
	e = find(m, key);
	if (inserted)
		*inserted = e->key == HMAP_EMPTY;
	if (e->key == HMAP_EMPTY) {
		e->key = key;
		e->val = 0;
		m->n++;
	}
	return &e->val;
}

void hmap_put(struct hmap *m, uint64_t key, uint64_t val)
{
	*hmap_slot(m, key, NULL) = val;
}
