/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Max concurrent flow over fixed paths by the Garg-Koenemann/Fleischer
 * scheme (throughput_fptas.c), the THROUGHPUT_FPTAS method of
 * throughput_solve(): certified bounds lower <= optimum theta <= upper,
 * within a factor 1 + eps of each other unless the phases ran out.
 *
 * API:
 *   throughput_fptas(tm, lp, t, eps, &b)   0; b holds the bounds
 */
#ifndef __TAGGER_THROUGHPUT_FPTAS_H
#define __TAGGER_THROUGHPUT_FPTAS_H

#include "analyze/throughput_paths.h"
#include "analyze/throughput_traffic.h"
#include "model/topo.h"

struct fptas_bounds {
	double lower; /* a feasible flow's theta */
	double upper; /* the dual's bound on the optimum */
	int phases;
	int links; /* directed switch links the paths take */
};

int throughput_fptas(const struct traffic_matrix *tm, const struct lp_paths *lp,
		     const struct topo *t, double eps, struct fptas_bounds *b);

#endif /* __TAGGER_THROUGHPUT_FPTAS_H */
