/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Rule table lookups of the switch port programs.
 *
 * API:
 *   tagger_cur_slot()                 slot (generation) new packets use
 *   tagger_table(slot)                that slot's rule table, or NULL
 *   tagger_lookup(tbl, kind, in, out, dscp)
 *   tagger_port(tbl, ifindex)         the port entry: slot, lossy tag/prio
 */
#ifndef __TAGGER_LIB_RULES_H
#define __TAGGER_LIB_RULES_H

#include "port_maps.h"

static __always_inline __u32 tagger_cur_slot(void)
{
	__u32 zero = 0, *g = bpf_map_lookup_elem(&TAGGER_GEN, &zero);

	return g ? *g & (TAGGER_RULE_SLOTS - 1) : 0;
}

static __always_inline void *tagger_table(__u32 slot)
{
	return bpf_map_lookup_elem(&TAGGER_RULES_OUTER, &slot);
}

static __always_inline struct tagger_rule_val *
tagger_lookup(void *tbl, __u8 kind, __u32 in, __u32 out, __u8 dscp)
{
	struct tagger_rule_key k = {
		.in_ifindex = in,
		.out_ifindex = out,
		.kind = kind,
		.dscp = dscp,
	};

	return bpf_map_lookup_elem(tbl, &k);
}

static __always_inline struct tagger_rule_val *tagger_port(void *tbl,
							   __u32 ifindex)
{
	if (!tbl)
		return NULL;
	return tagger_lookup(tbl, TAGGER_KIND_PORT, ifindex, 0, 0);
}

#endif /* __TAGGER_LIB_RULES_H */
