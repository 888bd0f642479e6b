// SPDX-License-Identifier: GPL-2.0
/* The pause agent: setup and teardown; the loop is in pfc_loop.c. */
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <net/if.h>
#include <unistd.h>

#include "lib/log.h"
#include "pfc/pfc_adopt.h"
#include "pfc/pfc_agent.h"
#include "pfc/pfc_agent_int.h"
#include "lib/dcb.h"
#include "pfc/pfc_ident.h"
#include "pfc/pfc_loop.h"
#include "pfc/pfc_port.h"
#include "pfc/pfc_reasons.h"
#include "pfc/pfc_standby.h"
#include "lib/util.h"
#include "pfc.skel.h"

#define RING_SIZE (sizeof(uint64_t) * PFC_MAX_PORTS * PFC_PRIOS * PFC_RING)

static uint32_t netns_inode(void)
{
	struct stat sb;

	return stat("/proc/self/ns/net", &sb) < 0 ? 0 : (uint32_t)sb.st_ino;
}

/* Forwarded packets keep the priority the classifier gave them. */
static void keep_priority(void)
{
	const char *p = "/proc/sys/net/ipv4/ip_forward_update_priority";
	char v = '1';
	int fd = open(p, O_RDWR | O_CLOEXEC);

	if (fd < 0)
		return;
	if (read(fd, &v, 1) == 1 && v != '0') {
		if (pwrite(fd, "0", 1, 0) == 1)
			pr_info("set net.ipv4.ip_forward_update_priority=0\n");
	}
	close(fd);
}

