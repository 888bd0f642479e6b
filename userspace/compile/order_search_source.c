// SPDX-License-Identifier: GPL-2.0
/*
 * The order search's source ports: ports no path enters from a forwarding
 * predecessor (an edge switch's port facing a host), decided without
 * sorting their events; see order_search_int.h.
 */
#include <stdlib.h>
#include <string.h>

#include "compile/order_search_int.h"
#include "lib/util.h"

/*
 * What os_improve_source() needs of a port without the port's visits: its
 * kind, and for a source port the distinct in-ports its paths enter next
 * (an edge switch's host port has a few, against thousands of visits).
 */
void os_build_sources(struct search *s)
{
	int v, nsuccs = 0, cap = 0;
	int64_t k;

	s->kind = xmalloc(s->n + 1);
	s->sstart = xmalloc((s->n + 1) * sizeof(int64_t));
	s->nsucc = xcalloc(s->n + 1, sizeof(int64_t));
	s->succs = NULL;
	s->stamp = xcalloc(s->n + 1, sizeof(uint32_t));
	s->epoch = 1;
	for (v = 0; v < s->n; v++, s->epoch++) {
		s->sstart[v] = nsuccs;
		s->kind[v] = PORT_SOURCE;
		for (k = s->vstart[v]; k < s->vstart[v + 1]; k++) {
			const struct visit *x = &s->visits[k];

			if (x->path != SKIP && x->pred >= 0) {
				s->kind[v] = PORT_INNER;
				break;
			}
			if (x->path == SKIP || (x->path & MULTI))
				s->kind[v] = PORT_SOURCE_MULTI;
			if (x->succ < 0)
				continue;
			s->nsucc[v]++;
			if (s->stamp[x->succ] == s->epoch)
				continue;
			s->stamp[x->succ] = s->epoch;
			VEC_PUSH(s->succs, nsuccs, cap, x->succ);
		}
		if (s->kind[v] != PORT_SOURCE)
			nsuccs = (int)s->sstart[v];
	}
	s->sstart[s->n] = nsuccs;
	/* sort_events() starts its epochs afresh */
	memset(s->stamp, 0, (s->n + 1) * sizeof(uint32_t));
	s->epoch = 0;
}

/*
 * A port no path enters it through a forwarding predecessor (the port of
 * an edge switch that faces a host, say): its events are all +1, each
 * only worsening the counts, so of all gaps only gap 0 can be the best,
 * and improve() would sort and sweep them to find just that. Decided
 * here from the counts at gap 0, with the same work counted; -1 if v
 * is not such a port (a path with a predecessor at v, or walked whole).
 */
int os_improve_source(struct search *s, int v)
{
	int64_t h[NC], k, n = 0;
	int c;

	if (s->kind[v] == PORT_INNER)
		return -1;
	for (c = NEAR_CLAMP; c < NC && !s->hist[c]; c++)
		;
	/*
	 * No visit walked whole (no path comes back to v, none is near the
	 * clamp): each visit's count drops by one at gap 0 exactly where v
	 * is now after its successor, and any drop makes the histogram
	 * better (its highest changed count loses paths). So the answer is
	 * whether v is after one of its successors, without the visits.
	 */
	if (s->kind[v] == PORT_SOURCE && c == NC) {
		if (!s->nsucc[v])
			return 0;
		s->work += s->nsucc[v];
		for (k = s->sstart[v]; k < s->sstart[v + 1]; k++)
			if (s->pos[s->succs[k]] < s->pos[v])
				break;
		if (k == s->sstart[v + 1])
			return 0;
		os_recount(s, v, 0);
		return 1;
	}
	for (k = s->vstart[v]; k < s->vstart[v + 1]; k++) {
		const struct visit *x = &s->visits[k];

		if (x->path == SKIP)
			continue;
		if (x->pred >= 0 || walked(s, x))
			return -1;
		n += x->succ >= 0;
	}
	if (!n)
		return 0;
	s->work += n;
	memcpy(h, s->hist, sizeof(h));
	for (k = s->vstart[v]; k < s->vstart[v + 1]; k++) {
		const struct visit *x = &s->visits[k];
		struct pcount *pc;

		if (x->path == SKIP)
			continue;
		pc = &s->pc[x->path];
		h[pc->count]--;
		h[clamp(pc->count - backward_at(s, v, x))]++;
	}
	if (!better(h, s->hist))
		return 0;
	os_recount(s, v, 0);
	return 1;
}
