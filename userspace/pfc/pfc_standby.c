// SPDX-License-Identifier: GPL-2.0
/* The pause agent's standby and the heartbeats; see pfc_standby.h. */
#include <bpf/libbpf.h>
#include <errno.h>
#include <inttypes.h>
#include <jansson.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib/log.h"
#include "pfc/pfc_ident.h"
#include "pfc/pfc_agent_int.h"
#include "pfc/pfc_ring_pos.h"
#include "pfc/pfc_standby.h"
#include "pfc/pfc_watch.h"
#include "pfc.skel.h"

#define KILL_WAIT_MS 1000 /* for the killed agent to be gone */

static int pidfd_of(int pid)
{
	int fd = syscall(SYS_pidfd_open, pid, 0);

	return fd < 0 ? -errno : fd;
}

static int pidfd_kill(int fd)
{
	return syscall(SYS_pidfd_send_signal, fd, SIGKILL, NULL, 0) < 0 ?
		       -errno :
		       0;
}

static bool pidfd_ended(int fd, int ms)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	return poll(&p, 1, ms) > 0;
}

/* The standby's look: is the agent hung with work pending? */
static bool agent_hung(struct pfc_agent *a, struct pfc_watch *w,
		       const struct pfc_ring_pos *rp, uint64_t now)
{
	const struct pfc_state *st = a->st;
	bool pending;

	if (pfc_leaving(st))
		return false;
	pending = !__atomic_load_n(&st->asleep, __ATOMIC_ACQUIRE) ||
		  (rp->prod && pfc_ring_ready(rp));
	if (pending && pfc_in_netlink(st))
		pending = false;
	return pfc_watch_stale(w, __atomic_load_n(&st->beat, __ATOMIC_ACQUIRE),
			       pending, now, st->stall_ns);
}

/*
 * Gates the hung agent left closed past their PAUSE: the takeover reopens
 * them as it starts (pfc_agent.c), so their lateness is counted here.
 */
static void late_gates(struct pfc_state *st, uint64_t now)
{
	uint32_t port, p;

	for (port = 0; port < st->nports && port < PFC_MAX_PORTS; port++) {
		for (p = 0; p < PFC_PRIOS; p++) {
			const struct pfc_state_prio *sp =
				&st->ports[port].prio[p];

			if (sp->gate_closed && sp->gate_until &&
			    sp->gate_until < now &&
			    now - sp->gate_until > st->gate_late_max_ns)
				st->gate_late_max_ns = now - sp->gate_until;
		}
	}
}

/* Kill the hung agent (by its pidfd) and wait until it is gone. */
static void kill_hung(struct pfc_agent *a, int agent_fd,
		      const struct pfc_watch *w, uint64_t now)
{
	int r = pidfd_kill(agent_fd);

	pr_warn("%s: the pause agent (pid %u) made no progress for %" PRIu64
		" ms with work pending (deadline %" PRIu64
		" ms): %s; its standby (pid %d) takes over\n",
		a->cfg->node, a->st->pid, (now - w->since) / 1000000,
		a->st->stall_ns / 1000000,
		r ? strerror(-r) : "killed (SIGKILL)", getpid());
	if (!r && !pidfd_ended(agent_fd, KILL_WAIT_MS))
		pr_warn("%s: the hung agent is not gone after %d ms (in the "
			"kernel): it dies before it runs again\n",
			a->cfg->node, KILL_WAIT_MS);
	__atomic_fetch_add(&a->st->stalls, 1, __ATOMIC_RELAXED);
	late_gates(a->st, now_ns());
}

/* One wait of the standby: true when the agent ended. */
static bool standby_wait(struct pfc_agent *a, int agent_fd,
			 const struct pfc_ring_pos *rp, int ring_fd)
{
	struct pollfd p[2] = { { .fd = agent_fd, .events = POLLIN },
			       { .fd = ring_fd, .events = POLLIN } };
	bool asleep = __atomic_load_n(&a->st->asleep, __ATOMIC_ACQUIRE);
	int n = 1, ms = (int)(a->st->stall_ns / 4000000);

	/* Asleep, nothing waiting: a record (the wake-up) or a second. */
	if (asleep && ring_fd >= 0 && rp->prod && !pfc_ring_ready(rp)) {
		n = 2;
		ms = PFC_STANDBY_IDLE_LOOK_NS / 1000000;
	}
	if (ms < 1)
		ms = 1;
	if (poll(p, n, ms) < 0 && errno != EINTR)
		return true; /* cannot watch: as if it ended (it checks) */
	return p[0].revents != 0;
}

