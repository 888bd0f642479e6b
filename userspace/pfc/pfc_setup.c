// SPDX-License-Identifier: GPL-2.0
/* What the agent installs on its ports, and removes; see pfc_setup.h. */
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/dcb.h"
#include "lib/log.h"
#include "pfc/pfc_adopt.h"
#include "pfc/pfc_agent_int.h"
#include "pfc/pfc_dcb_ports.h"
#include "pfc/pfc_reasons.h"
#include "pfc/pfc_setup.h"
#include "pfc/pfc_storm.h"
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
	s->rodata->ecn_mask = pfc_ecn_mask(c);
	for (i = 0; i < PFC_PRIOS; i++) {
		s->rodata->ecn_kmin[i] = c->ecn_kmin[i];
		s->rodata->ecn_kmax[i] = c->ecn_kmax[i];
		s->rodata->ecn_pmax[i] = c->ecn_pmax[i] * PFC_ECN_ONE / 100;
	}
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

void pfc_setup_record(struct pfc_agent *a)
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
	st->ecn_mask = pfc_ecn_mask(c);
	memcpy(st->ecn_kmin, c->ecn_kmin, sizeof(st->ecn_kmin));
	memcpy(st->ecn_kmax, c->ecn_kmax, sizeof(st->ecn_kmax));
	memcpy(st->ecn_pmax, c->ecn_pmax, sizeof(st->ecn_pmax));
	st->lossless_limit = c->lossless_limit;
	st->lossy_limit = c->lossy_limit;
	st->sched = c->sched;
	st->wd_action = c->wd_action;
	st->wd_detect_ms = c->wd_detect_ms;
	st->wd_restore_ms = c->wd_restore_ms;
	pfc_storm_setup(a); /* each queue's, and the big red switch */
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

/*
 * With DCB the hardware queues and pauses, and no BPF program sees the
 * occupancy: ECN is the hardware's too. Say what to set it to.
 */
static void dcb_ecn_note(const struct pfc_config *c)
{
	uint32_t m = pfc_ecn_mask(c);
	int p;

	for (p = 0; p < PFC_PRIOS; p++)
		if ((m >> p) & 1)
			pr_warn("ECN on DCB ports is the hardware's: set its "
				"ECN (WRED) profile of priority %d to min "
				"threshold %llu B, max threshold %llu B, "
				"probability %u %% (see tagger-pfc(8), On each port: ECN)\n",
				p, (unsigned long long)c->ecn_kmin[p],
				(unsigned long long)c->ecn_kmax[p],
				c->ecn_pmax[p]);
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
		r = pfc_dcb_setup(c);
		if (r)
			return r;
		dcb_ecn_note(c);
		return 1;
	}
	for (i = 0; i < c->nports; i++)
		if (strcmp(a->dcb[i], "supported"))
			pr_info("%s: hardware PFC (DCB) %s; software pause\n",
				c->ports[i].ifname, a->dcb[i]);
	return 0;
}

/*
 * The ports' offloads off (GRO, TSO, GSO: off, the byte accounting is
 * exact; pfc_port.h), or the dead agent's record of them kept.
 */
static void offloads_off(struct pfc_agent *a)
{
	struct pfc_config *c = a->cfg;
	int i;

	if (a->old) { /* off already: restore what was there before */
		for (i = 0; i < c->nports; i++)
			a->offloads[i] = (struct pfc_offloads){
				a->old->ports[i].gro, a->old->ports[i].tso,
				a->old->ports[i].gso,
				a->old->ports[i].offloads_saved
			};
		pfc_setup_record(a);
	} else if (!c->keep_offloads) {
		/*
		 * Recorded before they are turned off: killed at any moment
		 * from here on, the next start or `stop` restores them.
		 */
		for (i = 0; i < c->nports; i++)
			pfc_port_offloads(c->ports[i].ifname, PFC_OFFLOADS_READ,
					  &a->offloads[i]);
		pfc_setup_record(a);
		for (i = 0; i < c->nports; i++)
			pfc_port_offloads(c->ports[i].ifname, 1,
					  &a->offloads[i]);
	}
}

/* Port i's egress: the HTB classifier, the egress program, its socket. */
static int port_egress(struct pfc_agent *a, int i)
{
	int ifindex = a->cfg->ports[i].ifindex, r;

	if (!strcmp(a->q.be->name, "htb-tbf")) {
		r = tc_bpf_classifier(
			&a->q.tc, ifindex, PFC_ROOT_HANDLE,
			bpf_program__fd(a->skel->progs.pfc_classify),
			"pfc_classify");
		if (r)
			return r;
	}
	r = pfc_port_attach(ifindex, -1,
			    bpf_program__fd(a->skel->progs.pfc_egress));
	a->attached[i] = true;
	if (r)
		return r;
	a->tx_fd[i] = pfc_sock_open(ifindex, 1, 0);
	if (a->tx_fd[i] < 0)
		return a->tx_fd[i];
	return pfc_sock_join(a->tx_fd[i], ifindex);
}

/* The programs on every port; 0 or -errno after naming the port. */
static int attach_ports(struct pfc_agent *a)
{
	struct pfc_config *c = a->cfg;
	int i, r = 0;

	for (i = 0; i < c->nports; i++) {
		r = port_egress(a, i);
		if (r)
			goto fail;
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
	return 0;
fail:
	p_err("%s: attaching: %s", c->ports[i].ifname, strerror(-r));
	return r;
}

int pfc_setup(struct pfc_agent *a)
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
	offloads_off(a);
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
	r = attach_ports(a);
	if (r)
		return r;
	/* Last: a start that fails before this leaves the sysctl alone. */
	keep_priority();
	return 0;
}

void pfc_teardown(struct pfc_agent *a)
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
	/* The DCB backend's ports as found (none saved: nothing to do). */
	pfc_dcb_restore(c->dir);
}
