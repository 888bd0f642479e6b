// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the attached rules as a patch of the new ones
 * (model/rules_patch.h). The attached blob comes from a pinned map that
 * anyone with root may overwrite, so every blob of the new rules' length
 * must be refused or give a patch that answers as the blob read whole
 * does. The input is a rules document: its blob, with every single byte
 * changed (small blobs), is diffed against the rules, patched, probed
 * and, where the blob reads whole and passes rules_check, compared
 * lookup by lookup; the tables are also read where they lie in an exact
 * copy of each blob (rules_blob_decode_in).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "fuzz_common.h"
#include "lib/log.h"
#include "model/rules_blob.h"
#include "model/rules_patch.h"

#define FLIP_MAX 4096
#define CHANGES 64

static void same(const struct rules *a, const struct rules *b)
{
	int sw, i, o, tag, n;

	for (sw = 0; sw < a->nsw; sw++) {
		n = a->sw[sw].nports < 4 ? a->sw[sw].nports : 4;
		for (tag = 0; tag < RULES_NTAGS; tag++)
			for (i = 0; i < n; i++) {
				if (rules_classify(a, sw, i, tag, NULL) !=
				    rules_classify(b, sw, i, tag, NULL))
					__builtin_trap();
				for (o = 0; o < n; o++)
					if (rules_rewrite(a, sw, tag, i, o,
							  NULL) !=
					    rules_rewrite(b, sw, tag, i, o,
							  NULL))
						__builtin_trap();
			}
	}
}

/* old: another blob of len bytes, in its own exact allocation. */
static void one(const struct rules *r, const uint8_t *b, const uint8_t *old,
		size_t len)
{
	struct rules_change ch[CHANGES];
	struct rules *p, *whole, *in;
	uint8_t *mem = malloc(len ? len : 1), *cp = malloc(len ? len : 1);
	int n;

	memcpy(mem, old, len);
	memcpy(cp, old, len);
	in = rules_blob_decode_in(cp, len, "fuzz");
	if (in && rules_check(in))
		fuzz_probe_rules(in);
	rules_free(in);
	free(cp);
	n = rules_blob_diff(r, b, mem, len, ch, CHANGES);
	p = n >= 0 ? rules_patch(r, mem, mem, len, ch, n) : NULL;
	if (!p) {
		free(mem);
		return;
	}
	fuzz_probe_rules(p);
	whole = rules_from_blob(old, len, "fuzz");
	if (whole)
		same(p, whole);
	rules_free(whole);
	rules_free(p); /* and mem */
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
	if (rules_blob_layout(r, NULL, NULL) != len)
		__builtin_trap();
	one(r, b, b, len);
	if (len <= FLIP_MAX) {
		m = malloc(len);
		for (i = 0; i < len; i++) {
			memcpy(m, b, len);
			m[i] ^= (uint8_t)(data[i % size] | 1);
			one(r, b, m, len);
		}
		free(m);
	}
	free(b);
	rules_free(r);
	return 0;
}
