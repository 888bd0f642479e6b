// SPDX-License-Identifier: GPL-2.0
/* The pause agent's event loop; see pfc_loop.h. */
#include <bpf/libbpf.h>
#include <errno.h>
#include <inttypes.h>
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
#include "pfc/pfc_idle.h"
#include "pfc/pfc_keeper.h"
#include "pfc/pfc_links.h"
#include "pfc/pfc_loop.h"
#include "pfc/pfc_repair.h"
#include "pfc/pfc_ring_pos.h"
#include "pfc/pfc_standby.h"
#include "pfc.skel.h"

#define TICK_MAX_NS 100000000ull /* statistics at least every 100 ms */
#define REFRESH_MIN_NS 100000ull

#define POLL_SHARE 4 /* polling takes at most 1/4 of each tick */

/* What a->expect[port][prio][] waits for (pfc_poll.h). */
enum { EXPECT_XON, EXPECT_RESUME };

static bool lossless(const struct pfc_agent *a, int prio)
{
	return (a->cfg->lossless_mask >> prio) & 1;
}

static uint64_t refresh_ns(const struct pfc_agent *a, int port)
{
	uint64_t t =
		pfc_quanta_ns(a->cfg->quanta, pfc_port_rate(a->cfg, port)) / 2;

	return t < REFRESH_MIN_NS ? REFRESH_MIN_NS : t;
}

/*
 * --trace FILE: a line per step of the pause machinery, "KIND PORT PRIO
 * EVENT_NS DONE_NS" (CLOCK_MONOTONIC, the BPF side's clock), read by
 * tests/bench/pfc_latency.py. Upper case: the step was done (X PAUSE and
 * N resume sent, C gate closed, O gate open, K kick returned, S the first
 * packet left the reopened queue, R the first packet after XON arrived).
 * Lower case: the agent began it (x, n, c, o), so that DONE - EVENT is how
 * long the agent took to wake up. S is asked for only while tracing: it
 * costs the transmit tracepoint a lookup per packet. Lines with no port
 * ("-"): W polling spans, M the agent left a draining CPU, P an XON
 * crossing seen on the agent's own CPU (1) or another (0) (pfc_cpu.h).
 */
static void trace(struct pfc_agent *a, char what, int port, int prio,
		  uint64_t ev_ts, uint64_t done)
{
	if (a->trace)
		fprintf(a->trace, "%c %s %d %" PRIu64 " %" PRIu64 "\n", what,
			a->cfg->ports[port].name, prio, ev_ts, done);
}

/*
 * A PAUSE of ours went out on port for the priorities of vec: the BPF
 * side's refresh (bpf/lib/pfc_account.h) counts from now.
 */
void pfc_xoff_sent(struct pfc_agent *a, int port, uint8_t vec, uint64_t now)
{
	int p;

	for (p = 0; p < PFC_PRIOS; p++)
		if ((vec >> p) & 1)
			__atomic_store_n(
				&a->skel->bss->xoff_sent_at[PFC_SLOT(port, p)],
				now, __ATOMIC_RELAXED);
}

/*
 * A gate reopens at now that should have reopened at should (when the
 * resume arrived, or the PAUSE expired): the longest delay is kept.
 */
static void gate_late(struct pfc_agent *a, uint64_t should, uint64_t now)
{
	if (should && now > should && now - should > a->st->gate_late_max_ns)
		a->st->gate_late_max_ns = now - should;
}

static void send_frame(struct pfc_agent *a, int port, uint8_t vector,
		       bool resume)
{
	uint16_t quanta[PFC_PRIOS];
	int p, r;

	for (p = 0; p < PFC_PRIOS; p++)
		quanta[p] = resume ? 0 : a->cfg->quanta;
	r = pfc_send(a->tx_fd[port], a->cfg->ports[port].ifindex,
		     a->q.mac[port], vector, quanta);
	if (r) {
		pr_warn("%s: sending PFC: %s\n", a->cfg->ports[port].ifname,
			strerror(-r));
		return;
	}
	if (!resume)
		pfc_xoff_sent(a, port, vector, now_ns());
	for (p = 0; p < PFC_PRIOS; p++) {
		if (!((vector >> p) & 1))
			continue;
		if (resume)
			sp_of(a, port, p)->pfc_tx_resume++;
		else
			sp_of(a, port, p)->pfc_tx++;
	}
}

