/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A port's DCB state (struct dcb_state of lib/dcb_msg.h) as JSON, and what
 * differs between two states: a data path saves the state it found in
 * its state record and puts it back on detach (lib/dcb_port.h).
 *
 *   {"ifname": "swp1",
 *    "pfc": {"cap": 8, "enabled": [3, 4], "mbc": 0, "delay": 4096},
 *    "ets": {"willing": 0, "ets_cap": 8, "cbs": 0, "tc_tx_bw": [8 x u8],
 *            "tc_rx_bw", "tc_tsa", "prio_tc", "tc_reco_bw", "tc_reco_tsa",
 *            "reco_prio_tc": [8 x u8]},
 *    "buffer": {"prio_buffer": [8 x 0..7], "buffer_size": [8 x u32],
 *               "total_size": u32},
 *    "dscp_prio": [[26, 3], ...], "prio_dscp": [[3, 26], ...],
 *    "other_apps": 0, "other_rewr": 0}
 * "pfc", "ets", "buffer" and "prio_dscp" (the rewr table) are there when
 * the port has them; dscp_prio pairs are DSCP 0..63 : priority 0..7,
 * prio_dscp pairs priority : DSCP. PFC's request and indication counters
 * are statistics, not state, and left out. Reading refuses unknown keys,
 * values out of range and arrays of another length.
 *
 * API:
 *   dcb_state_json(s)                    a new JSON object (NULL: no
 *                                        memory)
 *   dcb_state_from_json(j, s, err, len)  0, or -EINVAL with why in err
 *   dcb_plan(now, want, p)               what turns now into want: entries
 *                                        to add and delete, settings to
 *                                        set; how many changes, or
 *                                        -EOPNOTSUPP if want has a setting
 *                                        now's port lacks
 */
#ifndef __TAGGER_DCB_STATE_H
#define __TAGGER_DCB_STATE_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "lib/dcb_msg.h"

struct dcb_plan {
	struct dcb_app app_add[DCB_ENTRIES_MAX], app_del[DCB_ENTRIES_MAX];
	struct dcb_app rewr_add[DCB_ENTRIES_MAX], rewr_del[DCB_ENTRIES_MAX];
	int n_app_add, n_app_del, n_rewr_add, n_rewr_del;
	bool pfc, ets, buffer; /* differ: set want's */
};

json_t *dcb_state_json(const struct dcb_state *s);
int dcb_state_from_json(const json_t *j, struct dcb_state *s, char *err,
			size_t len);
int dcb_plan(const struct dcb_state *now, const struct dcb_state *want,
	     struct dcb_plan *p);

#endif /* __TAGGER_DCB_STATE_H */
