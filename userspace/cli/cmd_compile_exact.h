/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What tagger compile found besides the rules, shared by cmd_compile.c and
 * the --exact search's output (cmd_compile_exact.c).
 *
 * API:
 *   compile_exact_json(oc)           the "exact_search" object of -j
 *   compile_exact_print(oc)          the search step by step on stderr
 *   compile_exact_to_bound(x, &b)    what the search proved, in the lower
 *                                    bound's fields
 *   compile_write_core(path, t, oc)  --exact-core: the proof's core of
 *                                    paths as an ELP; 0, or -1 after p_err()
 *   json_tristate(v)                 -1 null, else a boolean
 */
#ifndef __TAGGER_CMD_COMPILE_EXACT_H
#define __TAGGER_CMD_COMPILE_EXACT_H

#include <stdbool.h>
#include <jansson.h>

#include "analyze/bound.h"
#include "compile/compile.h"
#include "compile/tag_sat.h"
#include "model/topo.h"

struct outcome {
	struct bound b;
	bool bounded;
	bool exact; /* --exact ran: x holds its search */
	struct exact_search x;
	double exact_limit;
	int npaths;
	const char *core_file; /* the core was written there */
	bool verified;
	bool deadlock_free;
	double verify_seconds;
};

json_t *compile_exact_json(const struct outcome *oc);
void compile_exact_print(const struct outcome *oc);
void compile_exact_to_bound(const struct exact_search *x, struct bound *b);
int compile_write_core(const char *path, const struct topo *t,
		       struct outcome *oc);

static inline json_t *json_tristate(int v)
{
	return v < 0 ? json_null() : json_boolean(v);
}

#endif /* __TAGGER_CMD_COMPILE_EXACT_H */
