// SPDX-License-Identifier: GPL-2.0
/* libFuzzer target: the topology parser never crashes or leaks. */
#include <stddef.h>
#include <stdint.h>

#include "fuzz_common.h"
#include "lib/log.h"
#include "model/topo.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	log_quiet = true;
	topo_free(fuzz_topo((const char *)data, size));
	return 0;
}
