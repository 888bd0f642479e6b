/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Per-port egress queues, one per priority, with a gate each that the
 * pause agent closes and opens. Two software backends; which one runs is
 * detected per node, never assumed:
 *
 *   mqprio-plug  mqprio (priority i -> traffic class i -> tx queue i), a
 *                TBF at the link rate per class and a plug qdisc under it
 *                as the gate (kernels with sch_mqprio and sch_plug, e.g.
 *                Debian's stock kernel; the port needs 8 tx queues).
 *   htb-tbf      HTB at the link rate, one class per priority (weighted
 *                or strict), a TBF leaf per class as the gate: 1 B/s with
 *                a one-frame burst is closed, a fast rate is open (see
 *                Documentation/kernel-notes.md). Works on this kernel.
 *
 * Handles: root 1:, HTB classes 1:1 (link) and 1:10+prio, gate qdiscs
 * 20+prio: (TBF/plug), mqprio TBFs 30+prio:, a flushed TBF's new bfifo
 * 40+prio: or 48+prio:.
 *
 * API:
 *   struct pfc_queues, pfc_queues_setup(q, cfg, want, classify_fd)
 *   pfc_queues_adopt(q, cfg, backend)  take over queues a dead agent left
 *   pfc_gate(q, port, prio, closed)    change a gate (only on a change)
 *   pfc_flush(q, port, prio)           drop what a queue holds (the
 *                                      watchdog's drop): htb-tbf only,
 *                                      -EOPNOTSUPP on mqprio-plug
 *   pfc_queues_teardown(q)
 *   PFC_GATE_HANDLE(prio)              the qdisc whose stats are the queue
 */
#ifndef __TAGGER_PFC_BACKEND_H
#define __TAGGER_PFC_BACKEND_H

#include <stdbool.h>
#include <stdint.h>

#include "pfc/pfc_config.h"
#include "pfc_maps.h"
#include "pfc/pfc_tc.h"

#define PFC_ROOT_HANDLE PFC_TC_HANDLE(PFC_TC_MAJOR, 0)
#define PFC_GATE_HANDLE(prio) ((0x20u + (prio)) << 16)
#define PFC_HTB_CLASS(prio) PFC_TC_HANDLE(PFC_TC_MAJOR, PFC_CLASS_MINOR(prio))

struct pfc_queues;

struct pfc_backend {
	const char *name;
	int (*setup)(struct pfc_queues *q, int port);
	int (*gate)(struct pfc_queues *q, int port, int prio, bool closed);
	int (*flush)(struct pfc_queues *q, int port, int prio);
};

struct pfc_queues {
	const struct pfc_config *cfg;
	const struct pfc_backend *be;
	struct tc tc;
	int kick_fd[PFC_MAX_PORTS]; /* htb-tbf: restarts a resumed queue */
	uint8_t mac[PFC_MAX_PORTS][6];
	uint64_t changed_ns; /* CLOCK_MONOTONIC: the last gate change
					 * took effect (before its kick) */
	char why[512]; /* why the other backend was not used */
	bool made[PFC_MAX_PORTS]; /* the root qdisc is ours: teardown
				   * removes it (a failed start: only these) */
};

int pfc_queues_setup(struct pfc_queues *q, const struct pfc_config *cfg,
		     enum pfc_backend_req want);
int pfc_queues_adopt(struct pfc_queues *q, const struct pfc_config *cfg,
		     const char *backend);
int pfc_gate(struct pfc_queues *q, int port, int prio, bool closed);
int pfc_flush(struct pfc_queues *q, int port, int prio);
void pfc_queues_teardown(struct pfc_queues *q);

#endif /* __TAGGER_PFC_BACKEND_H */
