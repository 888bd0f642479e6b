// SPDX-License-Identifier: GPL-2.0
/*
 * The switch port program under BPF_PROG_TEST_RUN, at ingress: crafted
 * packets in, their priority, mark and the counters out; and the table
 * the rules become. Skips without root. The fixture is dp_port_fix.h;
 * egress is test_dataplane_rewrite.c, the host program
 * test_dataplane_host.c.
 */
#include "dp_port_fix.h"

START_TEST(ipv4_tag_is_classified_into_its_priority)
{
	struct pkt p;
	struct run r;

	NEED_ROOT();
	pkt_build(&p, PKT_V4, 0, TOS(10, 1), 0, 9);
	r = ingress(&p);
	ck_assert_uint_eq(r.ret, NEXT);
	ck_assert_uint_eq(r.ctx.priority, 3);
	ck_assert_uint_eq(r.ctx.mark, TAGGER_MARK(1, 3));
	ck_assert_mem_eq(r.out.b, p.b, p.len); /* ingress never rewrites */
	ck_assert_uint_eq(counter(SLOT_A, TAGGER_DIR_IN, 10, 1), 1);
}
END_TEST

START_TEST(vlan_and_ipv6_are_classified_too)
{
	struct pkt p;
	struct run r;

	NEED_ROOT();
	pkt_build(&p, PKT_V4, 1, TOS(20, 3), 0, 9);
	r = ingress(&p);
	ck_assert_uint_eq(r.ctx.priority, 4); /* wildcard in "*" */
	ck_assert_uint_eq(r.ctx.mark, TAGGER_MARK(1, 4));
	pkt_build(&p, PKT_V6, 0, TOS(10, 0), 0, 9);
	r = ingress(&p);
	ck_assert_uint_eq(r.ctx.priority, 3);
	pkt_build(&p, PKT_V6, 1, TOS(20, 2), 0, 9);
	r = ingress(&p);
	ck_assert_uint_eq(r.ctx.priority, 4);
	ck_assert_uint_eq(counter(SLOT_A, TAGGER_DIR_IN, 20, 1), 2);
	ck_assert_uint_eq(counter(SLOT_A, TAGGER_DIR_IN, 10, 1), 1);
}
END_TEST

START_TEST(unknown_tag_is_lossy_and_counted_as_demotion)
{
	struct pkt p;
	struct run r;

	NEED_ROOT();
	pkt_build(&p, PKT_V4, 0, TOS(11, 0), 0, 9);
	r = ingress(&p);
	ck_assert_uint_eq(r.ret, NEXT);
	ck_assert_uint_eq(r.ctx.priority, 0);
	ck_assert_uint_eq(r.ctx.mark, TAGGER_MARK(0, 0));
	ck_assert_uint_eq(lossy(SLOT_A, TAGGER_LOSSY_NO_CLASSIFY), 1);
	ck_assert_uint_eq(counter(SLOT_A, TAGGER_DIR_IN, 11, 0), 1);
	/* Already lossy on arrival: lossy, but no demotion here. */
	pkt_build(&p, PKT_V4, 0, TOS(0, 0), 0, 9);
	r = ingress(&p);
	ck_assert_uint_eq(r.ctx.mark, TAGGER_MARK(0, 0));
	ck_assert_uint_eq(lossy(SLOT_A, TAGGER_LOSSY_NO_CLASSIFY), 1);
}
END_TEST

/*
 * Safety rule 2 of the Flattened Clos paper: broadcast and multicast are
 * never lossless, whatever their tag; a unicast with the same tag is.
 */
