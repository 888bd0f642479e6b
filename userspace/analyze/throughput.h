/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Throughput of a topology with a path set under a traffic matrix, as
 * section 4 of the Flattened Clos paper defines it: the largest theta such
 * that theta * T can be routed over the given paths (multi-commodity flow,
 * each commodity split freely over its own paths, every directed switch
 * link of capacity 1 = one host link). Solved as an LP with GLPK.
 *
 * The traffic matrix T is throughput_traffic.h's.
 *
 * API:
 *   throughput_solve(t, e, &tm, method, eps, &res)    0, -1 after p_err
 *       GLPK solves the LP exactly (interior point by default). Its cost
 *       grows with the cube of the number of links (the normal matrix
 *       fills in over them), so for large instances THROUGHPUT_FPTAS runs
 *       the Garg-Koenemann/Fleischer scheme instead and stops once its
 *       primal (feasible flow) and dual (length function) bounds are
 *       within a factor 1 + eps: theta <= optimum <= upper.
 * Paths are taken switch to switch: host hops at the ends are dropped and
 * duplicates merged, so host- and ToR-level ELPs give the same answer.
 */
#ifndef __TAGGER_THROUGHPUT_H
#define __TAGGER_THROUGHPUT_H

#include <stdint.h>

#include "analyze/throughput_traffic.h"
#include "model/elp.h"
#include "model/topo.h"

enum throughput_method {
	THROUGHPUT_INTERIOR, /* GLPK interior point (default: large LPs) */
	THROUGHPUT_SIMPLEX, /* GLPK primal simplex */
	THROUGHPUT_DUAL, /* GLPK dual simplex */
	THROUGHPUT_FPTAS, /* Garg-Koenemann/Fleischer, certified bounds */
};

struct throughput_result {
	double theta; /* exact, or the certified lower bound */
	double upper; /* certified upper bound (= theta if exact) */
	int phases; /* FPTAS phases */
	int commodities;
	int unrouted; /* commodities with no path in the ELP */
	int64_t paths; /* path variables in the LP */
	int links; /* link constraints */
	double seconds;
};

int throughput_solve(const struct topo *t, const struct elp *e,
		     const struct traffic_matrix *tm, int method, double eps,
		     struct throughput_result *res);

#endif /* __TAGGER_THROUGHPUT_H */
