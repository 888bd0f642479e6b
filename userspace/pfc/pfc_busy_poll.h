/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The loop's side of --busy-poll: when the agent polls its ring buffer
 * instead of sleeping (the model of when a resume is expected is
 * pfc_poll.h's), with what priority and for how long, and moving off the
 * CPU that will see the XON (pfc_cpu.h).
 *
 * API:
 *   pfc_poll_due(a, now, &next)  poll now? If not, when next (UINT64_MAX:
 *                                no resume expected)
 *   pfc_poll_mode(a, on)         start or end polling
 *   pfc_on_xon_near(a, e)        a buffer of a PAUSE of ours nears XON
 */
#ifndef __TAGGER_PFC_BUSY_POLL_H
#define __TAGGER_PFC_BUSY_POLL_H

#include <stdbool.h>
#include <stdint.h>

struct pfc_agent;
struct pfc_event;

bool pfc_poll_due(struct pfc_agent *a, uint64_t now, uint64_t *next);
void pfc_poll_mode(struct pfc_agent *a, bool on);
void pfc_on_xon_near(struct pfc_agent *a, const struct pfc_event *e);

#endif /* __TAGGER_PFC_BUSY_POLL_H */
