// SPDX-License-Identifier: GPL-2.0
/*
 * The pause agent's life: claim the node's directory and lock, set up
 * (pfc_setup.c), run the loop, and finish; the standby's takeover.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/log.h"
#include "lib/util.h"
#include "pfc/pfc_adopt.h"
#include "pfc/pfc_agent.h"
#include "pfc/pfc_agent_int.h"
#include "pfc/pfc_dcb_wd.h"
#include "pfc/pfc_ident.h"
#include "pfc/pfc_loop.h"
#include "pfc/pfc_setup.h"
#include "pfc/pfc_standby.h"
#include "pfc/pfc_storm.h"

/* The pid file is for people and scripts; commands check the lock. */
/*
 * Written to a temporary file and renamed over the pid file: a reader
 * (systemd's PIDFile=, at the moment it reaps a dead agent) sees the old
 * pid or the new one, never an empty file.
 */
static void write_pid(const char *dir, int pid)
{
	char path[PATH_MAX], tmp[PATH_MAX], buf[32];
	int fd, n;

	snprintf(path, sizeof(path), "%s/pid", dir);
	if (!pid) {
		unlink(path);
		return;
	}
	snprintf(tmp, sizeof(tmp), "%s/pid.new", dir);
	unlink(tmp);
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
		  0600);
	if (fd < 0)
		return;
	n = snprintf(buf, sizeof(buf), "%d\n", pid);
	if (write(fd, buf, n) != n || rename(tmp, path)) {
		pr_warn("%s: %s\n", path, strerror(errno));
		unlink(tmp);
	}
	close(fd);
}

/*
 * File descriptors kept for the way out: removing programs and restoring
 * offloads each needs a socket, and an agent that failed because it ran
 * out of descriptors would otherwise leave them behind.
 */
static int spare_fd[2] = { -1, -1 };

static void spare(bool take)
{
	int i;

	for (i = 0; i < 2; i++) {
		if (take) {
			spare_fd[i] = open("/dev/null", O_RDONLY | O_CLOEXEC);
			continue;
		}
		if (spare_fd[i] >= 0)
			close(spare_fd[i]);
		spare_fd[i] = -1;
	}
}

/*
 * Remove what setup() installed and say so in the state. "stopping" first:
 * a standby that sees this agent die half-way finishes instead of taking
 * over queues that are half gone.
 */
static int finish(struct pfc_agent *a, int rc)
{
	if (a->standby_fd >= 0)
		close(a->standby_fd);
	spare(false);
	pfc_state_begin(a->st);
	a->st->stopping = 1;
	pfc_state_end(a->st);
	pfc_rt_leave(&a->rt);
	pfc_teardown(a);
	write_pid(a->cfg->dir, 0);
	pfc_state_begin(a->st);
	a->st->pid = 0;
	a->st->stopped = 1;
	pfc_state_end(a->st);
	pfc_state_unmap(a->st);
	if (a->trace)
		fclose(a->trace);
	close(a->lock_fd);
	free(a->old);
	free(a);
	return rc;
}

/* Say why a directory is not trusted; the exit code for it. */
static int dir_refused(const char *path, int r, const char *why)
{
	if (r == -EPERM || r == -ENOTDIR) {
		p_err("%s: %s: refused", path, why ? why : strerror(-r));
		return EXIT_USAGE;
	}
	p_err("%s: %s", path, strerror(-r));
	return EXIT_RUNTIME;
}

/*
 * The state root (checked before anything is made in it, and again
 * after), then the node's directory: made, and trusted (an exit code).
 */
static int trusted_dirs(const struct pfc_config *c)
{
	const char *why;
	char root[PATH_MAX];
	int r;

	r = pfc_state_root_check(c->dir, root, sizeof(root), &why);
	if (r && r != -ENOENT) /* not there yet: made 0700 below */
		return dir_refused(root, r, why);
	r = pfc_state_dir(c->dir, true, &why);
	if (r)
		return dir_refused(c->dir, r, why);
	r = pfc_state_root_check(c->dir, root, sizeof(root), &why);
	return r ? dir_refused(root, r, why) : 0;
}

