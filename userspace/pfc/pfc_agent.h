/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The pause agent of one node: loads bpf/pfc.bpf.c on the node's ports,
 * builds the per-priority queues (pfc_backend.h), and runs until SIGINT or
 * SIGTERM: PAUSE frames out when an (in-port, priority) crosses XOFF,
 * refreshed while above XON, quanta 0 at XON; gates closed and opened by
 * the PAUSE frames that arrive; the watchdog; the state file for `show`.
 * On exit it removes everything it installed.
 *
 * API:
 *   pfc_agent_run(cfg, trace_path)   returns an exit code
 *
 * A start that fails undoes what it did (queues, programs, offloads, the
 * queues of a dead agent it was adopting) and records "stopped"; until it
 * is set up the state says "stopping", so that one killed half-way is
 * cleaned up, never adopted, by the next start or `pfc stop`.
 */
#ifndef __TAGGER_PFC_AGENT_H
#define __TAGGER_PFC_AGENT_H

#include "pfc/pfc_config.h"

int pfc_agent_run(struct pfc_config *cfg, const char *trace_path);

#endif /* __TAGGER_PFC_AGENT_H */
