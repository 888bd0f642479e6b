// SPDX-License-Identifier: GPL-2.0
/* Adopting a dead agent's queues and maps; see pfc_adopt.h. */
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pfc/pfc_adopt.h"
#include "pfc/pfc_backend.h"
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
	st->wd_events = old->wd_events;
	st->events_lost = old->events_lost;
	st->resyncs = old->resyncs;
	st->takeovers = old->takeovers;
	st->adoptions = old->adoptions + 1;
}
