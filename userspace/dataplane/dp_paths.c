// SPDX-License-Identifier: GPL-2.0
/* The data paths of tagger switch, by name; see dp_paths.h. */
#include <string.h>

#include "dataplane/dp_bpf.h"
#include "dataplane/dp_dcb.h"
#include "dataplane/dp_flower.h"
#include "dataplane/dp_paths.h"

static const struct dp_path *const paths[] = {
	[DP_DATAPATH_BPF] = &dp_bpf_path,
	[DP_DATAPATH_FLOWER] = &dp_flower_path,
	[DP_DATAPATH_DCB] = &dp_dcb_path,
};

const struct dp_path *dp_path_get(enum dp_datapath d)
{
	return paths[d];
}

/* Records without "datapath" are the eBPF data plane's (older taggers). */
const struct dp_path *dp_path_of(json_t *state)
{
	const char *name =
		json_string_value(json_object_get(state, "datapath")) ?: "bpf";
	size_t i;

	for (i = 0; i < sizeof(paths) / sizeof(paths[0]); i++)
		if (!strcmp(paths[i]->name, name))
			return paths[i];
	return NULL;
}
