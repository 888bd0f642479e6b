// SPDX-License-Identifier: GPL-2.0
/* PFC watchdog decisions; see pfc_watchdog.h. */
#include "pfc/pfc_watchdog.h"

enum pfc_wd_verdict pfc_wd_step(struct pfc_wd *w, enum pfc_wd_action action,
				uint64_t detect_ns, uint64_t restore_ns,
				bool closed, uint64_t paused_since,
				uint64_t qlen, uint64_t now,
				uint64_t *paused_for)
{
	if (w->until) {
		if (now < w->until)
			return PFC_WD_NONE;
		/* Restoration time over: back to normal PFC, re-armed. */
		w->until = 0;
		w->fired = false;
		return PFC_WD_RESTORE;
	}
	if (!closed || !qlen) {
		w->fired = false; /* the episode ended */
		return PFC_WD_NONE;
	}
	if (w->fired || now < paused_since || now - paused_since < detect_ns)
		return PFC_WD_NONE;
	w->fired = true;
	*paused_for = now - paused_since;
	if (action != PFC_WD_REPORT)
		w->until = now + (restore_ns ? restore_ns : 1);
	return PFC_WD_FIRE;
}
