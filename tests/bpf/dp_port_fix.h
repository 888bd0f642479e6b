/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The switch port program's fixture for the suites of tests/bpf: switch S
 * of rules_json on ports "a" and "b", loaded without pins (setup, a
 * checked fixture; nothing without root), packets run through it, its
 * counters read back. Rule tables come from a rules JSON through the
 * loader's own code (rules_from_json + dp_table_build/create/install).
 *
 * Ports: "a" is ifindex 1 (IF_LO, the device the program runs on), "b"
 * is ifindex 7 (only ever the ingress port seen from egress, which needs
 * no device). Loading is dp_load.h's.
 *
 * API:
 *   rules_json, rules2_json        switch S, and S with 10 rewritten to 30
 *   setup(), teardown()            the fixture: skel loaded, rules_json in
 *   rules_str(s)                   rules from JSON text, asserted
 *   table_from(json, &tab)         switch S's table of a rules JSON
 *   install(json, first)           that table installed in skel
 *   ingress(&pkt), egress(&pkt, mark)   one packet through a port program
 *   counter(slot, dir, dscp, lossless), lossy(slot, reason),
 *   port_stat(slot, off)           the counters, summed over the CPUs
 *   PORT_STAT(slot, field)         port_stat() of a tagger_port_stats field
 *   percpu_sum(m, idx, off)        one per-CPU field, summed
 */
#ifndef __TAGGER_TESTS_DP_PORT_FIX_H
#define __TAGGER_TESTS_DP_PORT_FIX_H

#include <check.h>
#include <stddef.h>
#include <stdlib.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "dp_load.h"
#include "dp_pkt.h"
#include "dp_run.h"
#include "dataplane/dp_table.h"
#include "tagger_port.skel.h"
#include "tagger_skb.h"

#define IF_A IF_LO
#define IF_B 7
#define SLOT_A 1
#define SLOT_B 2

static const char *const rules_json __attribute__((unused)) =
	"{\"format\":\"tagger-rules/1\",\"lossy\":{\"tag\":0,\"priority\":0},"
	"\"tags\":[{\"tag\":10,\"priority\":3},{\"tag\":20,\"priority\":4},"
	"{\"tag\":30,\"priority\":5}],"
	"\"hosts\":{\"h1\":{\"tag\":10}},"
	"\"switches\":{\"S\":{\"ports\":[\"a\",\"b\"],"
	"\"classify\":[{\"in\":\"a\",\"tag\":10,\"priority\":3},"
	"{\"in\":\"*\",\"tag\":20,\"priority\":4}],"
	"\"rewrite\":[{\"tag\":10,\"in\":\"b\",\"out\":\"a\",\"new_tag\":20},"
	"{\"tag\":20,\"in\":\"*\",\"out\":\"*\",\"new_tag\":30},"
	"{\"tag\":20,\"in\":\"b\",\"out\":\"a\",\"new_tag\":0},"
	"{\"tag\":30,\"in\":\"b\",\"out\":\"*\",\"new_tag\":30}]}}}";

/* The same switch with tag 10 rewritten to 30 instead of 20. */
static const char *const rules2_json __attribute__((unused)) =
	"{\"format\":\"tagger-rules/1\",\"lossy\":{\"tag\":0,\"priority\":0},"
	"\"tags\":[{\"tag\":10,\"priority\":3},{\"tag\":20,\"priority\":4},"
	"{\"tag\":30,\"priority\":5}],"
	"\"switches\":{\"S\":{\"ports\":[\"a\",\"b\"],"
	"\"classify\":[{\"in\":\"a\",\"tag\":10,\"priority\":3}],"
	"\"rewrite\":[{\"tag\":10,\"in\":\"b\",\"out\":\"a\",\"new_tag\":30}]}}}";

static struct tagger_port_bpf *skel;

static inline struct rules *rules_str(const char *s)
{
	json_error_t e;
	json_t *root = json_loads(s, 0, &e);
	struct rules *r;

	ck_assert_ptr_nonnull(root);
	r = rules_from_json(root, "t.json");
	json_decref(root);
	ck_assert_ptr_nonnull(r);
	return r;
}

static struct dp_port ports[2] __attribute__((unused)) = {
	{ .name = "a", .ifindex = IF_A, .slot = SLOT_A },
	{ .name = "b", .ifindex = IF_B, .slot = SLOT_B },
};

static inline int table_from(const char *json, struct dp_table *tab)
{
	struct rules *r = rules_str(json);
	int sw = rules_find_switch(r, "S");

	ck_assert_int_ge(sw, 0);
	ck_assert_int_eq(rules_find_port(r, sw, "a"), 0);
	dp_table_build(r, sw, ports, tab);
	rules_free(r);
	return 0;
}

static inline void install(const char *json, int first)
{
	struct dp_table tab;

	table_from(json, &tab);
	port_install(skel, &tab, first);
	dp_table_free(&tab);
}

static inline void setup(void)
{
	if (geteuid())
		return;
	skel = port_load(2);
	ck_assert_int_eq(
		dp_ifslots_set(bpf_map__fd(skel->maps.tagger_ifslot), ports, 2),
		0);
	install(rules_json, 1);
}

static inline void teardown(void)
{
	tagger_port_bpf__destroy(skel);
	skel = NULL;
}

static inline struct run ingress(const struct pkt *p)
{
	return pkt_run(skel->progs.tagger_ingress, p, IF_A, IF_A, 0, 7);
}

static inline struct run egress(const struct pkt *p, uint32_t mark)
{
	return pkt_run(skel->progs.tagger_egress, p, IF_A, IF_B, mark, 7);
}

static inline uint64_t percpu_sum(struct bpf_map *m, uint32_t idx, size_t off)
{
	int ncpu = libbpf_num_possible_cpus();
	size_t vs = bpf_map__value_size(m);
	uint8_t *v = calloc(ncpu, (vs + 7) & ~7ul);
	uint64_t sum = 0;

	ck_assert_int_eq(bpf_map_lookup_elem(bpf_map__fd(m), &idx, v), 0);
	for (int c = 0; c < ncpu; c++)
		sum += *(uint64_t *)(v + c * ((vs + 7) & ~7ul) + off);
	free(v);
	return sum;
}

static inline uint64_t counter(uint32_t slot, uint32_t dir, uint32_t dscp,
			       int lossless)
{
	return percpu_sum(skel->maps.tagger_counters,
			  tagger_counter_index(slot, dir, dscp, lossless), 0);
}

static inline uint64_t lossy(uint32_t slot, int reason)
{
	return percpu_sum(skel->maps.tagger_port_stats, slot,
			  offsetof(struct tagger_port_stats, lossy[reason]));
}

static inline uint64_t port_stat(uint32_t slot, size_t off)
{
	return percpu_sum(skel->maps.tagger_port_stats, slot, off);
}

#define PORT_STAT(slot, field) \
	port_stat(slot, offsetof(struct tagger_port_stats, field))

#endif /* __TAGGER_TESTS_DP_PORT_FIX_H */
