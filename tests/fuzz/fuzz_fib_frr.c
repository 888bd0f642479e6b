// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the readers of FRR's route and interface JSON never
 * crash or leak; all run on every input (routes as either family),
 * into one FIB.
 */
#include <stddef.h>
#include <stdint.h>

#include "fabric/fib.h"
#include "fabric/fib_frr.h"
#include "lib/log.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const uint8_t probe[16] = { 10, 0, 0, 1 };
	struct fib *f = fib_new();
	int family;

	log_quiet = true;
	for (family = 4; family <= 6; family += 2)
		fib_frr_routes_parse("sw: vtysh", (const char *)data, size,
				     family, f);
	fib_frr_ifaces_parse("sw: vtysh", (const char *)data, size, f);
	fib_lookup(f, 4, probe);
	fib_lookup(f, 6, probe);
	fib_free(f);
	return 0;
}