START_TEST(group_addressed_packets_are_demoted_at_ingress)
{
	static const char v6_mcast[16] =
		"\xff\x02\0\0\0\0\0\0\0\0\0\0\0\0\0\x01";
	struct pkt p;
	struct run r;
	int k;

	NEED_ROOT();
	for (k = 0; k < 5; k++) {
		pkt_build(&p, k < 3 ? PKT_V4 : PKT_V6, k == 4, TOS(10, 1), 0,
			  9);
		if (k == 0)
			pkt_dst4(&p, "\xe0\x00\x00\xfb"); /* 224.0.0.251 */
		else if (k == 1)
			pkt_dst4(&p, "\xef\xff\xff\xfa"); /* 239.255.255.250 */
		else if (k == 2)
			pkt_dst4(&p, "\xff\xff\xff\xff");
		else
			pkt_dst6(&p, v6_mcast);
		r = ingress(&p);
		ck_assert_uint_eq(r.ret, NEXT);
		ck_assert_uint_eq(r.ctx.priority, 0);
		ck_assert_uint_eq(r.ctx.mark, TAGGER_MARK(0, 0));
		ck_assert_uint_eq(lossy(SLOT_A, TAGGER_LOSSY_MULTICAST), k + 1);
	}
	/* Broadcast and multicast MACs, unicast IP: the frame is still copied. */
	pkt_build(&p, PKT_V4, 0, TOS(10, 0), 0, 9);
	pkt_dmac(&p, "\xff\xff\xff\xff\xff\xff");
	ck_assert_uint_eq(ingress(&p).ctx.priority, 0);
	pkt_build(&p, PKT_V6, 0, TOS(10, 0), 0, 9);
	pkt_dmac(&p, "\x33\x33\x00\x00\x00\x01");
	ck_assert_uint_eq(ingress(&p).ctx.priority, 0);
	ck_assert_uint_eq(lossy(SLOT_A, TAGGER_LOSSY_MULTICAST), 7);
	ck_assert_uint_eq(counter(SLOT_A, TAGGER_DIR_IN, 10, 0), 7);
	ck_assert_uint_eq(lossy(SLOT_A, TAGGER_LOSSY_NO_CLASSIFY), 0);
	/* Egress then rewrites it to the lossy tag, as any lossy packet. */
	r = egress(&p, TAGGER_MARK(0, 0));
	ck_assert_uint_eq(pkt_tos(&r.out), TOS(0, 0));
	/* The same tag to a unicast address stays lossless. */
	pkt_build(&p, PKT_V4, 0, TOS(10, 1), 0, 9);
	pkt_dst4(&p, "\xdf\xff\xff\xfe"); /* 223.255.255.254 */
	r = ingress(&p);
	ck_assert_uint_eq(r.ctx.priority, 3);
	ck_assert_uint_eq(r.ctx.mark, TAGGER_MARK(1, 3));
	pkt_build(&p, PKT_V6, 0, TOS(10, 1), 0, 9);
	r = ingress(&p);
	ck_assert_uint_eq(r.ctx.priority, 3);
	ck_assert_uint_eq(lossy(SLOT_A, TAGGER_LOSSY_MULTICAST), 7);
	ck_assert_uint_eq(counter(SLOT_A, TAGGER_DIR_IN, 10, 1), 2);
	/* A multicast that arrived lossy is no demotion. */
	pkt_build(&p, PKT_V4, 0, TOS(0, 0), 0, 9);
	pkt_dst4(&p, "\xe0\x00\x00\x01");
	ck_assert_uint_eq(ingress(&p).ctx.priority, 0);
	ck_assert_uint_eq(lossy(SLOT_A, TAGGER_LOSSY_MULTICAST), 7);
}
END_TEST

/*
 * Every cut of a VLAN-tagged IPv4 and IPv6 packet: short of the VLAN tag it
 * is not IP (untouched), short of the IP header it is lossy, else it is
 * classified. (Untagged IP shorter than its header cannot be test-run: the
 * kernel refuses it; behind a VLAN tag it can.)
 */
