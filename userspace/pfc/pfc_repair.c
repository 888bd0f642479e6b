// SPDX-License-Identifier: GPL-2.0
/*
 * The agent's repair of the fast path's byte counters: the exact recount
 * (pfc_recount.h), or where it cannot run, the resync of priorities whose
 * queues are all empty. Called from the loop's tick; see pfc_repair.h.
 */
#include <errno.h>

#include "pfc/pfc_agent_int.h"
#include "pfc/pfc_repair.h"
#include "pfc.skel.h"

/*
 * The fallback when the recount (below) cannot run: when every queue that
 * an ingress priority's packets go to is empty, nothing of that priority
 * is buffered any more, and the counters read before the queues were seen
 * empty are taken off (compare-and-swap, so a packet counted since is
 * never lost).
 */
void pfc_agent_resync(struct pfc_agent *a, const uint64_t seen[][PFC_PRIOS])
{
	const struct pfc_config *c = a->cfg;
	int port, p, q;

	for (p = 0; p < PFC_PRIOS; p++) {
		uint32_t mask = a->skel->bss->emap[p] | (1u << p);
		bool empty = true;

		for (port = 0; port < c->nports && empty; port++)
			for (q = 0; q < PFC_PRIOS; q++)
				if (((mask >> q) & 1) &&
				    sp_of(a, port, q)->q_qlen)
					empty = false;
		if (!empty)
			continue;
		for (port = 0; port < c->nports; port++) {
			__u64 b = seen[port][p]; /* the counter's own type */

			if (b &&
			    __atomic_compare_exchange_n(
				    &pp_of(a, port, p)->bytes, &b, 0, false,
				    __ATOMIC_ACQ_REL, __ATOMIC_RELAXED)) {
				sp_of(a, port, p)->resynced += seen[port][p];
				a->st->resyncs++;
			}
		}
	}
}

/*
 * Lower each (in-port, priority) counter to its exact recount
 * where the fast path left bytes behind (see pfc_recount.h). The counters
 * are read after the queue statistics and before the totals, so the
 * recount can only be above the truth; compare-and-swap, so a packet
 * counted meanwhile is never lost. Returns -EAGAIN if it could not run.
 */
int pfc_agent_recount(struct pfc_agent *a)
{
	static uint64_t target[PFC_MAX_PORTS][PFC_PRIOS];
	static struct pfc_qsnap qs[PFC_MAX_PORTS][PFC_PRIOS];
	uint64_t b[PFC_MAX_PORTS][PFC_PRIOS];
	const struct pfc_config *c = a->cfg;
	int port, p;

	for (port = 0; port < c->nports; port++) {
		for (p = 0; p < PFC_PRIOS; p++) {
			struct pfc_state_prio *sp = sp_of(a, port, p);

			qs[port][p].done = sp->q_packets + sp->q_drops;
			qs[port][p].qlen = sp->q_qlen;
		}
	}
	for (port = 0; port < c->nports; port++)
		for (p = 0; p < PFC_PRIOS; p++)
			b[port][p] = __atomic_load_n(&pp_of(a, port, p)->bytes,
						     __ATOMIC_ACQUIRE);
	if (pfc_recount_targets(&a->rc, a->pp, a->ring,
				(const struct pfc_qsnap(*)[PFC_PRIOS])qs,
				c->nports, target))
		return -EAGAIN;
	for (port = 0; port < c->nports; port++) {
		for (p = 0; p < PFC_PRIOS; p++) {
			__u64 v = b[port][p]; /* the counter's own type */

			if (v <= target[port][p])
				continue;
			if (__atomic_compare_exchange_n(
				    &pp_of(a, port, p)->bytes, &v,
				    target[port][p], false, __ATOMIC_ACQ_REL,
				    __ATOMIC_RELAXED)) {
				sp_of(a, port, p)->resynced +=
					b[port][p] - target[port][p];
				a->st->resyncs++;
			}
		}
	}
	return 0;
}
