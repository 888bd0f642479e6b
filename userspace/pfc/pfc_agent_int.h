/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The pause agent's own types, shared by the files that make up the agent
 * (pfc_agent.c and the loop, its helpers and its standby) and by nothing
 * outside userspace/pfc: the agent's state, the pause bookkeeping of each
 * (port, priority), the keeper thread's state, and the accessors and
 * helpers more than one of those files uses. The files' own functions are
 * in their own headers (pfc_loop.h, pfc_idle.h, pfc_keeper.h, ...).
 *
 * API:
 *   struct pfc_agent, struct pfc_pause_gate, struct pfc_keeper
 *   pp_of(a, port, prio), sp_of(a, port, prio)  a queue's BPF counters
 *                           and its state record
 *   pfc_lossless(a, prio)   a lossless priority (paused, never dropped)
 *   pfc_trace(a, what, port, prio, ev_ts, done)  a line of --trace (below)
 *   PFC_EXPECT_XON, PFC_EXPECT_RESUME   which episode a->expect[][][] is
 */
#ifndef __TAGGER_PFC_AGENT_INT_H
#define __TAGGER_PFC_AGENT_INT_H

#include <inttypes.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "lib/util.h"
#include "pfc/pfc_backend.h"
#include "pfc/pfc_config.h"
#include "pfc/pfc_cpu.h"
#include "pfc/pfc_frame.h"
#include "pfc/pfc_ident.h"
#include "pfc/pfc_poll.h"
#include "pfc/pfc_port.h"
#include "pfc/pfc_recount.h"
#include "pfc/pfc_rt.h"
#include "pfc/pfc_state.h"
#include "pfc/pfc_watch.h"
#include "pfc/pfc_watchdog.h"

struct pfc_bpf;

/*
 * What a->expect[port][prio][] waits for (pfc_poll.h): the XON after a
 * PAUSE of ours, and the resume of a gate the upstream closed.
 */
enum { PFC_EXPECT_XON, PFC_EXPECT_RESUME };

/*
 * What the agent knows of the upstream's PAUSE on one (port, priority):
 * whether its gate (the qdisc, pfc_backend.h) is closed and until when,
 * and the watchdog's view of it.
 */
struct pfc_pause_gate {
	bool closed;
	uint64_t until; /* pause expiry (CLOCK_MONOTONIC ns) */
	uint64_t since;
	uint64_t opened; /* when it last opened (for the trace) */
	struct pfc_wd wd;
	bool ignoring; /* watchdog ignore/drop in force */
};

/* The keeper thread (pfc_keeper.h says who touches what, and when). */
struct pfc_keeper {
	pthread_t th;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	bool running, stop;
	bool active; /* awake: a PAUSE of ours was in force lately */
	uint64_t in_force_at; /* when the loop last saw one in force */
	uint64_t since; /* the loop entered a netlink request, 0: not in one */
	uint64_t period_ns;
	uint64_t refreshes; /* sent by the keeper during this request */
	uint64_t test_delay_ns; /* TAGGER_PFC_TEST_NETLINK_DELAY_MS */
};

struct pfc_agent {
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
	struct pfc_pause_gate gate[PFC_MAX_PORTS][PFC_PRIOS];
	bool sent[PFC_MAX_PORTS][PFC_PRIOS]; /* PAUSE in force upstream */
	uint64_t refresh_at[PFC_MAX_PORTS];
	/* --busy-poll (pfc_poll.h): [PFC_EXPECT_*], below. */
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
	struct pfc_watch standby_watch; /* its heartbeat (pfc_watch.h) */
	/* What the standby runs when this agent dies (pfc_standby_spawn). */
	int (*takeover)(struct pfc_agent *a);
	struct pfc_state *old; /* a dead agent's state, if adopting */
	int adopt_fd[4]; /* its maps (pfc_adopt.h) */
	struct pfc_rt rt;
	struct pfc_keeper keeper; /* pfc_keeper.h */
};

static inline struct pfc_pp *pp_of(struct pfc_agent *a, int port, int prio)
{
	return &a->pp[PFC_SLOT(port, prio)];
}

static inline struct pfc_state_prio *sp_of(struct pfc_agent *a, int port,
					   int prio)
{
	return &a->st->ports[port].prio[prio];
}

static inline bool pfc_lossless(const struct pfc_agent *a, int prio)
{
	return (a->cfg->lossless_mask >> prio) & 1;
}

/*
 * --trace FILE: a line per step of the pause machinery, "KIND PORT PRIO
 * EVENT_NS DONE_NS" (CLOCK_MONOTONIC, the BPF side's clock), read by
 * tests/bench/pfc_latency.py. Upper case: the step was done (X PAUSE and
 * N resume sent, C gate closed, O gate open, K kick returned, S the first
 * packet left the reopened queue, R the first packet after XON arrived).
 * Lower case: the agent began it (x, n, c, o), so that DONE - EVENT is how
 * long the agent took to wake up. S is asked for only while tracing: it
 * costs the transmit tracepoint a lookup per packet. Lines with no port
 * ("-"): W polling spans, M the agent left a draining CPU, P an XON
 * crossing seen on the agent's own CPU (1) or another (0) (pfc_cpu.h).
 */
static inline void pfc_trace(struct pfc_agent *a, char what, int port, int prio,
			     uint64_t ev_ts, uint64_t done)
{
	if (a->trace)
		fprintf(a->trace, "%c %s %d %" PRIu64 " %" PRIu64 "\n", what,
			a->cfg->ports[port].name, prio, ev_ts, done);
}

#endif /* __TAGGER_PFC_AGENT_INT_H */
