// SPDX-License-Identifier: GPL-2.0
/* What a dead agent left: adopted, or removed; see pfc_adopt.h. */
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/log.h"
#include "lib/util.h"
#include "pfc/pfc_adopt.h"
#include "pfc/pfc_backend.h"
#include "pfc/pfc_dcb_ports.h"
#include "pfc/pfc_ident.h"
#include "pfc/pfc_port.h"
#include "pfc/pfc_tc.h"
#include "pfc.skel.h"

static struct bpf_map *map_n(struct pfc_bpf *s, int i)
{
	struct bpf_map *m[PFC_ADOPT_MAPS] = { s->maps.ports, s->maps.pp,
					      s->maps.ring, s->maps.events };

	return m[i];
}

void pfc_map_ids(struct pfc_bpf *s, uint32_t ids[PFC_ADOPT_MAPS])
{
	int i;

	for (i = 0; i < PFC_ADOPT_MAPS; i++) {
		struct bpf_map_info info = { 0 };
		uint32_t len = sizeof(info);

		ids[i] = bpf_obj_get_info_by_fd(bpf_map__fd(map_n(s, i)), &info,
						&len) ?
				 0 :
				 info.id;
	}
}

/* The settings the queues were built with must be the ones asked for. */
static bool same_queues(const struct pfc_state *old, const struct pfc_config *c)
{
	int i;

	if (old->nports != (uint32_t)c->nports ||
	    old->lossless_mask != c->lossless_mask ||
	    old->lossless_limit != c->lossless_limit ||
	    old->lossy_limit != c->lossy_limit || old->sched != c->sched ||
	    old->frame != c->frame)
		return false;
	for (i = 0; i < c->nports; i++)
		if (old->ports[i].ifindex != c->ports[i].ifindex ||
		    strcmp(old->ports[i].ifname, c->ports[i].ifname) ||
		    strcmp(old->ports[i].name, c->ports[i].name) ||
		    old->ports[i].rate_bps != pfc_port_rate(c, i))
			return false;
	return true;
}

struct seen {
	const struct pfc_state *old;
	int gates;
};

static void count_gate(const struct tc_qstats *s, void *arg)
{
	struct seen *x = arg;
	uint32_t i;

	for (i = 0; i < x->old->nports; i++)
		if (s->ifindex == x->old->ports[i].ifindex &&
		    s->handle == PFC_GATE_HANDLE(0))
			x->gates++;
}

static int gates_on(const struct pfc_state *st)
{
	struct seen x = { st, 0 };
	struct tc tc;

	if (tc_open(&tc))
		return 0;
	tc_qdisc_stats(&tc, count_gate, &x);
	tc_close(&tc);
	return x.gates;
}

/* Every port still has the dead agent's queues. */
static bool queues_there(const struct pfc_state *old)
{
	return gates_on(old) == (int)old->nports;
}

int pfc_ports_taken(const struct pfc_config *c)
{
	struct pfc_state *st = calloc(1, sizeof(*st));
	int i, n;

	if (!st)
		return -1;
	for (i = 0; i < c->nports; i++) {
		st->nports = 1;
		st->ports[0].ifindex = c->ports[i].ifindex;
		n = gates_on(st);
		if (n) {
			free(st);
			return i;
		}
	}
	free(st);
	return -1;
}

int pfc_adopt_prepare(const struct pfc_state *old, const struct pfc_config *c,
		      int fds[PFC_ADOPT_MAPS], const char **why)
{
	int i;

	for (i = 0; i < PFC_ADOPT_MAPS; i++)
		fds[i] = -1;
	if (old->stopping) {
		*why = "it died setting up or removing its queues";
		return -EINVAL;
	}
	if (strcmp(old->backend, "htb-tbf") &&
	    strcmp(old->backend, "mqprio-plug")) {
		*why = "it did not run a software pause";
		return -EINVAL;
	}
	if (!same_queues(old, c)) {
		*why = "its ports or queue settings differ from these";
		return -EINVAL;
	}
	if (!queues_there(old)) {
		*why = "its queues are gone";
		return -ENOENT;
	}
	for (i = 0; i < PFC_ADOPT_MAPS; i++) {
		fds[i] = old->map_ids[i] ?
				 bpf_map_get_fd_by_id(old->map_ids[i]) :
				 -1;
		if (fds[i] < 0) {
			*why = "its maps are gone";
			while (i-- > 0)
				close(fds[i]);
			fds[0] = -1;
			return -ENOENT;
		}
	}
	return 0;
}

