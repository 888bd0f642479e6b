// SPDX-License-Identifier: GPL-2.0
/* Exact recount of the (in-port, priority) buffers; see pfc_recount.h. */
#include <errno.h>
#include <string.h>

#include "pfc/pfc_recount.h"

/* Shared with BPF programs running on other CPUs. */
#define load(v) ((uint64_t)__atomic_load_n((v), __ATOMIC_ACQUIRE))

void pfc_recount_mark(struct pfc_recount *rc, const struct pfc_pp *pp,
		      int nports)
{
	int port, q;

	for (port = 0; port < nports; port++)
		for (q = 0; q < PFC_PRIOS; q++)
			rc->head0[port][q] =
				load(&pp[PFC_SLOT(port, q)].ring_head);
}

/*
 * An empty queue has sent or dropped everything logged before head0, so
 * the log and the qdisc differ by head0 - done. A packet between the log
 * and the qdisc at that moment would make this one too big, hence two
 * agreeing measurements before the offset is used.
 */
static void observe(struct pfc_recount *rc, int port, int q, uint64_t done)
{
	int64_t off = (int64_t)(rc->head0[port][q] - done);

	if (rc->seen[port][q] && rc->candidate[port][q] == off) {
		rc->offset[port][q] = off;
		rc->seen[port][q] = 2;
		return;
	}
	rc->candidate[port][q] = off;
	if (!rc->seen[port][q])
		rc->seen[port][q] = 1;
}

/* Add the logged packets still in queue (port, q) to target[][]. */
static int queued(const struct pfc_recount *rc, const struct pfc_pp *pp,
		  const uint64_t *ring, const struct pfc_qsnap *s, int port,
		  int q, int nports, uint64_t target[][PFC_PRIOS])
{
	uint64_t from, to, idx, e;
	uint32_t in;

	if (rc->seen[port][q] != 2)
		return -EAGAIN;
	from = s->done + (uint64_t)rc->offset[port][q];
	to = load(&pp[PFC_SLOT(port, q)].ring_head);
	if ((int64_t)(to - from) <= 0)
		return 0;
	if (to - from > PFC_RING)
		return -EAGAIN; /* more queued than the log holds */
	for (idx = from; idx != to; idx++) {
		e = load(&ring[PFC_RING_SLOT(port, q, idx)]);
		if (PFC_RE_IDX_TAG(e) != PFC_RE_TAG(idx))
			return -EAGAIN; /* being written */
		in = PFC_RE_SLOT(e);
		if (in < (uint32_t)nports)
			target[in][PFC_RE_PRIO(e)] += PFC_RE_LEN(e);
	}
	return 0;
}

int pfc_recount_targets(struct pfc_recount *rc, const struct pfc_pp *pp,
			const uint64_t *ring,
			const struct pfc_qsnap qs[][PFC_PRIOS], int nports,
			uint64_t target[][PFC_PRIOS])
{
	int port, p, r = 0;

	for (port = 0; port < nports; port++)
		for (p = 0; p < PFC_PRIOS; p++)
			if (!qs[port][p].qlen)
				observe(rc, port, p, qs[port][p].done);
	/* In the stack: totals read after the counters (see the header). */
	for (port = 0; port < nports; port++) {
		for (p = 0; p < PFC_PRIOS; p++) {
			const struct pfc_pp *c = &pp[PFC_SLOT(port, p)];
			uint64_t drop = load(&c->early_drop_bytes);
			uint64_t out = load(&c->queued_bytes);
			uint64_t in = load(&c->in_bytes);

			target[port][p] =
				in >= out + drop ? in - out - drop : 0;
		}
	}
	for (port = 0; port < nports && !r; port++)
		for (p = 0; p < PFC_PRIOS && !r; p++)
			r = queued(rc, pp, ring, &qs[port][p], port, p, nports,
				   target);
	return r;
}
