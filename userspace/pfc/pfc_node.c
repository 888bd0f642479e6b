// SPDX-License-Identifier: GPL-2.0
/* A node's pause agent seen from outside; see pfc_node.h. */
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "lib/log.h"
#include "pfc/pfc_adopt.h"
#include "pfc/pfc_agent.h"
#include "pfc/pfc_dcb_ports.h"
#include "pfc/pfc_ident.h"
#include "pfc/pfc_node.h"
#include "pfc/pfc_reasons.h"
#include "pfc/pfc_watch.h"
#include "pfc/pfc_tc.h"
#include "lib/util.h"

const char *pfc_status_name(enum pfc_agent_status a)
{
	return a == PFC_AGENT_RUNNING ? "running" :
	       a == PFC_AGENT_DIED    ? "died" :
					"stopped";
}

/*
 * Running: the lock is held (the kernel drops it when its holders die,
 * whatever pid files say). Died: not held, and the agent never recorded
 * that it removed what it set up.
 */
static enum pfc_agent_status agent_status(const char *dir,
					  const struct pfc_state *st)
{
	if (pfc_state_locked(dir) == 1)
		return PFC_AGENT_RUNNING;
	return st->stopped || !st->pid ? PFC_AGENT_STOPPED : PFC_AGENT_DIED;
}

/*
 * Say why a state cannot be opened; the exit code for it: 2 for a node
 * with no state or a planted symlink (what was asked for is not there),
 * 3 for a failure to read what is.
 */
static int open_err(const char *node, const char *dir, int r)
{
	if (r == -EACCES || r == -EPERM) {
		p_err("%s: permission denied: the pause agent's state (%s) is "
		      "root's",
		      node, dir);
		return EXIT_RUNTIME;
	}
	if (r == -ELOOP) {
		p_err("%s: %s/state is a symlink: refused", node, dir);
		return EXIT_USAGE;
	}
	p_err("%s: no pause agent state in %s (%s)", node, dir, strerror(-r));
	return r == -ENOENT ? EXIT_USAGE : EXIT_RUNTIME;
}

/* A record's ifindexes mean something only in its own namespace. */
static int same_netns(const char *node, const struct pfc_state *st)
{
	struct pfc_netns self, rec = { st->netns_dev, st->netns_ino };
	char buf[48];

	/* No namespace yet: an agent killed before it filled the record in. */
	if (!rec.ino || pfc_netns_self(&self) || pfc_netns_eq(&self, &rec))
		return 0;
	p_err("%s: the pause agent of %s runs in another network namespace "
	      "(%s); run this command there (ip netns exec NS tagger ...)",
	      node, node, pfc_netns_str(&rec, buf, sizeof(buf)));
	return EXIT_USAGE;
}

/* Open dir's state after checking the directory can be trusted. */
static int state_get(const char *node, const char *dir, bool write,
		     struct pfc_state **st)
{
	const char *why;
	int r = pfc_state_dir(dir, false, &why);

	if (r == -EPERM || r == -ENOTDIR) {
		p_err("%s: %s: %s: refused", node, dir, why);
		return EXIT_USAGE;
	}
	r = pfc_state_open(dir, write, st);
	if (r)
		return open_err(node, dir, r);
	r = same_netns(node, *st);
	if (r)
		pfc_state_unmap(*st);
	return r;
}

