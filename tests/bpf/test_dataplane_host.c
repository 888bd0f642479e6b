// SPDX-License-Identifier: GPL-2.0
/*
 * The host program under BPF_PROG_TEST_RUN: the initial tag by DSCP or
 * UDP port, never by a fragment's port, and group-addressed packets of
 * the class left lossy. Skips without root.
 */
#include "dp_load.h"

static uint8_t host_tos(struct tagger_host_bpf *h, const struct pkt *p)
{
	struct run r = host_egress(h, p);

	return pkt_tos(&r.out);
}

/* Host egress: the lossless class leaves with the host's initial tag. */
START_TEST(host_sets_the_initial_tag_by_dscp_or_udp_port)
{
	struct tagger_host_tag t = { .set = 1, .dscp = 10, .prio = 3 };
	struct tagger_host_bpf *h;
	struct pkt p;
	struct run r;

	NEED_ROOT();
	h = host_load(); /* UDP 4791: tag 10, priority 3 */
	host_set_tag(h, 26, &t); /* the application's class DSCP */

	pkt_build(&p, PKT_V4, 0, TOS(26, 2), 0, 9);
	r = host_egress(h, &p);
	ck_assert_uint_eq(r.ret, NEXT);
	ck_assert_uint_eq(pkt_tos(&r.out), TOS(10, 2));
	ck_assert(ip_csum_ok(&r.out));
	ck_assert_uint_eq(r.ctx.priority, 3);
	pkt_build(&p, PKT_V6, 0, TOS(0, 1), 0, 4791);
	r = host_egress(h, &p);
	ck_assert_uint_eq(pkt_tos(&r.out), TOS(10, 1));
	pkt_build(&p, PKT_V4, 0, TOS(0, 1), 0, 4790); /* not the class */
	r = host_egress(h, &p);
	ck_assert_uint_eq(pkt_tos(&r.out), TOS(0, 1));
	ck_assert_uint_eq(r.ctx.priority, 7);
	tagger_host_bpf__destroy(h);
}
END_TEST

/*
 * --udp-dport: only a later fragment's first bytes would be read as the
 * port, so no fragment of a datagram can be matched by port, and a
 * fragmented datagram is never lossless: the first fragment stays as sent
 * too (MF set or offset != 0: not matched). IPv6 extension headers are
 * walked to the UDP header; a fragment header is a fragment unless atomic.
 */
START_TEST(host_udp_selector_never_matches_a_fragment)
{
	struct tagger_host_bpf *h;
	struct pkt p;

	NEED_ROOT();
	h = host_load();
	pkt_build(&p, PKT_V4, 0, TOS(0, 1), 0, 4791);
	ck_assert_uint_eq(host_tos(h, &p), TOS(10, 1)); /* whole: matched */
	pkt_frag4(&p, 1, 0);
	ck_assert_uint_eq(host_tos(h, &p), TOS(0, 1)); /* first fragment */
	pkt_frag4(&p, 0, 3); /* last fragment whose data looks like 4791 */
	ck_assert_uint_eq(host_tos(h, &p), TOS(0, 1));
	pkt_frag4(&p, 1, 3);
	ck_assert_uint_eq(host_tos(h, &p), TOS(0, 1));
	pkt_build(&p, PKT_V4, 1, TOS(0, 1), 0, 4791);
	p.b[p.l3 + 6] = 0x40; /* DF only: not a fragment */
	pkt_frag4(&p, 0, 0);
	ck_assert_uint_eq(host_tos(h, &p), TOS(10, 1));

	pkt_build(&p, PKT_V6, 0, TOS(0, 2), 0, 4791);
	pkt_ext6(&p, 43, 0, 0);
	pkt_ext6(&p, 0, 0, 0);
	ck_assert_uint_eq(host_tos(h, &p), TOS(10, 2)); /* HBH, routing, UDP */
	pkt_build(&p, PKT_V6, 0, TOS(0, 2), 0, 4791);
	pkt_ext6(&p, 60, 0, 0);
	ck_assert_uint_eq(host_tos(h, &p), TOS(10, 2));
	pkt_build(&p, PKT_V6, 0, TOS(0, 2), 0, 4791);
	pkt_ext6(&p, 44, 0, 0); /* atomic fragment: the whole datagram */
	ck_assert_uint_eq(host_tos(h, &p), TOS(10, 2));
	pkt_build(&p, PKT_V6, 0, TOS(0, 2), 0, 4791);
	pkt_ext6(&p, 44, 1, 0); /* first fragment */
	ck_assert_uint_eq(host_tos(h, &p), TOS(0, 2));
	pkt_build(&p, PKT_V6, 0, TOS(0, 2), 0, 4791);
	pkt_ext6(&p, 44, 0, 9); /* last fragment */
	pkt_ext6(&p, 0, 0, 0);
	ck_assert_uint_eq(host_tos(h, &p), TOS(0, 2));
	pkt_build(&p, PKT_V6, 0, TOS(0, 2), 0, 4790); /* other port */
	pkt_ext6(&p, 0, 0, 0);
	ck_assert_uint_eq(host_tos(h, &p), TOS(0, 2));
	tagger_host_bpf__destroy(h);
}
END_TEST

