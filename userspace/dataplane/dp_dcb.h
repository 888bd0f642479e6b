/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The DCB data path of tagger switch (struct dp_path, dp_path.h): for a
 * switch whose driver classifies by a per-port DSCP -> priority map and
 * rewrites by (priority, out-port), the rules as the DCB tables of every
 * port, through DCB netlink as iproute2's dcb writes them
 * (lib/dcb_port.h): `app` DSCP -> priority per in-port, `rewr` priority
 * -> DSCP per out-port (kernel 6.3+), PFC on the priorities lossless
 * there. The rules must fit that form (model/dcb_map.h says when they
 * do); a switch whose rules do not is refused before anything changes,
 * each rule named with whether compiling differently would help.
 *
 * Attach reads every port's DCB state first and keeps it in the record
 * (each port's "dcb_saved"), saved before the first change; detach, and
 * the rollback of a killed attach, put it back. The record is kept in
 * the kernel by the holders (dp_hold.h), as the flower data path's.
 * DCB has one table per port, no second one to swap to: update writes
 * the new maps over the old after moving the generation (its commit
 * point), and the repair of a killed update writes the recorded maps
 * again. show reads each port's DCB state back ("dcb"); DCB keeps no
 * counters per rule (the device's own statistics, ethtool -S, count per
 * priority).
 *
 * API:
 *   dp_dcb_path                        the data path, "dcb"
 *   dp_dcb_attach(o, j, ports, n, rep), dp_dcb_update(o, j, acyclic, u,
 *   &gen), dp_dcb_teardown(dir, state), dp_dcb_repair(dir, state,
 *   interrupted),
 *   dp_dcb_show(dir, state, j)         its operations (dp_path.h)
 *   dp_dcb_map(r, sw, links_doc, &m)   the DCB form of switch sw
 *                                      (model/dcb_map.h), the next hops
 *                                      from links_doc's "links" (NULL
 *                                      or none: the rules' tags); 0, or
 *                                      -EINVAL after p_err (bad links);
 *                                      m is filled either way
 *   dp_dcb_attached(name)              1 if switch name is attached in
 *                                      this namespace with the dcb data
 *                                      path (its record says so), 0 if
 *                                      not, -errno if that cannot be
 *                                      told (the pause agent's --backend
 *                                      dcb must not write over it)
 */
#ifndef __TAGGER_DP_DCB_H
#define __TAGGER_DP_DCB_H

#include <stdbool.h>
#include <stdint.h>
#include <jansson.h>

#include "dataplane/dp_path.h"
#include "model/dcb_map.h"

extern const struct dp_path dp_dcb_path;

int dp_dcb_attach(const struct dp_opts *o, struct dp_job *j,
		  const struct dp_port *ports, int n,
		  struct dp_attach_report *rep);
int dp_dcb_update(const struct dp_opts *o, struct dp_job *j, bool acyclic,
		  struct dp_update_report *u, int64_t *gen);
int dp_dcb_teardown(const char *dir, json_t *state);
int dp_dcb_repair(const char *dir, json_t *state, bool interrupted);
int dp_dcb_show(const char *dir, json_t *state, json_t *j);
int dp_dcb_map(const struct rules *r, int sw, json_t *links_doc,
	       struct dcb_map *m);
int dp_dcb_attached(const char *name);

#endif /* __TAGGER_DP_DCB_H */