/* sent: the BPF side already sent the PAUSE (its fast XOFF path). */
static void on_xoff(struct pfc_agent *a, int port, int prio, uint64_t ts,
		    bool sent)
{
	if (a->sent[port][prio])
		return;
	if (sent) {
		sp_of(a, port, prio)->pfc_tx++;
		sp_of(a, port, prio)->pfc_tx_fast++;
	} else {
		trace(a, 'x', port, prio, ts, now_ns());
		send_frame(a, port, 1u << prio, false);
	}
	a->sent[port][prio] = true;
	sp_of(a, port, prio)->pause_sent = 1;
	pfc_expect_begin(&a->expect[port][prio][EXPECT_XON], ts);
	if (!a->refresh_at[port])
		a->refresh_at[port] = now_ns() + refresh_ns(a, port);
	trace(a, 'X', port, prio, ts, sent ? ts : now_ns());
}

static void on_xon(struct pfc_agent *a, int port, int prio, uint64_t ts)
{
	int p;

	if (!a->sent[port][prio])
		return;
	trace(a, 'n', port, prio, ts, now_ns());
	send_frame(a, port, 1u << prio, true);
	a->sent[port][prio] = false;
	sp_of(a, port, prio)->pause_sent = 0;
	pfc_expect_end(&a->expect[port][prio][EXPECT_XON], ts);
	trace(a, 'N', port, prio, ts, now_ns());
	for (p = 0; p < PFC_PRIOS; p++)
		if (a->sent[port][p])
			return;
	a->refresh_at[port] = 0;
}

/*
 * Ask the BPF side to report the next packet out of a reopened queue
 * (PFC_EV_SENT), or withdraw the request when the gate closes first.
 */
static void watch_tx(struct pfc_agent *a, int port, int prio, bool on)
{
	struct pfc_pp *c = pp_of(a, port, prio);
	uint32_t *n = &a->skel->bss->tx_watches;

	if (on) {
		if (!__atomic_exchange_n(&c->tx_watch, 1, __ATOMIC_ACQ_REL))
			__atomic_fetch_add(n, 1, __ATOMIC_ACQ_REL);
	} else if (__atomic_exchange_n(&c->tx_watch, 0, __ATOMIC_ACQ_REL)) {
		__atomic_fetch_sub(n, 1, __ATOMIC_ACQ_REL);
	}
}

static void gate_set(struct pfc_agent *a, int port, int prio, bool closed,
		     uint64_t ev_ts)
{
	struct pfc_pause_gate *g = &a->gate[port][prio];
	struct pfc_state_prio *sp = sp_of(a, port, prio);
	uint64_t now;
	int r;

	if (g->closed == closed)
		return; /* each change refills TBF tokens: only on a change */
	trace(a, closed ? 'c' : 'o', port, prio, ev_ts, now_ns());
	/* Before opening: the kick that follows the change sends packets. */
	if (a->trace && !closed)
		watch_tx(a, port, prio, true);
	pfc_nl_enter(a, false);
	r = pfc_gate(&a->q, port, prio, closed);
	pfc_nl_exit(a, closed ? "closing a gate" : "opening a gate");
	now = now_ns();
	if (a->trace && (closed || r))
		watch_tx(a, port, prio, false);
	if (r) {
		pr_warn("%s: prio %d gate: %s %s\n", a->cfg->ports[port].ifname,
			prio, strerror(-r), a->q.tc.err);
		return;
	}
	g->closed = closed;
	if (closed)
		pfc_expect_begin(&a->expect[port][prio][EXPECT_RESUME], ev_ts);
	else /* by expiry or the watchdog: a resume was learned in on_rx */
		pfc_expect_cancel(&a->expect[port][prio][EXPECT_RESUME]);
	if (closed) {
		g->since = now;
		sp->paused_since = now;
		sp->pauses++;
	} else {
		sp->paused_ns += now - g->since;
		sp->paused_since = 0;
		g->until = 0;
		sp->gate_until = 0;
		g->opened = a->q.changed_ns ? a->q.changed_ns : now;
	}
	sp->gate_closed = closed;
	/*
	 * C/O: the gate changed; K: the kick that restarts a reopened HTB
	 * queue returned, which is later, as its send runs the qdisc and
	 * transmits queued packets before it returns.
	 */
	trace(a, closed ? 'C' : 'O', port, prio, ev_ts,
	      a->q.changed_ns ? a->q.changed_ns : now);
	if (!closed)
		trace(a, 'K', port, prio, ev_ts, now);
}

