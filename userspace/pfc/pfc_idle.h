/* SPDX-License-Identifier: GPL-2.0 */
/*
 * An idle agent sleeps without a timer. The tick (pfc_loop.c) repairs the
 * buffer counters, catches lost ring buffer records, feeds the watchdog
 * and refreshes the state; on a node that carries nothing none of that has
 * anything to do, and at a tick every 50 ms the agents of a big lab took
 * most of the machine doing it. The node is quiet when, at the end of a
 * tick and for the IDLE_TICKS ticks before it:
 *
 *   - no packet was counted at ingress since the tick before (pkts),
 *     nothing is counted as buffered (bytes) and no (port, priority) is
 *     above XOFF: the counters need no repair, no PAUSE must be sent;
 *   - every egress queue is empty (the tick's netlink dump);
 *   - no PAUSE of ours is in force upstream (nothing to refresh), no gate
 *     is closed (no expiry, nothing for the watchdog), no watchdog action
 *     is in force (its restoration is timed by the tick), nothing polls.
 *
 * Then the agent sets agent_asleep in the BPF globals, reads the counters
 * again and sleeps on its epoll with no timer. Everything that can end the
 * quiet wakes it: a PFC frame in is a ring buffer record (PFC_EV_RX), an
 * XOFF crossing too, and the first packet counted while agent_asleep is
 * set clears it and sends PFC_EV_WAKE. The flag is set before the second
 * read and the BPF side reads it after its add to the counter, both
 * sequentially consistent, so a packet is either seen by that read (no
 * sleep) or wakes the agent. Signals (`show`'s SIGUSR1, stop) and the
 * standby's death wake it as before. Any wake-up ticks at once, and the
 * agent ticks every tick until the node has been quiet again for
 * IDLE_TICKS ticks. A killed agent's standby starts by ticking, and
 * clears the flag.
 *
 * API:
 *   pfc_idle_tick(a)    at the end of a tick: one more quiet tick, or none
 *   pfc_idle_enter(a)   before sleeping: true if the agent may sleep with
 *                       no tick (a->tick_at is then UINT64_MAX)
 *   pfc_idle_leave(a)   it woke: tick now
 */
#ifndef __TAGGER_PFC_IDLE_H
#define __TAGGER_PFC_IDLE_H

#include <stdbool.h>

#define PFC_IDLE_TICKS 3

struct pfc_agent;

void pfc_idle_tick(struct pfc_agent *a);
bool pfc_idle_enter(struct pfc_agent *a);
void pfc_idle_leave(struct pfc_agent *a);

#endif /* __TAGGER_PFC_IDLE_H */
