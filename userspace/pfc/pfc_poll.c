// SPDX-License-Identifier: GPL-2.0
/* When the agent polls for a resume instead of sleeping; see pfc_poll.h. */
#include "pfc/pfc_poll.h"

void pfc_expect_begin(struct pfc_expect *e, uint64_t ts)
{
	if (!e->since) {
		e->since = ts ? ts : 1;
		e->hint = 0;
	}
}

void pfc_expect_end(struct pfc_expect *e, uint64_t ts)
{
	if (e->since && ts >= e->since) {
		e->len[e->next] = ts - e->since;
		e->next = (e->next + 1) % PFC_EXPECT_HIST;
		if (e->n < PFC_EXPECT_HIST)
			e->n++;
	}
	e->since = 0;
}

void pfc_expect_cancel(struct pfc_expect *e)
{
	e->since = 0;
}

void pfc_expect_hint(struct pfc_expect *e, uint64_t now)
{
	if (e->since && !e->hint)
		e->hint = now ? now : 1;
}

/*
 * The window opens a quarter of the budget before the shortest recent
 * episode would end (the timer that starts it is itself a wake-up, which
 * may come late) and lasts the budget; a hint that the end is near opens
 * it at once, unless it is open already. Nothing is known of a queue's
 * first episode: no window, unless hinted.
 */
bool pfc_expect_window(const struct pfc_expect *e, uint64_t budget_ns,
		       uint64_t *from, uint64_t *to)
{
	uint64_t shortest = UINT64_MAX, lead = budget_ns / 4;
	unsigned int i;

	if (!e->since || !budget_ns || (!e->n && !e->hint))
		return false;
	for (i = 0; i < e->n; i++)
		if (e->len[i] < shortest)
			shortest = e->len[i];
	*from = e->n ? e->since + (shortest > lead ? shortest - lead : 0) :
		       UINT64_MAX;
	*to = *from + budget_ns;
	if (e->hint && (e->hint < *from || e->hint >= *to)) {
		*from = e->hint; /* before the learned window, or after it */
		*to = e->hint + budget_ns;
	}
	return true;
}
