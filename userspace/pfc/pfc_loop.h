/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The agent's event loop: BPF ring buffer events, a timer for pause
 * expiry, PAUSE refresh, statistics and the watchdog, and signals, on one
 * epoll. An idle node has no timer (pfc_idle.h); a keeper thread
 * refreshes PAUSEs while the loop waits in netlink (pfc_keeper.h). The
 * agent's state is pfc_agent_int.h's.
 *
 * API:
 *   pfc_loop(a)   until a signal to stop or a port is gone: 0 or -errno
 */
#ifndef __TAGGER_PFC_LOOP_H
#define __TAGGER_PFC_LOOP_H

struct pfc_agent;

int pfc_loop(struct pfc_agent *a);

#endif /* __TAGGER_PFC_LOOP_H */
