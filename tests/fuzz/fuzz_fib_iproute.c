// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the reader of "ip -j route" never crashes or leaks,
 * as either family, and what it accepts can be looked up and walked.
 */
#include <stddef.h>
#include <stdint.h>

#include "fabric/fib.h"
#include "fabric/fib_iproute.h"
#include "lib/log.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const uint8_t probe[16] = { 10, 0, 0, 1 };
	struct fib *f = fib_new();
	int family;

	log_quiet = true;
	for (family = 4; family <= 6; family += 2)
		if (!fib_iproute_parse("sw: ip -j route", (const char *)data,
				       size, family, f))
			fib_lookup(f, family, probe);
	fib_free(f);
	return 0;
}
