/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The agent's repair of the fast path's byte counters, at each tick: the
 * exact recount (pfc_recount.h), or where it cannot run, the resync of
 * priorities whose queues are all empty.
 *
 * API:
 *   pfc_agent_recount(a)    lower the counters to their exact recount;
 *                           -EAGAIN if it cannot run
 *   pfc_agent_resync(a, seen)  the fallback: take off what priorities
 *                           whose queues are all empty still count (seen:
 *                           the counters read before the queue statistics)
 */
#ifndef __TAGGER_PFC_REPAIR_H
#define __TAGGER_PFC_REPAIR_H

#include <stdint.h>

#include "pfc_maps.h"

struct pfc_agent;

int pfc_agent_recount(struct pfc_agent *a);
void pfc_agent_resync(struct pfc_agent *a, const uint64_t seen[][PFC_PRIOS]);

#endif /* __TAGGER_PFC_REPAIR_H */
