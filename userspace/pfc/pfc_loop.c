// SPDX-License-Identifier: GPL-2.0
/* The pause agent's event loop; see pfc_loop.h. */
#include <bpf/libbpf.h>
#include <errno.h>
#include <signal.h>
#include <sched.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/signalfd.h>
#include <sys/timerfd.h>
#include <unistd.h>

#include "lib/util.h"
#include "lib/log.h"
#include "pfc/pfc_agent_int.h"
#include "pfc/pfc_busy_poll.h"
#include "pfc/pfc_idle.h"
#include "pfc/pfc_keeper.h"
#include "pfc/pfc_links.h"
#include "pfc/pfc_loop.h"
#include "pfc/pfc_pause_rx.h"
#include "pfc/pfc_pause_tx.h"
#include "pfc/pfc_repair.h"
#include "pfc/pfc_ring_pos.h"
#include "pfc/pfc_standby.h"
#include "pfc/pfc_storm.h"
#include "pfc/pfc_wd_config.h"
#include "pfc.skel.h"

#define TICK_MAX_NS 100000000ull /* statistics at least every 100 ms */

static int on_event(void *ctx, void *data, size_t size)
{
	struct pfc_agent *a = ctx;
	const struct pfc_event *e = data;

	if (size < sizeof(*e) || e->slot >= (uint32_t)a->cfg->nports ||
	    e->prio >= PFC_PRIOS)
		return 0;
	if (e->type == PFC_EV_XOFF)
		pfc_on_xoff(a, e->slot, e->prio, e->ts, e->vector == 1);
	else if (e->type == PFC_EV_XON)
		pfc_on_xon_seen(a, e);
	else if (e->type == PFC_EV_RX)
		pfc_on_rx(a, e);
	else if (e->type == PFC_EV_RESUMED)
		pfc_on_resumed(a, e);
	else if (e->type == PFC_EV_XON_NEAR && a->sent[e->slot][e->prio])
		pfc_on_xon_near(a, e);
	/* PFC_EV_WAKE: woke the agent (pfc_idle.h), nothing else to do */
	else if (e->type == PFC_EV_SENT)
		pfc_trace(a, 'S', e->slot, e->prio,
			  a->gate[e->slot][e->prio].opened, e->ts);
	return 0;
}

static void qstat(const struct tc_qstats *s, void *arg)
{
	struct pfc_agent *a = arg;

	pfc_state_put_qstats(a->st, s);
}

static void tick(struct pfc_agent *a)
{
	const struct pfc_config *c = a->cfg;
	uint64_t seen[PFC_MAX_PORTS][PFC_PRIOS];
	uint64_t began = now_ns(), now;
	int port, p, r;

	/* Counters first, queues second: see pfc_agent_resync(). */
	for (port = 0; port < c->nports; port++)
		for (p = 0; p < PFC_PRIOS; p++)
			seen[port][p] = __atomic_load_n(
				&pp_of(a, port, p)->bytes, __ATOMIC_ACQUIRE);
	if (a->forwarding && a->ring)
		pfc_recount_mark(&a->rc, a->pp, c->nports);
	pfc_nl_enter(a, true);
	r = tc_qdisc_stats(&a->q.tc, qstat, a);
	pfc_nl_exit(a, "queue statistics");
	if (!r && (!a->forwarding || !a->ring || pfc_agent_recount(a)))
		pfc_agent_resync(a, (const uint64_t(*)[PFC_PRIOS])seen);
	now = now_ns();
	pfc_brs_tick(a, now);
	for (port = 0; port < c->nports; port++) {
		for (p = 0; p < PFC_PRIOS; p++) {
			struct pfc_pp *b = pp_of(a, port, p);
			struct pfc_state_prio *sp = sp_of(a, port, p);

			pfc_reconcile(a, port, p);
			sp->bytes =
				__atomic_load_n(&b->bytes, __ATOMIC_RELAXED);
			sp->peak = b->peak;
			sp->pkts = b->pkts;
			sp->returned = b->returned;
			sp->drops = b->drops;
			sp->xoff_crossings = b->xoff_crossings;
			sp->underflow = b->underflow;
			sp->xoff = b->xoff;
			sp->pfc_rx = b->pfc_rx;
			sp->pfc_rx_resume = b->pfc_rx_resume;
			sp->egress_drops = b->egress_drops;
			sp->failure_drops = b->failure_drops;
			sp->last_drop_reason = b->last_drop_reason;
			a->st->ecn_marked[port][p] = b->ecn_marked;
			if (pfc_lossless(a, p))
				pfc_storm_tick(a, port, p, now);
		}
	}
	a->st->bpf_refreshes =
		__atomic_load_n(&a->skel->bss->bpf_refreshes, __ATOMIC_RELAXED);
	pfc_standby_check(a, now);
	a->st->tick_began = began;
	__atomic_store_n(&a->st->updated, now, __ATOMIC_RELEASE);
	if (a->trace)
		fflush(a->trace);
	a->tick_len = pfc_wd_tick_ms(c) * 1000000ull / 4 < TICK_MAX_NS ?
			      pfc_wd_tick_ms(c) * 1000000ull / 4 :
			      TICK_MAX_NS;
	a->tick_at = now + a->tick_len;
	a->poll_spent = 0;
	pfc_idle_tick(a);
}

