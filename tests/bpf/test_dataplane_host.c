// SPDX-License-Identifier: GPL-2.0
/*
 * The host program under BPF_PROG_TEST_RUN: the initial tag by DSCP or
 * UDP port, never by a fragment's port, and group-addressed packets of
 * the class left lossy. Skips without root.
 */
#include <check.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "dp_pkt.h"
#include "dp_run.h"
#include "tagger_host.skel.h"
#include "tagger_maps.h"

#define IF_A 1
#define NEXT 0xffffffffu
#define TOS(dscp, ecn) ((uint8_t)((dscp) << 2 | (ecn)))

static struct tagger_host_bpf *host_load(void)
{
	struct tagger_host_tag t = { .set = 1, .dscp = 10, .prio = 3 };
	struct tagger_host_cfg cfg = { .udp_lo = 4791, .udp_hi = 4791 };
	struct tagger_host_bpf *h;
	struct bpf_map *m;
	uint32_t idx;

	h = tagger_host_bpf__open();
	ck_assert_ptr_nonnull(h);
	bpf_object__for_each_map(m, h->obj) bpf_map__set_pin_path(m, NULL);
	ck_assert_int_eq(tagger_host_bpf__load(h), 0);
	idx = TAGGER_HOST_UDP_ENTRY;
	ck_assert_int_eq(
		bpf_map_update_elem(bpf_map__fd(h->maps.tagger_host_tags), &idx,
				    &t, 0),
		0);
	idx = 0;
	ck_assert_int_eq(
		bpf_map_update_elem(bpf_map__fd(h->maps.tagger_host_cfg), &idx,
				    &cfg, 0),
		0);
	return h;
}

static uint8_t host_tos(struct tagger_host_bpf *h, const struct pkt *p)
{
	struct run r = pkt_run(h->progs.tagger_host_egress, p, IF_A, 0, 0, 7);

	return pkt_tos(&r.out);
}

/* Host egress: the lossless class leaves with the host's initial tag. */
START_TEST(host_sets_the_initial_tag_by_dscp_or_udp_port)
{
	struct tagger_host_bpf *h;
	struct tagger_host_tag t = { .set = 1, .dscp = 10, .prio = 3 };
	struct tagger_host_cfg cfg = { .udp_lo = 4791, .udp_hi = 4791 };
	struct bpf_map *m;
	struct pkt p;
	struct run r;
	uint32_t idx;

	NEED_ROOT();
	h = tagger_host_bpf__open();
	ck_assert_ptr_nonnull(h);
	bpf_object__for_each_map(m, h->obj) bpf_map__set_pin_path(m, NULL);
	ck_assert_int_eq(tagger_host_bpf__load(h), 0);
	idx = 26; /* the application's class DSCP */
	ck_assert_int_eq(
		bpf_map_update_elem(bpf_map__fd(h->maps.tagger_host_tags), &idx,
				    &t, 0),
		0);
	idx = TAGGER_HOST_UDP_ENTRY;
	ck_assert_int_eq(
		bpf_map_update_elem(bpf_map__fd(h->maps.tagger_host_tags), &idx,
				    &t, 0),
		0);
	idx = 0;
	ck_assert_int_eq(
		bpf_map_update_elem(bpf_map__fd(h->maps.tagger_host_cfg), &idx,
				    &cfg, 0),
		0);

	pkt_build(&p, PKT_V4, 0, TOS(26, 2), 0, 9);
	r = pkt_run(h->progs.tagger_host_egress, &p, IF_A, 0, 0, 7);
	ck_assert_uint_eq(r.ret, NEXT);
	ck_assert_uint_eq(pkt_tos(&r.out), TOS(10, 2));
	ck_assert(ip_csum_ok(&r.out));
	ck_assert_uint_eq(r.ctx.priority, 3);
	pkt_build(&p, PKT_V6, 0, TOS(0, 1), 0, 4791);
	r = pkt_run(h->progs.tagger_host_egress, &p, IF_A, 0, 0, 7);
	ck_assert_uint_eq(pkt_tos(&r.out), TOS(10, 1));
	pkt_build(&p, PKT_V4, 0, TOS(0, 1), 0, 4790); /* not the class */
	r = pkt_run(h->progs.tagger_host_egress, &p, IF_A, 0, 0, 7);
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
	uint32_t zero = 0;

	NEED_ROOT();
	h = host_load();
	ck_assert_int_eq(
		bpf_map_update_elem(bpf_map__fd(h->maps.tagger_host_cfg), &zero,
				    &cfg, 0),
		0);
	pkt_build(&p, PKT_V4, 0, TOS(10, 1), 0, 4791);
	pkt_dst4(&p, "\xe0\x00\x00\x05");
	r = pkt_run(h->progs.tagger_host_egress, &p, IF_A, 0, 0, 7);
	ck_assert_uint_eq(pkt_tos(&r.out), TOS(0, 1));
	ck_assert(ip_csum_ok(&r.out));
	ck_assert_uint_eq(r.ctx.priority, 1);
	pkt_build(&p, PKT_V4, 1, TOS(26, 0), 0, 4791);
	pkt_dmac(&p, "\xff\xff\xff\xff\xff\xff");
	r = pkt_run(h->progs.tagger_host_egress, &p, IF_A, 0, 0, 7);
	ck_assert_uint_eq(pkt_tos(&r.out), TOS(0, 0));
	ck_assert_uint_eq(r.ctx.priority, 1);
	pkt_build(&p, PKT_V6, 0, TOS(10, 2), 0, 4791);
	pkt_dst6(&p, v6_mcast);
	r = pkt_run(h->progs.tagger_host_egress, &p, IF_A, 0, 0, 7);
	ck_assert_uint_eq(pkt_tos(&r.out), TOS(0, 2));
	ck_assert_uint_eq(r.ctx.priority, 1);
	/* Unicast of the class: the initial tag. */
	pkt_build(&p, PKT_V4, 0, TOS(26, 1), 0, 4791);
	r = pkt_run(h->progs.tagger_host_egress, &p, IF_A, 0, 0, 7);
	ck_assert_uint_eq(pkt_tos(&r.out), TOS(10, 1));
	ck_assert_uint_eq(r.ctx.priority, 3);
	/* Not the class: as sent, group addressed or not. */
	pkt_build(&p, PKT_V4, 0, TOS(26, 1), 0, 53);
	pkt_dst4(&p, "\xe0\x00\x00\x05");
	r = pkt_run(h->progs.tagger_host_egress, &p, IF_A, 0, 0, 7);
	ck_assert_uint_eq(pkt_tos(&r.out), TOS(26, 1));
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
	suite_add_tcase(s, tc);
	return s;
}