static void sleep_ms(int ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

/*
 * Ask the agent for fresh numbers and wait for them (at most 1 s): from a
 * tick that began after the request, not one that was already under way
 * (whose queue statistics may predate it).
 */
static void refresh(const struct pfc_state *st)
{
	uint64_t asked = now_ns(), age;
	int i;

	/* A stalled agent (pfc_standby.h) would not answer: no wait. */
	if (pfc_stalled(st, asked, &age) ||
	    pfc_proc_signal(st->pid, st->pid_start, SIGUSR1))
		return;
	for (i = 0; i < 1000; i++) {
		if (__atomic_load_n(&st->updated, __ATOMIC_ACQUIRE) &&
		    __atomic_load_n(&st->tick_began, __ATOMIC_ACQUIRE) >= asked)
			return;
		sleep_ms(1);
	}
}

uint64_t pfc_paused_ns(const struct pfc_state_prio *s, uint64_t now)
{
	return s->paused_ns + (s->paused_since && now > s->paused_since ?
				       now - s->paused_since :
				       0);
}

/* XON crossing -> first packet back, on average (us). */
double pfc_resume_avg_us(const struct pfc_state_prio *s)
{
	return s->resumes ? s->resume_ns / 1e3 / s->resumes : 0;
}

static json_t *prio_json(const struct pfc_state *st, int p,
			 const struct pfc_state_prio *s, uint64_t now)
{
	json_t *o = json_object();

#define U(k, v) json_object_set_new(o, k, json_integer((json_int_t)(v)))
	U("prio", p);
	json_object_set_new(o, "lossless",
			    json_boolean((st->lossless_mask >> p) & 1));
	U("buffered_bytes", s->bytes);
	U("peak_bytes", s->peak);
	U("packets", s->pkts);
	U("returned", s->returned);
	U("drops", s->drops);
	U("xoff_crossings", s->xoff_crossings);
	json_object_set_new(o, "xoff", json_boolean(s->xoff));
	U("pfc_tx", s->pfc_tx);
	U("pfc_tx_resume", s->pfc_tx_resume);
	U("pfc_tx_fast", s->pfc_tx_fast);
	U("pfc_rx", s->pfc_rx);
	U("pfc_rx_resume", s->pfc_rx_resume);
	U("pfc_rx_ignored", s->pfc_rx_ignored);
	json_object_set_new(o, "paused", json_boolean(s->paused_since != 0));
	U("pauses", s->pauses);
	json_object_set_new(o, "paused_ms",
			    json_real(pfc_paused_ns(s, now) / 1e6));
	U("queue_bytes", s->q_backlog);
	U("queue_packets", s->q_qlen);
	U("queue_drops", s->q_drops);
	U("tx_packets", s->q_packets);
	U("tx_bytes", s->q_bytes);
	U("failure_drops", s->failure_drops);
	U("leftover_drops", s->leftover_drops);
	if (s->drops) {
		char r[64];

		json_object_set_new(
			o, "last_drop_reason",
			json_string(pfc_drop_reason_name(s->last_drop_reason, r,
							 sizeof(r))));
	}
	U("watchdog_events", s->wd_events);
	json_object_set_new(o, "watchdog_last_ms",
			    json_real(s->wd_last_ns / 1e6));
	U("underflow", s->underflow);
	U("resynced_bytes", s->resynced);
	U("resumes", s->resumes);
	json_object_set_new(o, "resume_avg_us",
			    json_real(pfc_resume_avg_us(s)));
	json_object_set_new(o, "resume_max_us",
			    json_real(s->resume_max_ns / 1e3));
#undef U
	return o;
}

/*
 * A queue the storm watchdog flushed counts the flushed packets as its own
 * drops (the qdisc adds them to its parents' drops): they are the
 * watchdog's (watchdog_flushed), not losses of the class.
 */
void pfc_add_totals(struct pfc_totals *t, const struct pfc_state *st, int port,
		    int p, uint64_t now)
{
	const struct pfc_state_prio *s = &st->ports[port].prio[p];
	uint64_t flushed = st->wd[port][p].flushed;
	uint64_t drops = s->drops + s->q_drops -
			 (flushed < s->q_drops ? flushed : s->q_drops);

	t->pfc_tx += s->pfc_tx + s->pfc_tx_resume;
	t->pfc_rx += s->pfc_rx;
	t->xoff += s->xoff_crossings;
	t->buffered += s->bytes;
	t->paused_ns += pfc_paused_ns(s, now);
	t->underflow += s->underflow;
	t->failure_drops += s->failure_drops;
	t->leftover_drops += s->leftover_drops;
	/* Lost from the queues of a dead agent, at this priority. */
	drops += s->leftover_drops;
	if ((st->lossless_mask >> p) & 1)
		t->ll_drops += drops;
	else
		t->lossy_drops += drops;
}

/*
 * Wall-clock ns as milliseconds since the epoch (an integer: -j prints
 * reals to 6 digits); 0 (never) as null.
 */
static json_t *epoch_json(uint64_t ns)
{
	return ns ? json_integer((json_int_t)(ns / 1000000)) : json_null();
}

/*
 * The storm watchdog of a lossless queue (pfc_storm.h): its settings,
 * storms, the last one's start and end, what its drop action dropped.
 * Null for a lossy priority; the counters alone for the state of an agent
 * before the storm watchdog (version 8 or older).
 */
static void storm_json(json_t *o, const struct pfc_state *st, int port, int p)
{
	const struct pfc_state_wd *w = &st->wd[port][p];
	const struct pfc_state_prio *s = &st->ports[port].prio[p];
	bool ll = (st->lossless_mask >> p) & 1;

	json_object_set_new(o, "storms",
			    json_integer((json_int_t)s->wd_events));
	json_object_set_new(o, "storm", json_boolean(w->storm));
	json_object_set_new(o, "storm_start_ms", epoch_json(w->start_rt));
	json_object_set_new(o, "storm_end_ms", epoch_json(w->end_rt));
	/* All the watchdog dropped: at egress, flushed, at ingress. */
	json_object_set_new(
		o, "watchdog_drops",
		json_integer((json_int_t)(s->egress_drops + w->flushed +
					  w->rx_drops)));
	json_object_set_new(o, "watchdog_flushed",
			    json_integer((json_int_t)w->flushed));
	json_object_set_new(o, "watchdog_rx_drops",
			    json_integer((json_int_t)w->rx_drops));
	json_object_set_new(
		o, "watchdog",
		!ll || st->version < 9 ?
			json_null() :
			json_pack("{s:i,s:i,s:s}", "detect_ms",
				  (int)w->detect_ms, "restore_ms",
				  (int)w->restore_ms, "action",
				  st->brs ? "drop" :
					    pfc_wd_action_name(w->action)));
}

/* The ports and their priorities; their sums into *t. */
static json_t *ports_json(const struct pfc_state *st, uint64_t now,
			  struct pfc_totals *t)
{
	json_t *ports = json_array();
	uint32_t i, p;

	for (i = 0; i < st->nports && i < PFC_MAX_PORTS; i++) {
		const struct pfc_state_port *sp = &st->ports[i];
		json_t *po = json_object(), *pr = json_array();

		json_object_set_new(po, "name", json_string(sp->name));
		json_object_set_new(po, "ifname", json_string(sp->ifname));
		json_object_set_new(po, "ifindex", json_integer(sp->ifindex));
		json_object_set_new(po, "rate_bps", json_integer(sp->rate_bps));
		json_object_set_new(po, "dcb", json_string(sp->dcb));
		for (p = 0; p < PFC_PRIOS; p++) {
			json_t *pj = prio_json(st, p, &sp->prio[p], now);

			/* ECN marks (version 8 on; before, 0) */
			json_object_set_new(
				pj, "ecn_marked",
				json_integer((json_int_t)st->ecn_marked[i][p]));
			t->ecn_marked += st->ecn_marked[i][p];
			storm_json(pj, st, i, p);
			t->wd_drops += sp->prio[p].egress_drops +
				       st->wd[i][p].flushed +
				       st->wd[i][p].rx_drops;
			json_array_append_new(pr, pj);
			pfc_add_totals(t, st, i, p, now);
		}
		json_object_set_new(po, "prios", pr);
		json_array_append_new(ports, po);
	}
	return ports;
}

/* The agent: its status, heartbeat, standby, takeovers and how it runs. */
static void agent_json(json_t *o, const struct pfc_state *st,
		       enum pfc_agent_status as, uint64_t now)
{
	json_object_set_new(o, "node", json_string(st->node));
	json_object_set_new(o, "running",
			    json_boolean(as == PFC_AGENT_RUNNING));
	json_object_set_new(o, "status", json_string(pfc_status_name(as)));
	/* "stalled" while a running agent makes no progress */
	pfc_stall_json(o, st, as == PFC_AGENT_RUNNING, now);
	json_object_set_new(
		o, "pid", json_integer(as == PFC_AGENT_RUNNING ? st->pid : 0));
	json_object_set_new(
		o, "standby_pid",
		json_integer(as == PFC_AGENT_RUNNING ? st->standby_pid : 0));
	json_object_set_new(o, "takeovers", json_integer(st->takeovers));
	json_object_set_new(o, "adoptions", json_integer(st->adoptions));
	json_object_set_new(o, "takeover_noticed_ns",
			    json_integer(st->died_at));
	json_object_set_new(o, "takeover_done_ns",
			    json_integer(st->takeover_at));
	json_object_set_new(o, "backend", json_string(st->backend));
	json_object_set_new(o, "note", json_string(st->note));
	json_object_set_new(o, "rt_prio", json_integer(st->rt_prio));
	json_object_set_new(o, "cpu_latency_us",
			    st->cpu_latency_us < 0 ?
				    json_null() :
				    json_integer(st->cpu_latency_us));
	/* An agent of the release before (state version 5) did not say. */
	json_object_set_new(o, "busy_poll_us",
			    st->version < 6 ? json_null() :
					      json_integer(st->busy_poll_us));
	json_object_set_new(
		o, "idle",
		st->version < 6 ?
			json_null() :
			json_pack("{s:b,s:I,s:I}", "asleep",
				  as == PFC_AGENT_RUNNING && st->asleep,
				  "ticks", (json_int_t)st->ticks, "sleeps",
				  (json_int_t)st->sleeps));
	json_object_set_new(
		o, "netlink",
		st->version < 6 ?
			json_null() :
			json_pack("{s:I,s:f,s:I}", "slow",
				  (json_int_t)st->nl_slow, "max_ms",
				  st->nl_max_ns / 1e6, "keeper_refreshes",
				  (json_int_t)st->keeper_refreshes));
}

/*
 * ECN: per priority that marks, Kmin, Kmax and Pmax; empty when none
 * does, null for the state of an agent before ECN (version 7 or older).
 */
static json_t *ecn_json(const struct pfc_state *st)
{
	json_t *a;
	int p;

	if (st->version < 8)
		return json_null();
	a = json_array();
	for (p = 0; p < PFC_PRIOS; p++)
		if ((st->ecn_mask >> p) & 1)
			json_array_append_new(
				a,
				json_pack("{s:i,s:I,s:I,s:i}", "prio", p,
					  "kmin", (json_int_t)st->ecn_kmin[p],
					  "kmax", (json_int_t)st->ecn_kmax[p],
					  "pmax", (int)st->ecn_pmax[p]));
	return a;
}

/* What it pauses with: thresholds, quanta, limits, the watchdog. */
static void settings_json(json_t *o, const struct pfc_state *st)
{
	json_t *ll = json_array(), *xoff = json_array(), *xon = json_array();
	json_t *hr = json_array();
	uint32_t p;

	for (p = 0; p < PFC_PRIOS; p++) {
		if ((st->lossless_mask >> p) & 1)
			json_array_append_new(ll, json_integer(p));
		json_array_append_new(xoff, json_integer(st->xoff[p]));
		json_array_append_new(xon, json_integer(st->xon[p]));
		json_array_append_new(hr, json_integer(st->headroom[p]));
	}
	json_object_set_new(o, "rate_bps", json_integer(st->rate_bps));
	json_object_set_new(o, "lossless", ll);
	json_object_set_new(o, "xoff", xoff);
	json_object_set_new(o, "xon", xon);
	json_object_set_new(o, "headroom", hr);
	json_object_set_new(o, "quanta", json_integer(st->quanta));
	json_object_set_new(o, "lossless_limit",
			    json_integer(st->lossless_limit));
	json_object_set_new(o, "lossy_limit", json_integer(st->lossy_limit));
	json_object_set_new(o, "sched", json_string(pfc_sched_name(st->sched)));
	json_object_set_new(o, "ecn", ecn_json(st));
	/* The node's defaults, its storms, the big red switch (asked for,
	 * and in force). */
	json_object_set_new(
		o, "watchdog",
		json_pack("{s:i,s:i,s:s,s:I,s:b,s:b}", "detect_ms",
			  st->wd_detect_ms, "restore_ms", st->wd_restore_ms,
			  "action", pfc_wd_action_name(st->wd_action), "events",
			  (json_int_t)st->wd_events, "big_red_switch",
			  st->brs != 0, "big_red_switch_asked",
			  st->brs_req != 0));
}

static json_t *totals_json(const struct pfc_state *st,
			   const struct pfc_totals *t)
{
	return json_pack(
		"{s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:f,s:I,s:I,s:I,s:I,s:I}",
		"pfc_tx", (json_int_t)t->pfc_tx, "pfc_rx",
		(json_int_t)t->pfc_rx, "xoff_crossings", (json_int_t)t->xoff,
		"buffered_bytes", (json_int_t)t->buffered, "lossless_drops",
		(json_int_t)t->ll_drops, "lossy_drops",
		(json_int_t)t->lossy_drops, "failure_drops",
		(json_int_t)t->failure_drops, "leftover_drops",
		(json_int_t)t->leftover_drops, "paused_ms", t->paused_ns / 1e6,
		"watchdog_events", (json_int_t)st->wd_events, "underflow",
		(json_int_t)t->underflow, "resyncs", (json_int_t)st->resyncs,
		"ecn_marked", (json_int_t)t->ecn_marked, "watchdog_drops",
		(json_int_t)t->wd_drops);
}

json_t *pfc_node_json(const struct pfc_state *st, enum pfc_agent_status as,
		      uint64_t now)
{
	json_t *o = json_object(), *ports;
	struct pfc_totals t = { 0 };

	ports = ports_json(st, now, &t);
	agent_json(o, st, as, now);
	settings_json(o, st);
	json_object_set_new(o, "ports", ports);
	json_object_set_new(o, "totals", totals_json(st, &t));
	return o;
}

static void put_qstats(const struct tc_qstats *s, void *arg)
{
	pfc_state_put_qstats(arg, s);
}

/*
 * Nobody updates a dead agent's state: read its queues from the kernel,
 * so that what they dropped (or still hold) since is counted and shown.
 */
static void live_queues(struct pfc_state *st)
{
	struct tc tc;

	if (tc_open(&tc))
		return;
	tc_qdisc_stats(&tc, put_qstats, st);
	tc_close(&tc);
}

/* A consistent copy of node's state (to free), and its agent's status. */
int pfc_node_read(const char *node, const char *dir, struct pfc_state **out,
		  enum pfc_agent_status *as)
{
	struct pfc_state *st, *copy;
	int r;

	r = state_get(node, dir, false, &st);
	if (r)
		return r;
	*as = agent_status(dir, st);
	if (*as == PFC_AGENT_RUNNING)
		refresh(st);
	copy = xmalloc(sizeof(*copy));
	/* A dead agent may have died inside an update: no writer is left. */
	r = *as == PFC_AGENT_RUNNING ? pfc_state_snapshot(st, copy) :
				       (memcpy(copy, st, sizeof(*copy)), 0);
	pfc_state_unmap(st);
	if (r) {
		p_err("%s: the agent is busy; try again", dir);
		free(copy);
		return EXIT_RUNTIME;
	}
	if (*as == PFC_AGENT_DIED)
		live_queues(copy);
	if (*as == PFC_AGENT_DIED)
		pr_warn("%s: the pause agent died without stopping; what it set up "
			"is still on its ports: start it again or run `tagger "
			"pfc stop %s`\n",
			node, node);
	*out = copy;
	return 0;
}

int pfc_show_json(const char *node, const char *dir, json_t **out)
{
	struct pfc_state *st;
	enum pfc_agent_status as;
	int r = pfc_node_read(node, dir, &st, &as);

	if (r)
		return r;
	*out = pfc_node_json(st, as, now_ns());
	free(st);
	return 0;
}

/* Wait (at most 5 s) for the agent to let go of its lock. */
static bool released(const char *dir)
{
	int i;

	for (i = 0; i < 5000; i++) {
		if (pfc_state_locked(dir) != 1)
			return true;
		sleep_ms(1);
	}
	return false;
}

int pfc_node_stop(const char *node, const char *dir, int *stopped_pid)
{
	struct pfc_state *st;
	enum pfc_agent_status as;
	int r, pid;

	r = state_get(node, dir, true, &st);
	if (r)
		return r;
	as = agent_status(dir, st);
	pid = st->pid;
	if (as == PFC_AGENT_RUNNING) {
		r = pfc_proc_signal(pid, st->pid_start, SIGTERM);
		pfc_state_unmap(st);
		if (r) {
			p_err("%s: the lock is held, but not by the recorded agent "
			      "(pid %d: %s)",
			      node, pid, strerror(-r));
			return EXIT_RUNTIME;
		}
		if (!released(dir)) {
			p_err("%s: agent %d did not stop", node, pid);
			return EXIT_RUNTIME;
		}
		*stopped_pid = pid;
		return 0;
	}
	/* No agent: remove what a dead one left on its ports. */
	if (as == PFC_AGENT_DIED) {
		pfc_leftovers_remove(st);
		pfc_dcb_restore(dir); /* its DCB ports as it found them */
		if (st->seq & 1) /* it died inside an update */
			pfc_state_end(st);
		pfc_state_begin(st);
		st->stopped = 1;
		st->pid = 0;
		pfc_state_end(st);
		pr_info("removed what the dead pause agent of %s (pid %d) left\n",
			node, pid);
	}
	pfc_state_unmap(st);
	if (as == PFC_AGENT_DIED) {
		char path[PATH_MAX];

		snprintf(path, sizeof(path), "%s/pid", dir);
		unlink(path);
	}
	*stopped_pid = 0;
	return 0;
}

int pfc_node_brs(const char *node, const char *dir, bool on)
{
	struct pfc_state *st;
	int r, i;

	r = state_get(node, dir, true, &st);
	if (r)
		return r;
	if (agent_status(dir, st) != PFC_AGENT_RUNNING) {
		pfc_state_unmap(st);
		p_err("%s: no pause agent runs for %s", node, node);
		return EXIT_RUNTIME;
	}
	if (st->version < 9) {
		pfc_state_unmap(st);
		p_err("%s: the running agent is of a release without the big "
		      "red switch; restart it",
		      node);
		return EXIT_RUNTIME;
	}
	/* The one word of the state written from outside (pfc_state.h). */
	__atomic_store_n(&st->brs_req, on, __ATOMIC_RELEASE);
	r = pfc_proc_signal(st->pid, st->pid_start, SIGUSR1);
	for (i = 0; !r && i < 2000; i++) {
		if (__atomic_load_n(&st->brs, __ATOMIC_ACQUIRE) == on)
			break;
		sleep_ms(1);
	}
	if (!r && __atomic_load_n(&st->brs, __ATOMIC_ACQUIRE) != on)
		r = -ETIMEDOUT;
	pfc_state_unmap(st);
	if (r) {
		p_err("%s: the agent did not put the big red switch %s in force: "
		      "%s (it will at its next tick if it runs)",
		      node, on ? "on" : "off", strerror(-r));
		return EXIT_RUNTIME;
	}
	return 0;
}