static void timers(struct pfc_agent *a)
{
	uint64_t now = now_ns();
	int port, p;

	for (port = 0; port < a->cfg->nports; port++) {
		for (p = 0; p < PFC_PRIOS; p++) {
			struct pfc_pause_gate *g = &a->gate[port][p];

			if (g->closed && g->until && g->until <= now) {
				pfc_gate_late(a, g->until, now);
				pfc_gate_set(a, port, p, false,
					     now); /* expired */
			}
		}
		if (a->refresh_at[port] && a->refresh_at[port] <= now)
			pfc_refresh(a, port, now);
	}
	if (a->tick_at <= now)
		tick(a);
}

/* The earliest of the timers (tick, refreshes, expiries) and poll_at. */
static uint64_t deadline(struct pfc_agent *a, uint64_t poll_at)
{
	uint64_t next = a->tick_at < poll_at ? a->tick_at : poll_at;
	int port, p;

	for (port = 0; port < a->cfg->nports; port++) {
		if (a->refresh_at[port] && a->refresh_at[port] < next)
			next = a->refresh_at[port];
		for (p = 0; p < PFC_PRIOS; p++) {
			struct pfc_pause_gate *g = &a->gate[port][p];

			if (g->closed && g->until && g->until < next)
				next = g->until;
		}
	}
	return next;
}

static void arm(struct pfc_agent *a, int tfd, uint64_t poll_at)
{
	uint64_t next = deadline(a, poll_at);
	struct itimerspec its = { 0 };

	if (next != UINT64_MAX) { /* else disarmed: asleep (pfc_idle.h) */
		its.it_value.tv_sec = next / 1000000000ull;
		its.it_value.tv_nsec = next % 1000000000ull;
		if (!next)
			its.it_value.tv_nsec = 1;
	}
	timerfd_settime(tfd, TFD_TIMER_ABSTIME, &its, NULL);
}

/* A port of the agent was deleted: -ENODEV, after saying which. */
static int port_gone(struct pfc_agent *a, struct mnl_socket *links)
{
	int port = pfc_links_gone(links, a->cfg);

	if (port < 0)
		return 0;
	p_err("%s: port %s (%s) is gone: the agent stops", a->cfg->node,
	      a->cfg->ports[port].name, a->cfg->ports[port].ifname);
	return -ENODEV;
}

static int add_fd(int ep, int fd)
{
	struct epoll_event ev = { .events = EPOLLIN, .data.fd = fd };

	return epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev);
}

/* The loop's descriptors, for on_events. */
struct loop_fds {
	int ep, rfd, sfd, tfd, lfd;
	struct ring_buffer *rb;
	struct mnl_socket *links;
};

/* What epoll returned: 0, or -errno; *stop on a signal or a lost port. */
static int on_events(struct pfc_agent *a, const struct loop_fds *f,
		     const struct epoll_event *evs, int n, bool *stop)
{
	struct signalfd_siginfo si;
	int i, r = 0, fd;
	uint64_t x;

	for (i = 0; i < n; i++) {
		fd = evs[i].data.fd;
		if (fd == f->rfd) {
			ring_buffer__consume(f->rb);
		} else if (fd == f->tfd) {
			if (read(fd, &x, sizeof(x)) < 0 && errno != EAGAIN)
				r = -errno;
		} else if (fd == f->lfd) {
			r = port_gone(a, f->links) ?: r;
			*stop = *stop || r;
		} else if (fd == a->standby_fd) {
			epoll_ctl(f->ep, EPOLL_CTL_DEL, fd, NULL);
			if (!pfc_standby_died(a))
				add_fd(f->ep, a->standby_fd);
		} else if (fd == f->sfd &&
			   read(fd, &si, sizeof(si)) == sizeof(si)) {
			if (si.ssi_signo == SIGUSR1)
				a->tick_at = 0; /* `show` wants fresh numbers */
			else
				*stop = true;
		}
	}
	return r;
}

