// SPDX-License-Identifier: GPL-2.0
/* The storm watchdog's actions and the big red switch; see pfc_storm.h. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "lib/log.h"
#include "pfc/pfc_agent_int.h"
#include "pfc/pfc_keeper.h"
#include "pfc/pfc_pause_rx.h"
#include "pfc/pfc_pause_tx.h"
#include "pfc/pfc_storm.h"
#include "pfc/pfc_wd_config.h"

/* Storms are told in wall-clock time: show and the metrics give dates. */
static uint64_t realtime_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

static struct pfc_state_wd *sw_of(struct pfc_agent *a, int port, int prio)
{
	return &a->st->wd[port][prio];
}

/* The drop action's data path (bpf/pfc_maps.h): ingress and egress. */
static void set_drop(struct pfc_agent *a, int port, int prio, uint32_t on)
{
	struct pfc_pp *c = pp_of(a, port, prio);

	__atomic_store_n(&c->drop_out, on, __ATOMIC_RELEASE);
	__atomic_store_n(&c->drop_in, on, __ATOMIC_RELEASE);
}

static void qstat(const struct tc_qstats *s, void *arg)
{
	pfc_state_put_qstats(arg, s);
}

/*
 * Drop what the queue holds. New packets are dropped at egress already
 * and the gate is still closed, so what the statistics read now say is
 * queued is what the flush takes.
 */
static void flush(struct pfc_agent *a, int port, int prio)
{
	struct pfc_state_prio *sp = sp_of(a, port, prio);
	int r;

	pfc_nl_enter(a, true);
	r = tc_qdisc_stats(&a->q.tc, qstat, a->st);
	pfc_nl_exit(a, "queue statistics");
	if (r || !sp->q_qlen)
		return;
	pfc_nl_enter(a, false);
	r = pfc_flush(&a->q, port, prio);
	pfc_nl_exit(a, "flushing a queue");
	if (r) {
		if (r != -EOPNOTSUPP)
			pr_warn("%s: prio %d flush: %s %s\n",
				a->cfg->ports[port].ifname, prio, strerror(-r),
				a->q.tc.err);
		return;
	}
	sw_of(a, port, prio)->flushed += sp->q_qlen;
}

/* Act on a storm (or the big red switch) with action. */
static void mitigate(struct pfc_agent *a, int port, int prio,
		     enum pfc_wd_action action, uint64_t now)
{
	struct pfc_pause_gate *g = &a->gate[port][prio];

	if (action == PFC_WD_ALERT)
		return;
	g->ignoring = true;
	if (action == PFC_WD_DROP) {
		set_drop(a, port, prio, 1);
		pfc_pause_withdraw(a, port, prio);
		flush(a, port, prio);
	}
	pfc_gate_set(a, port, prio, false, now);
}

/* Back to PFC: PAUSEs honoured, nothing dropped. */
static void unmitigate(struct pfc_agent *a, int port, int prio)
{
	a->gate[port][prio].ignoring = false;
	set_drop(a, port, prio, 0);
}

void pfc_storm_begin(struct pfc_agent *a, int port, int prio,
		     uint64_t paused_for, const char *what)
{
	const struct pfc_config *c = a->cfg;
	struct pfc_state_prio *sp = sp_of(a, port, prio);
	struct pfc_state_wd *sw = sw_of(a, port, prio);

	sp->wd_events++;
	sp->wd_last_ns = paused_for;
	a->st->wd_events++;
	sw->storm = 1;
	sw->start_rt = realtime_ns();
	sw->end_rt = 0;
	pr_warn("watchdog: %s port %s (%s) prio %d: PFC storm, paused "
		"%" PRIu64 " ms%s; %s\n",
		c->node, c->ports[port].name, c->ports[port].ifname, prio,
		paused_for / 1000000, what,
		pfc_wd_action_name(pfc_wd_of(c, port, prio).action));
}

