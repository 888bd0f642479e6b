/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The state a running pause agent shares with `tagger pfc show`, `stop`
 * and the lab: a file <dir>/state that the agent maps and updates in place
 * (a sequence count, odd while an update is in progress), plus <dir>/pid.
 * A file under /run, not a bpffs pin, because `ip netns exec` mounts a
 * private /sys in which another process's pins are invisible.
 *
 * The directory is trusted only if this user owns it and nobody else can
 * write to it (nor to its parent, unless that is sticky): files in it are
 * opened without following symlinks and are 0600. A lock file says whether
 * an agent (or its standby) runs: flock is released by the kernel when
 * the holders die, so it cannot be fooled by a stale pid file.
 *
 * API:
 *   struct pfc_state (+ pfc_state_port, pfc_state_prio)
 *   pfc_state_dir(dir, make, why)  (make and) check the directory (0, -errno)
 *   pfc_state_root_check(dir, shown, len, why)
 *                                  agent: the directory above dir's parent
 *                                  (/run/tagger) is root's (or ours) and
 *                                  nobody else may write to it; shown: the
 *                                  path checked (0, -EPERM, -ENOTDIR)
 *   pfc_state_lock(dir, &fd)       agent: take the lock (-EBUSY: held)
 *   pfc_state_locked(dir)          1 held, 0 free, -errno (e.g. -EACCES)
 *   pfc_state_read(dir, copy)      a copy, when no writer lives (0 or -errno)
 *   pfc_state_create(dir, &st)     agent: create (space reserved) and map,
 *                                  replacing the old file only when whole
 *                                  (0 or -errno: -ENOSPC when /run is full)
 *   pfc_state_open(dir, write, &st) reader (or `stop`, write): map it; a
 *                                  version 5, 6, 7 or 8 state (agents of
 *                                  releases before) reads with the
 *                                  fields since added as 0
 *   pfc_state_snapshot(st, copy)   consistent copy (retries while updated)
 *   pfc_state_begin/end(st)        agent: bracket an update
 *   pfc_state_put_qstats(st, s)    a queue's kernel statistics into st
 *   pfc_state_unmap(st)
 *   pfc_dir(node, buf, len)        $TAGGER_PFC_DIR/<node> or /run/tagger/pfc/<node>
 */
#ifndef __TAGGER_PFC_STATE_H
#define __TAGGER_PFC_STATE_H

#include <stdbool.h>
#include <stdint.h>

#include "pfc/pfc_config.h"

#define PFC_STATE_MAGIC 0x54504643u /* "TPFC" */
#define PFC_STATE_VERSION 9
/* The default state root; the agents' directories are in PFC_RUN_DIR/pfc. */
#define PFC_RUN_DIR "/run/tagger"

struct pfc_state_prio {
	/* this port as an ingress port (from the BPF counters) */
	uint64_t bytes, peak, pkts, returned, drops, xoff_crossings, underflow;
	uint32_t xoff; /* above XOFF: pausing the upstream */
	uint32_t gate_closed; /* the upstream paused this egress queue */
	uint64_t pfc_tx, pfc_tx_resume; /* frames sent enabling this prio */
	uint64_t pfc_tx_fast; /* ... of pfc_tx, sent by BPF at XOFF */
	/* this port's egress queue */
	uint64_t pfc_rx, pfc_rx_resume, pfc_rx_ignored;
	uint64_t pauses; /* gate closures */
	uint64_t paused_ns; /* total closed time, closed episodes */
	uint64_t paused_since; /* CLOCK_MONOTONIC ns, 0 when open */
	uint64_t q_backlog, q_qlen, q_drops, q_packets, q_bytes;
	uint64_t egress_drops; /* by the watchdog's drop action */
	uint64_t failure_drops; /* lost to a failure: link down, no route */
	uint32_t last_drop_reason; /* skb_drop_reason of the last of drops */
	uint32_t leftover_drops; /* packets a dead agent's queue held, or
				  * dropped unrecorded, when a restart or
				  * `stop` removed it */
	uint64_t resynced; /* bytes whose return the tracepoints missed */
	uint64_t wd_events,
		wd_last_ns; /* detections, paused time at the last */
	uint64_t wd_until; /* restoration ends (0: not acting) */
	/* this port as an ingress port: XON crossing -> first packet back */
	uint64_t resumes, resume_ns, resume_max_ns;
	uint64_t gate_until; /* CLOCK_MONOTONIC ns the pause ends */
	uint32_t pause_sent; /* a PAUSE of ours is in force upstream */
	uint32_t pad2;
};

/* A lossless queue's storm watchdog (pfc_watchdog.h), since version 9. */
struct pfc_state_wd {
	uint32_t detect_ms, restore_ms; /* its settings (pfc_wd_config.h) */
	uint32_t action; /* enum pfc_wd_action */
	uint32_t storm; /* 1: in a storm (detected, not restored) */
	uint64_t start_rt, end_rt; /* CLOCK_REALTIME ns of the last storm's
				    * start and end (0: none, or not over) */
	uint64_t flushed; /* packets the drop action flushed from the queue */
	uint64_t rx_drops; /* ... dropped at the port's ingress */
};

