/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The agent's standby: a second process, forked once the agent is set up,
 * that watches the agent and takes over the moment the agent dies without
 * stopping (a crash, kill -9, the OOM killer) or hangs without dying (a
 * SIGSTOP, a debugger, a frozen cgroup, a paused VM, a starved CPU).
 *
 * Why a process and not the kernel: on this kernel a gate is a qdisc that
 * only netlink can reopen (no plug qdisc, no BPF qdisc), so a closed gate
 * whose agent died would hold its packets for good. The standby shares
 * everything the agent had open at fork: the BPF links (so accounting, the
 * XOFF frames sent from BPF and the tracepoints keep running), the maps,
 * the ring buffer (events queued while nobody read are not lost), the PAUSE
 * sockets, the lock (a second agent stays refused) and the mapped state,
 * from which it rebuilds which gates are closed until when and which
 * PAUSEs are in force. It then runs the same loop, forks a standby of its
 * own, and the node goes on pausing as before. If the agent stopped
 * cleanly (the state says so) the standby just exits; if it died while
 * removing its queues, the standby finishes that.
 *
 * Heartbeats. The loop stores the time of each pass, and of each netlink
 * request it completes, in the state (beat). An agent that has work pending passes at least every tick (100 ms at
 * most) and at every PAUSE refresh (half the PAUSE time); one asleep with
 * nothing pending (pfc_idle.h) owes no beat, and a frozen one of those is
 * harmless. So the agent is stalled when it has work pending (it is not
 * asleep, or a ring buffer record waits for it: a packet, a PFC frame)
 * and its beat has not changed for the deadline
 *
 *   stall_ns = tick + PAUSE time (the shortest of its ports), >= 500 ms
 *
 * (500 ms at 100 Mbit/s, the default quanta and watchdog; 1.73 s at 20
 * Mbit/s), measured from when the watcher first saw that beat with work
 * pending. Why that long: after a PAUSE time without the agent its
 * upstream would resume, but the BPF side refreshes the XOFF by itself
 * (bpf/lib/pfc_account.h), so what the deadline costs is how long a gate
 * stays closed beyond its PAUSE (throughput, not packets); and agents
 * starved for a few hundred ms on a busy machine are not killed for it.
 * A watcher that was not running itself for half the deadline (frozen or
 * starved with the agent) starts measuring afresh, so that both resuming
 * together is no stall. A loop that waits in a netlink request is waiting on the kernel (its
 * keeper refreshes the PAUSEs; killing it would not help), unless the
 * process is stopped (/proc state T or t). On a stall the standby kills
 * the agent with SIGKILL through its pidfd (never a pid that may have been
 * reused; SIGKILL, so that it never wakes up to fight its successor),
 * waits for it to die and takes over as above. It looks every stall_ns / 4
 * while the agent is awake, and while it sleeps waits for a ring buffer
 * record, looking at least every second.
 *
 * The other way round, the standby beats at each look (standby_beat) and
 * the agent, at each tick, kills a standby that has not looked for
 * stall_ns + 1 s (its slowest look) with SIGKILL through the pidfd; the
 * loop then sees it die and forks another. A standby frozen for less than
 * that is not replaced, which is harmless unless the agent dies meanwhile.
 *
 * `pfc show` and the metrics say `stalled` while a running agent is not
 * asleep and has no beat for stall_ns (or is stopped), with the beat's age.
 *
 * API:
 *   pfc_standby_spawn(a, takeover)  fork a standby for agent a (parent: 0
 *                             or -errno); the child watches, and when the
 *                             agent dies exits with takeover(a)'s code
 *                             (kept in a for the standbys forked later)
 *   pfc_standby_died(a)       the agent's standby died: reap it, fork another
 *   pfc_standby_check(a, now) agent, at each tick: kill a hung standby
 *   pfc_beat_start(a), pfc_beat(a)   the loop: at its start, at each pass
 *
 * The deadline and the watchers' view of a beat: pfc_watch.h.
 */
#ifndef __TAGGER_PFC_STANDBY_H
#define __TAGGER_PFC_STANDBY_H

#include <stdint.h>

struct pfc_agent;

int pfc_standby_spawn(struct pfc_agent *a,
		      int (*takeover)(struct pfc_agent *a));
int pfc_standby_died(struct pfc_agent *a);
void pfc_standby_check(struct pfc_agent *a, uint64_t now);
void pfc_beat_start(struct pfc_agent *a);
void pfc_beat(struct pfc_agent *a);

#endif /* __TAGGER_PFC_STANDBY_H */
