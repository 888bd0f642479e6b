/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The DCB backend's loop: the storm watchdog (pfc_watchdog.h, SONiC
 * pfcwd's semantics) over the device's PFC counters, and the big red
 * switch. The device pauses and queues in hardware; what DCB tells of it
 * is, per priority, the PFC frames the port sent (struct ieee_pfc's
 * requests) and received (indications), read every quarter of the
 * shortest detection time (at most every 100 ms).
 *
 * A lossless priority of a port is paused while its indications rise
 * from one read to the next; paused continuously for its detection time,
 * it is in a storm. DCB reports neither a queue's depth nor its
 * transmitted frames per priority, so a priority paused that long is
 * taken as not draining (a peer that pauses without end, or a deadlock).
 *   alert    the storm is counted, its start and end; it ends at the
 *            first read without a new PAUSE.
 *   forward  PFC is turned off for the priority on the port: the device
 *   drop     neither honours the peer's PAUSE nor sends its own, and
 *            the queue drains as a lossy one, dropping what does not
 *            fit. DCB can neither flush a queue nor drop a priority's
 *            ingress: drop does what forward does.
 * Restoration (forward, drop): no PAUSE received (indications unchanged)
 * for the restoration time, never on a fixed timer; then PFC is on
 * again. A port that keeps receiving PAUSEs stays restored never.
 * The big red switch turns PFC off on every lossless priority of every
 * port until it is turned off.
 *
 * The counters go into the state as the software backend's do (pfc_rx:
 * indications, pfc_tx: requests, the storms in pfc_storm.h's fields),
 * so `pfc show` and the metrics name them alike.
 *
 * API:
 *   pfc_dcb_loop(a)   until SIGINT or SIGTERM (SIGUSR1: the big red
 *                     switch was asked for); 0 or -errno
 */
#ifndef __TAGGER_PFC_DCB_WD_H
#define __TAGGER_PFC_DCB_WD_H

struct pfc_agent;

int pfc_dcb_loop(struct pfc_agent *a);

#endif /* __TAGGER_PFC_DCB_WD_H */
