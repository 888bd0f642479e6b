/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Inside the throughput solvers: the path set reduced to switch hops, one
 * copy per path and commodity, shared by the GLPK LP (throughput.c) and the
 * approximation scheme (throughput_fptas.h).
 *
 * API:
 *   lp_paths_collect(t, e, comm, &lp)   every ELP path between the ends of
 *                                       a commodity of comm (key2(src, dst)
 *                                       -> commodity), host hops dropped,
 *                                       duplicates merged
 *   lp_paths_free(&lp)
 */
#ifndef __TAGGER_THROUGHPUT_PATHS_H
#define __TAGGER_THROUGHPUT_PATHS_H

#include <stdint.h>

#include "lib/hmap.h"
#include "model/elp.h"
#include "model/topo.h"

struct lp_paths {
	int n, cap;
	int *comm; /* commodity of each path */
	uint32_t *off; /* n + 1 offsets into hops */
	int32_t *hops;
	uint32_t nhops, hops_cap;
	struct hmap seen; /* hash of (commodity, hops) -> path + 1 */
};

void lp_paths_collect(const struct topo *t, const struct elp *e,
		      const struct hmap *comm, struct lp_paths *lp);
void lp_paths_free(struct lp_paths *lp);

#endif /* __TAGGER_THROUGHPUT_PATHS_H */
