/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The holders of a switch whose data path has no programs of its own
 * (flower, dcb): two programs (bpf/tagger_hold.bpf.c) that pass every
 * packet on, bound to the node's anchor (dp_anchor.h) and attached as
 * cls_bpf filters to the first port's chain 0 at DP_HOLD_PRIO, behind
 * anything else there, so the kernel keeps the node's record with them
 * and a later tagger finds it as it finds the eBPF data plane's. The
 * generation map they read (TAGGER_GEN) is the data path's commit point.
 *
 * API:
 *   dp_hold_setup(dir, ifindex, gen)   load them with the generation map
 *                                      at gen, pin them and the map in
 *                                      dir, make the anchor, attach them
 *                                      on ifindex; 0 or -errno
 *   dp_hold_ports_json(ports, n)       the ports as the record keeps
 *                                      them, the first one's hooks naming
 *                                      the holders' [handle, prio]
 *   dp_hold_teardown(dir, state)       detach them from the record's
 *                                      first port; 0 or -errno after p_err
 *   dp_hold_flux_set(gen_fd, on)       mark (or clear) that an update is
 *                                      moving the ports to the generation
 *                                      (TAGGER_HOLD_FLUX): a kill before
 *                                      the clear leaves the mark for the
 *                                      next command's repair; 0 or -errno
 *   dp_hold_flux(dir)                  1 marked, 0 not, -errno
 */
#ifndef __TAGGER_DP_HOLD_H
#define __TAGGER_DP_HOLD_H

#include <stdbool.h>
#include <stdint.h>
#include <jansson.h>

struct dp_port;

int dp_hold_setup(const char *dir, int ifindex, int64_t gen);
json_t *dp_hold_ports_json(const struct dp_port *ports, int n);
int dp_hold_teardown(const char *dir, json_t *state);
int dp_hold_flux_set(int gen_fd, bool on);
int dp_hold_flux(const char *dir);

#endif /* __TAGGER_DP_HOLD_H */