static void on_rx(struct pfc_agent *a, const struct pfc_event *e)
{
	int port = e->slot, p;

	for (p = 0; p < PFC_PRIOS; p++) {
		struct pfc_pause_gate *g = &a->gate[port][p];

		if (!((e->vector >> p) & 1))
			continue;
		if (!lossless(a, p) || g->ignoring) {
			/* Lossy priorities are never paused. */
			sp_of(a, port, p)->pfc_rx_ignored++;
			continue;
		}
		if (!e->quanta[p]) {
			if (g->closed)
				pfc_expect_end(
					&a->expect[port][p][EXPECT_RESUME],
					e->ts);
			if (g->closed)
				gate_late(a, e->ts, now_ns());
			gate_set(a, port, p, false, e->ts);
			continue;
		}
		g->until =
			now_ns() + pfc_quanta_ns(e->quanta[p],
						 pfc_port_rate(a->cfg, port));
		gate_set(a, port, p, true, e->ts);
		if (g->closed)
			sp_of(a, port, p)->gate_until = g->until;
	}
}

/* The first packet from the upstream after an XON crossing arrived. */
static void on_resumed(struct pfc_agent *a, const struct pfc_event *e)
{
	struct pfc_state_prio *sp = sp_of(a, e->slot, e->prio);
	uint64_t d;

	if (e->ts < e->since)
		return;
	d = e->ts - e->since;
	sp->resumes++;
	sp->resume_ns += d;
	if (d > sp->resume_max_ns)
		sp->resume_max_ns = d;
	trace(a, 'R', e->slot, e->prio, e->since, e->ts);
}

/*
 * Polling for an XON on the CPU whose softirq will see it: move off it
 * (pfc_cpu.h). M in the trace: the agent left that CPU.
 */
static void poll_off(struct pfc_agent *a, int port, int prio)
{
	uint64_t now;
	int cpu;

	if (!a->polling || !a->drain_cpu[port][prio])
		return;
	cpu = pfc_cpu_avoid(&a->cpu, PFC_EV_CPU_OF(a->drain_cpu[port][prio]));
	if (cpu >= 0 && a->trace) {
		now = now_ns();
		fprintf(a->trace, "M - %d %" PRIu64 " %" PRIu64 "\n", cpu, now,
			now);
	}
}

static void on_xon_near(struct pfc_agent *a, const struct pfc_event *e)
{
	pfc_expect_hint(&a->expect[e->slot][e->prio][EXPECT_XON], e->ts);
	if (e->vector)
		a->drain_cpu[e->slot][e->prio] = e->vector;
	poll_off(a, e->slot, e->prio);
}

/*
 * P in the trace: whether the crossing was seen on the agent's own CPU
 * (1) or another (0), and when the agent read it.
 */
static void on_xon_seen(struct pfc_agent *a, const struct pfc_event *e)
{
	if (e->vector) {
		a->drain_cpu[e->slot][e->prio] = e->vector;
		if (a->trace && a->sent[e->slot][e->prio])
			fprintf(a->trace, "P - %d %" PRIu64 " %" PRIu64 "\n",
				sched_getcpu() == PFC_EV_CPU_OF(e->vector),
				(uint64_t)e->ts, now_ns());
	}
	on_xon(a, e->slot, e->prio, e->ts);
}