void pfc_storm_end(struct pfc_agent *a, int port, int prio, const char *why)
{
	struct pfc_state_wd *sw = sw_of(a, port, prio);

	sw->storm = 0;
	sw->end_rt = realtime_ns();
	a->gate[port][prio].wd.storm = false;
	pr_info("watchdog: %s port %s prio %d restored%s\n", a->cfg->node,
		a->cfg->ports[port].name, prio, why);
}

void pfc_storm_setup(struct pfc_agent *a)
{
	const struct pfc_config *c = a->cfg;
	int port, p;

	for (port = 0; port < c->nports; port++) {
		for (p = 0; p < PFC_PRIOS; p++) {
			struct pfc_wd_cfg w = pfc_wd_of(c, port, p);
			struct pfc_state_wd *sw = sw_of(a, port, p);

			if (!pfc_lossless(a, p))
				continue;
			sw->detect_ms = w.detect_ms;
			sw->restore_ms = w.restore_ms;
			sw->action = w.action;
		}
	}
	a->st->brs_req = c->big_red_switch;
}

void pfc_storm_tick(struct pfc_agent *a, int port, int prio, uint64_t now)
{
	const struct pfc_config *c = a->cfg;
	struct pfc_wd_cfg w = pfc_wd_of(c, port, prio);
	struct pfc_pause_gate *g = &a->gate[port][prio];
	struct pfc_state_prio *sp = sp_of(a, port, prio);
	struct pfc_state_wd *sw = sw_of(a, port, prio);
	uint64_t paused_for = 0;
	enum pfc_wd_verdict v;

	sw->rx_drops = pp_of(a, port, prio)->in_drops;
	if (a->st->brs)
		return; /* every lossless queue drops: nothing to detect */
	v = pfc_wd_step(&g->wd, &w, g->closed, g->since, sp->q_qlen, now,
			&paused_for);
	if (v == PFC_WD_FIRE) {
		char what[64];

		snprintf(what, sizeof(what), " with %" PRIu64 " packets queued",
			 sp->q_qlen);
		pfc_storm_begin(a, port, prio, paused_for, what);
		mitigate(a, port, prio, w.action, now);
	} else if (v == PFC_WD_RESTORE) {
		unmitigate(a, port, prio);
		pfc_storm_end(a, port, prio, "");
	}
}

void pfc_brs_tick(struct pfc_agent *a, uint64_t now)
{
	uint32_t want = !!__atomic_load_n(&a->st->brs_req, __ATOMIC_ACQUIRE);
	int port, p;

	if (want == a->st->brs)
		return;
	for (port = 0; port < a->cfg->nports; port++) {
		for (p = 0; p < PFC_PRIOS; p++) {
			if (!pfc_lossless(a, p))
				continue;
			if (a->gate[port][p].wd.storm) {
				unmitigate(a, port, p);
				pfc_storm_end(a, port, p,
					      ": the big red switch");
			}
			if (want)
				mitigate(a, port, p, PFC_WD_DROP, now);
			else
				unmitigate(a, port, p);
		}
	}
	a->st->brs = want;
	pr_warn("watchdog: %s big red switch %s\n", a->cfg->node,
		want ? "ON: every lossless queue drops" :
		       "off: PFC on every lossless queue");
}

void pfc_storm_rebuild(struct pfc_agent *a, uint64_t now)
{
	int port, p;

	for (port = 0; port < a->cfg->nports; port++) {
		for (p = 0; p < PFC_PRIOS; p++) {
			struct pfc_pause_gate *g = &a->gate[port][p];
			struct pfc_state_wd *sw = sw_of(a, port, p);

			/* Restoration counts afresh: PAUSEs may have come. */
			g->wd.storm = sw->storm;
			g->wd.quiet_since = now;
			g->ignoring = a->st->brs ||
				      (sw->storm && sw->action != PFC_WD_ALERT);
		}
	}
}
