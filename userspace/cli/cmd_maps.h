/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared by cmd_maps.c and cmd_export.c: a switch's per-port maps,
 * checked, from either document: rules ("tagger-rules/1": the maps are
 * built from them) or maps ("tagger-maps/1": read, and run as the rules
 * compile/maps_rules.h writes).
 *
 * API:
 *   maps_cli_load(file, max_classes, max_prios, want_rules, x)
 *       reads the document file (by its "format"), has its maps in x->m
 *       under these limits (max_classes 0: a maps document's own
 *       "max_classes", else MAPS_DEFAULT_CLASSES) and runs the
 *       independent check against x->r (with the document's "links" when
 *       it has them). x->r: the rules, read or, from maps, derived and
 *       read back; x->rules: that derived document, also from rules when
 *       want_rules and nothing is refused, then checked against the maps
 *       again. EXIT_OK (refusals are in x->m.refused), EXIT_USAGE after
 *       the reader's message, EXIT_PROBLEM when a check fails (a bug,
 *       after the problems on stderr)
 *   maps_cli_free(x)
 */
#ifndef __TAGGER_CMD_MAPS_H
#define __TAGGER_CMD_MAPS_H

#include <stdbool.h>
#include <jansson.h>

#include "model/maps.h"
#include "model/rules.h"

struct maps_cli {
	struct rules *r;
	json_t *doc; /* the document read */
	bool from_maps; /* it was a maps document */
	struct maps m;
	json_t *check; /* maps_verify()'s report */
	json_t *rules; /* the rules of the maps, or NULL */
};

int maps_cli_load(const char *file, int max_classes, int max_prios,
		  bool want_rules, struct maps_cli *x);
void maps_cli_free(struct maps_cli *x);

#endif /* __TAGGER_CMD_MAPS_H */
