// SPDX-License-Identifier: GPL-2.0
/* Heartbeats seen from outside; see pfc_watch.h. */
#include <jansson.h>
#include <stdio.h>
#include <string.h>

#include "pfc/pfc_config.h"
#include "pfc/pfc_frame.h"
#include "pfc/pfc_ident.h"
#include "pfc/pfc_state.h"
#include "pfc/pfc_watch.h"
#include "pfc/pfc_wd_config.h"

#define TICK_MAX_NS 100000000ull /* as pfc_loop.c's */

uint64_t pfc_stall_ns(const struct pfc_config *c)
{
	uint64_t tick = pfc_wd_tick_ms(c) * 1000000ull / 4, pause = UINT64_MAX;
	uint64_t d;
	int port;

	if (tick > TICK_MAX_NS)
		tick = TICK_MAX_NS;
	for (port = 0; port < c->nports; port++) {
		uint64_t t = pfc_quanta_ns(c->quanta, pfc_port_rate(c, port));

		if (t < pause)
			pause = t;
	}
	d = tick + (pause == UINT64_MAX ? 0 : pause);
	return d < PFC_STALL_MIN_NS ? PFC_STALL_MIN_NS : d;
}

bool pfc_watch_stale(struct pfc_watch *w, uint64_t beat, bool pending,
		     uint64_t now, uint64_t deadline)
{
	/*
	 * A new beat, nothing pending, or the watcher itself away for half
	 * the deadline (frozen along with the watched): measure afresh.
	 */
	if (beat != w->beat || !pending ||
	    (w->last_look && now - w->last_look > deadline / 2)) {
		w->beat = beat;
		w->since = 0;
	}
	w->last_look = now;
	if (!pending || !deadline)
		return false; /* nothing owed, or no deadline known yet */
	if (!w->since)
		w->since = now;
	return now - w->since > deadline;
}

/* Is pid (started at start) stopped: SIGSTOP (T) or a tracer (t)? */
static bool proc_stopped(int pid, uint64_t start)
{
	char path[64], buf[512], *p;
	bool stopped = false;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	f = fopen(path, "re");
	if (!f)
		return false;
	if (fgets(buf, sizeof(buf), f)) {
		p = strrchr(buf, ')'); /* the name may hold anything */
		stopped = p && p[1] == ' ' && (p[2] == 'T' || p[2] == 't');
	}
	fclose(f);
	/* The same process still (not a reused pid)? */
	return stopped && start && pfc_proc_start(pid) == start;
}

/* Waiting on the kernel in netlink, and not stopped: not hung. */
bool pfc_in_netlink(const struct pfc_state *st)
{
	return __atomic_load_n(&st->nl_since, __ATOMIC_ACQUIRE) &&
	       !proc_stopped(st->pid, st->pid_start);
}

bool pfc_leaving(const struct pfc_state *st)
{
	return __atomic_load_n(&st->quitting, __ATOMIC_ACQUIRE) ||
	       st->stopping || st->stopped;
}

bool pfc_stalled(const struct pfc_state *st, uint64_t now, uint64_t *age)
{
	bool stopped;

	*age = st->beat && now > st->beat ? now - st->beat : 0;
	if (st->version < 7 || !st->beat || pfc_leaving(st))
		return false;
	stopped = proc_stopped(st->pid, st->pid_start);
	if (stopped)
		return true;
	return !st->asleep && !st->nl_since && *age > st->stall_ns;
}

void pfc_stall_json(json_t *o, const struct pfc_state *st, bool running,
		    uint64_t now)
{
	json_t *h = json_object();
	uint64_t age = 0, sb;
	bool stalled = running && pfc_stalled(st, now, &age);

	if (stalled)
		json_object_set_new(o, "status", json_string("stalled"));
	sb = st->standby_beat && now > st->standby_beat ?
		     now - st->standby_beat :
		     0;
	json_object_set_new(h, "stalled", json_boolean(stalled));
	json_object_set_new(h, "age_ms", json_real(age / 1e6));
	json_object_set_new(h, "deadline_ms", json_real(st->stall_ns / 1e6));
	json_object_set_new(h, "standby_age_ms", json_real(sb / 1e6));
	json_object_set_new(h, "stalls", json_integer(st->stalls));
	json_object_set_new(h, "standby_stalls",
			    json_integer(st->standby_stalls));
	json_object_set_new(h, "gate_late_max_ms",
			    json_real(st->gate_late_max_ns / 1e6));
	json_object_set_new(h, "bpf_refreshes",
			    json_integer(st->bpf_refreshes));
	json_object_set_new(o, "heartbeat", h);
}
