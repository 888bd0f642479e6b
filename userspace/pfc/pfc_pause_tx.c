// SPDX-License-Identifier: GPL-2.0
/* PAUSEs of ours: sent at XOFF, resumed at XON; see pfc_pause_tx.h. */
#include <inttypes.h>
#include <sched.h>
#include <string.h>

#include "lib/log.h"
#include "pfc/pfc_agent_int.h"
#include "pfc/pfc_pause_tx.h"
#include "pfc.skel.h"

#define REFRESH_MIN_NS 100000ull

uint64_t pfc_refresh_ns(const struct pfc_agent *a, int port)
{
	uint64_t t =
		pfc_quanta_ns(a->cfg->quanta, pfc_port_rate(a->cfg, port)) / 2;

	return t < REFRESH_MIN_NS ? REFRESH_MIN_NS : t;
}

/*
 * A PAUSE of ours went out on port for the priorities of vec: the BPF
 * side's refresh (bpf/lib/pfc_account.h) counts from now.
 */
static void xoff_sent(struct pfc_agent *a, int port, uint8_t vec, uint64_t now)
{
	int p;

	for (p = 0; p < PFC_PRIOS; p++)
		if ((vec >> p) & 1)
			__atomic_store_n(
				&a->skel->bss->xoff_sent_at[PFC_SLOT(port, p)],
				now, __ATOMIC_RELAXED);
}

/*
 * A PAUSE (the configured quanta) or a resume (quanta 0) out on port for
 * the priorities of vec, counted in the state; a PAUSE also restarts the
 * BPF side's refresh. The loop and the keeper both send through this.
 */
int pfc_send_pause(struct pfc_agent *a, int port, uint8_t vec, bool resume)
{
	uint16_t quanta[PFC_PRIOS];
	int p, r;

	for (p = 0; p < PFC_PRIOS; p++)
		quanta[p] = resume ? 0 : a->cfg->quanta;
	r = pfc_send(a->tx_fd[port], a->cfg->ports[port].ifindex,
		     a->q.mac[port], vec, quanta);
	if (r)
		return r;
	if (!resume)
		xoff_sent(a, port, vec, now_ns());
	for (p = 0; p < PFC_PRIOS; p++) {
		if (!((vec >> p) & 1))
			continue;
		if (resume)
			sp_of(a, port, p)->pfc_tx_resume++;
		else
			sp_of(a, port, p)->pfc_tx++;
	}
	return 0;
}

/* The loop's sends: a failure is logged, and the state stays as it is. */
static void send_frame(struct pfc_agent *a, int port, uint8_t vector,
		       bool resume)
{
	int r = pfc_send_pause(a, port, vector, resume);

	if (r)
		pr_warn("%s: sending PFC: %s\n", a->cfg->ports[port].ifname,
			strerror(-r));
}

/* sent: the BPF side already sent the PAUSE (its fast XOFF path). */
void pfc_on_xoff(struct pfc_agent *a, int port, int prio, uint64_t ts,
		 bool sent)
{
	/* The watchdog's drop: no PAUSE for a storming peer (pfc_storm.h). */
	if (a->sent[port][prio] ||
	    __atomic_load_n(&pp_of(a, port, prio)->drop_in, __ATOMIC_ACQUIRE))
		return;
	if (sent) {
		sp_of(a, port, prio)->pfc_tx++;
		sp_of(a, port, prio)->pfc_tx_fast++;
	} else {
		pfc_trace(a, 'x', port, prio, ts, now_ns());
		send_frame(a, port, 1u << prio, false);
	}
	a->sent[port][prio] = true;
	sp_of(a, port, prio)->pause_sent = 1;
	pfc_expect_begin(&a->expect[port][prio][PFC_EXPECT_XON], ts);
	if (!a->refresh_at[port])
		a->refresh_at[port] = now_ns() + pfc_refresh_ns(a, port);
	pfc_trace(a, 'X', port, prio, ts, sent ? ts : now_ns());
}

static void on_xon(struct pfc_agent *a, int port, int prio, uint64_t ts)
{
	int p;

	if (!a->sent[port][prio])
		return;
	pfc_trace(a, 'n', port, prio, ts, now_ns());
	send_frame(a, port, 1u << prio, true);
	a->sent[port][prio] = false;
	sp_of(a, port, prio)->pause_sent = 0;
	pfc_expect_end(&a->expect[port][prio][PFC_EXPECT_XON], ts);
	pfc_trace(a, 'N', port, prio, ts, now_ns());
	for (p = 0; p < PFC_PRIOS; p++)
		if (a->sent[port][p])
			return;
	a->refresh_at[port] = 0;
}

void pfc_pause_withdraw(struct pfc_agent *a, int port, int prio)
{
	int p;

	if (!a->sent[port][prio])
		return;
	send_frame(a, port, 1u << prio, true);
	a->sent[port][prio] = false;
	sp_of(a, port, prio)->pause_sent = 0;
	pfc_expect_cancel(&a->expect[port][prio][PFC_EXPECT_XON]);
	for (p = 0; p < PFC_PRIOS; p++)
		if (a->sent[port][p])
			return;
	a->refresh_at[port] = 0;
}

/*
 * P in the trace: whether the crossing was seen on the agent's own CPU
 * (1) or another (0), and when the agent read it.
 */
void pfc_on_xon_seen(struct pfc_agent *a, const struct pfc_event *e)
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

/* The first packet from the upstream after an XON crossing arrived. */
void pfc_on_resumed(struct pfc_agent *a, const struct pfc_event *e)
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
	pfc_trace(a, 'R', e->slot, e->prio, e->since, e->ts);
}

/*
 * The BPF side decides XOFF/XON; this makes the frames on the wire agree
 * with it even if a ring buffer record was lost or two CPUs raced at the
 * threshold.
 */
void pfc_reconcile(struct pfc_agent *a, int port, int prio)
{
	struct pfc_pp *c = pp_of(a, port, prio);
	uint32_t x = __atomic_load_n(&c->xoff, __ATOMIC_ACQUIRE);
	uint32_t one = 1;

	if (x &&
	    __atomic_load_n(&c->bytes, __ATOMIC_RELAXED) <= a->cfg->xon[prio] &&
	    __atomic_compare_exchange_n(&c->xoff, &one, 0, false,
					__ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
		x = 0;
	if (x && !a->sent[port][prio] &&
	    !__atomic_load_n(&c->drop_in, __ATOMIC_ACQUIRE)) {
		a->st->events_lost++;
		pfc_on_xoff(a, port, prio, now_ns(), false);
	} else if (!x && a->sent[port][prio]) {
		on_xon(a, port, prio, now_ns());
	}
}

/* The refresh of port's PAUSEs in force is due (now): sent, or ended. */
void pfc_refresh(struct pfc_agent *a, int port, uint64_t now)
{
	uint8_t vec = 0;
	int p;

	for (p = 0; p < PFC_PRIOS; p++)
		vec |= a->sent[port][p] << p;
	if (vec)
		send_frame(a, port, vec, false);
	a->refresh_at[port] = vec ? now + pfc_refresh_ns(a, port) : 0;
}
