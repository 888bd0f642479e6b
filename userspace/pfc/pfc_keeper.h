/* SPDX-License-Identifier: GPL-2.0 */
/*
 * PAUSEs stay refreshed while the agent's loop is stuck in netlink.
 *
 * A gate change and the tick's queue statistics are rtnetlink requests,
 * and the kernel serves each under its rtnl lock, which any other netlink
 * user can hold for as long as it likes: a request can block the loop for
 * seconds. A PAUSE of ours in force upstream lasts only its quanta (335
 * ms at 100 Mbit/s) unless refreshed, so the refresh must not depend on
 * the loop: a blocked loop would let the upstream send into a full
 * buffer. So a second thread, the
 * keeper, refreshes them while the loop is inside a netlink request for
 * longer than half a refresh interval, and also those the BPF side sent
 * at an XOFF crossing the loop has not read yet (pfc_pp.xoff). It sleeps on a condition variable
 * once no PAUSE of ours was in force for a second (no cost on an idle
 * node; the loop signals it when one comes), else wakes every half
 * refresh interval (at least 1 ms).
 *
 * Who touches what: the loop changes which PAUSEs are in force (sent[],
 * refresh_at[]) and sends frames only outside netlink requests; the
 * keeper reads and refreshes them only while the loop is inside one,
 * under the mutex, and the loop leaves a request by taking the mutex, so
 * the two never overlap and a resume the loop sends after the request
 * always comes after the keeper's last refresh.
 *
 * API:
 *   struct pfc_keeper (pfc_agent_int.h), in the agent
 *   pfc_keeper_start(a) / pfc_keeper_stop(a)   with the loop
 *   pfc_keeper_update(a)      once per loop pass: wakes the keeper when a
 *                             PAUSE of ours came into force
 *   pfc_nl_enter(a, stats) / pfc_nl_exit(a, what)   bracket a netlink
 *                             request (stats: the queue statistics) inside
 *                             the loop's state update, which they leave
 *                             and re-enter; exit counts (and above 1 s
 *                             logs) slow ones
 *
 * For tests: TAGGER_PFC_TEST_NETLINK_DELAY_MS=MS in the agent's
 * environment holds the loop MS milliseconds inside each request for the
 * queue statistics, as a kernel whose rtnl lock another process holds
 * would (tests/shell/test_pfc_idle.sh).
 */
#ifndef __TAGGER_PFC_KEEPER_H
#define __TAGGER_PFC_KEEPER_H

#include <stdbool.h>
#include <stdint.h>

#define PFC_NL_SLOW_NS 100000000ull /* a request this long is counted */
#define PFC_NL_LOG_NS 1000000000ull /* ... and this long logged */

struct pfc_agent;

int pfc_keeper_start(struct pfc_agent *a);
void pfc_keeper_stop(struct pfc_agent *a);
void pfc_keeper_update(struct pfc_agent *a);
void pfc_nl_enter(struct pfc_agent *a, bool stats);
void pfc_nl_exit(struct pfc_agent *a, const char *what);

#endif /* __TAGGER_PFC_KEEPER_H */
