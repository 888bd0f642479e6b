/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Cyclic buffer dependency (CBD) of a path set: the link dependency graph
 * test of the Flattened Clos paper (appendix A.2, theorem 7). Vertices are
 * directed links (named by their egress port); a path that takes link a and
 * then link b makes a wait on b. The path set is CBD-free iff that graph is
 * acyclic.
 *
 * API:
 *   cbd_check(t, e, &w)   1 if CBD (w filled with one cycle), 0 if not
 *   cbd_witness_free(&w)
 *   cbd_witness_json / cbd_witness_print
 * O(total hops) expected time with hashing, O(links + dependencies) memory.
 */
#ifndef __TAGGER_CBD_H
#define __TAGGER_CBD_H

#include <stdio.h>
#include <jansson.h>

#include "model/elp.h"
#include "model/topo.h"

struct cbd_dep {
	int from; /* egress port of the upstream link */
	int to; /* egress port of the downstream link */
	int path; /* one path that creates the dependency */
};

struct cbd_witness {
	int len;
	struct cbd_dep
		*cycle; /* len dependencies, each .to is the next .from */
	int64_t links;
	int64_t deps;
};

int cbd_check(const struct topo *t, const struct elp *e, struct cbd_witness *w);
void cbd_witness_free(struct cbd_witness *w);
json_t *cbd_witness_json(const struct topo *t, const struct elp *e,
			 const struct cbd_witness *w);
void cbd_witness_print(FILE *f, const struct topo *t, const struct elp *e,
		       const struct cbd_witness *w);
char *port_label(const struct topo *t, int port);

#endif /* __TAGGER_CBD_H */
