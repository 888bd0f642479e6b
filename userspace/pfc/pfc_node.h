/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A node's pause agent seen from outside (`pfc show`, `pfc stop`, the
 * metrics): is it running, stopped or dead (the lock, never a pid file);
 * its state read consistently (a dead agent's queues read live from the
 * kernel) and as the JSON document show -j prints; stopping it, or removing
 * what a dead one left. Records of another network namespace are refused.
 * Errors are reported (p_err) and returned as exit codes.
 *
 * API:
 *   enum pfc_agent_status, pfc_status_name(status)
 *   pfc_node_read(node, dir, &out, &as)  a copy of the state (*out, to
 *                                        free) and the agent's status
 *                                        (*as), or an exit code
 *   pfc_node_json(st, as, now)           the show -j document
 *   pfc_show_json(node, dir, &out)       both in one (the metrics)
 *   pfc_node_stop(node, dir, &pid)            pid: the agent stopped, or 0
 *   pfc_node_brs(node, dir, on)          the big red switch of a running
 *                                        agent (pfc_storm.h), once in force
 *   struct pfc_totals, pfc_add_totals(), pfc_paused_ns(), pfc_resume_avg_us()
 */
#ifndef __TAGGER_PFC_NODE_H
#define __TAGGER_PFC_NODE_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

#include "pfc/pfc_state.h"

enum pfc_agent_status { PFC_AGENT_STOPPED, PFC_AGENT_RUNNING, PFC_AGENT_DIED };

struct pfc_totals {
	uint64_t pfc_tx, pfc_rx, xoff, buffered, ll_drops, lossy_drops,
		failure_drops, leftover_drops, paused_ns, underflow, ecn_marked,
		wd_drops;
};

const char *pfc_status_name(enum pfc_agent_status a);
int pfc_node_read(const char *node, const char *dir, struct pfc_state **out,
		  enum pfc_agent_status *as);
json_t *pfc_node_json(const struct pfc_state *st, enum pfc_agent_status as,
		      uint64_t now);
int pfc_show_json(const char *node, const char *dir, json_t **out);
int pfc_node_stop(const char *node, const char *dir, int *stopped_pid);
int pfc_node_brs(const char *node, const char *dir, bool on);
uint64_t pfc_paused_ns(const struct pfc_state_prio *s, uint64_t now);
double pfc_resume_avg_us(const struct pfc_state_prio *s);
void pfc_add_totals(struct pfc_totals *t, const struct pfc_state *st, int port,
		    int p, uint64_t now);

#endif /* __TAGGER_PFC_NODE_H */
