// SPDX-License-Identifier: GPL-2.0
/* libFuzzer target: the topology parser never crashes or leaks. */
#include <stddef.h>
#include <stdint.h>

#include "lib/lines.h"
#include "lib/log.h"
#include "model/topo.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct lines lr;
	struct topo *t;

	log_quiet = true;
	lines_open_mem(&lr, "fuzz", (const char *)data, size);
	t = topo_parse_lines(&lr);
	lines_close(&lr);
	topo_free(t);
	return 0;
}
