// SPDX-License-Identifier: GPL-2.0
/* The storm watchdog over DCB's PFC counters; see pfc_dcb_wd.h. */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lib/dcb_port.h"
#include "lib/log.h"
#include "pfc/pfc_agent_int.h"
#include "pfc/pfc_dcb_ports.h"
#include "pfc/pfc_dcb_wd.h"
#include "pfc/pfc_storm.h"
#include "pfc/pfc_wd_config.h"

#define TICK_MAX_NS 100000000ull /* counters at least every 100 ms */

struct dcb_wd {
	struct dcb_nl d;
	uint64_t ind[PFC_MAX_PORTS][PFC_PRIOS]; /* indications, last read */
	uint64_t read_at[PFC_MAX_PORTS]; /* when, 0: never */
	uint8_t off[PFC_MAX_PORTS]; /* priorities PFC is off on */
	bool failing[PFC_MAX_PORTS]; /* the last read failed (said once) */
};

/* PFC on the port's lossless priorities but those turned off. */
static void set_pfc(struct pfc_agent *a, struct dcb_wd *w, int port)
{
	int r = pfc_dcb_pfc(&w->d, a->cfg, port, w->off[port]);

	if (r)
		pr_warn("watchdog: %s: PFC of %s: %s\n", a->cfg->node,
			a->cfg->ports[port].ifname, w->d.err);
}

/* One lossless priority after a read: detection and restoration. */
static void watch(struct pfc_agent *a, struct dcb_wd *w, int port, int p,
		  bool rising, uint64_t now)
{
	struct pfc_wd_cfg cfg = pfc_wd_of(a->cfg, port, p);
	struct pfc_pause_gate *g = &a->gate[port][p];
	struct pfc_state_prio *sp = sp_of(a, port, p);
	uint64_t paused_for = 0;
	enum pfc_wd_verdict v;

	if (rising && !g->closed) {
		g->closed = true;
		g->since = now; /* the first came after the last read */
		sp->pauses++;
	} else if (!rising && g->closed) {
		g->closed = false;
		sp->paused_ns += now - g->since;
		g->since = 0;
	}
	sp->gate_closed = g->closed;
	sp->paused_since = g->since;
	if (rising)
		pfc_wd_paused(&g->wd, now);
	if (a->st->brs)
		return; /* PFC is off everywhere: nothing to detect */
	/* No queue depth on DCB: paused is taken as not draining. */
	v = pfc_wd_step(&g->wd, &cfg, g->closed, g->since, 1, now, &paused_for);
	if (v == PFC_WD_FIRE) {
		pfc_storm_begin(a, port, p, paused_for,
				", a PAUSE received at every read");
		if (cfg.action != PFC_WD_ALERT) {
			g->ignoring = true;
			w->off[port] |= 1u << p;
			set_pfc(a, w, port);
		}
	} else if (v == PFC_WD_RESTORE) {
		g->ignoring = false;
		if (w->off[port] & 1u << p) {
			w->off[port] &= ~(1u << p);
			set_pfc(a, w, port);
		}
		pfc_storm_end(a, port, p, "");
	}
}

static void read_port(struct pfc_agent *a, struct dcb_wd *w, int port,
		      uint64_t now)
{
	const struct pfc_config *c = a->cfg;
	uint8_t lossless = pfc_dcb_lossless(c, port);
	struct dcb_state s;
	bool seen = w->read_at[port];
	int p;

	int r = dcb_port_read(&w->d, c->ports[port].ifname, &s);

	/*
	 * Read, not tick, time: the counters are at least this new, so a
	 * storm counted from here is never detected early, nor a port
	 * restored before the restoration time after its last PAUSE.
	 */
	now = now_ns();
	if (r) {
		if (!w->failing[port])
			pr_warn("watchdog: %s: %s\n", c->node, w->d.err);
		w->failing[port] = true;
		return;
	}
	w->failing[port] = false;
	for (p = 0; p < PFC_PRIOS; p++) {
		struct pfc_state_prio *sp = sp_of(a, port, p);
		uint64_t ind = s.pfc.indications[p];

		sp->pfc_rx = ind;
		sp->pfc_tx = s.pfc.requests[p];
		if (pfc_lossless(a, p) && lossless >> p & 1)
			watch(a, w, port, p, seen && ind > w->ind[port][p],
			      now);
		w->ind[port][p] = ind;
	}
	w->read_at[port] = now;
}

/* The big red switch asked for (pfc_storm.h): PFC off on every port. */
static void brs(struct pfc_agent *a, struct dcb_wd *w)
{
	uint32_t want = !!__atomic_load_n(&a->st->brs_req, __ATOMIC_ACQUIRE);
	int port, p;

	if (want == a->st->brs)
		return;
	for (port = 0; port < a->cfg->nports; port++) {
		for (p = 0; p < PFC_PRIOS; p++) {
			if (!a->gate[port][p].wd.storm)
				continue;
			a->gate[port][p].ignoring = false;
			pfc_storm_end(a, port, p, ": the big red switch");
		}
		w->off[port] = want ? pfc_dcb_lossless(a->cfg, port) : 0;
		set_pfc(a, w, port);
	}
	a->st->brs = want;
	pr_warn("watchdog: %s big red switch %s\n", a->cfg->node,
		want ? "ON: PFC off on every lossless priority" :
		       "off: PFC on every lossless priority");
}

int pfc_dcb_loop(struct pfc_agent *a)
{
	uint64_t tick = pfc_wd_tick_ms(a->cfg) * 1000000ull / 4, now;
	struct dcb_wd *w = calloc(1, sizeof(*w));
	struct timespec ts;
	sigset_t mask;
	int port, sig = 0, r;

	if (!w)
		return -ENOMEM;
	r = dcb_nl_open(&w->d);
	if (r) {
		free(w);
		return r;
	}
	tick = tick < 1000000	  ? 1000000 :
	       tick > TICK_MAX_NS ? TICK_MAX_NS :
				    tick;
	ts.tv_sec = tick / 1000000000ull;
	ts.tv_nsec = tick % 1000000000ull;
	sigemptyset(&mask);
	sigaddset(&mask, SIGINT);
	sigaddset(&mask, SIGTERM);
	sigaddset(&mask, SIGUSR1);
	while (sig != SIGINT && sig != SIGTERM) {
		now = now_ns();
		brs(a, w);
		for (port = 0; port < a->cfg->nports; port++)
			read_port(a, w, port, now);
		a->st->ticks++;
		a->st->tick_began = now;
		__atomic_store_n(&a->st->updated, now_ns(), __ATOMIC_RELEASE);
		sig = sigtimedwait(&mask, NULL, &ts);
		if (sig < 0 && errno != EAGAIN && errno != EINTR) {
			r = -errno;
			break;
		}
	}
	dcb_nl_close(&w->d);
	free(w);
	return r;
}
