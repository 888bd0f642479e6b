// SPDX-License-Identifier: GPL-2.0
/*
 * Per-packet cost of ECN marking in the pause programs' ingress
 * (bpf/lib/pfc_account.h, pfc_ecn()), as tests/bench/bench_pfc_ecn.sh runs
 * it (root, in a network namespace of its own):
 *
 *	build/bench/pfc_ecn_bench [CALLS] [ROUNDS]
 *
 * One ECT(0) IPv4 packet that the namespace forwards, through four
 * programs, interleaved, CALLS test runs each per round (one run a call:
 * a repeated run would keep the packet it marked CE, and CE is never
 * marked again), the mean of each round's in-kernel durations, the
 * fastest round kept:
 *   empty     a tc program that returns TAGGER_TC_NEXT
 *   off       pfc_ingress, no ECN (the data path without it)
 *   no mark   pfc_ingress, ECN on, the buffer below Kmin (the test only)
 *   mark      pfc_ingress, ECN on, above Kmax (every packet marked CE:
 *             the header written, the checksum fixed, the mark counted)
 * XOFF is out of reach, so no PAUSE is made; the buffer only grows (no
 * tracepoint gives bytes back under a test run).
 */
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>
#include <net/if.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "bench_harness.h"
#include "pfc.skel.h"
#include "pfc_maps.h"
#include "tagger_skb.h"

enum { EMPTY, OFF, NOMARK, MARK, NPROGS };
static const char *const names[NPROGS] = { "empty", "off", "no mark", "mark" };

static void sh(const char *cmd)
{
	if (system(cmd)) {
		fprintf(stderr, "failed: %s\n", cmd);
		exit(1);
	}
}

/* pfc_ingress with ECN on priority 3 between kmin and kmax (off: 0). */
static struct pfc_bpf *load(uint32_t ifindex, int ecn, uint64_t kmin,
			    uint64_t kmax)
{
	struct pfc_bpf *s = pfc_bpf__open();
	struct stat sb;
	uint32_t slot = 0;
	int p;

	if (!s || stat("/proc/self/ns/net", &sb))
		exit(1);
	s->rodata->netns_ino = sb.st_ino;
	s->rodata->lossless_mask = 1u << 3;
	for (p = 0; p < PFC_PRIOS; p++) {
		s->rodata->xoff_bytes[p] = 1ull << 62;
		s->rodata->xon_bytes[p] = 1ull << 61;
		s->rodata->ecn_kmin[p] = kmin;
		s->rodata->ecn_kmax[p] = kmax;
		s->rodata->ecn_pmax[p] = PFC_ECN_ONE;
	}
	s->rodata->ecn_mask = ecn ? 1u << 3 : 0;
	if (pfc_bpf__load(s) || bpf_map__update_elem(s->maps.ports, &ifindex, 4,
						     &slot, 4, BPF_ANY)) {
		fprintf(stderr, "cannot load the pause programs\n");
		exit(1);
	}
	return s;
}

/* One test run; its in-kernel duration (ns), and whether it marked CE. */
static double run1(struct bench_run *r, int *ce)
{
	double ns = bench_run(r);

	*ce = (r->out[15] & 3) == 3;
	return ns;
}

int main(int argc, char **argv)
{
	int calls = argc > 1 ? atoi(argv[1]) : 200000;
	int rounds = argc > 2 ? atoi(argv[2]) : 5, r, k, i, ce;
	double best[NPROGS], sum, base;
	long marked[NPROGS] = { 0 };
	struct pfc_bpf *skel[NPROGS] = { 0 };
	int progs[NPROGS];
	uint8_t pkt[BENCH_PKT_LEN];
	struct bench_run run = { .mark = TAGGER_MARK(1, 3),
				 .pkt = pkt,
				 .len = sizeof(pkt),
				 .repeat = 1 };

	if (unshare(CLONE_NEWNET)) {
		perror("unshare");
		return 1;
	}
	sh("ip link set lo up && ip link add pfcb0 type veth peer name pfcb1 &&"
	   " ip link set pfcb0 up && ip link set pfcb1 up &&"
	   " ip addr add 10.0.0.254/24 dev pfcb0 &&"
	   " sysctl -qw net.ipv4.ip_forward=1");
	run.ifindex = run.iif = if_nametoindex("pfcb1");
	/* DSCP 24, ECT(0), to 10.0.0.2, UDP 12345 -> 4791. */
	bench_ipv4(pkt, 24 << 2 | 2, 12345, 4791);
	progs[EMPTY] = bench_empty_prog();
	skel[OFF] = load(run.ifindex, 0, 0, 0);
	skel[NOMARK] = load(run.ifindex, 1, 1ull << 40, 1ull << 41);
	skel[MARK] = load(run.ifindex, 1, 0, 1);
	for (k = OFF; k < NPROGS; k++)
		progs[k] = bpf_program__fd(skel[k]->progs.pfc_ingress);
	for (k = 0; k < NPROGS; k++)
		best[k] = 1e18;
	for (r = 0; r < rounds; r++)
		for (k = 0; k < NPROGS; k++) {
			sum = 0;
			run.prog = progs[k];
			for (i = 0; i < calls; i++) {
				sum += run1(&run, &ce);
				marked[k] += ce;
			}
			if (sum / calls < best[k])
				best[k] = sum / calls;
		}
	base = best[OFF] - best[EMPTY];
	printf("%-9s %9s %9s %9s %9s\n", "program", "ns", "added_ns", "ratio",
	       "marked");
	for (k = 0; k < NPROGS; k++)
		printf("%-9s %9.1f %9.1f %9.2f %8.0f%%\n", names[k], best[k],
		       best[k] - best[EMPTY],
		       k ? (best[k] - best[EMPTY]) / base : 0.0,
		       100.0 * marked[k] / ((double)calls * rounds));
	printf("(ratio: the program's added cost over the empty one, to that of "
	       "\"off\"; %d runs x %d rounds, fastest round)\n",
	       calls, rounds);
	for (k = OFF; k < NPROGS; k++)
		pfc_bpf__destroy(skel[k]);
	return 0;
}
