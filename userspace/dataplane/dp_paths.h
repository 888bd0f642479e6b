/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Every data path of tagger switch (struct dp_path, dp_path.h), for the
 * commands that choose one: by the command line's --datapath, or by the
 * name a record keeps ("datapath"; none: bpf, as older taggers wrote).
 *
 * API:
 *   dp_path_get(datapath)           the implementation of one
 *   dp_path_of(state)               the one a record names; NULL if this
 *                                   tagger knows no data path of that name
 */
#ifndef __TAGGER_DP_PATHS_H
#define __TAGGER_DP_PATHS_H

#include <jansson.h>

#include "dataplane/dp_path.h"

const struct dp_path *dp_path_get(enum dp_datapath d);
const struct dp_path *dp_path_of(json_t *state);

#endif /* __TAGGER_DP_PATHS_H */
