/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Flattened Clos (FC) topologies (Zhao et al., NSDI 2023, section 3.1).
 *
 * N ToRs, each with h host ports and s inter-ToR ("fabric") ports. Each ToR
 * is split into k virtual switches; virtual switch j owns l_j fabric ports
 * (equation 1: sum l_j = s). Between virtual layers j and j+1 a random
 * bipartite graph of degree a_j is wired (equation 2: l_1 = a_1,
 * l_j = a_{j-1} + a_j, l_k = a_{k-1}); never between two virtual switches of
 * one ToR.
 *
 * Representation in the topology file: every ToR is "switch T<i> layer=0"
 * (physically they are all one layer, next to the hosts). The virtual layer
 * is a property of a fabric port and is carried by its name: "v<j>p<n>" is
 * the n-th port of virtual layer j. tagger paths fc reads the layers back
 * from those names (or from --split for topologies named otherwise).
 *
 * API:
 *   fc_kmin(ntors, fabric)       smallest k satisfying inequality (4)
 *   fc_split_even(fabric, k, l)     port split maximising (a_1+1)...(a_{k-1}+1)
 *   fc_split_degrees(l, k, a)    a_j from l_j; -1 if l violates equation (2)
 *   fc_build(spec, err, len)     the random topology, NULL + err if impossible
 *   fc_testbed(hosts)            the 4-switch testbed of figure 4(a)
 *   fc_port_layer(t, port)       virtual layer from a "v<j>p<n>" name, else 0
 */
#ifndef __TAGGER_FC_TOPO_H
#define __TAGGER_FC_TOPO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/topo.h"

#define FC_MAX_LAYERS 16

struct fc_spec {
	int ntors; /* N */
	int hosts; /* h: host ports (and hosts) per ToR */
	int fabric; /* s: inter-ToR ports per ToR */
	int k; /* virtual layers */
	int split[FC_MAX_LAYERS]; /* l_1 .. l_k */
	uint64_t seed;
};

double fc_kmin_bound(int ntors);
int fc_kmin(int ntors, int fabric);
int fc_split_even(int fabric, int k, int *l);
int fc_split_degrees(const int *l, int k, int *a);
struct topo *fc_build(const struct fc_spec *spec, char *err, size_t errlen);
struct topo *fc_testbed(int hosts);
int fc_port_layer(const struct topo *t, int port);

#endif /* __TAGGER_FC_TOPO_H */