/* Does this namespace forward? A host does not, and needs no accounting. */
static bool forwarding(void)
{
	const char *f[] = { "/proc/sys/net/ipv4/ip_forward",
			    "/proc/sys/net/ipv6/conf/all/forwarding" };
	char v = '0';
	int i, fd;

	for (i = 0; i < 2; i++) {
		fd = open(f[i], O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue;
		if (read(fd, &v, 1) == 1 && v != '0') {
			close(fd);
			return true;
		}
		close(fd);
	}
	return false;
}

/*
 * --busy-poll: how far above XON a paused buffer is "near" it, so that
 * the agent is polling when XON comes. A quarter of the poll budget at
 * the slowest port's rate: drained at least that fast, the XON comes
 * within that time, and the poll window (the whole budget) covers it.
 */
static void near_bytes(const struct pfc_config *c,
		       volatile __u64 near[PFC_PRIOS])
{
	uint64_t rate = 0, b;
	int i;

	for (i = 0; i < c->nports; i++)
		if (!rate || pfc_port_rate(c, i) < rate)
			rate = pfc_port_rate(c, i);
	b = rate / 8 * c->busy_poll_us / 4 / 1000000;
	for (i = 0; i < PFC_PRIOS; i++)
		near[i] = b;
}

static int load_bpf(struct pfc_agent *a)
{
	const struct pfc_config *c = a->cfg;
	struct pfc_bpf *s;
	int i, r;

	s = pfc_bpf__open();
	if (!s)
		return -errno;
	s->rodata->netns_ino = netns_inode();
	s->rodata->lossless_mask = c->lossless_mask;
	s->rodata->forwarding = a->forwarding = forwarding();
	for (i = 0; i < PFC_PRIOS; i++) {
		s->rodata->xoff_bytes[i] = c->xoff[i];
		s->rodata->xon_bytes[i] = c->xon[i];
	}
	for (i = 0; i < 64; i++)
		s->rodata->dscp_prio[i] = c->dscp_prio[i];
	s->rodata->pause_quanta = c->quanta;
	near_bytes(c, s->rodata->xon_near_bytes);
	pfc_drop_kinds(s->rodata->drop_kind);
	a->skel = s;
	if (a->old) {
		r = pfc_adopt_maps(s, a->adopt_fd);
		if (r)
			return r;
	}
	r = pfc_bpf__load(s);
	if (r)
		return r;
	for (i = 0; i < c->nports; i++) {
		uint32_t ifindex = c->ports[i].ifindex, slot = i;

		r = bpf_map__update_elem(s->maps.ports, &ifindex,
					 sizeof(ifindex), &slot, sizeof(slot),
					 BPF_ANY);
		if (r)
			return r;
	}
	a->pp = mmap(NULL, sizeof(struct pfc_pp) * PFC_MAX_PORTS * PFC_PRIOS,
		     PROT_READ | PROT_WRITE, MAP_SHARED,
		     bpf_map__fd(s->maps.pp), 0);
	if (a->pp == MAP_FAILED) {
		a->pp = NULL;
		return -errno;
	}
	a->ring = mmap(NULL, RING_SIZE, PROT_READ, MAP_SHARED,
		       bpf_map__fd(s->maps.ring), 0);
	if (a->ring == MAP_FAILED) {
		a->ring = NULL;
		return -errno;
	}
	/*
	 * Returns first, so that every byte counted is given back. A host
	 * counts nothing, but traces its first packet out after a resume.
	 */
	if (a->forwarding || a->trace) {
		s->links.pfc_xmit = bpf_program__attach(s->progs.pfc_xmit);
		if (!s->links.pfc_xmit)
			return -errno;
	}
	if (!a->forwarding)
		return 0; /* nothing is counted, nothing to give back */
	s->links.pfc_drop = bpf_program__attach(s->progs.pfc_drop);
	if (!s->links.pfc_drop)
		return -errno;
	return 0;
}

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

static void state_init(struct pfc_agent *a)
{
	const struct pfc_config *c = a->cfg;
	struct pfc_state *st = a->st;
	int i;

	pfc_state_begin(st);
	st->magic = PFC_STATE_MAGIC;
	st->version = PFC_STATE_VERSION;
	st->pid = getpid();
	st->pid_start = pfc_proc_start(st->pid);
	st->netns_dev = a->netns.dev;
	st->netns_ino = a->netns.ino;
	st->stopped = 0;
	st->started = st->updated = now_ns();
	snprintf(st->node, sizeof(st->node), "%s", c->node);
	snprintf(st->backend, sizeof(st->backend), "%s", a->backend);
	snprintf(st->note, sizeof(st->note), "%s", a->q.why);
	st->rate_bps = c->rate_bps;
	st->lossless_mask = c->lossless_mask;
	st->quanta = c->quanta;
	memcpy(st->xoff, c->xoff, sizeof(st->xoff));
	memcpy(st->xon, c->xon, sizeof(st->xon));
	memcpy(st->headroom, c->headroom, sizeof(st->headroom));
	st->lossless_limit = c->lossless_limit;
	st->lossy_limit = c->lossy_limit;
	st->sched = c->sched;
	st->wd_action = c->wd_action;
	st->wd_detect_ms = c->wd_detect_ms;
	st->wd_restore_ms = c->wd_restore_ms;
	st->nports = c->nports;
	st->frame = c->frame;
	st->rt_prio = a->rt.rt_prio;
	st->cpu_latency_us = a->rt.cpu_latency_us;
	st->busy_poll_us = c->busy_poll_us;
	if (a->skel)
		pfc_map_ids(a->skel, st->map_ids);
	for (i = 0; i < c->nports; i++) {
		snprintf(st->ports[i].name, sizeof(st->ports[i].name), "%s",
			 c->ports[i].name);
		snprintf(st->ports[i].ifname, sizeof(st->ports[i].ifname), "%s",
			 c->ports[i].ifname);
		st->ports[i].ifindex = c->ports[i].ifindex;
		st->ports[i].rate_bps = pfc_port_rate(c, i);
		snprintf(st->ports[i].dcb, sizeof(st->ports[i].dcb), "%s",
			 a->dcb[i]);
		st->ports[i].gro = a->offloads[i].gro;
		st->ports[i].tso = a->offloads[i].tso;
		st->ports[i].gso = a->offloads[i].gso;
		st->ports[i].offloads_saved = a->offloads[i].valid;
	}
	pfc_state_end(st);
}

/* Hardware PFC where every port has DCB; say why not otherwise. */
static int probe_dcb(struct pfc_agent *a)
{
	const struct pfc_config *c = a->cfg;
	int i, ok = 0, r;

	for (i = 0; i < c->nports; i++) {
		r = pfc_dcb_probe(c->ports[i].ifname, a->dcb[i],
				  sizeof(a->dcb[i]));
		ok += r == 1;
	}
	if (c->backend == PFC_BACKEND_DCB ||
	    (c->backend == PFC_BACKEND_AUTO && ok == c->nports)) {
		if (ok != c->nports) {
			p_err("dcb: not every port supports DCB (%s: %s)",
			      c->ports[0].ifname, a->dcb[0]);
			return -EOPNOTSUPP;
		}
		for (i = 0; i < c->nports; i++) {
			r = pfc_dcb_apply(c->ports[i].ifname, c->lossless_mask,
					  c->dscp_prio);
			if (r) {
				p_err("dcb: %s: %s", c->ports[i].ifname,
				      strerror(-r));
				return r;
			}
		}
		return 1;
	}
	for (i = 0; i < c->nports; i++)
		if (strcmp(a->dcb[i], "supported"))
			pr_info("%s: hardware PFC (DCB) %s; software pause\n",
				c->ports[i].ifname, a->dcb[i]);
	return 0;
}

static int setup(struct pfc_agent *a)
{
	struct pfc_config *c = a->cfg;
	int i, r;

	r = probe_dcb(a);
	if (r < 0)
		return r;
	if (!r && !a->old && (i = pfc_ports_taken(c)) >= 0) {
		p_err("%s: has the pause queues of another agent already (another "
		      "node name on the same ports?); see `tagger pfc show`",
		      c->ports[i].ifname);
		return -EBUSY;
	}
	if (r == 1) {
		snprintf(a->backend, sizeof(a->backend), "dcb");
		return 0;
	}
	if (a->old) { /* off already: restore what was there before */
		for (i = 0; i < c->nports; i++)
			a->offloads[i] = (struct pfc_offloads){
				a->old->ports[i].gro, a->old->ports[i].tso,
				a->old->ports[i].gso,
				a->old->ports[i].offloads_saved
			};
		state_init(a);
	} else if (!c->keep_offloads) {
		/*
		 * Recorded before they are turned off: killed at any moment
		 * from here on, the next start or `stop` restores them.
		 */
		for (i = 0; i < c->nports; i++)
			pfc_port_offloads(c->ports[i].ifname, PFC_OFFLOADS_READ,
					  &a->offloads[i]);
		state_init(a);
		for (i = 0; i < c->nports; i++)
			pfc_port_offloads(c->ports[i].ifname, 1,
					  &a->offloads[i]);
	}
	r = load_bpf(a);
	if (r) {
		p_err("loading the pause programs: %s", strerror(-r));
		return r;
	}
	r = a->old ? pfc_queues_adopt(&a->q, c, a->old->backend) :
		     pfc_queues_setup(&a->q, c, c->backend);
	a->queues_up = true; /* whatever was made goes on failure too */
	if (r)
		return r;
	snprintf(a->backend, sizeof(a->backend), "%s", a->q.be->name);
	/*
	 * HTB's direct queue goes before every class: a PAUSE made at tc
	 * egress overtakes the gates there (bpf/pfc.bpf.c, make_pause). Under
	 * mqprio it would wait behind priority 0's queue: the agent sends.
	 */
	a->skel->bss->fast_pause =
		!c->slow_pause && !strcmp(a->q.be->name, "htb-tbf");
	for (i = 0; i < c->nports; i++) {
		int ifindex = c->ports[i].ifindex;

		if (!strcmp(a->q.be->name, "htb-tbf")) {
			r = tc_bpf_classifier(
				&a->q.tc, ifindex, PFC_ROOT_HANDLE,
				bpf_program__fd(a->skel->progs.pfc_classify),
				"pfc_classify");
			if (r)
				goto fail;
		}
		r = pfc_port_attach(ifindex, -1,
				    bpf_program__fd(a->skel->progs.pfc_egress));
		a->attached[i] = true;
		if (r)
			goto fail;
		a->tx_fd[i] = pfc_sock_open(ifindex, 1, 0);
		if (a->tx_fd[i] < 0) {
			r = a->tx_fd[i];
			goto fail;
		}
	}
	/*
	 * Ingress, which accounts a packet in, only once every egress logs
	 * it queued: one let in while its out-port had no egress program
	 * yet would stay in the recount's "still in the stack" for good
	 * (pfc_recount.h) and keep it from ever taking a phantom off.
	 */
	for (i = 0; i < c->nports; i++) {
		r = pfc_port_attach(c->ports[i].ifindex,
				    bpf_program__fd(a->skel->progs.pfc_ingress),
				    -1);
		if (r)
			goto fail;
	}
	/* Last: a start that fails before this leaves the sysctl alone. */
	keep_priority();
	return 0;
fail:
	p_err("%s: attaching: %s", c->ports[i].ifname, strerror(-r));
	return r;
}

static void teardown(struct pfc_agent *a)
{
	const struct pfc_config *c = a->cfg;
	int i;

	for (i = 0; i < c->nports; i++) {
		if (a->tx_fd[i] >= 0)
			close(a->tx_fd[i]);
		if (a->attached[i])
			pfc_port_detach(c->ports[i].ifindex);
	}
	if (a->queues_up)
		pfc_queues_teardown(&a->q);
	if (a->pp)
		munmap(a->pp,
		       sizeof(struct pfc_pp) * PFC_MAX_PORTS * PFC_PRIOS);
	if (a->ring)
		munmap((void *)a->ring, RING_SIZE);
	pfc_bpf__destroy(a->skel);
	for (i = 0; i < c->nports; i++)
		pfc_port_offloads(c->ports[i].ifname, 0, &a->offloads[i]);
}

/* Hardware PFC: nothing to run; stay until told to stop, for `show`. */
static int pfc_wait(struct pfc_agent *a)
{
	sigset_t mask;
	int sig = 0;

	sigemptyset(&mask);
	sigaddset(&mask, SIGINT);
	sigaddset(&mask, SIGTERM);
	sigaddset(&mask, SIGUSR1);
	while (sig != SIGINT && sig != SIGTERM) {
		if (sigwait(&mask, &sig))
			return -EINTR;
		pfc_state_begin(a->st);
		a->st->updated = now_ns();
		pfc_state_end(a->st);
	}
	return 0;
}

/* The packets a record counts as lost with a dead agent's queues. */
static uint64_t leftovers_of(const struct pfc_state *st)
{
	uint64_t n = 0;
	uint32_t i, p;

	for (i = 0; i < st->nports && i < PFC_MAX_PORTS; i++)
		for (p = 0; p < PFC_PRIOS; p++)
			n += st->ports[i].prio[p].leftover_drops;
	return n;
}

/*
 * The last agent of this node died without removing what it set up (a
 * crash, kill -9): remove it before starting, in this namespace only. A
 * record of another namespace is refused while that namespace exists.
 * *left: the removed record, with what its queues held when they went
 * (to carry into the new state).
 */
static int previous(struct pfc_agent *a, struct pfc_state **left)
{
	const struct pfc_config *c = a->cfg;
	struct pfc_state *old = xmalloc(sizeof(*old));
	struct pfc_netns ns;
	const char *why;
	char buf[48];
	uint64_t had;
	int r = 0;

	if (pfc_state_read(c->dir, old) || old->stopped || !old->pid)
		goto out;
	ns.dev = old->netns_dev;
	ns.ino = old->netns_ino;
	if (!pfc_netns_eq(&ns, &a->netns)) {
		if (pfc_netns_exists(&ns)) {
			p_err("%s: node %s has an agent state of another network "
			      "namespace (%s) whose agent did not stop; run "
			      "`tagger pfc stop %s` there",
			      c->dir, c->node,
			      pfc_netns_str(&ns, buf, sizeof(buf)), c->node);
			r = -EEXIST;
		}
		goto out;
	}
	if (!pfc_adopt_prepare(old, c, a->adopt_fd, &why)) {
		pr_warn("node %s: the previous agent (pid %u) died without "
			"stopping; adopting its queues and counters\n",
			c->node, old->pid);
		a->old = old;
		return 0;
	}
	pr_warn("node %s: the previous agent (pid %u) died without stopping; "
		"not adopting (%s): removing what it left on its ports\n",
		c->node, old->pid, why);
	had = leftovers_of(old);
	pfc_leftovers_remove(old);
	if (leftovers_of(old) > had)
		pr_warn("node %s: %llu packet(s) its queues still held, or dropped "
			"while no agent ran, are lost (counted as "
			"leftover_drops)\n",
			c->node, (unsigned long long)(leftovers_of(old) - had));
	*left = old;
	return 0;
out:
	free(old);
	return r;
}

/* A removed record's leftover_drops, onto the new record's same ports. */
static void carry_leftovers(struct pfc_agent *a, const struct pfc_state *left)
{
	const struct pfc_config *c = a->cfg;
	uint32_t i, p;
	int j;

	if (!left)
		return;
	pfc_state_begin(a->st);
	for (i = 0; i < left->nports && i < PFC_MAX_PORTS; i++) {
		const struct pfc_state_port *lp = &left->ports[i];

		for (j = 0; j < c->nports; j++)
			if (!strncmp(lp->ifname, c->ports[j].ifname,
				     sizeof(lp->ifname)))
				break;
		for (p = 0; p < PFC_PRIOS; p++) {
			if (!lp->prio[p].leftover_drops)
				continue;
			if (j == c->nports) {
				pr_warn("%s: not a port of this agent: its %u "
					"leftover drop(s) of priority %u are "
					"counted only in this log\n",
					lp->ifname, lp->prio[p].leftover_drops,
					p);
				continue;
			}
			a->st->ports[j].prio[p].leftover_drops +=
				lp->prio[p].leftover_drops;
		}
	}
	pfc_state_end(a->st);
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
	teardown(a);
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
		r = previous(a, left);
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
			g->wd.until = sp->wd_until;
			g->wd.fired = sp->wd_until != 0;
			g->ignoring = sp->wd_until != 0;
			a->sent[port][p] = sp->pause_sent;
			if (sp->pause_sent)
				a->refresh_at[port] = now_ns();
		}
	}
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
	carry_leftovers(a, a->old);
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
	state_init(a);
	pfc_state_begin(a->st);
	a->st->stopping = 1; /* never adopted half made (pfc_adopt.h) */
	pfc_state_end(a->st);
	carry_leftovers(a, left);
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
	state_init(a);
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
	r = a->skel ? pfc_loop(a) : pfc_wait(a);
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

	r = setup(a);
	if (r) {
		undo(a); /* finish() removes the rest */
		return finish(a, r == -EBUSY ? EXIT_USAGE : EXIT_RUNTIME);
	}
	return finish(a, run(a));
}

