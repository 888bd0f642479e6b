/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The eBPF data plane of tagger switch (struct dp_path, dp_path.h): the tc
 * programs of bpf/tagger_port.bpf.c first on every port's ingress and
 * egress hook (dp_attach.h: tcx, else cls_bpf), the rule table in an
 * array of maps of two generations (dp_table.h), the per-CPU counters.
 *
 * API:
 *   dp_bpf_path                       the data path, "bpf"
 *   dp_bpf_attach(o, j, ports, n, rep)   load, install the first table,
 *                                     attach every port, set the sysctl,
 *                                     record "attached" (dp_bpf.c)
 *   dp_bpf_update(o, j, acyclic, u, &gen)   the new table into the idle
 *                                     slot, in place where it is quiescent
 *                                     (dp_inplace.h), and the flip
 *                                     (dp_bpf_update.c)
 *   dp_bpf_after_update(dir, gen)     start marking the flip's quiescence
 *   dp_bpf_teardown(dir, state)       detach every hook the record names
 *   dp_bpf_show(dir, state, j)        the ports' counters (dp_bpf_show.c)
 */
#ifndef __TAGGER_DP_BPF_H
#define __TAGGER_DP_BPF_H

#include <stdbool.h>
#include <stdint.h>
#include <jansson.h>

#include "dataplane/dp_path.h"

extern const struct dp_path dp_bpf_path;

int dp_bpf_attach(const struct dp_opts *o, struct dp_job *j,
		  const struct dp_port *ports, int n,
		  struct dp_attach_report *rep);
int dp_bpf_update(const struct dp_opts *o, struct dp_job *j, bool acyclic,
		  struct dp_update_report *u, int64_t *gen);
void dp_bpf_after_update(const char *dir, int64_t gen);
int dp_bpf_teardown(const char *dir, json_t *state);
int dp_bpf_show(const char *dir, json_t *state, json_t *j);

#endif /* __TAGGER_DP_BPF_H */
