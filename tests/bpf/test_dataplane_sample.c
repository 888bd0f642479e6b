// SPDX-License-Identifier: GPL-2.0
/*
 * The samples of packets demoted off the ELP (bpf/lib/sample.h) under
 * BPF_PROG_TEST_RUN, read back by the reader of switch show
 * (dp_samples.h): the flow of a no_rewrite demotion, one sample per port
 * per gap, nothing for any other verdict, and malformed or truncated
 * packets sampled without their ports or not at all, never mis-tagged.
 */
#include "dp_port_fix.h"
#include "dataplane/dp_samples.h"

/* Samples in the ring now (the reader keeps them there). */
static int samples(struct tagger_sample *s, int max)
{
	return dp_samples_read(bpf_map__fd(skel->maps.tagger_samples), s, max);
}

static struct tagger_sample_gate gate(uint32_t slot)
{
	struct tagger_sample_gate g;

	ck_assert_int_eq(
		bpf_map_lookup_elem(bpf_map__fd(skel->maps.tagger_sample_gate),
				    &slot, &g),
		0);
	return g;
}

/* Open the rate limit of slot again, as if its gap had passed. */
static void reopen(uint32_t slot)
{
	struct tagger_sample_gate g = gate(slot);

	g.last_ns = 0;
	ck_assert_int_eq(
		bpf_map_update_elem(bpf_map__fd(skel->maps.tagger_sample_gate),
				    &slot, &g, BPF_ANY),
		0);
}

/* Tag 12 has no rewrite rule from b to a: demoted, reason no_rewrite. */
static struct run demote(struct pkt *p)
{
	return egress(p, TAGGER_MARK(1, 3));
}

START_TEST(a_no_rewrite_demotion_names_its_flow)
{
	struct tagger_sample s[TAGGER_SAMPLES_KEPT];
	struct pkt p;
	struct run r;

	NEED_ROOT();
	pkt_build(&p, PKT_V4, 0, TOS(12, 1), 0, 4791);
	r = demote(&p);
	ck_assert_uint_eq(pkt_tos(&r.out), TOS(0, 1));
	ck_assert_int_eq(samples(s, TAGGER_SAMPLES_KEPT), 1);
	ck_assert_uint_eq(s[0].family, 4);
	ck_assert_mem_eq(s[0].saddr, "\x0a\x00\x00\x01", 4);
	ck_assert_mem_eq(s[0].daddr, "\x0a\x00\x00\x02", 4);
	ck_assert_uint_eq(s[0].proto, 17);
	ck_assert_uint_eq(s[0].sport, 12345);
	ck_assert_uint_eq(s[0].dport, 4791);
	ck_assert_uint_eq(s[0].dscp, 12);
	ck_assert_uint_eq(s[0].reason, TAGGER_LOSSY_NO_REWRITE);
	ck_assert_uint_eq(s[0].in_slot, SLOT_B);
	ck_assert_uint_eq(s[0].out_slot, SLOT_A);
	ck_assert_uint_eq(s[0].len, p.len);
	ck_assert_uint_eq(gate(SLOT_A).taken, 1);
	/* IPv6 behind a hop-by-hop header: the ports after it. */
	reopen(SLOT_A);
	pkt_build(&p, PKT_V6, 1, TOS(12, 0), 0, 5000);
	pkt_ext6(&p, 0, 0, 0);
	demote(&p);
	ck_assert_int_eq(samples(s, TAGGER_SAMPLES_KEPT), 2);
	ck_assert_uint_eq(s[1].family, 6);
	ck_assert_mem_eq(s[1].saddr, "\xfd\0\0\0\0\0\0\0\0\0\0\0\0\0\0\x01",
			 16);
	ck_assert_mem_eq(s[1].daddr, "\xfd\0\0\0\0\0\0\0\0\0\0\0\0\0\0\x02",
			 16);
	ck_assert_uint_eq(s[1].proto, 17);
	ck_assert_uint_eq(s[1].sport, 12345);
	ck_assert_uint_eq(s[1].dport, 5000);
}
END_TEST

