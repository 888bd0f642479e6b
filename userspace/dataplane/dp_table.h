/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Rule tables of a switch's port programs: the rules of one switch,
 * wildcards expanded into exact (in port, tag) and (tag, in, out) entries
 * (most specific rule wins, as rules.h answers), placed at the array
 * indexes bpf/tagger_maps.h defines. A table is a fresh mmapable BPF array
 * written in place; it goes live by one write into the outer map and a bump
 * of the generation.
 *
 * API:
 *   struct dp_port               a rules port and the interface it runs on
 *   dp_prepare(skel, nports)     size the program's tables and counters
 *                                for nports ports (before load); returns
 *                                an fd to close after load, or -errno
 *   dp_ifslots_set(fd, ports, n) fill TAGGER_IFSLOT; -errno
 *   dp_table_build(r, sw, ports, &tab)   expand into tab (no kernel calls)
 *   dp_table_create(&tab)        new BPF array holding tab, its fd or -errno
 *   dp_table_install(outer, gen, fd, first)   put fd in the idle slot and
 *                                bump the generation (first: slot 0, gen 0);
 *                                returns the new generation or -errno
 *   dp_table_stage(outer, gen, fd, first)   only the first half: fd in the
 *                                idle slot; the generation to go to
 *   dp_table_next(gen)           the generation after the running one, or
 *                                -errno
 *   dp_table_put(outer, next, fd)   fd in generation next's slot; -errno
 *   dp_table_go(gen, next)       the second: new packets use it; -errno
 *   dp_table_gen(dir)            the generation the programs of the node
 *                                pinned in dir run (its pinned TAGGER_GEN),
 *                                or -1
 *   dp_table_free(&tab)
 */
#ifndef __TAGGER_DP_TABLE_H
#define __TAGGER_DP_TABLE_H

#include <stddef.h>
#include <stdint.h>

#include "model/rules.h"
#include "tagger_maps.h"

struct tagger_port_bpf;

struct dp_port {
	char *name; /* the port as the rules name it */
	char *ifname; /* the local interface */
	int ifindex;
	int slot; /* 1..nports, in rules order */
};

struct dp_table {
	uint32_t *idx;
	struct tagger_rule_val *vals;
	size_t n, cap;
	size_t nclassify, nrewrite; /* lossless entries of each kind */
	uint32_t nslots; /* ports + 1 */
	uint32_t size; /* tagger_table_size(nslots) */
};

int dp_prepare(struct tagger_port_bpf *skel, int nports);
int dp_ifslots_set(int fd, const struct dp_port *ports, int n);
void dp_table_build(const struct rules *r, int sw, const struct dp_port *ports,
		    struct dp_table *tab);
int dp_table_create(const struct dp_table *tab);
int64_t dp_table_install(int outer_fd, int gen_fd, int inner_fd, int first);
int64_t dp_table_stage(int outer_fd, int gen_fd, int inner_fd, int first);
int64_t dp_table_next(int gen_fd);
int dp_table_put(int outer_fd, int64_t next, int inner_fd);
int dp_table_go(int gen_fd, int64_t next);
int64_t dp_table_gen(const char *dir);
void dp_table_free(struct dp_table *tab);

#endif /* __TAGGER_DP_TABLE_H */