START_TEST(truncated_headers_never_read_past_the_end)
{
	static const int kinds[] = { PKT_V4, PKT_V6 };
	struct pkt p, q;
	struct run r;
	unsigned k;
	int cut, hdr;

	NEED_ROOT();
	for (k = 0; k < 2; k++) {
		pkt_build(&p, kinds[k], 1, TOS(10, 0), 0, 9);
		hdr = p.l3 + (kinds[k] == PKT_V4 ? 20 : 40);
		for (cut = 14; cut < p.len; cut++) {
			q = p;
			q.len = cut;
			r = ingress(&q);
			ck_assert_uint_eq(r.ret, NEXT);
			if (cut < p.l3) {
				ck_assert_uint_eq(r.ctx.priority, 7);
				ck_assert_uint_eq(r.ctx.mark, 0);
			} else if (cut < hdr) {
				ck_assert_uint_eq(r.ctx.priority, 0);
				ck_assert_uint_eq(r.ctx.mark,
						  TAGGER_MARK(0, 0));
			} else {
				ck_assert_uint_eq(r.ctx.mark,
						  TAGGER_MARK(1, 3));
			}
			r = egress(&q, TAGGER_MARK(1, 3));
			ck_assert_uint_eq(r.ret, NEXT);
			ck_assert_int_eq(r.out.len, cut);
			if (cut < hdr)
				ck_assert_mem_eq(r.out.b, q.b, q.len);
			else
				ck_assert_uint_eq(pkt_tos(&r.out), TOS(20, 0));
		}
	}
	ck_assert_uint_eq(lossy(SLOT_A, TAGGER_LOSSY_BAD_HEADER), 20 + 40);
	/* An IHL that claims more than the packet holds, and one below 5. */
	pkt_build(&p, PKT_V4, 0, TOS(10, 0), 0, 9);
	p.b[p.l3] = 0x4f;
	r = ingress(&p);
	ck_assert_uint_eq(r.ctx.mark, TAGGER_MARK(0, 0));
	p.b[p.l3] = 0x44;
	r = ingress(&p);
	ck_assert_uint_eq(r.ctx.mark, TAGGER_MARK(0, 0));
	ck_assert_uint_eq(lossy(SLOT_A, TAGGER_LOSSY_BAD_HEADER), 62);
}
END_TEST

START_TEST(non_ip_passes_untouched_and_pfc_is_counted)
{
	struct pkt p;
	struct run r;

	NEED_ROOT();
	pkt_build(&p, PKT_ARP, 0, 0, 0, 0);
	r = ingress(&p);
	ck_assert_uint_eq(r.ret, NEXT);
	ck_assert_uint_eq(r.ctx.priority, 7);
	ck_assert_uint_eq(r.ctx.mark, 0);
	ck_assert_mem_eq(r.out.b, p.b, p.len);
	ck_assert_uint_eq(PORT_STAT(SLOT_A, non_ip), 1);
	pkt_build(&p, PKT_PFC, 0, 0, 0, 0);
	r = ingress(&p);
	ck_assert_uint_eq(r.ret, NEXT); /* handed on to the pause machinery */
	ck_assert_uint_eq(r.ctx.mark, 0);
	ck_assert_mem_eq(r.out.b, p.b, p.len);
	ck_assert_uint_eq(PORT_STAT(SLOT_A, pfc_frames), 1);
	p.b[14] = 0x00; /* opcode 0x0001: 802.3x PAUSE */
	ingress(&p);
	ck_assert_uint_eq(PORT_STAT(SLOT_A, pause_frames), 1);
	r = egress(&p, 0);
	ck_assert_mem_eq(r.out.b, p.b, p.len);
}
END_TEST

