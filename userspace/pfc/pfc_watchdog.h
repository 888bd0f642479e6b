/* SPDX-License-Identifier: GPL-2.0 */
/*
 * PFC storm watchdog with SONiC pfcwd's semantics, per lossless queue.
 *
 * Detection: the queue's gate has been closed by the upstream's PAUSE
 * continuously for the detection time while it holds packets (none can
 * leave). That is a storm (a peer pausing without end, or a deadlock);
 * it is counted once, and the queue's action starts.
 *
 * Restoration: alert acts on nothing and ends with the condition (the
 * gate opens or the queue empties), as SONiC's alert does. forward and
 * drop ignore the upstream's PAUSEs, so the gate says nothing any more:
 * they end when no PAUSE frame has arrived for the restoration time,
 * counted from the last one (or the detection), never on a fixed timer.
 * A peer that keeps pausing is never restored.
 *
 * Pure logic on the tick's view of the queue, so that it is unit-tested
 * as it runs; the agent acts on the verdicts (pfc_pause_rx.h) and feeds
 * pfc_wd_paused() from the PFC frames it reads.
 *
 * API:
 *   struct pfc_wd (per queue)
 *   pfc_wd_step(w, cfg, closed, paused_since, qlen, now, &paused_for)
 *                           -> PFC_WD_NONE, PFC_WD_FIRE (a storm begins,
 *                              paused_for: how long it had been paused)
 *                              or PFC_WD_RESTORE (it ended)
 *   pfc_wd_paused(w, now)   a PAUSE frame for the queue arrived at now
 */
#ifndef __TAGGER_PFC_WATCHDOG_H
#define __TAGGER_PFC_WATCHDOG_H

#include <stdbool.h>
#include <stdint.h>

#include "pfc/pfc_config.h"

enum pfc_wd_verdict { PFC_WD_NONE, PFC_WD_FIRE, PFC_WD_RESTORE };

struct pfc_wd {
	bool storm; /* detected, not yet restored */
	uint64_t quiet_since; /* the last PAUSE, or the detection */
};

enum pfc_wd_verdict pfc_wd_step(struct pfc_wd *w, const struct pfc_wd_cfg *cfg,
				bool closed, uint64_t paused_since,
				uint64_t qlen, uint64_t now,
				uint64_t *paused_for);
void pfc_wd_paused(struct pfc_wd *w, uint64_t now);

#endif /* __TAGGER_PFC_WATCHDOG_H */
