// SPDX-License-Identifier: GPL-2.0
/*
 * Per-packet cost of the switch port programs under BPF_PROG_TEST_RUN
 * (tests/bench/bench_dataplane.sh runs it as root):
 *
 *	build/bench/dp_bench [REPEAT] [ENTRIES ...]
 *
 * For each table size it loads the programs sized for as many ports as a
 * table of that many entries takes, fills a rule table (entries spread
 * over the table, plus the ones the test packet hits), then times, interleaved, an empty tc program (return
 * TAGGER_TC_NEXT), tagger_ingress and tagger_egress on one IPv4 packet,
 * REPEAT runs each, five rounds, and keeps each one's fastest round. The
 * egress rule pair 10 -> 20 -> 10 makes every run rewrite the DSCP (a
 * repeated test run keeps the packet it changed).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "bench_harness.h"
#include "dataplane/dp_table.h"
#include "tagger_port.skel.h"
#include "tagger_skb.h"
#include "lib/util.h"

#define IF_OUT 1 /* lo: test runs need a real device */
#define IF_IN 7
#define SLOT_OUT 1
#define SLOT_IN 2

static void add(struct dp_table *t, uint32_t idx, uint8_t prio, uint8_t flags,
		uint8_t nd)
{
	struct tagger_rule_val v = { .prio = prio, .flags = flags, .dscp = nd };

	if (t->n == t->cap) {
		t->cap = t->cap ? 2 * t->cap : 1024;
		t->idx = xrealloc(t->idx, t->cap * sizeof(*t->idx));
		t->vals = xrealloc(t->vals, t->cap * sizeof(*t->vals));
	}
	t->idx[t->n] = idx;
	t->vals[t->n++] = v;
}

/* Ports: slot 1 is the out port (lo), slot 2 the in port; as many more
 * as it takes to hold the entries, which fill the other ports' rows. */
static void fill(struct dp_table *t, size_t entries)
{
	const uint8_t ll = TAGGER_F_LOSSLESS | TAGGER_F_RULE;
	uint32_t ns = 3, i, idx;

	while (tagger_table_size(ns) < entries + 16)
		ns++;
	memset(t, 0, sizeof(*t));
	t->nslots = ns;
	t->size = tagger_table_size(ns);
	add(t, 0, 0, 0, 0);
	add(t, tagger_classify_index(SLOT_OUT, 10), 3, ll, 0);
	add(t, tagger_rewrite_index(ns, SLOT_IN, SLOT_OUT, 10), 4, ll, 20);
	add(t, tagger_rewrite_index(ns, SLOT_IN, SLOT_OUT, 20), 3, ll, 10);
	/* The rest spread over the table, never on the packet's rows. */
	for (i = 0; t->n < entries; i++) {
		idx = (uint32_t)(((uint64_t)i * 2654435761u) % t->size);
		if (idx < 3 * TAGGER_DSCP_MAX ||
		    idx / TAGGER_DSCP_MAX ==
			    tagger_rewrite_index(ns, SLOT_IN, SLOT_OUT, 0) / 64)
			continue;
		add(t, idx, 1, ll, 5);
	}
}

static void set_slot(int fd, uint32_t ifindex, uint32_t slot)
{
	if (bpf_map_update_elem(fd, &ifindex, &slot, BPF_ANY)) {
		perror("ifslot");
		exit(1);
	}
}

int main(int argc, char **argv)
{
	static const size_t defaults[] = { 10, 1000, 100000, 1000000 };
	int repeat = argc > 1 ? atoi(argv[1]) : 1000000;
	int nsizes = argc > 2 ? argc - 2 : 4, s, r, k;
	uint8_t pkt[BENCH_PKT_LEN];
	struct bench_run run = { .ifindex = IF_OUT,
				 .iif = IF_IN,
				 .mark = TAGGER_MARK(1, 3),
				 .pkt = pkt,
				 .len = sizeof(pkt),
				 .repeat = repeat };
	struct tagger_port_bpf *skel;
	struct bpf_map *m;
	int progs[3], s_fd;

	bench_ipv4(pkt, 10 << 2, 0, 0);
	progs[0] = bench_empty_prog();
	printf("%-9s %6s %9s %9s %9s %9s %9s\n", "entries", "ports", "empty_ns",
	       "ingress_ns", "egress_ns", "added_ns", "ratio");
	for (s = 0; s < nsizes; s++) {
		size_t entries =
			argc > 2 ? strtoul(argv[s + 2], NULL, 10) : defaults[s];
		double best[3] = { 1e18, 1e18, 1e18 }, added;
		struct dp_table tab;
		int fd;

		/* A program instance sized for this many ports, as attach does. */
		fill(&tab, entries);
		skel = tagger_port_bpf__open();
		if (!skel)
			return 1;
		bpf_object__for_each_map(m, skel->obj)
			bpf_map__set_pin_path(m, NULL);
		s_fd = dp_prepare(skel, tab.nslots - 1);
		if (s_fd < 0 || tagger_port_bpf__load(skel)) {
			fprintf(stderr, "cannot load the port programs\n");
			return 1;
		}
		close(s_fd);
		set_slot(bpf_map__fd(skel->maps.tagger_ifslot), IF_OUT,
			 SLOT_OUT);
		set_slot(bpf_map__fd(skel->maps.tagger_ifslot), IF_IN, SLOT_IN);
		progs[1] = bpf_program__fd(skel->progs.tagger_ingress);
		progs[2] = bpf_program__fd(skel->progs.tagger_egress);
		fd = dp_table_create(&tab);
		if (fd < 0 ||
		    dp_table_install(bpf_map__fd(skel->maps.tagger_rules),
				     bpf_map__fd(skel->maps.tagger_gen), fd,
				     1) < 0) {
			fprintf(stderr, "cannot load %zu entries\n", entries);
			return 1;
		}
		close(fd);
		for (r = 0; r < 5; r++)
			for (k = 0; k < 3; k++) {
				double ns;

				run.prog = progs[k];
				ns = bench_run(&run);

				if (ns < best[k])
					best[k] = ns;
			}
		added = best[1] + best[2] - 2 * best[0];
		printf("%-9zu %6u %9.1f %9.1f %9.1f %9.1f %9.2f\n", tab.n - 1,
		       tab.nslots - 1, best[0], best[1], best[2], added,
		       (best[1] + best[2]) / (2 * best[0]));
		dp_table_free(&tab);
		tagger_port_bpf__destroy(skel);
	}
	return 0;
}
