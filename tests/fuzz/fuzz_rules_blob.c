// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the rules' binary form (rules_blob.h), which a switch
 * keeps in a pinned map that anyone with root may overwrite, never makes
 * the reader crash, leak or read out of bounds. The input is a rules
 * document: the rules it gives are written as a blob and must read back
 * with the same answers; then every truncation of the blob and, for small
 * blobs, every single-byte change must be refused or give rules whose
 * lookups stay in bounds, and whose switches written as text
 * (rules_text.h) are the bytes of their JSON trees' compact dump.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "fuzz_common.h"
#include "lib/log.h"
#include "model/rules_blob.h"
#include "model/rules_text.h"

#define FLIP_MAX 4096 /* blobs up to this size get every byte changed */

/* Switch sw as text and as a tree's compact dump: the same bytes. */
static void same_text(const struct rules *r, int sw)
{
	json_t *j = rules_switch_json(r, sw);
	char *tree = j ? json_dumps(j, JSON_COMPACT) : NULL, *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	int rc;

	if (!f)
		__builtin_trap();
	rc = rules_switch_write(f, r, sw);
	fclose(f);
	if ((rc == 0) != (tree != NULL) || (tree && strcmp(tree, text)))
		__builtin_trap();
	free(text);
	free(tree);
	json_decref(j);
}

static void decode(const uint8_t *buf, size_t len)
{
	struct rules *r = rules_from_blob(buf, len, "fuzz");
	int sw;

	if (!r)
		return;
	fuzz_probe_rules(r);
	for (sw = 0; sw < r->nsw; sw++)
		same_text(r, sw);
	rules_free(r);
}

/* The blob reads back to rules with the same answers. */
static void round_trip(const struct rules *r, const uint8_t *b, size_t len)
{
	struct rules *back = rules_from_blob(b, len, "fuzz");
	int sw, in, tag, ra, rb;

	if (!back || back->nsw != r->nsw)
		__builtin_trap();
	for (sw = 0; sw < r->nsw; sw++)
		for (tag = 0; tag < RULES_NTAGS; tag++)
			for (in = 0; in < r->sw[sw].nports && in < 4; in++)
				if (rules_classify(r, sw, in, tag, &ra) !=
				    rules_classify(back, sw, in, tag, &rb))
					__builtin_trap();
	rules_free(back);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rules *r;
	uint8_t *b, *m;
	size_t len, i;
	json_t *root;

	log_quiet = true;
	root = json_loadb((const char *)data, size, JSON_REJECT_DUPLICATES,
			  NULL);
	r = root ? rules_from_json(root, "fuzz") : NULL;
	json_decref(root);
	if (!r)
		return 0;
	b = rules_to_blob(r, &len);
	round_trip(r, b, len);
	for (i = 0; i < len; i++)
		decode(b, i);
	if (len <= FLIP_MAX) {
		m = malloc(len);
		for (i = 0; i < len; i++) {
			memcpy(m, b, len);
			m[i] ^= (uint8_t)(data[i % size] | 1);
			decode(m, len);
		}
		free(m);
	}
	free(b);
	rules_free(r);
	return 0;
}
