// SPDX-License-Identifier: GPL-2.0
/* The benchmarks' shared harness; see bench_harness.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "bench_harness.h"
#include "tagger_skb.h"

int bench_empty_prog(void)
{
	struct bpf_insn insns[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K,
		  .dst_reg = 0,
		  .imm = TAGGER_TC_NEXT },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	int fd = bpf_prog_load(BPF_PROG_TYPE_SCHED_CLS, "empty", "GPL", insns,
			       2, NULL);

	if (fd < 0) {
		perror("load empty program");
		exit(1);
	}
	return fd;
}

void bench_ipv4(uint8_t *pkt, uint8_t tos, uint16_t sport, uint16_t dport)
{
	memset(pkt, 0, BENCH_PKT_LEN);
	memcpy(pkt + 12, "\x08\x00\x45\x00\x00\x3c\x00\x00\x00\x00\x40\x11",
	       12);
	pkt[15] = tos;
	memcpy(pkt + 26, "\x0a\x00\x00\x01\x0a\x00\x00\x02", 8);
	pkt[34] = sport >> 8;
	pkt[35] = sport & 255;
	pkt[36] = dport >> 8;
	pkt[37] = dport & 255;
}

double bench_run(struct bench_run *r)
{
	struct __sk_buff ctx = { .ifindex = r->ifindex,
				 .ingress_ifindex = r->iif,
				 .mark = r->mark };
	LIBBPF_OPTS(bpf_test_run_opts, o, .data_in = r->pkt,
		    .data_size_in = r->len, .data_out = r->out,
		    .data_size_out = sizeof(r->out), .ctx_in = &ctx,
		    .ctx_size_in = sizeof(ctx), .repeat = r->repeat);

	if (bpf_prog_test_run_opts(r->prog, &o)) {
		perror("test run");
		exit(1);
	}
	return o.duration; /* average ns per run */
}
