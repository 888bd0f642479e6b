/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One packet through a tc program under BPF_PROG_TEST_RUN, for the suites
 * of tests/bpf: the verdict, the packet that came out and the __sk_buff
 * fields the program left (priority, mark).
 *
 * API:
 *   NEED_ROOT()        at the top of a test: skip it, saying so, unless root
 *   NEXT               TAGGER_TC_NEXT as a test run returns it
 *   struct run         ret, ctx, out
 *   pkt_run(prog, in, ifindex, iif, mark, priority)
 *   assert_only_tos_changed(out, in)
 *                      out is in but for its traffic class (and the
 *                      IPv4 checksum that covers it)
 */
#ifndef __TAGGER_TESTS_DP_RUN_H
#define __TAGGER_TESTS_DP_RUN_H

#include <check.h>
#include <stdio.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <linux/bpf.h>

#include "dp_pkt.h"

#define NEED_ROOT()                                                            \
	do {                                                                   \
		if (geteuid()) {                                               \
			fprintf(stderr, "skipped %s: needs root\n", __func__); \
			return;                                                \
		}                                                              \
	} while (0)

#define NEXT 0xffffffffu

struct run {
	uint32_t ret;
	struct __sk_buff ctx;
	struct pkt out;
};

static inline struct run pkt_run(struct bpf_program *prog, const struct pkt *in,
				 uint32_t ifindex, uint32_t iif, uint32_t mark,
				 uint32_t priority)
{
	struct run r = { 0 };
	struct __sk_buff ctx = { .ifindex = ifindex,
				 .ingress_ifindex = iif,
				 .mark = mark,
				 .priority = priority };
	LIBBPF_OPTS(bpf_test_run_opts, o, .data_in = in->b,
		    .data_size_in = in->len, .data_out = r.out.b,
		    .data_size_out = sizeof(r.out.b), .ctx_in = &ctx,
		    .ctx_size_in = sizeof(ctx), .ctx_out = &r.ctx,
		    .ctx_size_out = sizeof(r.ctx), .repeat = 1);
	int err = bpf_prog_test_run_opts(bpf_program__fd(prog), &o);

	ck_assert_msg(err == 0, "test run of %d bytes: %d", in->len, err);
	r.ret = o.retval;
	r.out.len = o.data_size_out;
	r.out.l3 = in->l3;
	return r;
}

static inline void assert_only_tos_changed(const struct pkt *out,
					   const struct pkt *in)
{
	struct pkt o = *out;
	int l3 = in->l3;

	if ((in->b[l3] >> 4) == 4) {
		o.b[l3 + 1] = in->b[l3 + 1];
		o.b[l3 + 10] = in->b[l3 + 10];
		o.b[l3 + 11] = in->b[l3 + 11];
	} else {
		o.b[l3] = in->b[l3];
		o.b[l3 + 1] = in->b[l3 + 1];
	}
	ck_assert_mem_eq(o.b, in->b, in->len);
}

#endif /* __TAGGER_TESTS_DP_RUN_H */
