/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Polling away from the CPU that drains the paused buffer (--busy-poll).
 * An XON crossing is seen in the transmit tracepoint, in the softirq of
 * the CPU that sends the buffer's packets on. When the polling agent runs
 * on that same CPU it cannot look at its ring buffer before that softirq
 * is done with the rest of its batch (forwarding the packet into the next
 * node), a large share of the time from XON to the upstream sending
 * again and several times what a crossing on another CPU costs. That CPU is usually the same one crossing after crossing, as the
 * queue's shaper timer stays on the CPU that last ran the queue, which is
 * often the agent's own (its kick after opening a gate runs the qdisc).
 *
 * So the BPF side says on which CPU it saw a buffer near XON or at XON
 * (struct pfc_event's vector, PFC_EV_CPU), and while the agent polls for
 * an XON it moves itself off that CPU if it is on it, within the CPUs it
 * was allowed when the polling began (taskset, cgroups), and only if one
 * is left. It takes its allowed set back when it stops polling, so an
 * idle or sleeping agent is placed by the scheduler as before; unless its
 * set was changed meanwhile (taskset while it polled): that one stays.
 *
 * API:
 *   struct pfc_cpu                     the mask to return to, moves made
 *   pfc_cpu_away(allowed, drain, cur, out)  the mask without drain, if
 *                                      the agent on cur should leave it
 *   pfc_cpu_avoid(c, drain)            move off drain now if on it;
 *                                      returns the CPU left, or -1
 *   pfc_cpu_restore(c)                 back to the allowed set
 */
#ifndef __TAGGER_PFC_CPU_H
#define __TAGGER_PFC_CPU_H

#include <sched.h>
#include <stdbool.h>
#include <stdint.h>

struct pfc_cpu {
	cpu_set_t allowed; /* the set to return to (valid while away) */
	cpu_set_t set; /* the set it moved to */
	bool away; /* the agent excluded a CPU from its set */
	uint64_t moves; /* times it moved */
};

bool pfc_cpu_away(const cpu_set_t *allowed, int drain, int cur, cpu_set_t *out);
int pfc_cpu_avoid(struct pfc_cpu *c, int drain);
void pfc_cpu_restore(struct pfc_cpu *c);

#endif /* __TAGGER_PFC_CPU_H */
