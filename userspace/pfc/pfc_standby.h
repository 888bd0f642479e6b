/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The agent's standby: a second process, forked once the agent is set up,
 * that sleeps on a pidfd of the agent and takes over the moment the agent
 * dies without stopping (a crash, kill -9, the OOM killer).
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
 * API:
 *   pfc_standby_spawn(a)      fork a standby for agent a (parent: 0 or -errno;
 *                             the child never returns)
 *   pfc_standby_died(a)       the agent's standby died: reap it, fork another
 */
#ifndef __TAGGER_PFC_STANDBY_H
#define __TAGGER_PFC_STANDBY_H

struct agent;

int pfc_standby_spawn(struct agent *a);
int pfc_standby_died(struct agent *a);

#endif /* __TAGGER_PFC_STANDBY_H */