/* Is ifindex still the port the record names? */
static bool same_port(const struct pfc_state_port *p)
{
	char name[IF_NAMESIZE];

	return p->ifindex > 0 && if_indextoname(p->ifindex, name) &&
	       !strncmp(name, p->ifname, sizeof(p->ifname));
}

/*
 * What a dead agent's queue held, and what it dropped since the agent
 * last recorded its drops (nobody did while it was dead): into its
 * record, as leftover_drops. The queue goes, and its counts with it.
 */
static void count_queued(const struct tc_qstats *s, void *arg)
{
	struct pfc_state_port *port = arg;
	int p;

	for (p = 0; p < PFC_PRIOS; p++) {
		struct pfc_state_prio *sp = &port->prio[p];

		if (port->ifindex != s->ifindex ||
		    s->handle != PFC_GATE_HANDLE(p))
			continue;
		sp->leftover_drops += s->qlen;
		if (s->drops > sp->q_drops)
			sp->leftover_drops += s->drops - sp->q_drops;
	}
}

/*
 * Programs first, so that nothing more is queued, then the queues are
 * read and removed at once: what they held is dropped with them, and
 * counted. (A packet the closed gate's leak lets out in between is
 * counted too: an overcount of at most one frame per gate.)
 */
void pfc_leftovers_remove(struct pfc_state *st)
{
	struct tc tc;
	int i, have_tc = !tc_open(&tc);

	for (i = 0; i < (int)st->nports && i < PFC_MAX_PORTS; i++) {
		struct pfc_state_port *p = &st->ports[i];
		struct pfc_offloads o = { p->gro, p->tso, p->gso,
					  p->offloads_saved };

		if (!same_port(p)) {
			pr_info("%s: port gone or renamed; nothing to remove\n",
				p->ifname);
			continue;
		}
		pfc_port_detach(p->ifindex);
		if (have_tc) {
			tc_qdisc_stats(&tc, count_queued, p);
			tc_qdisc_del_root(&tc, p->ifindex);
		}
		pfc_port_offloads(p->ifname, 0, &o);
	}
	if (have_tc)
		tc_close(&tc);
}