/* Directory, lock, leftovers: nothing is written before the lock is ours. */
static int claim(struct pfc_agent *a, struct pfc_state **left)
{
	const struct pfc_config *c = a->cfg;
	int r;

	r = pfc_netns_self(&a->netns);
	if (r) {
		p_err("/proc/self/ns/net: %s", strerror(-r));
		return EXIT_RUNTIME;
	}
	r = trusted_dirs(c);
	if (r)
		return r;
	r = pfc_state_lock(c->dir, &a->lock_fd);
	if (r == -EBUSY) {
		p_err("%s: an agent for node %s is already running", c->dir,
		      c->node);
		return EXIT_USAGE;
	}
	if (!r)
		r = pfc_adopt_previous(c, &a->netns, a->adopt_fd, &a->old,
				       left);
	if (r == -EEXIST)
		return EXIT_USAGE;
	if (r) {
		p_err("%s: %s", c->dir, strerror(-r));
		return EXIT_RUNTIME;
	}
	r = pfc_state_create(c->dir, &a->st);
	if (r) {
		p_err("%s: the agent's state (%zu bytes): %s", c->dir,
		      sizeof(*a->st), strerror(-r));
		return EXIT_RUNTIME;
	}
	return 0;
}

/*
 * The agent died without stopping: its standby (pfc_standby.h) or a new
 * agent that adopts its queues (pfc_adopt.h) goes on from what the state
 * and the maps say. Gates closed by a PAUSE stay closed until it
 * expires; PAUSEs we sent go on being refreshed until XON.
 */
static void rebuild(struct pfc_agent *a)
{
	const struct pfc_config *c = a->cfg;
	int port, p;

	memset(&a->rc, 0, sizeof(a->rc)); /* relearns the log alignment */
	for (port = 0; port < c->nports; port++) {
		a->refresh_at[port] = 0;
		for (p = 0; p < PFC_PRIOS; p++) {
			struct pfc_state_prio *sp = &a->st->ports[port].prio[p];
			struct pfc_pause_gate *g = &a->gate[port][p];

			g->closed = sp->gate_closed;
			g->until = sp->gate_until;
			g->since = sp->paused_since;
			a->sent[port][p] = sp->pause_sent;
			if (sp->pause_sent)
				a->refresh_at[port] = now_ns();
		}
	}
	pfc_storm_rebuild(a, now_ns()); /* storms, the big red switch */
}

/*
 * A start that failed: finish() removes what it did so far (teardown()
 * goes by what is recorded as done); here the queues of a dead agent it
 * was adopting, so that the next start finds the ports as they were.
 */
static void undo(struct pfc_agent *a)
{
	if (!a->old)
		return;
	pfc_leftovers_remove(a->old);
	pfc_leftovers_carry(a->st, a->cfg, a->old);
}

/* The state before anything is done to a port: "stopping" until set up. */
static void state_setting_up(struct pfc_agent *a, const struct pfc_state *left)
{
	int i;

	/* Adopting: the offloads to restore are the dead agent's record. */
	for (i = 0; a->old && i < a->cfg->nports; i++)
		a->offloads[i] = (struct pfc_offloads){
			a->old->ports[i].gro, a->old->ports[i].tso,
			a->old->ports[i].gso, a->old->ports[i].offloads_saved
		};
	pfc_setup_record(a);
	pfc_state_begin(a->st);
	a->st->stopping = 1; /* never adopted half made (pfc_adopt.h) */
	pfc_state_end(a->st);
	pfc_leftovers_carry(a->st, a->cfg, left);
}