/* libbpf checks that type, sizes and flags match the program's map. */
int pfc_adopt_maps(struct pfc_bpf *s, int fds[PFC_ADOPT_MAPS])
{
	int i, r = 0;

	for (i = 0; i < PFC_ADOPT_MAPS; i++) {
		if (!r && fds[i] >= 0)
			r = bpf_map__reuse_fd(map_n(s, i), fds[i]);
		if (fds[i] >= 0)
			close(fds[i]);
		fds[i] = -1;
	}
	return r;
}

/*
 * The state's own counters and the pause machinery's state; what comes
 * from the maps is read again at the first tick, the settings are new.
 */
void pfc_adopt_counters(struct pfc_state *st, const struct pfc_state *old)
{
	uint32_t i;

	for (i = 0; i < st->nports; i++) {
		memcpy(st->ports[i].prio, old->ports[i].prio,
		       sizeof(st->ports[i].prio));
		st->ports[i].gro = old->ports[i].gro;
		st->ports[i].tso = old->ports[i].tso;
		st->ports[i].gso = old->ports[i].gso;
		st->ports[i].offloads_saved = old->ports[i].offloads_saved;
	}
	for (i = 0; i < st->nports; i++) {
		uint32_t p;

		/* Storms go on; the settings are the new agent's. */
		for (p = 0; p < PFC_PRIOS; p++) {
			struct pfc_state_wd *w = &st->wd[i][p];
			const struct pfc_state_wd *o = &old->wd[i][p];

			w->storm = o->storm;
			w->start_rt = o->start_rt;
			w->end_rt = o->end_rt;
			w->flushed = o->flushed;
			w->rx_drops = o->rx_drops;
		}
	}
	st->brs = old->brs; /* in force in the maps: the tick sees brs_req */
	st->wd_events = old->wd_events;
	st->events_lost = old->events_lost;
	st->resyncs = old->resyncs;
	st->takeovers = old->takeovers;
	st->adoptions = old->adoptions + 1;
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
 * crash, kill -9): adopt it, or remove it before starting, in this
 * namespace only. A record of another namespace is refused while that
 * namespace exists.
 */
int pfc_adopt_previous(const struct pfc_config *c, const struct pfc_netns *self,
		       int fds[PFC_ADOPT_MAPS], struct pfc_state **adopt,
		       struct pfc_state **left)
{
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
	if (!pfc_netns_eq(&ns, self)) {
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
	if (!pfc_adopt_prepare(old, c, fds, &why)) {
		pr_warn("node %s: the previous agent (pid %u) died without "
			"stopping; adopting its queues and counters\n",
			c->node, old->pid);
		*adopt = old;
		return 0;
	}
	pr_warn("node %s: the previous agent (pid %u) died without stopping; "
		"not adopting (%s): removing what it left on its ports\n",
		c->node, old->pid, why);
	had = leftovers_of(old);
	pfc_leftovers_remove(old);
	pfc_dcb_restore(c->dir); /* its DCB ports as it found them */
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
void pfc_leftovers_carry(struct pfc_state *st, const struct pfc_config *c,
			 const struct pfc_state *left)
{
	uint32_t i, p;
	int j;

	if (!left)
		return;
	pfc_state_begin(st);
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
			st->ports[j].prio[p].leftover_drops +=
				lp->prio[p].leftover_drops;
		}
	}
	pfc_state_end(st);
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

	/* The DCB backend made no queues: the root qdisc is not its. */
	for (i = 0; strcmp(st->backend, "dcb") && i < (int)st->nports &&
		    i < PFC_MAX_PORTS;
	     i++) {
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
