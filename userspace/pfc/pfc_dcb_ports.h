/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The pause agent's DCB backend on its ports: where every port's driver
 * has DCB operations, the device queues and pauses, and the agent writes
 * each port's maps (lib/dcb_port.h) and watches its PFC counters
 * (pfc_dcb_wd.h).
 *
 * Each port gets its DSCP -> priority map (app, all 64 DSCPs), priority
 * -> DSCP (rewr) for the priorities its map sets, and PFC on its lossless
 * priorities; the rest of the port (ETS, buffers, PFC delay, entries of
 * other selectors, rewr of other priorities) stays as found. The maps are
 * a switch's compiled rules' (--rules, model/dcb_map.h: c->dcb_*), else
 * --dscp-map and --lossless on every port alike.
 *
 * What each port held is saved first, in the node's directory
 * (PFC_DCB_SAVED, one lib/dcb_state.h object per port), and put back when
 * the agent stops, as the dcb data path of `tagger switch` does on
 * detach. An agent killed leaves the file: the next start, or `tagger pfc
 * stop`, puts it back before anything else.
 *
 * API:
 *   pfc_dcb_lossless(c, port)   the priorities PFC runs on at a port
 *   pfc_dcb_setup(c)            a dead agent's saved state put back, each
 *                               port's state saved, then every port's maps
 *                               written: 0 or -errno after p_err
 *   pfc_dcb_restore(dir)        put back what dir's PFC_DCB_SAVED holds,
 *                               then remove it: 0 (also when there is
 *                               none), or -errno after p_err (the file
 *                               stays for the next try)
 *   pfc_dcb_pfc(d, c, port, off)   PFC on the port's lossless priorities
 *                               but those of mask off (the watchdog's);
 *                               0 or -errno, d->err says why
 */
#ifndef __TAGGER_PFC_DCB_PORTS_H
#define __TAGGER_PFC_DCB_PORTS_H

#include <stdint.h>

#include "lib/dcb_nl.h"
#include "pfc/pfc_config.h"

#define PFC_DCB_SAVED "dcb_saved.json"

uint8_t pfc_dcb_lossless(const struct pfc_config *c, int port);
int pfc_dcb_setup(const struct pfc_config *c);
int pfc_dcb_restore(const char *dir);
int pfc_dcb_pfc(struct dcb_nl *d, const struct pfc_config *c, int port,
		uint8_t off);

#endif /* __TAGGER_PFC_DCB_PORTS_H */
