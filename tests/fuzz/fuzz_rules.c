// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the rules parser never crashes or leaks, and a rule
 * set it accepts answers every lookup without reading out of bounds (each
 * switch is probed over all its ports, with "*" too, and every tag).
 */
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "fuzz_common.h"
#include "lib/log.h"
#include "model/rules.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	json_error_t jerr;
	struct rules *r;
	json_t *root;

	log_quiet = true;
	root = json_loadb((const char *)data, size, JSON_REJECT_DUPLICATES,
			  &jerr);
	if (!root)
		return 0;
	r = rules_from_json(root, "fuzz");
	json_decref(root);
	if (r)
		fuzz_probe_rules(r);
	rules_free(r);
	return 0;
}
