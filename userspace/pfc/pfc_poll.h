/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Being awake when a resume is due (--busy-poll US). A resume crosses two
 * agents in series (the downstream sees the XON crossing and sends the
 * resume, the upstream opens its gate over netlink), and each one sleeping
 * in epoll costs a wake-up, which on some VMs is most of the resume's
 * time. Neither step can be done by a BPF program on this kernel (a
 * tracing program cannot transmit, a TBF gate changes only over netlink),
 * so the agent is kept running instead, but only around the moment the
 * resume is expected: each (port, priority) remembers how long its last
 * episodes lasted (a PAUSE in force upstream, from XOFF to XON; a gate
 * closed, from PAUSE to resume), and from a little before the shortest of
 * them has elapsed the agent polls its ring buffer without sleeping, for
 * at most US microseconds per episode. Where the BPF side can tell (the
 * buffer of a PAUSE in force nearing XON, PFC_EV_XON_NEAR), that hint
 * opens the window instead. A resume later than the window finds the
 * agent asleep, as without the option; one episode costs at most about US
 * of CPU.
 *
 * API:
 *   struct pfc_expect                   one kind of episode of one queue
 *   pfc_expect_begin(e, ts)             an episode began at ts
 *   pfc_expect_end(e, ts)               it ended at ts: its length is learned
 *   pfc_expect_cancel(e)                it ended otherwise (expiry, watchdog)
 *   pfc_expect_hint(e, now)             its end is near: poll from now
 *   pfc_expect_window(e, budget, &from, &to)  when to poll for its end
 */
#ifndef __TAGGER_PFC_POLL_H
#define __TAGGER_PFC_POLL_H

#include <stdbool.h>
#include <stdint.h>

#define PFC_EXPECT_HIST 8 /* episode lengths remembered */

struct pfc_expect {
	uint64_t since; /* the episode's start, 0: none in progress */
	uint64_t len[PFC_EXPECT_HIST]; /* the last lengths, ns */
	unsigned int n, next; /* how many are known, where the next goes */
	uint64_t hint; /* when its end was said to be near, 0: not yet */
};

void pfc_expect_begin(struct pfc_expect *e, uint64_t ts);
void pfc_expect_end(struct pfc_expect *e, uint64_t ts);
void pfc_expect_cancel(struct pfc_expect *e);
void pfc_expect_hint(struct pfc_expect *e, uint64_t now);
bool pfc_expect_window(const struct pfc_expect *e, uint64_t budget_ns,
		       uint64_t *from, uint64_t *to);

#endif /* __TAGGER_PFC_POLL_H */
