/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The watchdog settings of each lossless queue (port, priority), SONiC
 * pfcwd's per-queue detection_time, restoration_time and action. The
 * node's --watchdog-ms, --watchdog-restore-ms and --watchdog-action are
 * the defaults of every lossless queue; --watchdog
 * PORT:PRIO:DETECT_MS:RESTORE_MS:ACTION (repeatable, the last one for a
 * queue wins) sets one queue, or with PORT "*" that priority on every
 * port. The options are read before the ports are known, so the specs
 * are kept as written and resolved afterwards.
 *
 * API:
 *   pfc_wd_parse_action(s, &action)   alert|forward|drop, and the names of
 *                                     before (report, ignore): 0 or -1
 *   pfc_wd_specs_apply(c, why, len)   c->wd_spec[] into c->wd[][]: 0, or -1
 *                                     with what is wrong (naming the
 *                                     option and the spec) in why
 *   pfc_wd_of(c, port, prio)          the queue's settings: its own, or
 *                                     the node's defaults
 *   pfc_wd_tick_ms(c)                 the shortest detection time of the
 *                                     node's lossless queues (the tick)
 */
#ifndef __TAGGER_PFC_WD_CONFIG_H
#define __TAGGER_PFC_WD_CONFIG_H

#include <stddef.h>
#include <stdint.h>

#include "pfc/pfc_config.h"

#define PFC_WD_WHY_LEN 160 /* room for pfc_wd_specs_apply()'s why */

int pfc_wd_parse_action(const char *s, enum pfc_wd_action *action);
int pfc_wd_specs_apply(struct pfc_config *c, char *why, size_t len);
struct pfc_wd_cfg pfc_wd_of(const struct pfc_config *c, int port, int prio);
uint32_t pfc_wd_tick_ms(const struct pfc_config *c);

#endif /* __TAGGER_PFC_WD_CONFIG_H */