struct pfc_state_port {
	char name[16], ifname[16];
	int32_t ifindex;
	uint32_t pad;
	uint64_t rate_bps;
	char dcb[32];
	/* GRO/TSO/GSO before the agent turned them off: `stop` restores
	 * them even after the agent died */
	uint32_t gro, tso, gso, offloads_saved;
	struct pfc_state_prio prio[PFC_PRIOS];
};

struct pfc_state {
	uint32_t magic, version;
	uint32_t seq, pid;
	uint64_t pid_start; /* the agent's start time (pfc_ident.h) */
	uint64_t netns_dev, netns_ino; /* the namespace its ifindexes are in */
	uint32_t stopped; /* 1: the agent removed what it set up */
	uint32_t stopping; /* 1: it began to (pfc_standby.h) */
	uint32_t standby_pid; /* its standby, 0 if none */
	uint32_t takeovers; /* times a standby took over */
	uint64_t takeover_at; /* CLOCK_MONOTONIC ns of the last */
	uint64_t died_at; /* ... when its standby saw the agent gone */
	uint32_t adoptions; /* times an agent adopted a dead one's
					 * queues and maps (pfc_adopt.h) */
	uint32_t map_ids[4]; /* ports, pp, ring, events */
	uint64_t started, updated; /* CLOCK_MONOTONIC ns */
	uint64_t tick_began; /* when the tick that set updated began */
	char node[64];
	char backend[32];
	char note[512];
	uint64_t rate_bps;
	uint32_t lossless_mask, quanta;
	uint64_t xoff[PFC_PRIOS], xon[PFC_PRIOS], headroom[PFC_PRIOS];
	uint64_t lossless_limit, lossy_limit;
	uint32_t sched, wd_action, wd_detect_ms, wd_restore_ms;
	uint32_t nports, frame;
	int32_t cpu_latency_us; /* PM QoS request held, or
					 * PFC_CPU_LATENCY_NONE */
	uint32_t rt_prio; /* SCHED_FIFO priority in force, 0: none */
	uint64_t wd_events, events_lost, resyncs;
	struct pfc_state_port ports[PFC_MAX_PORTS];
	/* Since version 6; a version 5 state reads them as 0. */
	uint32_t busy_poll_us; /* --busy-poll */
	uint32_t asleep; /* 1: idle, sleeping with no tick (pfc_idle.h) */
	uint64_t ticks; /* ticks run */
	uint64_t sleeps; /* idle sleeps ended by a wake-up */
	uint64_t nl_slow; /* netlink requests over 100 ms (pfc_keeper.h) */
	uint64_t nl_max_ns; /* the longest */
	uint64_t keeper_refreshes; /* PAUSE refreshes sent by the keeper */
	/* Since version 7 (pfc_standby.h); older states read them as 0. */
	uint64_t beat; /* CLOCK_MONOTONIC ns of the loop's last pass */
	uint64_t standby_beat; /* ... of the standby's last look */
	uint64_t stall_ns; /* no beat for this long with work pending:
				 * the agent is stalled */
	uint64_t nl_since; /* the loop waits in netlink since (0: not) */
	uint32_t stalls; /* hung agents killed by their standby */
	uint32_t standby_stalls; /* hung standbys killed by their agent */
	uint32_t quitting; /* 1: the loop ended, no beat is due */
	uint32_t pad7;
	uint64_t gate_late_max_ns; /* longest a gate stayed closed beyond
				    * its PAUSE (resume or expiry) */
	uint64_t bpf_refreshes; /* XOFF refreshes sent by the BPF side */
	/* Since version 8 (ECN, pfc_ecn_p()); older states read them as 0. */
	uint32_t ecn_mask; /* the priorities that mark */
	uint32_t ecn_pmax[PFC_PRIOS]; /* percent */
	uint32_t pad8;
	uint64_t ecn_kmin[PFC_PRIOS], ecn_kmax[PFC_PRIOS];
	/* packets marked CE, per in-port and priority */
	uint64_t ecn_marked[PFC_MAX_PORTS][PFC_PRIOS];
	/*
	 * Since version 9 (the storm watchdog); older states read them as
	 * 0. The big red switch (every lossless queue in drop): brs_req is
	 * the one word written from outside the agent (`pfc watchdog NODE
	 * big-red-switch`, then SIGUSR1), brs what the agent put in force.
	 */
	uint32_t brs_req, brs;
	struct pfc_state_wd wd[PFC_MAX_PORTS][PFC_PRIOS];
};

int pfc_state_dir(const char *dir, bool make, const char **why);
int pfc_state_root_check(const char *dir, char *shown, size_t len,
			 const char **why);
int pfc_state_lock(const char *dir, int *fd);
int pfc_state_locked(const char *dir);
int pfc_state_read(const char *dir, struct pfc_state *copy);
int pfc_state_create(const char *dir, struct pfc_state **st);
int pfc_state_open(const char *dir, bool write, struct pfc_state **st);
int pfc_state_snapshot(const struct pfc_state *st, struct pfc_state *copy);
void pfc_state_begin(struct pfc_state *st);
void pfc_state_end(struct pfc_state *st);
struct tc_qstats;
void pfc_state_put_qstats(struct pfc_state *st, const struct tc_qstats *s);
void pfc_state_unmap(struct pfc_state *st);
int pfc_dir(const char *node, char *buf, size_t len);

#endif /* __TAGGER_PFC_STATE_H */
