// SPDX-License-Identifier: GPL-2.0
/*
 * The switch port program under BPF_PROG_TEST_RUN, at egress: the DSCP
 * rewrite (ECN, checksums, the flow label kept), demotion to the lossy
 * tag, and the rules a packet was classified by. Skips without root;
 * the fixture is dp_port_fix.h.
 */
#include "dp_port_fix.h"

/* rules_json with a CNP class: DSCP 46, priority 6. */
static const char *const rules_cnp_json =
	"{\"format\":\"tagger-rules/1\",\"lossy\":{\"tag\":0,\"priority\":0},"
	"\"cnp\":{\"tag\":46,\"priority\":6},"
	"\"tags\":[{\"tag\":10,\"priority\":3},{\"tag\":20,\"priority\":4}],"
	"\"hosts\":{\"h1\":{\"tag\":10}},"
	"\"switches\":{\"S\":{\"ports\":[\"a\",\"b\"],"
	"\"classify\":[{\"in\":\"*\",\"tag\":10,\"priority\":3}],"
	"\"rewrite\":[{\"tag\":10,\"in\":\"*\",\"out\":\"*\",\"new_tag\":20}]}}}";

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
		assert_only_tos_changed(&r.out, &p);
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

/*
 * The CNP class at a switch port: its DSCP is classified into its own
 * priority, never lossless, counted as such and not as a demotion, and
 * keeps its DSCP at egress (classified or not) where any other lossy
 * packet gets the lossy tag. Without a "cnp" it is just lossy.
 */
START_TEST(cnp_class_is_never_lossless_nor_rewritten)
{
	struct pkt p;
	struct run r;

	NEED_ROOT();
	/* The rules of the fixture have no "cnp": 46 is lossy. */
	pkt_build(&p, PKT_V4, 0, TOS(46, 1), 0, 4791);
	r = ingress(&p);
	ck_assert_uint_eq(r.ctx.priority, 0);
	r = egress(&p, r.ctx.mark);
	ck_assert_uint_eq(pkt_tos(&r.out), TOS(0, 1));
	install(rules_cnp_json, 0);
	r = ingress(&p);
	ck_assert_uint_eq(r.ret, NEXT);
	ck_assert_uint_eq(r.ctx.priority, 6);
	ck_assert_uint_eq(r.ctx.mark, TAGGER_MARK(0, 6) | TAGGER_MARK_GEN);
	ck_assert_uint_eq(PORT_STAT(SLOT_A, cnp), 1);
	ck_assert_uint_eq(lossy(SLOT_A, TAGGER_LOSSY_NO_CLASSIFY), 1);
	ck_assert_uint_eq(counter(SLOT_A, TAGGER_DIR_IN, 46, 0), 2);
	r = egress(&p, r.ctx.mark);
	ck_assert_uint_eq(pkt_tos(&r.out), TOS(46, 1));
	ck_assert(ip_csum_ok(&r.out));
	ck_assert_uint_eq(r.ctx.priority, 6);
	ck_assert_mem_eq(r.out.b, p.b, p.len);
	/* Not classified by a tagger ingress: kept too. */
	pkt_build(&p, PKT_V6, 1, TOS(46, 3), 0, 4791);
	r = egress(&p, 0);
	ck_assert_uint_eq(pkt_tos(&r.out), TOS(46, 3));
	ck_assert_uint_eq(r.ctx.priority, 6);
	ck_assert_uint_eq(lossy(SLOT_A, TAGGER_LOSSY_UNCLASSIFIED), 0);
	ck_assert_uint_eq(counter(SLOT_A, TAGGER_DIR_OUT, 46, 0), 2);
	/* Other lossy tags still go to the lossy tag; the data as ever. */
	pkt_build(&p, PKT_V4, 0, TOS(47, 0), 0, 4791);
	r = egress(&p, ingress(&p).ctx.mark);
	ck_assert_uint_eq(pkt_tos(&r.out), TOS(0, 0));
	pkt_build(&p, PKT_V4, 0, TOS(10, 0), 0, 4791);
	r = egress(&p, ingress(&p).ctx.mark);
	ck_assert_uint_eq(pkt_tos(&r.out), TOS(20, 0));
	ck_assert_uint_eq(r.ctx.priority, 4);
}
END_TEST

/*
 * A host and a switch in series, with crafted BTH headers: the host's
 * CNPs (UDP 4791, opcode 0x81) arrive in the CNP class and leave the
 * switch in it; its RoCE data arrives with the initial tag, lossless, and
 * leaves rewritten. Never the one in the other's class.
 */
START_TEST(cnps_from_a_host_stay_apart_through_a_switch)
{
	struct tagger_host_cfg cfg = { .udp_lo = 4791,
				       .udp_hi = 4791,
				       .lossy_set = 1,
				       .cnp_set = 1,
				       .cnp_dscp = 46,
				       .cnp_prio = 6 };
	struct tagger_host_bpf *h;
	struct run hr, in, out;
	struct pkt p;
	int k;

	NEED_ROOT();
	install(rules_cnp_json, 0);
	h = host_load(); /* UDP 4791: tag 10, priority 3 */
	host_set_cfg(h, &cfg);
	for (k = 0; k < 2; k++) {
		uint8_t op = k ? 0x81 : 0x0a; /* RC SEND only, then a CNP */

		pkt_roce(&p, k ? PKT_V6 : PKT_V4, TOS(26, 2), op);
		hr = pkt_run(h->progs.tagger_host_egress, &p, IF_A, 0, 0, 0);
		in = ingress(&hr.out);
		out = egress(&hr.out, in.ctx.mark);
		if (op == 0x81) {
			ck_assert_uint_eq(hr.ctx.priority, 6);
			ck_assert_uint_eq(in.ctx.mark & TAGGER_MARK_LOSSLESS,
					  0);
			ck_assert_uint_eq(in.ctx.priority, 6);
			ck_assert_uint_eq(pkt_tos(&out.out), TOS(46, 2));
			ck_assert_uint_eq(out.ctx.priority, 6);
		} else {
			ck_assert_uint_eq(hr.ctx.priority, 3);
			ck_assert_uint_ne(in.ctx.mark & TAGGER_MARK_LOSSLESS,
					  0);
			ck_assert_uint_eq(in.ctx.priority, 3);
			ck_assert_uint_eq(pkt_tos(&out.out), TOS(20, 2));
			ck_assert_uint_eq(out.ctx.priority, 4);
		}
	}
	tagger_host_bpf__destroy(h);
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
	tcase_add_test(tc, cnp_class_is_never_lossless_nor_rewritten);
	tcase_add_test(tc, cnps_from_a_host_stay_apart_through_a_switch);
	suite_add_tcase(s, tc);
	return s;
}
