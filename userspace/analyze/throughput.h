/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Throughput of a topology with a path set under a traffic matrix, as
 * section 4 of the Flattened Clos paper defines it: the largest theta such
 * that theta * T can be routed over the given paths (multi-commodity flow,
 * each commodity split freely over its own paths, every directed switch
 * link of capacity 1 = one host link). Solved as an LP with GLPK.
 *
 * Traffic is between ToRs (switches with hosts; every switch if no switch
 * has hosts, with hosts_default hosts each), in units of one host's line
 * rate; intra-ToR traffic never reaches the fabric:
 *   all-to-all    every server sends equally to every other server:
 *                 t(u,v) = h_u h_v / (H - 1)
 *   uniform=P     every ToR picks a fraction P of the other ToRs at random
 *                 (seeded) and its servers spread their rate over those
 *                 ToRs' servers: t(u,v) = h_u h_v / sum of h over the picks
 *   permutation   near-worst: the ToR permutation of maximum total
 *                 shortest-path length (max-weight perfect matching, GLPK's
 *                 assignment solver), t(u,pi(u)) = h_u
 *
 * API:
 *   traffic_parse(s, &tr)          "all-to-all", "uniform=P", "permutation"
 *   traffic_build(t, &tr, seed, hosts_default, &tm)   0, -1 after p_err
 *   throughput_solve(t, e, &tm, method, eps, &res)    0, -1 after p_err
 *       GLPK solves the LP exactly (interior point by default). Its cost
 *       grows with the cube of the number of links (the normal matrix
 *       fills in over them), so for large instances THROUGHPUT_FPTAS runs
 *       the Garg-Koenemann/Fleischer scheme instead and stops once its
 *       primal (feasible flow) and dual (length function) bounds are
 *       within a factor 1 + eps: theta <= optimum <= upper.
 *   traffic_free(&tm)
 * Paths are taken switch to switch: host hops at the ends are dropped and
 * duplicates merged, so host- and ToR-level ELPs give the same answer.
 */
#ifndef __TAGGER_THROUGHPUT_H
#define __TAGGER_THROUGHPUT_H

#include <stdint.h>

#include "model/elp.h"
#include "model/topo.h"

enum traffic_kind {
	TRAFFIC_ALL_TO_ALL,
	TRAFFIC_UNIFORM,
	TRAFFIC_PERMUTATION,
};

enum throughput_method {
	THROUGHPUT_INTERIOR, /* GLPK interior point (default: large LPs) */
	THROUGHPUT_SIMPLEX, /* GLPK primal simplex */
	THROUGHPUT_DUAL, /* GLPK dual simplex */
	THROUGHPUT_FPTAS, /* Garg-Koenemann/Fleischer, certified bounds */
};

struct traffic {
	enum traffic_kind kind;
	double p; /* uniform: fraction of ToRs */
};

struct traffic_matrix {
	int n; /* commodities */
	int *src, *dst; /* node ids */
	double *demand;
	int ntors;
	int hosts; /* H */
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

int traffic_parse(const char *s, struct traffic *tr);
int traffic_build(const struct topo *t, const struct traffic *tr, uint64_t seed,
		  int hosts_default, struct traffic_matrix *tm);
void traffic_free(struct traffic_matrix *tm);
int throughput_solve(const struct topo *t, const struct elp *e,
		     const struct traffic_matrix *tm, int method, double eps,
		     struct throughput_result *res);

#endif /* __TAGGER_THROUGHPUT_H */