/* Host egress: a group-addressed packet of the class leaves lossy. */
START_TEST(host_keeps_group_addressed_packets_lossy)
{
	static const char v6_mcast[16] =
		"\xff\x05\0\0\0\0\0\0\0\0\0\0\0\x01\0\x03";
	struct tagger_host_cfg cfg = { .udp_lo = 4791,
				       .udp_hi = 4791,
				       .lossy_set = 1,
				       .lossy_dscp = 0,
				       .lossy_prio = 1 };
	struct tagger_host_bpf *h;
	struct pkt p;
	struct run r;

	NEED_ROOT();
	h = host_load();
	host_set_cfg(h, &cfg);
	pkt_build(&p, PKT_V4, 0, TOS(10, 1), 0, 4791);
	pkt_dst4(&p, "\xe0\x00\x00\x05");
	r = host_egress(h, &p);
	ck_assert_uint_eq(pkt_tos(&r.out), TOS(0, 1));
	ck_assert(ip_csum_ok(&r.out));
	ck_assert_uint_eq(r.ctx.priority, 1);
	pkt_build(&p, PKT_V4, 1, TOS(26, 0), 0, 4791);
	pkt_dmac(&p, "\xff\xff\xff\xff\xff\xff");
	r = host_egress(h, &p);
	ck_assert_uint_eq(pkt_tos(&r.out), TOS(0, 0));
	ck_assert_uint_eq(r.ctx.priority, 1);
	pkt_build(&p, PKT_V6, 0, TOS(10, 2), 0, 4791);
	pkt_dst6(&p, v6_mcast);
	r = host_egress(h, &p);
	ck_assert_uint_eq(pkt_tos(&r.out), TOS(0, 2));
	ck_assert_uint_eq(r.ctx.priority, 1);
	/* Unicast of the class: the initial tag. */
	pkt_build(&p, PKT_V4, 0, TOS(26, 1), 0, 4791);
	r = host_egress(h, &p);
	ck_assert_uint_eq(pkt_tos(&r.out), TOS(10, 1));
	ck_assert_uint_eq(r.ctx.priority, 3);
	/* Not the class: as sent, group addressed or not. */
	pkt_build(&p, PKT_V4, 0, TOS(26, 1), 0, 53);
	pkt_dst4(&p, "\xe0\x00\x00\x05");
	r = host_egress(h, &p);
	ck_assert_uint_eq(pkt_tos(&r.out), TOS(26, 1));
	ck_assert_uint_eq(r.ctx.priority, 7);
	tagger_host_bpf__destroy(h);
}
END_TEST

/*
 * Host egress with a "cnp" in the rules: a CNP leaves with its DSCP and
 * priority whatever selects the data (the UDP port it shares with it, a
 * DSCP, or every packet), over IPv4 and IPv6 (extension headers too),
 * ECN and the flow label kept; the data keeps the initial tag.
 */
