/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Rule tables of a switch's port programs: the rules of one switch,
 * wildcards expanded into exact (port, tag) and (tag, in, out) entries
 * (most specific rule wins, as rules.h answers), keyed by interface index
 * as bpf/tagger_maps.h lays out. A table is a fresh BPF hash map; it goes
 * live by one write into the outer map and a flip of the generation.
 *
 * API:
 *   struct dp_port               a rules port and the interface it runs on
 *   dp_table_build(r, sw, ports, &tab)   expand into tab (no kernel calls)
 *   dp_table_create(&tab)        new BPF hash map holding tab, its fd or -errno
 *   dp_table_install(outer, gen, fd, first)   put fd in the other slot and
 *                                flip the generation (first: slot 0, gen 0);
 *                                returns the new generation or -errno
 *   dp_table_free(&tab)
 */
#ifndef __TAGGER_DP_TABLE_H
#define __TAGGER_DP_TABLE_H

#include <stddef.h>
#include <stdint.h>

#include "rules.h"
#include "tagger_maps.h"

struct dp_port {
	char *name;		/* the port as the rules name it */
	char *ifname;		/* the local interface */
	int ifindex;
	int slot;		/* counter slot, 1..TAGGER_MAX_PORTS-1 */
};

struct dp_table {
	struct tagger_rule_key *keys;
	struct tagger_rule_val *vals;
	size_t n, cap;
	size_t nclassify, nrewrite;	/* lossless entries of each kind */
};

void dp_table_build(const struct rules *r, int sw, const struct dp_port *ports,
		    struct dp_table *tab);
int dp_table_create(const struct dp_table *tab);
int64_t dp_table_install(int outer_fd, int gen_fd, int inner_fd, int first);
void dp_table_free(struct dp_table *tab);

#endif /* __TAGGER_DP_TABLE_H */
