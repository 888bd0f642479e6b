// SPDX-License-Identifier: GPL-2.0
/* libFuzzer target: lldpcli's JSON reader never crashes or leaks. */
#include <stddef.h>
#include <stdint.h>

#include "fabric/fabric_lldp.h"
#include "lib/log.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct lldp_nb *nb;
	int n;

	log_quiet = true;
	if (!lldp_parse("lldp", (const char *)data, size, &nb, &n))
		lldp_free(nb, n);
	return 0;
}
