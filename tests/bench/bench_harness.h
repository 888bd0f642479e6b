/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the benchmarks of tc programs under BPF_PROG_TEST_RUN share
 * (dp_bench.c, pfc_ecn_bench.c): the floor they are measured against, a
 * test packet, one timed test run. Every failure exits 1 with a message:
 * a benchmark that cannot run has nothing to report.
 *
 * API:
 *   bench_empty_prog()     a tc program that returns TAGGER_TC_NEXT (the
 *                          cost of a test run itself), its fd
 *   bench_ipv4(pkt, tos, sport, dport)
 *                          Ethernet + IPv4 (TOS byte tos, 10.0.0.1 ->
 *                          10.0.0.2) + UDP sport -> dport into pkt, which
 *                          has BENCH_PKT_LEN bytes; checksum left as is
 *   bench_run(r)           r->prog run r->repeat times on r->pkt as
 *                          sitting on r->ifindex, arrived on r->iif, with
 *                          r->mark; the mean in-kernel ns of a run; the
 *                          packet that came out in r->out
 */
#ifndef __TAGGER_BENCH_HARNESS_H
#define __TAGGER_BENCH_HARNESS_H

#include <stdint.h>

#define BENCH_PKT_LEN 74

struct bench_run {
	int prog;
	uint32_t ifindex, iif, mark;
	const uint8_t *pkt;
	int len;
	int repeat;
	uint8_t out[256];
};

int bench_empty_prog(void);
void bench_ipv4(uint8_t *pkt, uint8_t tos, uint16_t sport, uint16_t dport);
double bench_run(struct bench_run *r);

#endif /* __TAGGER_BENCH_HARNESS_H */
