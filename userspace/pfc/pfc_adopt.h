/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A restarted agent adopts what a dead one left (both the agent and its
 * standby killed, then the agent started again, as a supervisor does):
 * the queues stay as they are, with the packets they hold; the BPF maps
 * (buffer counters, egress logs, unread events) are taken over by id, and
 * the new programs replace the old ones in place; the state's own
 * counters, closed gates and PAUSEs in force carry over. Only a node whose
 * ports, backend and queue settings are the same is adopted; otherwise
 * the leftovers are removed and the agent starts afresh.
 *
 * API:
 *   PFC_ADOPT_MAPS, pfc_map_ids(skel, ids)   the ids recorded in the state
 *   pfc_adopt_prepare(old, cfg, fds, &why)   0: adoptable, the maps' fds
 *                                      taken; else -errno, why says why not
 *   pfc_adopt_maps(skel, fds)          reuse them before loading
 *   pfc_adopt_counters(st, old)        carry the state over
 *   pfc_ports_taken(cfg)               a port that has pause queues already
 *                                      (another node's agent): its index, or -1
 */
#ifndef __TAGGER_PFC_ADOPT_H
#define __TAGGER_PFC_ADOPT_H

#include <stdint.h>

#include "pfc/pfc_config.h"
#include "pfc/pfc_state.h"

#define PFC_ADOPT_MAPS 4 /* ports, pp, ring, events */

struct pfc_bpf;

void pfc_map_ids(struct pfc_bpf *s, uint32_t ids[PFC_ADOPT_MAPS]);
int pfc_adopt_prepare(const struct pfc_state *old, const struct pfc_config *c,
		      int fds[PFC_ADOPT_MAPS], const char **why);
int pfc_adopt_maps(struct pfc_bpf *s, int fds[PFC_ADOPT_MAPS]);
void pfc_adopt_counters(struct pfc_state *st, const struct pfc_state *old);
int pfc_ports_taken(const struct pfc_config *c);

#endif /* __TAGGER_PFC_ADOPT_H */
