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
 *   pfc_adopt_previous(cfg, self, fds, &adopt, &left)  the record of the
 *                                      node's last agent, if it died without
 *                                      stopping: adoptable (*adopt, its maps'
 *                                      fds taken), or its leftovers removed
 *                                      (*left, to carry over); -EEXIST if it
 *                                      ran in another namespace that still
 *                                      exists, else 0 or -errno
 *   pfc_leftovers_remove(st)           what a dead agent left on its ports:
 *                                      programs, queues, offloads (only ports
 *                                      whose ifindex still has the recorded
 *                                      name; run in the agent's namespace);
 *                                      the packets its queues still held are
 *                                      added to st's leftover_drops
 *   pfc_leftovers_carry(st, cfg, left) left's leftover_drops onto st's same
 *                                      ports
 */
#ifndef __TAGGER_PFC_ADOPT_H
#define __TAGGER_PFC_ADOPT_H

#include <stdint.h>

#include "pfc/pfc_config.h"
#include "pfc/pfc_state.h"

#define PFC_ADOPT_MAPS 4 /* ports, pp, ring, events */

struct pfc_bpf;
struct pfc_netns;

void pfc_map_ids(struct pfc_bpf *s, uint32_t ids[PFC_ADOPT_MAPS]);
int pfc_adopt_prepare(const struct pfc_state *old, const struct pfc_config *c,
		      int fds[PFC_ADOPT_MAPS], const char **why);
int pfc_adopt_maps(struct pfc_bpf *s, int fds[PFC_ADOPT_MAPS]);
void pfc_adopt_counters(struct pfc_state *st, const struct pfc_state *old);
int pfc_ports_taken(const struct pfc_config *c);
int pfc_adopt_previous(const struct pfc_config *c, const struct pfc_netns *self,
		       int fds[PFC_ADOPT_MAPS], struct pfc_state **adopt,
		       struct pfc_state **left);
void pfc_leftovers_remove(struct pfc_state *st);
void pfc_leftovers_carry(struct pfc_state *st, const struct pfc_config *c,
			 const struct pfc_state *left);

#endif /* __TAGGER_PFC_ADOPT_H */