/* 802.1ad outer + 802.1Q inner, and two 802.1Q tags: the IP inside counts. */
START_TEST(qinq_is_classified_and_rewritten)
{
	static const uint16_t outer[] = { 0x88a8, 0x8100 };
	struct pkt p;
	struct run r;
	unsigned k;

	NEED_ROOT();
	for (k = 0; k < 2; k++) {
		pkt_build(&p, PKT_V4, 1, TOS(10, 1), 0, 9);
		pkt_push_vlan(&p, outer[k]);
		ck_assert_int_eq(p.l3, 22);
		r = ingress(&p);
		ck_assert_uint_eq(r.ret, NEXT);
		ck_assert_uint_eq(r.ctx.priority, 3);
		ck_assert_uint_eq(r.ctx.mark, TAGGER_MARK(1, 3));
		r = egress(&p, TAGGER_MARK(1, 3));
		ck_assert_uint_eq(pkt_tos(&r.out), TOS(20, 1));
		ck_assert(ip_csum_ok(&r.out));
		ck_assert_uint_eq(r.ctx.priority, 4);
		pkt_build(&p, PKT_V6, 1, TOS(10, 2), 0, 9);
		pkt_push_vlan(&p, outer[k]);
		r = ingress(&p);
		ck_assert_uint_eq(r.ctx.mark, TAGGER_MARK(1, 3));
		r = egress(&p, r.ctx.mark);
		ck_assert_uint_eq(pkt_tos(&r.out), TOS(20, 2));
	}
	ck_assert_uint_eq(counter(SLOT_A, TAGGER_DIR_IN, 10, 1), 4);
	ck_assert_uint_eq(PORT_STAT(SLOT_A, non_ip), 0);
	/* A third tag is beyond the parser: passed untouched as non-IP. */
	pkt_build(&p, PKT_V4, 1, TOS(10, 1), 0, 9);
	pkt_push_vlan(&p, 0x8100);
	pkt_push_vlan(&p, 0x88a8);
	r = ingress(&p);
	ck_assert_uint_eq(r.ctx.mark, 0);
	ck_assert_uint_eq(PORT_STAT(SLOT_A, non_ip), 1);
}
END_TEST

/*
 * A switch classifies and rewrites by the IP header alone: every fragment
 * of a datagram (first, middle, last) gets the same priority and tag.
 */
START_TEST(ipv4_fragments_are_classified_alike)
{
	static const struct {
		int mf;
		uint16_t off;
	} f[] = {
		{ 1, 0 },
		{ 1, 185 },
		{ 0, 370 },
	};
	struct pkt p;
	struct run r;
	unsigned k;

	NEED_ROOT();
	for (k = 0; k < 3; k++) {
		pkt_build(&p, PKT_V4, 0, TOS(10, 0), 0, 9);
		pkt_frag4(&p, f[k].mf, f[k].off);
		r = ingress(&p);
		ck_assert_uint_eq(r.ctx.priority, 3);
		ck_assert_uint_eq(r.ctx.mark, TAGGER_MARK(1, 3));
		r = egress(&p, r.ctx.mark);
		ck_assert_uint_eq(pkt_tos(&r.out), TOS(20, 0));
		ck_assert(ip_csum_ok(&r.out));
		ck_assert_uint_eq(r.out.b[p.l3 + 6],
				  p.b[p.l3 + 6]); /* flags kept */
		ck_assert_uint_eq(r.out.b[p.l3 + 7], p.b[p.l3 + 7]);
	}
	ck_assert_uint_eq(counter(SLOT_A, TAGGER_DIR_IN, 10, 1), 3);
}
END_TEST

/* IPv6 extension headers do not move the traffic class: same verdicts. */
START_TEST(ipv6_extension_headers_are_classified_alike)
{
	static const struct {
		uint8_t nh;
		int mf;
		uint16_t off;
	} e[] = {
		{ 0, 0, 0 },  { 43, 0, 0 },   { 60, 0, 0 },
		{ 44, 1, 0 }, { 44, 0, 100 },
	};
	struct pkt p;
	struct run r;
	unsigned k;

	NEED_ROOT();
	for (k = 0; k < 5; k++) {
		pkt_build(&p, PKT_V6, k & 1, TOS(10, 3), 0, 9);
		pkt_ext6(&p, e[k].nh, e[k].mf, e[k].off);
		r = ingress(&p);
		ck_assert_uint_eq(r.ctx.priority, 3);
		ck_assert_uint_eq(r.ctx.mark, TAGGER_MARK(1, 3));
		r = egress(&p, r.ctx.mark);
		ck_assert_uint_eq(pkt_tos(&r.out), TOS(20, 3));
		ck_assert_uint_eq(r.ctx.priority, 4);
		ck_assert_mem_eq(r.out.b + p.l3 + 2, p.b + p.l3 + 2,
				 p.len - p.l3 - 2);
	}
	/* Hop-by-hop, then routing, then a fragment header. */
	pkt_build(&p, PKT_V6, 0, TOS(20, 0), 0, 9);
	pkt_ext6(&p, 44, 0, 7);
	pkt_ext6(&p, 43, 0, 0);
	pkt_ext6(&p, 0, 0, 0);
	r = ingress(&p);
	ck_assert_uint_eq(r.ctx.mark, TAGGER_MARK(1, 4));
}
END_TEST