static int on_event(void *ctx, void *data, size_t size)
{
	struct pfc_agent *a = ctx;
	const struct pfc_event *e = data;

	if (size < sizeof(*e) || e->slot >= (uint32_t)a->cfg->nports ||
	    e->prio >= PFC_PRIOS)
		return 0;
	if (e->type == PFC_EV_XOFF)
		on_xoff(a, e->slot, e->prio, e->ts, e->vector == 1);
	else if (e->type == PFC_EV_XON)
		on_xon_seen(a, e);
	else if (e->type == PFC_EV_RX)
		on_rx(a, e);
	else if (e->type == PFC_EV_RESUMED)
		on_resumed(a, e);
	else if (e->type == PFC_EV_XON_NEAR && a->sent[e->slot][e->prio])
		on_xon_near(a, e);
	/* PFC_EV_WAKE: woke the agent (pfc_idle.h), nothing else to do */
	else if (e->type == PFC_EV_SENT)
		trace(a, 'S', e->slot, e->prio,
		      a->gate[e->slot][e->prio].opened, e->ts);
	return 0;
}

/*
 * The BPF side decides XOFF/XON; this makes the frames on the wire agree
 * with it even if a ring buffer record was lost or two CPUs raced at the
 * threshold.
 */
static void reconcile(struct pfc_agent *a, int port, int prio)
{
	struct pfc_pp *c = pp_of(a, port, prio);
	uint32_t x = __atomic_load_n(&c->xoff, __ATOMIC_ACQUIRE);
	uint32_t one = 1;

	if (x &&
	    __atomic_load_n(&c->bytes, __ATOMIC_RELAXED) <= a->cfg->xon[prio] &&
	    __atomic_compare_exchange_n(&c->xoff, &one, 0, false,
					__ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
		x = 0;
	if (x && !a->sent[port][prio]) {
		a->st->events_lost++;
		on_xoff(a, port, prio, now_ns(), false);
	} else if (!x && a->sent[port][prio]) {
		on_xon(a, port, prio, now_ns());
	}
}

static void qstat(const struct tc_qstats *s, void *arg)
{
	struct pfc_agent *a = arg;

	pfc_state_put_qstats(a->st, s);
}

static void watchdog(struct pfc_agent *a, int port, int prio, uint64_t now)
{
	const struct pfc_config *c = a->cfg;
	struct pfc_pause_gate *g = &a->gate[port][prio];
	struct pfc_state_prio *sp = sp_of(a, port, prio);
	uint64_t paused_for = 0;
	enum pfc_wd_verdict v;

	v = pfc_wd_step(&g->wd, c->wd_action, c->wd_detect_ms * 1000000ull,
			c->wd_restore_ms * 1000000ull, g->closed, g->since,
			sp->q_qlen, now, &paused_for);
	if (v == PFC_WD_FIRE) {
		sp->wd_events++;
		sp->wd_last_ns = paused_for;
		a->st->wd_events++;
		pr_warn("watchdog: %s port %s (%s) prio %d paused %" PRIu64
			" ms with %" PRIu64 " packets queued; %s\n",
			c->node, c->ports[port].name, c->ports[port].ifname,
			prio, paused_for / 1000000, sp->q_qlen,
			pfc_wd_action_name(c->wd_action));
		if (c->wd_action == PFC_WD_REPORT)
			return;
		g->ignoring = true;
		sp->wd_until = g->wd.until;
		if (c->wd_action == PFC_WD_DROP)
			__atomic_store_n(&pp_of(a, port, prio)->drop_out, 1,
					 __ATOMIC_RELEASE);
		gate_set(a, port, prio, false, now);
	} else if (v == PFC_WD_RESTORE) {
		g->ignoring = false;
		sp->wd_until = 0;
		__atomic_store_n(&pp_of(a, port, prio)->drop_out, 0,
				 __ATOMIC_RELEASE);
		pr_info("watchdog: %s port %s prio %d restored\n", c->node,
			c->ports[port].name, prio);
	}
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
	for (port = 0; port < c->nports; port++) {
		for (p = 0; p < PFC_PRIOS; p++) {
			struct pfc_pp *b = pp_of(a, port, p);
			struct pfc_state_prio *sp = sp_of(a, port, p);

			reconcile(a, port, p);
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
			if (lossless(a, p))
				watchdog(a, port, p, now);
		}
	}
	a->st->bpf_refreshes =
		__atomic_load_n(&a->skel->bss->bpf_refreshes, __ATOMIC_RELAXED);
	pfc_standby_check(a, now);
	a->st->tick_began = began;
	__atomic_store_n(&a->st->updated, now, __ATOMIC_RELEASE);
	if (a->trace)
		fflush(a->trace);
	a->tick_len = c->wd_detect_ms * 1000000ull / 4 < TICK_MAX_NS ?
			      c->wd_detect_ms * 1000000ull / 4 :
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
				gate_late(a, g->until, now);
				gate_set(a, port, p, false, now); /* expired */
			}
		}
		if (a->refresh_at[port] && a->refresh_at[port] <= now) {
			uint8_t vec = 0;

			for (p = 0; p < PFC_PRIOS; p++)
				vec |= a->sent[port][p] << p;
			if (vec)
				send_frame(a, port, vec, false);
			a->refresh_at[port] =
				vec ? now + refresh_ns(a, port) : 0;
		}
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

/*
 * Is a resume due now (poll for it), and if not, when is the next one
 * (*next, UINT64_MAX: none)? See pfc_poll.h.
 */
static bool poll_due(struct pfc_agent *a, uint64_t now, uint64_t *next)
{
	uint64_t budget = a->cfg->busy_poll_us * 1000ull, from, to;
	int port, p, k;

	*next = UINT64_MAX;
	if (a->poll_spent + (a->polling ? now - a->poll_began : 0) >=
	    a->tick_len / POLL_SHARE) {
		*next = a->tick_at; /* this tick's share is used up */
		return false;
	}
	for (port = 0; port < a->cfg->nports; port++) {
		for (p = 0; p < PFC_PRIOS; p++) {
			for (k = 0; k < 2; k++) {
				if (!pfc_expect_window(&a->expect[port][p][k],
						       budget, &from, &to) ||
				    now >= to)
					continue;
				if (from <= now)
					return true;
				if (from < *next)
					*next = from;
			}
		}
	}
	return false;
}

/*
 * Polling keeps the agent's SCHED_FIFO priority: under load, a poller of
 * the ordinary class is preempted for milliseconds, longer than a wake-up
 * from epoll at SCHED_FIFO. What bounds it is its window (--busy-poll per
 * expected resume) and POLL_SHARE: at most that share of each tick is
 * spent polling, so that a queue pausing and resuming without end cannot
 * keep the CPU from the rest of the machine. It yields whenever nothing
 * came (to other agents at the same priority). W in the trace: a polling
 * span (its CPU cost).
 */
static void poll_mode(struct pfc_agent *a, bool on)
{
	uint64_t now;

	if (on == a->polling)
		return;
	now = now_ns();
	a->polling = on;
	/* Records need no wake-up while it polls (pfc_globals.h). */
	__atomic_store_n(&a->skel->bss->agent_polling, on, __ATOMIC_SEQ_CST);
	if (on) {
		int port, p;

		a->poll_began = now;
		for (port = 0; port < a->cfg->nports; port++)
			for (p = 0; p < PFC_PRIOS; p++)
				if (a->sent[port][p])
					poll_off(a, port, p);
		return;
	}
	pfc_cpu_restore(&a->cpu);
	a->poll_spent += now - a->poll_began;
	if (a->trace)
		fprintf(a->trace, "W - 0 %" PRIu64 " %" PRIu64 "\n",
			a->poll_began, now);
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
		a->skel->bss->refresh_after_ns[i] = refresh_ns(a, i);
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
		poll_mode(a, poll_due(a, now_ns(), &poll_at));
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
	poll_mode(a, false);
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
