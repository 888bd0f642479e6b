/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The agent's state and event loop (internal to pfc_agent.c/pfc_loop.c):
 * BPF ring buffer events, a timer for pause expiry, PAUSE refresh,
 * statistics and the watchdog, and signals, on one epoll. An idle node
 * has no timer (pfc_idle.h); a keeper thread refreshes PAUSEs while the
 * loop waits in netlink (pfc_keeper.h).
 *
 * API:
 *   struct agent, pfc_loop(a), now_ns()
 *   pfc_agent_takeover(a)   the standby's side: returns an exit code
 *   pp_of(a, port, prio), sp_of(a, port, prio)  a queue's BPF counters
 *                           and its state record
 *   pfc_agent_recount(a)    lower the counters to their exact recount
 *                           (pfc_repair.c); -EAGAIN if it cannot run
 *   pfc_agent_resync(a, seen)  the fallback: take off what priorities
 *                           whose queues are all empty still count
 *   pfc_xoff_sent(a, port, vec, now)  a PAUSE of ours went out (for the
 *                           BPF side's refresh)
 */
#ifndef __TAGGER_PFC_LOOP_H
#define __TAGGER_PFC_LOOP_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "lib/util.h"
#include "pfc/pfc_backend.h"
#include "pfc/pfc_config.h"
#include "pfc/pfc_cpu.h"
#include "pfc/pfc_frame.h"
#include "pfc/pfc_poll.h"
#include "pfc/pfc_ident.h"
#include "pfc/pfc_keeper.h"
#include "pfc/pfc_port.h"
#include "pfc/pfc_recount.h"
#include "pfc/pfc_rt.h"
#include "pfc/pfc_state.h"
#include "pfc/pfc_watch.h"
#include "pfc/pfc_watchdog.h"

struct pfc_bpf;

struct gate {
	bool closed;
	uint64_t until; /* pause expiry (CLOCK_MONOTONIC ns) */
	uint64_t since;
	uint64_t opened; /* when it last opened (for the trace) */
	struct pfc_wd wd;
	bool ignoring; /* watchdog ignore/drop in force */
};

struct agent {
	struct pfc_config *cfg;
	struct pfc_bpf *skel;
	struct pfc_pp *pp; /* the BPF "pp" array, mapped */
	const uint64_t *ring; /* the BPF "ring" array, mapped */
	struct pfc_recount rc;
	struct pfc_queues q;
	bool queues_up;
	bool forwarding; /* at start: else no buffer accounting */
	char backend[32];
	char dcb[PFC_MAX_PORTS][32];
	bool attached[PFC_MAX_PORTS];
	int tx_fd[PFC_MAX_PORTS]; /* PAUSE frames, qdisc bypass */
	struct pfc_offloads offloads[PFC_MAX_PORTS];
	struct gate gate[PFC_MAX_PORTS][PFC_PRIOS];
	bool sent[PFC_MAX_PORTS][PFC_PRIOS]; /* PAUSE in force upstream */
	uint64_t refresh_at[PFC_MAX_PORTS];
	/* --busy-poll (pfc_poll.h): [0] XON after our PAUSE, [1] a resume. */
	struct pfc_expect expect[PFC_MAX_PORTS][PFC_PRIOS][2];
	bool polling; /* not sleeping: a resume is due */
	uint64_t poll_began, poll_spent; /* this span, this tick's total */
	/* Where each buffer drained at its last XON (near): PFC_EV_CPU(). */
	uint32_t drain_cpu[PFC_MAX_PORTS][PFC_PRIOS];
	struct pfc_cpu cpu; /* polling off that CPU (pfc_cpu.h) */
	uint64_t tick_len;
	uint64_t tick_at; /* UINT64_MAX: asleep, no tick (pfc_idle.h) */
	unsigned int quiet_ticks; /* pfc_idle.h */
	uint64_t idle_pkts;
	bool asleep;
	struct pfc_state *st;
	FILE *trace;
	int lock_fd;
	struct pfc_netns netns; /* the namespace it runs in */
	int standby_pid, standby_fd; /* pfc_standby.h (fd: a pidfd) */
	struct pfc_watch standby_watch; /* its heartbeat (pfc_standby.h) */
	struct pfc_state *old; /* a dead agent's state, if adopting */
	int adopt_fd[4]; /* its maps (pfc_adopt.h) */
	struct pfc_rt rt;
	struct pfc_keeper keeper; /* pfc_keeper.h */
};

static inline struct pfc_pp *pp_of(struct agent *a, int port, int prio)
{
	return &a->pp[PFC_SLOT(port, prio)];
}

static inline struct pfc_state_prio *sp_of(struct agent *a, int port, int prio)
{
	return &a->st->ports[port].prio[prio];
}

int pfc_loop(struct agent *a);
int pfc_agent_takeover(struct agent *a);
int pfc_agent_recount(struct agent *a);
void pfc_agent_resync(struct agent *a, const uint64_t seen[][PFC_PRIOS]);
void pfc_xoff_sent(struct agent *a, int port, uint8_t vec, uint64_t now);

#endif /* __TAGGER_PFC_LOOP_H */