START_TEST(other_mark_bits_survive_classification)
{
	struct pkt p;
	struct run r;

	NEED_ROOT();
	pkt_build(&p, PKT_V4, 0, TOS(10, 0), 0, 9);
	r = pkt_run(skel->progs.tagger_ingress, &p, IF_A, IF_A, 0x1234500 | 7,
		    7);
	ck_assert_uint_eq(r.ctx.mark, 0x1234500 | TAGGER_MARK(1, 3));
}
END_TEST

START_TEST(wildcards_expand_most_specific_first)
{
	struct dp_table tab;
	size_t k;
	int seen = 0;
	uint32_t in, out, rest;

	table_from(rules_json, &tab);
	ck_assert_uint_eq(tab.nslots, 3);
	ck_assert_uint_eq(tab.size, tagger_table_size(3));
	/* lossy entry + classify (a,10), (a,20), (b,20) + rewrite 10:(b,a),
	 * 20:(*,*) over 4 pairs, 30:(b,a),(b,b). */
	ck_assert_uint_eq(tab.n, 1 + 3 + 1 + 4 + 2);
	ck_assert_uint_eq(tab.nclassify, 3);
	ck_assert_uint_eq(tab.idx[0], 0);
	for (k = 0; k < tab.n; k++) {
		const struct tagger_rule_val *v = &tab.vals[k];

		ck_assert_uint_lt(tab.idx[k], tab.size);
		if (tab.idx[k] < tab.nslots * TAGGER_DSCP_MAX)
			continue; /* classify */
		rest = tab.idx[k] / TAGGER_DSCP_MAX - tab.nslots;
		in = rest / tab.nslots;
		out = rest % tab.nslots;
		ck_assert_uint_eq(
			tab.idx[k],
			tagger_rewrite_index(3, in, out, tab.idx[k] % 64));
		if (tab.idx[k] % 64 != 20)
			continue;
		seen++;
		if (in == SLOT_B && out == SLOT_A) {
			ck_assert_uint_eq(
				v->flags,
				TAGGER_F_RULE); /* exact lossy beats (*,*) */
			ck_assert_uint_eq(v->dscp, 0);
		} else {
			ck_assert_uint_eq(v->flags,
					  TAGGER_F_LOSSLESS | TAGGER_F_RULE);
			ck_assert_uint_eq(v->dscp, 30);
			ck_assert_uint_eq(v->prio, 5);
		}
	}
	ck_assert_int_eq(seen, 4);
	dp_table_free(&tab);
}
END_TEST

Suite *dataplane_suite(void)
{
	Suite *s = suite_create("dataplane");
	TCase *tc = tcase_create("port");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, ipv4_tag_is_classified_into_its_priority);
	tcase_add_test(tc, vlan_and_ipv6_are_classified_too);
	tcase_add_test(tc, unknown_tag_is_lossy_and_counted_as_demotion);
	tcase_add_test(tc, group_addressed_packets_are_demoted_at_ingress);
	tcase_add_test(tc, truncated_headers_never_read_past_the_end);
	tcase_add_test(tc, non_ip_passes_untouched_and_pfc_is_counted);
	tcase_add_test(tc, qinq_is_classified_and_rewritten);
	tcase_add_test(tc, ipv4_fragments_are_classified_alike);
	tcase_add_test(tc, ipv6_extension_headers_are_classified_alike);
	tcase_add_test(tc, other_mark_bits_survive_classification);
	suite_add_tcase(s, tc);
	tc = tcase_create("table");
	tcase_add_test(tc, wildcards_expand_most_specific_first);
	suite_add_tcase(s, tc);
	return s;
}
