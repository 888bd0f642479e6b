/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Inside the throughput solvers: the path set reduced to switch hops, one
 * copy per path and commodity, shared by the GLPK LP (throughput.c) and the
 * approximation scheme (throughput_fptas.c).
 */
#ifndef __TAGGER_THROUGHPUT_PATHS_H
#define __TAGGER_THROUGHPUT_PATHS_H

#include <stdint.h>

#include "lib/hmap.h"
#include "analyze/throughput.h"
#include "model/topo.h"

struct lp_paths {
	int n, cap;
	int *comm; /* commodity of each path */
	uint32_t *off; /* n + 1 offsets into hops */
	int32_t *hops;
	uint32_t nhops, hops_cap;
	struct hmap seen; /* hash of (commodity, hops) -> path + 1 */
};

int throughput_fptas(const struct traffic_matrix *tm, const struct lp_paths *lp,
		     const struct topo *t, double eps,
		     struct throughput_result *res);

#endif /* __TAGGER_THROUGHPUT_PATHS_H */