START_TEST(a_flood_gives_one_sample_per_gap)
{
	struct tagger_sample s[TAGGER_SAMPLES_KEPT];
	struct pkt p;
	int k;

	NEED_ROOT();
	pkt_build(&p, PKT_V4, 0, TOS(12, 0), 0, 9);
	for (k = 0; k < 200; k++)
		demote(&p);
	/* 200 runs take far less than TAGGER_SAMPLE_GAP_NS. */
	ck_assert_uint_eq(lossy(SLOT_A, TAGGER_LOSSY_NO_REWRITE), 200);
	ck_assert_int_eq(samples(s, TAGGER_SAMPLES_KEPT), 1);
	ck_assert_uint_eq(gate(SLOT_A).taken, 1);
	ck_assert_uint_eq(gate(SLOT_A).lost, 0);
}
END_TEST

START_TEST(other_verdicts_are_not_sampled)
{
	struct tagger_sample s[TAGGER_SAMPLES_KEPT];
	struct pkt p;

	NEED_ROOT();
	pkt_build(&p, PKT_V4, 0, TOS(10, 0), 0, 9);
	egress(&p, TAGGER_MARK(1, 3)); /* rewritten, lossless */
	pkt_build(&p, PKT_V4, 0, TOS(20, 0), 0, 9);
	egress(&p, TAGGER_MARK(1, 4)); /* a lossy rule: rewrite_lossy */
	pkt_build(&p, PKT_V4, 0, TOS(12, 0), 0, 9);
	egress(&p, TAGGER_MARK(0, 0)); /* lossy since ingress */
	egress(&p, 0); /* unclassified */
	ingress(&p); /* no_classify */
	ck_assert_uint_eq(lossy(SLOT_A, TAGGER_LOSSY_REWRITE), 1);
	ck_assert_int_eq(samples(s, TAGGER_SAMPLES_KEPT), 0);
	ck_assert_uint_eq(gate(SLOT_A).taken, 0);
}
END_TEST

/*
 * Truncated and malformed packets: sampled without ports where the ports
 * are not there to read, not at all where the IP header is bad, and
 * always demoted to the lossy tag (never left with the tag they came
 * with, never rewritten to a lossless one).
 */
START_TEST(malformed_packets_never_crash_nor_mis_tag)
{
	struct tagger_sample s[TAGGER_SAMPLES_KEPT];
	struct pkt p;
	struct run r;
	int n = 0, len;

	NEED_ROOT();
	/* The IPv4 header and nothing after it. */
	pkt_build(&p, PKT_V4, 0, TOS(12, 2), 0, 9);
	p.len = p.l3 + 20;
	r = demote(&p);
	ck_assert_uint_eq(pkt_tos(&r.out), TOS(0, 2));
	ck_assert_int_eq(samples(s, TAGGER_SAMPLES_KEPT), ++n);
	ck_assert_uint_eq(s[n - 1].proto, 17);
	ck_assert_uint_eq(s[n - 1].sport, 0);
	ck_assert_uint_eq(s[n - 1].dport, 0);
	/* Two bytes of UDP: still no ports. */
	reopen(SLOT_A);
	pkt_build(&p, PKT_V4, 0, TOS(12, 0), 0, 9);
	p.len = p.l3 + 22;
	demote(&p);
	ck_assert_int_eq(samples(s, TAGGER_SAMPLES_KEPT), ++n);
	ck_assert_uint_eq(s[n - 1].sport, 0);
	/* A later fragment: its first bytes are data, not ports. */
	reopen(SLOT_A);
	pkt_build(&p, PKT_V4, 0, TOS(12, 0), 0, 9);
	pkt_frag4(&p, 0, 3);
	r = demote(&p);
	ck_assert(ip_csum_ok(&r.out));
	ck_assert_int_eq(samples(s, TAGGER_SAMPLES_KEPT), ++n);
	ck_assert_uint_eq(s[n - 1].dport, 0);
	/* IPv6: an extension header cut short, and a fragment. */
	reopen(SLOT_A);
	pkt_build(&p, PKT_V6, 0, TOS(12, 0), 0, 9);
	pkt_ext6(&p, 60, 0, 0);
	p.len = p.l3 + 40 + 4;
	r = demote(&p);
	ck_assert_uint_eq(pkt_tos(&r.out), TOS(0, 0));
	ck_assert_int_eq(samples(s, TAGGER_SAMPLES_KEPT), ++n);
	ck_assert_uint_eq(s[n - 1].sport, 0);
	reopen(SLOT_A);
	pkt_build(&p, PKT_V6, 0, TOS(12, 0), 0, 9);
	pkt_ext6(&p, 44, 0, 5);
	demote(&p);
	ck_assert_int_eq(samples(s, TAGGER_SAMPLES_KEPT), ++n);
	ck_assert_uint_eq(s[n - 1].dport, 0);
	/*
	 * A bad IPv4 header (IHL 4) or one longer than the packet: lossy
	 * (ingress counted it as bad_header), no sample. (A test run refuses IPv4 frames shorter
	 * than an IPv4 header.)
	 */
	for (len = 0; len < 2; len++) {
		reopen(SLOT_A);
		pkt_build(&p, PKT_V4, 0, TOS(12, 0), 0, 9);
		/* IHL 4, or 15 (60 bytes) in a 48-byte packet */
		p.b[p.l3] = len ? 0x4f : 0x44;
		r = demote(&p);
		ck_assert_uint_eq(r.ret, NEXT);
		ck_assert_uint_eq(r.ctx.priority, 0);
		ck_assert_int_eq(samples(s, TAGGER_SAMPLES_KEPT), n);
	}
	/* Every length from the IP header on: demoted, lossy priority. */
	pkt_build(&p, PKT_V4, 0, TOS(12, 0), 1, 9);
	for (len = p.l3 + 20; len <= p.len; len++) {
		struct pkt q = p;

		reopen(SLOT_A);
		q.len = len;
		r = demote(&q);
		ck_assert_uint_eq(r.ret, NEXT);
		ck_assert_uint_eq(r.ctx.priority, 0);
	}
	ck_assert_int_le(samples(s, TAGGER_SAMPLES_KEPT), TAGGER_SAMPLES_KEPT);
}
END_TEST

