// SPDX-License-Identifier: GPL-2.0
/*
 * The switch port program under BPF_PROG_TEST_RUN, at egress: the DSCP
 * rewrite (ECN, checksums, the flow label kept), demotion to the lossy
 * tag, and the rules a packet was classified by. Skips without root;
 * the fixture is dp_port_fix.h.
 */
#include "dp_port_fix.h"

START_TEST(egress_rewrites_dscp_keeps_ecn_and_checksum)
{
	uint8_t ecn;
	struct pkt p;
	struct run r;

	NEED_ROOT();
	for (ecn = 0; ecn < 4; ecn++) {
		pkt_build(&p, PKT_V4, 0, TOS(10, ecn), 0, 9);
		r = egress(&p, TAGGER_MARK(1, 3));
		ck_assert_uint_eq(r.ret, NEXT);
		ck_assert_uint_eq(pkt_tos(&r.out), TOS(20, ecn));
		ck_assert(ip_csum_ok(&r.out));
		ck_assert_uint_eq(r.ctx.priority, 4); /* tag 20's priority */
		ck_assert_uint_eq(r.ctx.mark, TAGGER_MARK(1, 3));
		/* Nothing but the TOS byte and the checksum changed. */
		r.out.b[p.l3 + 1] = p.b[p.l3 + 1];
		r.out.b[p.l3 + 10] = p.b[p.l3 + 10];
		r.out.b[p.l3 + 11] = p.b[p.l3 + 11];
		ck_assert_mem_eq(r.out.b, p.b, p.len);
	}
	ck_assert_uint_eq(counter(SLOT_A, TAGGER_DIR_OUT, 20, 1), 4);
}
END_TEST

START_TEST(ip_options_and_vlan_keep_a_valid_checksum)
{
	struct pkt p;
	struct run r;
	int opts;

	NEED_ROOT();
	for (opts = 1; opts <= 10; opts += 3) {
		pkt_build(&p, PKT_V4, opts & 1, TOS(10, 2), opts, 9);
		r = egress(&p, TAGGER_MARK(1, 3));
		ck_assert_uint_eq(pkt_tos(&r.out), TOS(20, 2));
		ck_assert(ip_csum_ok(&r.out));
	}
}
END_TEST

START_TEST(ipv6_rewrite_keeps_ecn_and_flow_label)
{
	struct pkt p;
	struct run r;

	NEED_ROOT();
	pkt_build(&p, PKT_V6, 1, TOS(10, 3), 0, 9);
	r = egress(&p, TAGGER_MARK(1, 3));
	ck_assert_uint_eq(pkt_tos(&r.out), TOS(20, 3));
	ck_assert_uint_eq(r.out.b[r.out.l3] >> 4, 6);
	ck_assert_uint_eq(r.out.b[r.out.l3 + 1] & 15, 0x0a);
	ck_assert_uint_eq(r.out.b[r.out.l3 + 2], 0xbc);
	ck_assert_uint_eq(r.ctx.priority, 4);
}
END_TEST

START_TEST(egress_miss_and_lossy_rule_demote_to_the_lossy_tag)
{
	struct pkt p;
	struct run r;

	NEED_ROOT();
	/* Tag 30 has no rule from b to a... it does: (30, b, *) -> 30. */
	pkt_build(&p, PKT_V4, 0, TOS(30, 1), 0, 9);
	r = egress(&p, TAGGER_MARK(1, 5));
	ck_assert_uint_eq(pkt_tos(&r.out), TOS(30, 1));
	ck_assert_uint_eq(r.ctx.priority, 5);
	/* Tag 12: no rule at all -> lossy tag 0, lossy priority 0. */
	pkt_build(&p, PKT_V4, 0, TOS(12, 1), 0, 9);
	r = egress(&p, TAGGER_MARK(1, 3));
	ck_assert_uint_eq(pkt_tos(&r.out), TOS(0, 1));
	ck_assert(ip_csum_ok(&r.out));
	ck_assert_uint_eq(r.ctx.priority, 0);
	ck_assert_uint_eq(lossy(SLOT_A, TAGGER_LOSSY_NO_REWRITE), 1);
	/* (20, b, a) is an explicit lossy exception under (20, *, *). */
	pkt_build(&p, PKT_V4, 0, TOS(20, 0), 0, 9);
	r = egress(&p, TAGGER_MARK(1, 4));
	ck_assert_uint_eq(pkt_tos(&r.out), TOS(0, 0));
	ck_assert_uint_eq(lossy(SLOT_A, TAGGER_LOSSY_REWRITE), 1);
	/* Lossy since ingress: lossy tag, not another demotion. */
	pkt_build(&p, PKT_V4, 0, TOS(10, 0), 0, 9);
	r = egress(&p, TAGGER_MARK(0, 0));
	ck_assert_uint_eq(pkt_tos(&r.out), TOS(0, 0));
	ck_assert_uint_eq(lossy(SLOT_A, TAGGER_LOSSY_NO_REWRITE), 1);
	/* Never classified by a tagger ingress (local traffic): lossy. */
	r = egress(&p, 0);
	ck_assert_uint_eq(pkt_tos(&r.out), TOS(0, 0));
	ck_assert_uint_eq(lossy(SLOT_A, TAGGER_LOSSY_UNCLASSIFIED), 1);
	ck_assert_uint_eq(counter(SLOT_A, TAGGER_DIR_OUT, 0, 0), 4);
}
END_TEST

START_TEST(a_packet_is_rewritten_by_the_rules_that_classified_it)
{
	struct pkt p;
	struct run in_old, in_new, r;

	NEED_ROOT();
	pkt_build(&p, PKT_V4, 0, TOS(10, 0), 0, 9);
	in_old = ingress(&p);
	ck_assert_uint_eq(in_old.ctx.mark & TAGGER_MARK_GEN, 0);
	install(rules2_json, 0); /* generation 1, slot 1 */
	in_new = ingress(&p);
	ck_assert_uint_eq(in_new.ctx.mark, TAGGER_MARK(1, 3) | TAGGER_MARK_GEN);
	/* Classified before the swap: the old rewrite (10 -> 20). */
	r = egress(&p, in_old.ctx.mark);
	ck_assert_uint_eq(pkt_tos(&r.out), TOS(20, 0));
	/* After: the new one (10 -> 30). */
	r = egress(&p, in_new.ctx.mark);
	ck_assert_uint_eq(pkt_tos(&r.out), TOS(30, 0));
	ck_assert_uint_eq(r.ctx.priority, 5);
	install(rules_json, 0); /* generation 2, slot 0 again */
	r = egress(&p, ingress(&p).ctx.mark);
	ck_assert_uint_eq(pkt_tos(&r.out), TOS(20, 0));
}
END_TEST

Suite *dataplane_rewrite_suite(void)
{
	Suite *s = suite_create("dataplane_rewrite");
	TCase *tc = tcase_create("egress");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, egress_rewrites_dscp_keeps_ecn_and_checksum);
	tcase_add_test(tc, ip_options_and_vlan_keep_a_valid_checksum);
	tcase_add_test(tc, ipv6_rewrite_keeps_ecn_and_flow_label);
	tcase_add_test(tc, egress_miss_and_lossy_rule_demote_to_the_lossy_tag);
	tcase_add_test(tc,
		       a_packet_is_rewritten_by_the_rules_that_classified_it);
	suite_add_tcase(s, tc);
	return s;
}