START_TEST(host_gives_cnps_their_own_class)
{
	struct tagger_host_cfg cfg = { .udp_lo = 4791,
				       .udp_hi = 4791,
				       .lossy_set = 1,
				       .lossy_prio = 1,
				       .cnp_set = 1,
				       .cnp_dscp = 46,
				       .cnp_prio = 6 };
	struct tagger_host_tag t = { .set = 1, .dscp = 10, .prio = 3 };
	struct tagger_host_bpf *h;
	uint32_t k;
	struct pkt p;
	struct run r;

	NEED_ROOT();
	h = host_load();
	host_set_cfg(h, &cfg);
	pkt_roce(&p, PKT_V4, TOS(26, 1), 0x81);
	r = host_egress(h, &p);
	ck_assert_uint_eq(pkt_tos(&r.out), TOS(46, 1));
	ck_assert(ip_csum_ok(&r.out));
	ck_assert_uint_eq(r.ctx.priority, 6);
	/* RoCE data (RC SEND only, 0x04) and other opcodes: the class. */
	pkt_roce(&p, PKT_V4, TOS(26, 2), 0x04);
	r = host_egress(h, &p);
	ck_assert_uint_eq(pkt_tos(&r.out), TOS(10, 2));
	ck_assert_uint_eq(r.ctx.priority, 3);
	pkt_roce(&p, PKT_V4, TOS(26, 2), 0x80);
	ck_assert_uint_eq(host_tos(h, &p), TOS(10, 2));
	/* Opcode 0x81 to another port is no CNP. */
	pkt_build(&p, PKT_V4, 0, TOS(26, 1), 0, 4790);
	BTH(&p)[0] = 0x81;
	ck_assert_uint_eq(host_tos(h, &p), TOS(26, 1));
	/* IPv6, behind an extension header: flow label kept. */
	pkt_roce(&p, PKT_V6, TOS(26, 3), 0x81);
	pkt_ext6(&p, 60, 0, 0);
	r = host_egress(h, &p);
	ck_assert_uint_eq(pkt_tos(&r.out), TOS(46, 3));
	ck_assert_uint_eq(r.ctx.priority, 6);
	ck_assert_uint_eq(r.out.b[r.out.l3 + 1] & 15, 0x0a);
	ck_assert_uint_eq(r.out.b[r.out.l3 + 2], 0xbc);
	ck_assert_uint_eq(r.out.b[r.out.l3 + 3], 0xde);
	/* Every packet is the class (no selector): CNPs still apart. */
	for (k = 0; k < TAGGER_DSCP_MAX; k++)
		host_set_tag(h, k, &t);
	cfg.udp_lo = cfg.udp_hi = 0;
	host_set_cfg(h, &cfg);
	pkt_roce(&p, PKT_V4, TOS(10, 1), 0x81);
	ck_assert_uint_eq(host_tos(h, &p), TOS(46, 1));
	pkt_roce(&p, PKT_V4, TOS(0, 1), 0x04);
	ck_assert_uint_eq(host_tos(h, &p), TOS(10, 1));
	tagger_host_bpf__destroy(h);
}
END_TEST

/*
 * Without a "cnp": a CNP the selector picks leaves with the lossy tag and
 * priority, never the initial tag (it would queue behind the data it is
 * to slow down); one the selector does not pick leaves as sent.
 */
START_TEST(host_never_gives_cnps_the_data_tag)
{
	struct tagger_host_cfg cfg = { .udp_lo = 4791,
				       .udp_hi = 4791,
				       .lossy_set = 1,
				       .lossy_dscp = 0,
				       .lossy_prio = 1 };
	struct tagger_host_bpf *h;
	struct pkt p;
	struct run r;

	NEED_ROOT();
	h = host_load();
	host_set_cfg(h, &cfg);
	pkt_roce(&p, PKT_V4, TOS(26, 1), 0x81);
	r = host_egress(h, &p);
	ck_assert_uint_eq(pkt_tos(&r.out), TOS(0, 1));
	ck_assert(ip_csum_ok(&r.out));
	ck_assert_uint_eq(r.ctx.priority, 1);
	pkt_roce(&p, PKT_V6, TOS(26, 1), 0x81);
	ck_assert_uint_eq(host_tos(h, &p), TOS(0, 1));
	/* The data: the initial tag. */
	pkt_roce(&p, PKT_V4, TOS(26, 1), 0x0a);
	ck_assert_uint_eq(host_tos(h, &p), TOS(10, 1));
	/* Not picked (a DSCP selector of 26 only): as sent. */
	cfg.udp_lo = cfg.udp_hi = 0;
	host_set_cfg(h, &cfg);
	pkt_roce(&p, PKT_V4, TOS(48, 1), 0x81);
	r = host_egress(h, &p);
	ck_assert_uint_eq(pkt_tos(&r.out), TOS(48, 1));
	ck_assert_uint_eq(r.ctx.priority, 7);
	tagger_host_bpf__destroy(h);
}
END_TEST

Suite *dataplane_host_suite(void)
{
	Suite *s = suite_create("dataplane_host");
	TCase *tc = tcase_create("host");

	tcase_add_test(tc, host_sets_the_initial_tag_by_dscp_or_udp_port);
	tcase_add_test(tc, host_udp_selector_never_matches_a_fragment);
	tcase_add_test(tc, host_keeps_group_addressed_packets_lossy);
	tcase_add_test(tc, host_gives_cnps_their_own_class);
	tcase_add_test(tc, host_never_gives_cnps_the_data_tag);
	suite_add_tcase(s, tc);
	return s;
}