/* Every reader sees the same last TAGGER_SAMPLES_KEPT, the newest last. */
START_TEST(readers_share_the_last_samples)
{
	struct tagger_sample a[TAGGER_SAMPLES_KEPT], b[TAGGER_SAMPLES_KEPT];
	struct pkt p;
	int k;

	NEED_ROOT();
	for (k = 0; k < 3 * TAGGER_SAMPLES_KEPT; k++) {
		reopen(SLOT_A);
		pkt_build(&p, PKT_V4, 0, TOS(12, 0), 0, 1000 + k);
		demote(&p);
	}
	ck_assert_int_eq(samples(a, TAGGER_SAMPLES_KEPT), TAGGER_SAMPLES_KEPT);
	ck_assert_int_eq(samples(b, TAGGER_SAMPLES_KEPT), TAGGER_SAMPLES_KEPT);
	ck_assert_mem_eq(a, b, sizeof(a));
	ck_assert_uint_eq(a[0].dport, 1000 + 2 * TAGGER_SAMPLES_KEPT);
	ck_assert_uint_eq(a[TAGGER_SAMPLES_KEPT - 1].dport,
			  1000 + 3 * TAGGER_SAMPLES_KEPT - 1);
	ck_assert_uint_eq(gate(SLOT_A).taken, 3 * TAGGER_SAMPLES_KEPT);
	/* A reader that wants fewer gets the newest. */
	ck_assert_int_eq(samples(b, 2), 2);
	ck_assert_uint_eq(b[1].dport, 1000 + 3 * TAGGER_SAMPLES_KEPT - 1);
}
END_TEST

Suite *dataplane_sample_suite(void)
{
	Suite *s = suite_create("dataplane_sample");
	TCase *tc = tcase_create("sample");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, a_no_rewrite_demotion_names_its_flow);
	tcase_add_test(tc, a_flood_gives_one_sample_per_gap);
	tcase_add_test(tc, other_verdicts_are_not_sampled);
	tcase_add_test(tc, malformed_packets_never_crash_nor_mis_tag);
	tcase_add_test(tc, readers_share_the_last_samples);
	suite_add_tcase(s, tc);
	return s;
}