/* The loop's first tick, and what a standby taking over must forget. */
static void loop_start(struct pfc_agent *a)
{
	int i;

	pfc_state_begin(a->st);
	pfc_idle_leave(a); /* a dead agent's standby: its flag may be set */
	pfc_beat_start(a);
	for (i = 0; i < a->cfg->nports; i++)
		a->skel->bss->refresh_after_ns[i] = pfc_refresh_ns(a, i);
	tick(a);
	pfc_state_end(a->st);
	/*
	 * A standby was forked with the agent's episodes of that moment:
	 * their starts are stale, and a stale start would stand for the
	 * next episode's. It learns afresh (pfc_poll.h).
	 */
	memset(a->expect, 0, sizeof(a->expect));
	a->polling = false;
	/* A dead agent's standby: it may have died polling. */
	__atomic_store_n(&a->skel->bss->agent_polling, 0, __ATOMIC_SEQ_CST);
	pfc_keeper_start(a);
}

int pfc_loop(struct pfc_agent *a)
{
	struct pfc_ring_pos rp = { 0 };
	struct mnl_socket *links = NULL;
	struct ring_buffer *rb;
	struct loop_fds f;
	int ep, sfd, tfd, rfd, lfd, r = 0;
	bool stop = false;
	sigset_t mask;

	rb = ring_buffer__new(bpf_map__fd(a->skel->maps.events), on_event, a,
			      NULL);
	if (!rb)
		return -errno;
	rfd = ring_buffer__epoll_fd(rb);
	r = pfc_ring_pos_map(&rp, bpf_map__fd(a->skel->maps.events));
	if (r) {
		ring_buffer__free(rb);
		return r;
	}
	sigemptyset(&mask);
	sigaddset(&mask, SIGINT);
	sigaddset(&mask, SIGTERM);
	sigaddset(&mask, SIGUSR1);
	sfd = signalfd(-1, &mask, SFD_CLOEXEC);
	tfd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC);
	ep = epoll_create1(EPOLL_CLOEXEC);
	lfd = pfc_links_open(&links);
	if (sfd < 0 || tfd < 0 || ep < 0 || lfd < 0 || add_fd(ep, rfd) ||
	    add_fd(ep, sfd) || add_fd(ep, tfd) || add_fd(ep, lfd) ||
	    (a->standby_fd >= 0 && add_fd(ep, a->standby_fd))) {
		r = -errno;
		goto out;
	}
	loop_start(a);
	f = (struct loop_fds){ ep, rfd, sfd, tfd, lfd, rb, links };
	while (!stop) {
		struct epoll_event evs[4];
		uint64_t poll_at;
		bool pending;
		int n;

		pfc_beat(a);
		pfc_poll_mode(a, pfc_poll_due(a, now_ns(), &poll_at));
		if (!a->polling)
			arm(a, tfd, poll_at);
		/*
		 * After agent_polling was cleared: a record that came without
		 * a wake-up is read now instead of slept over.
		 */
		pending = !a->polling && pfc_ring_ready(&rp);
		n = epoll_wait(ep, evs, 4, a->polling || pending ? 0 : -1);
		if (n < 0 && errno != EINTR) {
			r = -errno;
			break;
		}
		if (a->polling && n <= 0 && !pfc_ring_ready(&rp) &&
		    now_ns() < deadline(a, UINT64_MAX)) {
			/*
			 * Nothing came: let others have the CPU, and leave
			 * the state's sequence count alone, or `show` could
			 * never read a consistent copy.
			 */
			sched_yield();
			continue;
		}
		pfc_state_begin(a->st);
		pfc_idle_leave(a);
		if (a->polling || pending)
			ring_buffer__consume(rb);
		r = on_events(a, &f, evs, n, &stop) ?: r;
		timers(a);
		pfc_keeper_update(a);
		pfc_idle_enter(a);
		pfc_state_end(a->st);
	}
out:
	/* No beat is due any more: the standby must not see a stall. */
	__atomic_store_n(&a->st->quitting, 1, __ATOMIC_RELEASE);
	pfc_keeper_stop(a);
	pfc_poll_mode(a, false);
	pfc_ring_pos_unmap(&rp);
	ring_buffer__free(rb);
	if (ep >= 0)
		close(ep);
	if (sfd >= 0)
		close(sfd);
	if (tfd >= 0)
		close(tfd);
	pfc_links_close(links);
	return r;
}
