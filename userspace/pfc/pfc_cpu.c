// SPDX-License-Identifier: GPL-2.0
/* Polling away from the draining CPU; see pfc_cpu.h. */
#include <sched.h>

#include "pfc/pfc_cpu.h"

bool pfc_cpu_away(const cpu_set_t *allowed, int drain, int cur, cpu_set_t *out)
{
	if (drain < 0 || drain >= CPU_SETSIZE || drain != cur ||
	    !CPU_ISSET(drain, allowed) || CPU_COUNT(allowed) < 2)
		return false;
	*out = *allowed;
	CPU_CLR(drain, out);
	return true;
}

int pfc_cpu_avoid(struct pfc_cpu *c, int drain)
{
	cpu_set_t set, out;

	if (drain < 0 || sched_getcpu() != drain)
		return -1;
	/* Moved already in this span: from the set it began with. */
	if (c->away)
		set = c->allowed;
	else if (sched_getaffinity(0, sizeof(set), &set) < 0)
		return -1;
	if (!pfc_cpu_away(&set, drain, drain, &out) ||
	    sched_setaffinity(0, sizeof(out), &out) < 0)
		return -1;
	c->allowed = set;
	c->set = out;
	c->away = true;
	c->moves++;
	return drain;
}

void pfc_cpu_restore(struct pfc_cpu *c)
{
	cpu_set_t now;

	if (!c->away)
		return;
	c->away = false;
	/* Someone else set it meanwhile: theirs stands. */
	if (sched_getaffinity(0, sizeof(now), &now) < 0 ||
	    !CPU_EQUAL(&now, &c->set))
		return;
	/* A superset: the scheduler does not move a running task for it. */
	sched_setaffinity(0, sizeof(c->allowed), &c->allowed);
}
