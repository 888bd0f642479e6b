/* SPDX-License-Identifier: GPL-2.0 */
/*
 * PFC watchdog, the way switch PFC watchdogs work: a queue whose gate has
 * been closed continuously for longer than the detection time while it
 * holds packets is in a pause storm or a deadlock. It is reported once per
 * episode with how long it has been paused; the "ignore" and "drop"
 * actions then hold for the restoration time. Pure logic, driven by the
 * agent's tick, so that it is unit-tested as it runs.
 *
 * API:
 *   struct pfc_wd (per queue), pfc_wd_step(w, ...) -> PFC_WD_NONE/FIRE/RESTORE
 */
#ifndef __TAGGER_PFC_WATCHDOG_H
#define __TAGGER_PFC_WATCHDOG_H

#include <stdbool.h>
#include <stdint.h>

#include "pfc/pfc_config.h"

enum pfc_wd_verdict { PFC_WD_NONE, PFC_WD_FIRE, PFC_WD_RESTORE };

struct pfc_wd {
	bool fired; /* reported in this episode */
	uint64_t until; /* action in force until (0: none) */
};

enum pfc_wd_verdict pfc_wd_step(struct pfc_wd *w, enum pfc_wd_action action,
				uint64_t detect_ns, uint64_t restore_ns,
				bool closed, uint64_t paused_since,
				uint64_t qlen, uint64_t now,
				uint64_t *paused_for);

#endif /* __TAGGER_PFC_WATCHDOG_H */
