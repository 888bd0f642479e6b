/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the order search's files share (order_search.c, the search;
 * order_search_source.c, the ports no path enters from a forwarding
 * predecessor): the search's state, a path's visits of a port, and the
 * small rules both apply.
 *
 * API:
 *   clamp(c), better(a, b), walked(s, x), backward_at(s, v, x)
 *   os_recount(s, v, gap)       counts after v moved to gap, exact
 *   os_build_sources(s)         each port's kind, a source port's
 *                               distinct successors
 *   os_improve_source(s, v)     a source port decided at gap 0: 1 moved,
 *                               0 not, -1 not such a port
 */
#ifndef __TAGGER_ORDER_SEARCH_INT_H
#define __TAGGER_ORDER_SEARCH_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "compile/tag_order.h"

#define NC (TAG_MAX + 1) /* counts above TAG_MAX are clamped */
#define SKIP UINT32_MAX /* a later visit of a path to the same port */
#define MULTI 0x80000000u /* the first visit of a path that comes back */
#define NEAR_CLAMP (NC - 3) /* v's two edges could push a count past it */

/* One visit of a path to a port v. */
struct visit {
	uint32_t path; /* path index (| MULTI), or SKIP */
	int32_t pred; /* in-port before v, -1 if none or v's node forwards not */
	int32_t succ; /* in-port after v, -1 if none or its node forwards not */
};

struct pcount {
	int32_t count; /* backward edges, clamped */
	int32_t cur; /* the sweep's count; base count between passes */
};

struct search {
	const struct tagging *tg;
	int *pos;
	int n;
	int64_t *vstart; /* visits of each in-port (CSR) */
	struct visit *visits;
	struct pcount *pc; /* per path */
	int64_t hist[NC]; /* paths per count */
	uint64_t work;
	/* bucketing events by neighbour: per-port slot and stamp */
	int *slot;
	uint32_t *stamp;
	uint32_t epoch;
	int *nbr; /* distinct neighbours of the port being moved */
	int *first; /* bucket starts, one per neighbour + 1 */
	int nbr_cap;
	struct event *tmp; /* sort_events' scratch */
	int tmp_cap;
	int *at; /* the port at each position, or NULL */
	/* source ports (see os_improve_source): kind, and distinct successors */
	uint8_t *kind;
	int64_t *sstart;
	int *succs;
	int64_t *nsucc; /* visits with a successor */
};

enum port_kind {
	PORT_INNER, /* some path enters it from a forwarding predecessor */
	PORT_SOURCE, /* none does, and no path through it comes back */
	PORT_SOURCE_MULTI, /* none does, but a path through it comes back */
};

static inline int clamp(int c)
{
	return c < NC - 1 ? c : NC - 1;
}

/* Lexicographic: max count first (fewest paths there), then the total. */
static inline int better(const int64_t *a, const int64_t *b)
{
	int64_t ta = 0, tb = 0;
	int c;

	for (c = NC - 1; c >= 0; c--) {
		if (a[c] != b[c])
			return a[c] < b[c];
	}
	for (c = 0; c < NC; c++) {
		ta += c * a[c];
		tb += c * b[c];
	}
	return ta < tb;
}

/* Walked whole: a path that comes back to v, or one near the clamp. */
static inline bool walked(const struct search *s, const struct visit *x)
{
	return (x->path & MULTI) || s->pc[x->path].count >= NEAR_CLAMP;
}

/* Backward edges at v of one visit, with v where it is now. */
static inline int backward_at(const struct search *s, int v,
			      const struct visit *x)
{
	return (x->pred >= 0 && s->pos[x->pred] > s->pos[v]) +
	       (x->succ >= 0 && s->pos[v] > s->pos[x->succ]);
}

void os_recount(struct search *s, int v, int gap);
void os_build_sources(struct search *s);
int os_improve_source(struct search *s, int v);

#endif /* __TAGGER_ORDER_SEARCH_INT_H */
