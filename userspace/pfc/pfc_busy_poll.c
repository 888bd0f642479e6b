// SPDX-License-Identifier: GPL-2.0
/* The agent's busy polling around an expected resume; see pfc_busy_poll.h. */
#include <inttypes.h>

#include "pfc/pfc_agent_int.h"
#include "pfc/pfc_busy_poll.h"
#include "pfc.skel.h"

#define POLL_SHARE 4 /* polling takes at most 1/4 of each tick */

/*
 * Polling for an XON on the CPU whose softirq will see it: move off it
 * (pfc_cpu.h). M in the trace: the agent left that CPU.
 */
static void poll_off(struct pfc_agent *a, int port, int prio)
{
	uint64_t now;
	int cpu;

	if (!a->polling || !a->drain_cpu[port][prio])
		return;
	cpu = pfc_cpu_avoid(&a->cpu, PFC_EV_CPU_OF(a->drain_cpu[port][prio]));
	if (cpu >= 0 && a->trace) {
		now = now_ns();
		fprintf(a->trace, "M - %d %" PRIu64 " %" PRIu64 "\n", cpu, now,
			now);
	}
}

void pfc_on_xon_near(struct pfc_agent *a, const struct pfc_event *e)
{
	pfc_expect_hint(&a->expect[e->slot][e->prio][PFC_EXPECT_XON], e->ts);
	if (e->vector)
		a->drain_cpu[e->slot][e->prio] = e->vector;
	poll_off(a, e->slot, e->prio);
}

/*
 * Is a resume due now (poll for it), and if not, when is the next one
 * (*next, UINT64_MAX: none)? See pfc_poll.h.
 */
bool pfc_poll_due(struct pfc_agent *a, uint64_t now, uint64_t *next)
{
	uint64_t budget = a->cfg->busy_poll_us * 1000ull, from, to;
	int port, p, k;

	*next = UINT64_MAX;
	if (a->poll_spent + (a->polling ? now - a->poll_began : 0) >=
	    a->tick_len / POLL_SHARE) {
		*next = a->tick_at; /* this tick's share is used up */
		return false;
	}
	for (port = 0; port < a->cfg->nports; port++) {
		for (p = 0; p < PFC_PRIOS; p++) {
			for (k = 0; k < 2; k++) {
				if (!pfc_expect_window(&a->expect[port][p][k],
						       budget, &from, &to) ||
				    now >= to)
					continue;
				if (from <= now)
					return true;
				if (from < *next)
					*next = from;
			}
		}
	}
	return false;
}

/*
 * Polling keeps the agent's SCHED_FIFO priority: under load, a poller of
 * the ordinary class is preempted for milliseconds, longer than a wake-up
 * from epoll at SCHED_FIFO. What bounds it is its window (--busy-poll per
 * expected resume) and POLL_SHARE: at most that share of each tick is
 * spent polling, so that a queue pausing and resuming without end cannot
 * keep the CPU from the rest of the machine. It yields whenever nothing
 * came (to other agents at the same priority). W in the trace: a polling
 * span (its CPU cost).
 */
void pfc_poll_mode(struct pfc_agent *a, bool on)
{
	uint64_t now;

	if (on == a->polling)
		return;
	now = now_ns();
	a->polling = on;
	/* Records need no wake-up while it polls (pfc_globals.h). */
	__atomic_store_n(&a->skel->bss->agent_polling, on, __ATOMIC_SEQ_CST);
	if (on) {
		int port, p;

		a->poll_began = now;
		for (port = 0; port < a->cfg->nports; port++)
			for (p = 0; p < PFC_PRIOS; p++)
				if (a->sent[port][p])
					poll_off(a, port, p);
		return;
	}
	pfc_cpu_restore(&a->cpu);
	a->poll_spent += now - a->poll_began;
	if (a->trace)
		fprintf(a->trace, "W - 0 %" PRIu64 " %" PRIu64 "\n",
			a->poll_began, now);
}
