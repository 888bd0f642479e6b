// SPDX-License-Identifier: GPL-2.0
/* The upstream's PAUSEs: the gates they close and open; see pfc_pause_rx.h. */
#include <string.h>

#include "lib/log.h"
#include "pfc/pfc_agent_int.h"
#include "pfc/pfc_keeper.h"
#include "pfc/pfc_pause_rx.h"
#include "pfc.skel.h"

/*
 * A gate reopens at now that should have reopened at should (when the
 * resume arrived, or the PAUSE expired): the longest delay is kept.
 */
void pfc_gate_late(struct pfc_agent *a, uint64_t should, uint64_t now)
{
	if (should && now > should && now - should > a->st->gate_late_max_ns)
		a->st->gate_late_max_ns = now - should;
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

void pfc_gate_set(struct pfc_agent *a, int port, int prio, bool closed,
		  uint64_t ev_ts)
{
	struct pfc_pause_gate *g = &a->gate[port][prio];
	struct pfc_state_prio *sp = sp_of(a, port, prio);
	uint64_t now;
	int r;

	if (g->closed == closed)
		return; /* each change refills TBF tokens: only on a change */
	pfc_trace(a, closed ? 'c' : 'o', port, prio, ev_ts, now_ns());
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
		pfc_expect_begin(&a->expect[port][prio][PFC_EXPECT_RESUME],
				 ev_ts);
	else /* by expiry or the watchdog: a resume was learned in on_rx */
		pfc_expect_cancel(&a->expect[port][prio][PFC_EXPECT_RESUME]);
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
	pfc_trace(a, closed ? 'C' : 'O', port, prio, ev_ts,
		  a->q.changed_ns ? a->q.changed_ns : now);
	if (!closed)
		pfc_trace(a, 'K', port, prio, ev_ts, now);
}

void pfc_on_rx(struct pfc_agent *a, const struct pfc_event *e)
{
	int port = e->slot, p;

	for (p = 0; p < PFC_PRIOS; p++) {
		struct pfc_pause_gate *g = &a->gate[port][p];

		if (!((e->vector >> p) & 1))
			continue;
		/* A storm ends only once the PAUSEs stop (pfc_watchdog.h). */
		if (pfc_lossless(a, p) && e->quanta[p])
			pfc_wd_paused(&g->wd, now_ns());
		if (!pfc_lossless(a, p) || g->ignoring) {
			/* Lossy priorities are never paused. */
			sp_of(a, port, p)->pfc_rx_ignored++;
			continue;
		}
		if (!e->quanta[p]) {
			if (g->closed)
				pfc_expect_end(
					&a->expect[port][p][PFC_EXPECT_RESUME],
					e->ts);
			if (g->closed)
				pfc_gate_late(a, e->ts, now_ns());
			pfc_gate_set(a, port, p, false, e->ts);
			continue;
		}
		g->until =
			now_ns() + pfc_quanta_ns(e->quanta[p],
						 pfc_port_rate(a->cfg, port));
		pfc_gate_set(a, port, p, true, e->ts);
		if (g->closed)
			sp_of(a, port, p)->gate_until = g->until;
	}
}
