/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The traffic matrices of section 4 of the Flattened Clos paper, which
 * throughput_solve() (throughput.h) routes.
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
 *   traffic_free(&tm)
 */
#ifndef __TAGGER_THROUGHPUT_TRAFFIC_H
#define __TAGGER_THROUGHPUT_TRAFFIC_H

#include <stdint.h>

#include "model/topo.h"

enum traffic_kind {
	TRAFFIC_ALL_TO_ALL,
	TRAFFIC_UNIFORM,
	TRAFFIC_PERMUTATION,
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

int traffic_parse(const char *s, struct traffic *tr);
int traffic_build(const struct topo *t, const struct traffic *tr, uint64_t seed,
		  int hosts_default, struct traffic_matrix *tm);
void traffic_free(struct traffic_matrix *tm);

#endif /* __TAGGER_THROUGHPUT_TRAFFIC_H */
