/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The upstream's PAUSEs: a PFC frame in closes the gate of each lossless
 * priority it names (the qdisc, pfc_backend.h) until its quanta expire or
 * a resume comes; while the storm watchdog acts on a queue (pfc_storm.h)
 * its PAUSEs are ignored, but still noted. struct pfc_pause_gate (pfc_agent_int.h) is what the
 * agent knows of each.
 *
 * API:
 *   pfc_gate_set(a, port, prio, closed, ev_ts)  close or open a gate
 *                                 (over netlink) and account for it
 *   pfc_gate_late(a, should, now) a gate that should have opened at
 *                                 should opens at now: the latest is kept
 *   pfc_on_rx(a, e)               a PFC frame came in
 */
#ifndef __TAGGER_PFC_PAUSE_RX_H
#define __TAGGER_PFC_PAUSE_RX_H

#include <stdbool.h>
#include <stdint.h>

struct pfc_agent;
struct pfc_event;

void pfc_gate_set(struct pfc_agent *a, int port, int prio, bool closed,
		  uint64_t ev_ts);
void pfc_gate_late(struct pfc_agent *a, uint64_t should, uint64_t now);
void pfc_on_rx(struct pfc_agent *a, const struct pfc_event *e);

#endif /* __TAGGER_PFC_PAUSE_RX_H */
