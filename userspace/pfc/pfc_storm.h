/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The agent's side of the storm watchdog (pfc_watchdog.h decides): what
 * each action does to a lossless queue (port, priority), and the big red
 * switch.
 *
 *   alert    counts the storm, its start and end; nothing else.
 *   forward  opens the gate and ignores the upstream's PAUSEs for the
 *            priority: traffic flows as if it was lossy.
 *   drop     also drops the queue's new packets at egress, flushes what
 *            it holds (htb-tbf; see pfc_backend.h), drops the port's own
 *            packets of the priority at ingress, and sends no PAUSE for
 *            it: a PAUSE of ours in force is withdrawn (a resume), and
 *            no XOFF is counted any more.
 * Restoration undoes it all; the gate then follows PAUSEs again.
 *
 * The big red switch (SONiC's BIG_RED_SWITCH): every lossless queue of the
 * node in drop at once, detection and restoration suspended, until it is
 * turned off, when every queue is restored. A storm in progress when it is
 * turned on ends there. It is asked for through the state (brs_req,
 * pfc_state.h) and put in force at the next tick.
 *
 * The state keeps, per queue, its settings, whether a storm is in
 * progress, the last storm's start and end (CLOCK_REALTIME, for show and
 * the metrics) and its drop counters; a standby or an adopting agent
 * carries on from it.
 *
 * API:
 *   pfc_storm_setup(a)          the settings into the state (at start)
 *   pfc_storm_tick(a, port, prio, now)  at each tick, per lossless priority
 *   pfc_brs_tick(a, now)        at each tick: the big red switch asked for
 *   pfc_storm_rebuild(a, now)   a standby or an adopting agent: from the
 *                               state
 *   pfc_storm_begin(a, port, prio, paused_for, what)
 *                               a storm detected: counted, its start in the
 *                               state, logged (what: the queue's detail)
 *   pfc_storm_end(a, port, prio, why)   a storm over: its end in the
 *                               state, logged (why: "" or ": reason")
 * (begin and end are the bookkeeping the DCB backend's watchdog,
 * pfc_dcb_wd.h, shares; the actions are each backend's own.)
 */
#ifndef __TAGGER_PFC_STORM_H
#define __TAGGER_PFC_STORM_H

#include <stdint.h>

struct pfc_agent;

void pfc_storm_setup(struct pfc_agent *a);
void pfc_storm_tick(struct pfc_agent *a, int port, int prio, uint64_t now);
void pfc_brs_tick(struct pfc_agent *a, uint64_t now);
void pfc_storm_rebuild(struct pfc_agent *a, uint64_t now);
void pfc_storm_begin(struct pfc_agent *a, int port, int prio,
		     uint64_t paused_for, const char *what);
void pfc_storm_end(struct pfc_agent *a, int port, int prio, const char *why);

#endif /* __TAGGER_PFC_STORM_H */
