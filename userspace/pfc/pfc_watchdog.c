// SPDX-License-Identifier: GPL-2.0
/* PFC storm watchdog decisions; see pfc_watchdog.h. */
#include "pfc/pfc_watchdog.h"

#define MS 1000000ull

enum pfc_wd_verdict pfc_wd_step(struct pfc_wd *w, const struct pfc_wd_cfg *cfg,
				bool closed, uint64_t paused_since,
				uint64_t qlen, uint64_t now,
				uint64_t *paused_for)
{
	bool stuck = closed && qlen;

	if (w->storm) {
		if (cfg->action == PFC_WD_ALERT ?
			    !stuck :
			    now >= w->quiet_since &&
				    now - w->quiet_since >=
					    cfg->restore_ms * MS) {
			w->storm = false;
			return PFC_WD_RESTORE;
		}
		return PFC_WD_NONE;
	}
	if (!stuck || now < paused_since ||
	    now - paused_since < cfg->detect_ms * MS)
		return PFC_WD_NONE;
	w->storm = true;
	w->quiet_since = now;
	*paused_for = now - paused_since;
	return PFC_WD_FIRE;
}

void pfc_wd_paused(struct pfc_wd *w, uint64_t now)
{
	if (w->storm && now > w->quiet_since)
		w->quiet_since = now;
}
