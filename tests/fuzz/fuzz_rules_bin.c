// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: a compiled rules file (rules_bin.h) is read from
 * anywhere a user points tagger switch update at, so its reader must
 * refuse every damaged, truncated or hostile file without a crash, a
 * leak or a read out of bounds. Each input is read as a file as it is,
 * and if it is a rules document with "links", also written compiled and
 * read back (the same rules and links), then every truncation and, for
 * small files, every single-byte change is read, each with the CRC-32
 * fixed up so that the checks behind it are reached too.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>
#include <zlib.h>

#include "fuzz_common.h"
#include "lib/log.h"
#include "model/rules_bin.h"

#define FLIP_MAX 4096
#define HEAD 32 /* rules_bin.c's header */

static void decode(const uint8_t *buf, size_t len)
{
	json_t *doc = NULL;
	struct rules *r = rules_bin_read(buf, len, "fuzz", &doc);

	if (!r)
		return;
	if (!doc)
		__builtin_trap();
	fuzz_probe_rules(r);
	rules_free(r);
	json_decref(doc);
}

/* The body's CRC made right again, so a change reaches the body's checks. */
static void fix_crc(uint8_t *b, size_t len)
{
	uint32_t c;

	if (len < HEAD)
		return;
	c = (uint32_t)crc32(0L, b + HEAD, (uInt)(len - HEAD));
	memcpy(b + 24, &c, sizeof(c));
}

static void written(const uint8_t *data, size_t size, struct rules *r,
		    json_t *links)
{
	uint8_t *b = NULL, *m;
	size_t len = 0, i;
	json_t *doc = NULL;
	struct rules *back;
	FILE *f = open_memstream((char **)&b, &len);

	if (!f)
		__builtin_trap();
	if (rules_bin_write(f, r, links)) { /* links it cannot hold */
		fclose(f);
		free(b);
		return;
	}
	if (fclose(f))
		__builtin_trap();
	back = rules_bin_read(b, len, "fuzz", &doc);
	if (!back || back->nsw != r->nsw ||
	    !json_equal(json_object_get(doc, "links"), links))
		__builtin_trap();
	rules_free(back);
	json_decref(doc);
	m = malloc(len);
	for (i = 0; i < len; i++) {
		memcpy(m, b, i);
		fix_crc(m, i);
		decode(m, i);
	}
	for (i = 0; len <= FLIP_MAX && i < len; i++) {
		memcpy(m, b, len);
		m[i] ^= (uint8_t)(data[i % size] | 1);
		if (i >= HEAD)
			fix_crc(m, len);
		decode(m, len);
	}
	free(m);
	free(b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rules *r;
	json_t *root;

	log_quiet = true;
	decode(data, size);
	root = json_loadb((const char *)data, size, JSON_REJECT_DUPLICATES,
			  NULL);
	r = root ? rules_from_json(root, "fuzz") : NULL;
	if (r && json_is_array(json_object_get(root, "links")))
		written(data, size, r, json_object_get(root, "links"));
	rules_free(r);
	json_decref(root);
	return 0;
}
