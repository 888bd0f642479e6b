// SPDX-License-Identifier: GPL-2.0
/* Ports with the same flower lists; see flower_share.h. */
#include "model/flower_share.h"

/* Field by field: the structs' padding is not the lists' business. */
static bool filter_equal(const struct flower_filter *a,
			 const struct flower_filter *b)
{
	return a->chain == b->chain && a->act == b->act &&
	       a->goto_chain == b->goto_chain && a->group == b->group &&
	       a->qinq == b->qinq && a->dscp == b->dscp &&
	       a->indev == b->indev && a->new_dscp == b->new_dscp &&
	       a->prio == b->prio && a->reason == b->reason;
}

bool flower_list_equal(const struct flower_list *a, const struct flower_list *b)
{
	int i;

	if (a->n != b->n)
		return false;
	for (i = 0; i < a->n; i++)
		if (!filter_equal(&a->f[i], &b->f[i]))
			return false;
	return true;
}

static const struct flower_list *list_of(const struct flower_port *fp,
					 bool egress)
{
	return egress ? &fp->out : &fp->in;
}

/* O(n^2) list compares: a switch has tens of ports, not thousands. */
int flower_share(const struct flower_port *fp, int n, bool egress, int first,
		 int *rep)
{
	int p, q, groups = 0;

	for (p = 0; p < n; p++)
		rep[p] = -1;
	for (p = first < 0 ? 0 : first; p < n; p++) {
		if (rep[p] >= 0)
			continue;
		for (q = p + 1; q < n; q++)
			if (rep[q] < 0 &&
			    flower_list_equal(list_of(&fp[p], egress),
					      list_of(&fp[q], egress)))
				rep[q] = p;
		for (q = p + 1; q < n && rep[p] < 0; q++)
			if (rep[q] == p)
				rep[p] = p;
		groups += rep[p] == p;
	}
	return groups;
}

long flower_share_entries(const struct flower_port *fp, int n, bool egress,
			  const int *rep)
{
	long e = 0;
	int p;

	for (p = 0; p < n; p++)
		if (rep[p] < 0 || rep[p] == p)
			e += flower_list_entries(list_of(&fp[p], egress));
	return e;
}
