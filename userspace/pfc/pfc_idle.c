// SPDX-License-Identifier: GPL-2.0
/* An idle agent sleeps without a timer; see pfc_idle.h. */
#include <stdint.h>

#include "pfc/pfc_agent_int.h"
#include "pfc/pfc_idle.h"
#include "pfc.skel.h"

/* Packets counted at ingress so far, or UINT64_MAX if anything is held. */
static uint64_t counted(struct pfc_agent *a)
{
	uint64_t sum = 0;
	int port, p;

	for (port = 0; port < a->cfg->nports; port++) {
		for (p = 0; p < PFC_PRIOS; p++) {
			struct pfc_pp *c = pp_of(a, port, p);

			if (__atomic_load_n(&c->bytes, __ATOMIC_SEQ_CST) ||
			    __atomic_load_n(&c->xoff, __ATOMIC_SEQ_CST))
				return UINT64_MAX;
			sum += __atomic_load_n(&c->pkts, __ATOMIC_SEQ_CST);
		}
	}
	return sum;
}

/* Nothing in force that a timer or the tick must end or refresh. */
static bool nothing_pending(struct pfc_agent *a)
{
	int port, p;

	if (a->polling)
		return false;
	for (port = 0; port < a->cfg->nports; port++) {
		if (a->refresh_at[port])
			return false;
		for (p = 0; p < PFC_PRIOS; p++) {
			const struct pfc_pause_gate *g = &a->gate[port][p];

			if (a->sent[port][p] || g->closed || g->ignoring ||
			    sp_of(a, port, p)->q_qlen)
				return false;
		}
	}
	return true;
}

void pfc_idle_tick(struct pfc_agent *a)
{
	uint64_t n = counted(a);

	if (n != UINT64_MAX && n == a->idle_pkts && nothing_pending(a)) {
		if (a->quiet_ticks < PFC_IDLE_TICKS)
			a->quiet_ticks++;
	} else {
		a->quiet_ticks = 0;
	}
	a->idle_pkts = n;
	a->st->ticks++;
}

bool pfc_idle_enter(struct pfc_agent *a)
{
	uint32_t *flag = &a->skel->bss->agent_asleep;

	if (a->asleep)
		return true;
	if (a->quiet_ticks < PFC_IDLE_TICKS || !nothing_pending(a))
		return false;
	__atomic_store_n(flag, 1, __ATOMIC_SEQ_CST);
	if (counted(a) != a->idle_pkts) {
		/* A packet came since the tick: stay awake. */
		__atomic_store_n(flag, 0, __ATOMIC_SEQ_CST);
		a->quiet_ticks = 0;
		return false;
	}
	a->asleep = true;
	a->tick_at = UINT64_MAX;
	a->st->asleep = 1;
	return true;
}

void pfc_idle_leave(struct pfc_agent *a)
{
	__atomic_store_n(&a->skel->bss->agent_asleep, 0, __ATOMIC_SEQ_CST);
	if (!a->asleep)
		return;
	a->asleep = false;
	a->st->asleep = 0;
	a->st->sleeps++;
	a->tick_at = 0;
}