/* The child: watch the agent, then take over or leave. */
static void __attribute__((noreturn))
standby_main(struct pfc_agent *a, int agent_fd)
{
	struct pfc_ring_pos rp = { 0 };
	struct pfc_watch w = { 0 };
	int ring_fd = bpf_map__fd(a->skel->maps.events);

	prctl(PR_SET_NAME, "tagger-standby");
	a->standby_pid = 0;
	a->standby_fd = -1;
	/* The agent's keeper thread is not ours (a copy, maybe locked). */
	memset(&a->keeper, 0, sizeof(a->keeper));
	if (pfc_ring_pos_map(&rp, ring_fd))
		ring_fd = -1; /* then a look every stall_ns / 4 */
	for (;;) {
		uint64_t now;

		if (standby_wait(a, agent_fd, &rp, ring_fd))
			break;
		now = now_ns();
		__atomic_store_n(&a->st->standby_beat, now, __ATOMIC_RELEASE);
		if (agent_hung(a, &w, &rp, now)) {
			kill_hung(a, agent_fd, &w, now);
			break;
		}
	}
	pfc_ring_pos_unmap(&rp);
	close(agent_fd);
	_exit(a->takeover(a));
}

int pfc_standby_spawn(struct pfc_agent *a, int (*takeover)(struct pfc_agent *a))
{
	int self = pidfd_of(getpid()), pid, fd;

	if (self < 0)
		return self;
	a->takeover = takeover;
	/*
	 * Alive: neither side may be judged on a beat of before, nor
	 * without a deadline (the loop's start sets it too).
	 */
	a->st->stall_ns = pfc_stall_ns(a->cfg);
	pfc_beat(a);
	__atomic_store_n(&a->st->standby_beat, now_ns(), __ATOMIC_RELEASE);
	memset(&a->standby_watch, 0, sizeof(a->standby_watch));
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		close(self);
		return -errno;
	}
	if (!pid)
		standby_main(a, self);
	close(self);
	fd = pidfd_of(pid);
	if (fd < 0) {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		return fd;
	}
	a->standby_pid = pid;
	a->standby_fd = fd;
	/* One aligned store: may be inside or outside the loop's update. */
	__atomic_store_n(&a->st->standby_pid, pid, __ATOMIC_RELEASE);
	return 0;
}

int pfc_standby_died(struct pfc_agent *a)
{
	waitpid(a->standby_pid, NULL, WNOHANG);
	close(a->standby_fd);
	a->standby_fd = -1;
	a->standby_pid = 0;
	pr_warn("%s: the standby of the pause agent died; starting another\n",
		a->cfg->node);
	return pfc_standby_spawn(a, a->takeover);
}

void pfc_standby_check(struct pfc_agent *a, uint64_t now)
{
	uint64_t beat = __atomic_load_n(&a->st->standby_beat, __ATOMIC_ACQUIRE);
	uint64_t deadline = a->st->stall_ns + PFC_STANDBY_IDLE_LOOK_NS;
	int r;

	if (a->standby_fd < 0 ||
	    !pfc_watch_stale(&a->standby_watch, beat, true, now, deadline))
		return;
	r = pidfd_kill(a->standby_fd);
	pr_warn("%s: the standby (pid %d) made no progress for %" PRIu64
		" ms: %s\n",
		a->cfg->node, a->standby_pid,
		(now - a->standby_watch.since) / 1000000,
		r ? strerror(-r) : "killed (SIGKILL); the loop forks another");
	a->st->standby_stalls++;
	/* Its end wakes the loop (pfc_standby_died); if not, again later. */
	a->standby_watch.since = 0;
}

void pfc_beat_start(struct pfc_agent *a)
{
	a->st->stall_ns = pfc_stall_ns(a->cfg);
	__atomic_store_n(&a->st->quitting, 0, __ATOMIC_RELEASE);
	pfc_beat(a);
}

void pfc_beat(struct pfc_agent *a)
{
	__atomic_store_n(&a->st->beat, now_ns(), __ATOMIC_RELEASE);
}
