// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: a DCB state's JSON reader (what a data path reads
 * back from its state record) never crashes, and what it accepts writes
 * out and reads back the same.
 */
#include <jansson.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/dcb_state.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	json_t *j = json_loadb((const char *)data, size, 0, NULL), *out;
	struct dcb_state s, back;
	char err[256];

	if (!j)
		return 0;
	if (!dcb_state_from_json(j, &s, err, sizeof(err))) {
		out = dcb_state_json(&s);
		if (!out || dcb_state_from_json(out, &back, err, sizeof(err)) ||
		    memcmp(&s, &back, sizeof(s)))
			abort();
		json_decref(out);
	}
	json_decref(j);
	return 0;
}
