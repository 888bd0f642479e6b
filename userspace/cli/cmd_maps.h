/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared by cmd_maps.c and cmd_export.c: rules -> per-port maps, checked.
 *
 * API:
 *   maps_cli_load(file, max_classes, max_prios, x)
 *       reads the rules document file, builds its maps and runs the
 *       independent check (with the document's "links" when it has them):
 *       EXIT_OK (refusals are in x->m.refused), EXIT_USAGE after the
 *       reader's message, EXIT_PROBLEM when the check fails (a bug, after
 *       the problems on stderr)
 *   maps_cli_free(x)
 */
#ifndef __TAGGER_CMD_MAPS_H
#define __TAGGER_CMD_MAPS_H

#include <jansson.h>

#include "model/maps.h"
#include "model/rules.h"

struct maps_cli {
	struct rules *r;
	json_t *doc; /* the rules document */
	struct maps m;
	json_t *check; /* maps_verify()'s report */
};

int maps_cli_load(const char *file, int max_classes, int max_prios,
		  struct maps_cli *x);
void maps_cli_free(struct maps_cli *x);

#endif /* __TAGGER_CMD_MAPS_H */
