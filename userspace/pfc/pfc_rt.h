/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the pause agent asks of the scheduler and of CPU power management
 * so that it reacts to a crossing or a PFC frame within microseconds: a
 * SCHED_FIFO priority (it must not wait for a CPU) and, optionally, a
 * PM QoS CPU latency limit (an idle CPU must not be in a sleep state that
 * takes long to leave; in a VM, a halted vCPU needs the host to wake it,
 * which can cost most of that budget).
 *
 * API:
 *   pfc_rt_enter(&rt, rt_prio, cpu_latency_us)  best effort; says what failed
 *   pfc_rt_leave(&rt)                           drop the PM QoS request
 */
#ifndef __TAGGER_PFC_RT_H
#define __TAGGER_PFC_RT_H

#include "pfc/pfc_config.h" /* PFC_CPU_LATENCY_NONE */

struct pfc_rt {
	int rt_prio; /* SCHED_FIFO priority in force, 0: none */
	int cpu_latency_us; /* PM QoS limit held, PFC_CPU_LATENCY_NONE: none */
	int qos_fd;
};

void pfc_rt_enter(struct pfc_rt *rt, int rt_prio, int cpu_latency_us);
void pfc_rt_leave(struct pfc_rt *rt);

#endif /* __TAGGER_PFC_RT_H */