/* The standby's side, when the agent died: an exit code. */
static int takeover(struct pfc_agent *a)
{
	struct pfc_state *st = a->st;
	uint64_t now = now_ns();
	int dead = st->pid, r;

	if (st->stopped)
		return EXIT_OK; /* it stopped and removed everything */
	/* It may have died inside an update: the seq count must be even. */
	if (__atomic_load_n(&st->seq, __ATOMIC_ACQUIRE) & 1)
		pfc_state_end(st);
	if (st->stopping)
		return finish(a, EXIT_OK); /* it was removing its queues */
	/*
	 * The pid file first: systemd (PIDFile= of tagger-pfc@.service)
	 * reads it when it reaps the dead agent and keeps the unit running
	 * with this process as its main PID if the file names it by then;
	 * if not, it stops the unit and a restarted agent adopts the queues.
	 */
	write_pid(a->cfg->dir, getpid());
	pr_warn("%s: the pause agent (pid %d) died; its standby (pid %d) takes "
		"over\n",
		a->cfg->node, dead, getpid());
	tc_drain(&a->q.tc);
	rebuild(a);
	pfc_state_begin(st);
	st->pid = getpid();
	st->pid_start = pfc_proc_start(st->pid);
	st->standby_pid = 0;
	st->takeovers++;
	st->died_at = now;
	st->takeover_at = now_ns();
	pfc_state_end(st);
	if (pfc_standby_spawn(a, a->takeover))
		pr_warn("%s: no new standby: %s\n", a->cfg->node,
			strerror(errno));
	r = pfc_loop(a);
	if (r)
		p_err("%s: the standby's pause loop failed: %s", a->cfg->node,
		      strerror(-r));
	return finish(a, r ? EXIT_RUNTIME : EXIT_OK);
}

static int run(struct pfc_agent *a)
{
	struct pfc_config *cfg = a->cfg;
	int r;

	/*
	 * The pause loop mostly sleeps; when a PFC frame or a crossing
	 * arrives it must run now, not after whatever else shares the CPU
	 * (that wait is t_pro of the headroom formula).
	 */
	pfc_rt_enter(&a->rt, cfg->rt_prio, cfg->cpu_latency_us);
	pfc_setup_record(a);
	pfc_state_begin(a->st);
	if (a->old)
		pfc_adopt_counters(a->st, a->old);
	a->st->stopping = 0;
	pfc_state_end(a->st);
	if (a->old)
		rebuild(a);
	write_pid(cfg->dir, getpid());
	pr_info("pfc agent %s: %d port(s), backend %s%s\n", cfg->node,
		cfg->nports, a->backend,
		a->forwarding ?
			"" :
			", not forwarding (host): no buffer accounting");
	if (a->skel && pfc_standby_spawn(a, takeover))
		pr_warn("%s: no standby (%s): a crash of this agent would "
			"leave its gates as they are\n",
			cfg->node, strerror(errno));
	r = a->skel ? pfc_loop(a) : pfc_dcb_loop(a); /* hardware PFC */
	if (r) {
		p_err("%s: the pause loop failed: %s", cfg->node, strerror(-r));
		return EXIT_RUNTIME;
	}
	return EXIT_OK;
}

int pfc_agent_run(struct pfc_config *cfg, const char *trace_path)
{
	struct pfc_agent *a = calloc(1, sizeof(*a));
	struct pfc_state *left = NULL;
	sigset_t mask;
	int i, r, rc;

	if (!a) {
		p_err("%s", strerror(ENOMEM));
		return EXIT_RUNTIME;
	}
	a->cfg = cfg;
	a->lock_fd = -1;
	a->standby_fd = -1;
	for (i = 0; i < PFC_ADOPT_MAPS; i++)
		a->adopt_fd[i] = -1;
	for (i = 0; i < PFC_MAX_PORTS; i++)
		a->tx_fd[i] = -1;
	a->rt.qos_fd = -1;
	log_libbpf();
	spare(true);
	rc = claim(a, &left);
	if (rc) {
		if (a->lock_fd >= 0)
			close(a->lock_fd);
		spare(false);
		free(left);
		free(a->old);
		free(a);
		return rc;
	}
	state_setting_up(a, left);
	free(left);
	if (trace_path) {
		a->trace = fopen(trace_path, "w");
		if (!a->trace)
			pr_warn("trace %s: %s\n", trace_path, strerror(errno));
	}
	/* Signals arrive through a signalfd in the loop. */
	sigemptyset(&mask);
	sigaddset(&mask, SIGINT);
	sigaddset(&mask, SIGTERM);
	sigaddset(&mask, SIGUSR1);
	sigprocmask(SIG_BLOCK, &mask, NULL);
	signal(SIGPIPE, SIG_IGN);

	r = pfc_setup(a);
	if (r) {
		undo(a); /* finish() removes the rest */
		return finish(a, r == -EBUSY ? EXIT_USAGE : EXIT_RUNTIME);
	}
	return finish(a, run(a));
}
