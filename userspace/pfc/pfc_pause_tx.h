/* SPDX-License-Identifier: GPL-2.0 */
/*
 * PAUSEs of ours: the agent's side of an (in-port, priority) crossing
 * XOFF and XON. At XOFF a PAUSE goes out upstream (or the BPF side sent
 * it already, its fast path) and is refreshed every half PAUSE time while
 * in force; at XON a resume (quanta 0) ends it. The frames follow what the
 * BPF side's counters say even when a ring buffer record was lost.
 *
 * API:
 *   pfc_refresh_ns(a, port)          half a PAUSE time on port, >= 100 us
 *   pfc_send_pause(a, port, vec, resume)  a PAUSE (or resume) out for the
 *                                    priorities of vec, counted: 0 or
 *                                    -errno (the loop and the keeper)
 *   pfc_refresh(a, port, now)        its refresh is due: sent, or ended
 *   pfc_on_xoff(a, port, prio, ts, sent)  XOFF crossed (sent: by BPF);
 *                                    nothing while the watchdog drops the
 *                                    port's ingress at prio (drop_in)
 *   pfc_pause_withdraw(a, port, prio) a PAUSE of ours in force ends now
 *                                    (a resume), whatever the buffer
 *   pfc_on_xon_seen(a, e)            an XON crossing read from the ring
 *   pfc_on_resumed(a, e)             the upstream's first packet after it
 *   pfc_reconcile(a, port, prio)     the frames agree with the counters
 */
#ifndef __TAGGER_PFC_PAUSE_TX_H
#define __TAGGER_PFC_PAUSE_TX_H

#include <stdbool.h>
#include <stdint.h>

struct pfc_agent;
struct pfc_event;

uint64_t pfc_refresh_ns(const struct pfc_agent *a, int port);
int pfc_send_pause(struct pfc_agent *a, int port, uint8_t vec, bool resume);
void pfc_refresh(struct pfc_agent *a, int port, uint64_t now);
void pfc_on_xoff(struct pfc_agent *a, int port, int prio, uint64_t ts,
		 bool sent);
void pfc_pause_withdraw(struct pfc_agent *a, int port, int prio);
void pfc_on_xon_seen(struct pfc_agent *a, const struct pfc_event *e);
void pfc_on_resumed(struct pfc_agent *a, const struct pfc_event *e);
void pfc_reconcile(struct pfc_agent *a, int port, int prio);

#endif /* __TAGGER_PFC_PAUSE_TX_H */
