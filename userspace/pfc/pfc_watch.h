/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Heartbeats seen from outside the process that beats: the standby
 * watching its agent, the agent watching its standby, and `pfc show` or
 * the metrics reading a running agent's state. None of them needs the
 * agent itself, only its state record; the rules (what a beat is, what
 * the deadline covers and why) are under "Heartbeats" in pfc_standby.h.
 *
 * API:
 *   pfc_stall_ns(cfg)         the deadline: tick + PAUSE time (the
 *                             shortest of its ports), >= PFC_STALL_MIN_NS
 *   struct pfc_watch, pfc_watch_stale(w, beat, pending, now, deadline)
 *                             a watcher's view of a heartbeat: true when it
 *                             is stale
 *   pfc_leaving(st)           the agent is stopping: it owes no beat
 *   pfc_in_netlink(st)        it waits on the kernel in a netlink request
 *                             and is not stopped (SIGSTOP, a tracer)
 *   pfc_stalled(st, now, &age) a reader's view of a running agent
 *   pfc_stall_json(o, st, running, now)  "status" stalled and "heartbeat"
 */
#ifndef __TAGGER_PFC_WATCH_H
#define __TAGGER_PFC_WATCH_H

#include <stdbool.h>
#include <stdint.h>

#define PFC_STALL_MIN_NS 500000000ull
#define PFC_STANDBY_IDLE_LOOK_NS 1000000000ull

struct pfc_config;
struct pfc_state;
struct json_t;

struct pfc_watch {
	uint64_t beat; /* the beat last seen */
	uint64_t since; /* first seen with work pending (0: none) */
	uint64_t last_look;
};

uint64_t pfc_stall_ns(const struct pfc_config *c);
bool pfc_watch_stale(struct pfc_watch *w, uint64_t beat, bool pending,
		     uint64_t now, uint64_t deadline);
bool pfc_leaving(const struct pfc_state *st);
bool pfc_in_netlink(const struct pfc_state *st);
bool pfc_stalled(const struct pfc_state *st, uint64_t now, uint64_t *age);
void pfc_stall_json(struct json_t *o, const struct pfc_state *st, bool running,
		    uint64_t now);

#endif /* __TAGGER_PFC_WATCH_H */
