/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Rule table lookups of the switch port programs. Every map here is an
 * array, so the verifier inlines each lookup (a bounds check and an add).
 *
 * API:
 *   tagger_slot(ifindex)              the port slot of an interface, 0 if none
 *   tagger_cur_slot()                 table slot new packets use
 *   tagger_table(slot)                that slot's rule table, or NULL
 *   tagger_entry(tbl, idx)            an entry (tagger_*_index), or NULL
 *   tagger_cnp(tbl, dscp)             the CNP class's entry if dscp is its
 *                                     DSCP, else NULL
 */
#ifndef __TAGGER_LIB_RULES_H
#define __TAGGER_LIB_RULES_H

#include "port_maps.h"

static __always_inline __u32 tagger_slot(__u32 ifindex)
{
	__u32 *s = bpf_map_lookup_elem(&TAGGER_IFSLOT, &ifindex);

	return s ? *s : 0;
}

static __always_inline __u32 tagger_cur_slot(void)
{
	__u32 zero = 0, *g = bpf_map_lookup_elem(&TAGGER_GEN, &zero);

	return g ? *g & (TAGGER_RULE_SLOTS - 1) : 0;
}

static __always_inline void *tagger_table(__u32 slot)
{
	return bpf_map_lookup_elem(&TAGGER_RULES_OUTER, &slot);
}

static __always_inline struct tagger_rule_val *tagger_entry(void *tbl,
							    __u32 idx)
{
	return bpf_map_lookup_elem(tbl, &idx);
}

static __always_inline struct tagger_rule_val *tagger_cnp(void *tbl, __u32 dscp)
{
	struct tagger_rule_val *c = tagger_entry(tbl, TAGGER_CNP_ENTRY);

	return c && (c->flags & TAGGER_F_CNP) && c->dscp == dscp ? c : NULL;
}

#endif /* __TAGGER_LIB_RULES_H */
