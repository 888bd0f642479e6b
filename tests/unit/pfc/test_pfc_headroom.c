// SPDX-License-Identifier: GPL-2.0
/*
 * The headroom formula with a real link (Tagger draft, section 3.3,
 * equation 1): cable, t_pro, t_resp as terms, the draft's 40 Gbit/s
 * example, the per-switch total, and the parsers of the new values.
 */
#include <check.h>

#include "pfc/pfc_config.h"
#include "pfc/pfc_frame.h"
#include "testlib.h"

#define R40G 40000000000ull

/* The draft: 1500 B, 64 B PFC, 300 m (1.5 us), r t_pro = 60 quanta. */
static void draft_link(struct pfc_config *c)
{
	pfc_config_init(c);
	c->rate_bps = R40G;
	c->frame = 1500;
	c->cable_m = 300;
	c->t_pro_quanta = 60;
}

START_TEST(the_drafts_40g_example_is_21968_bytes)
{
	struct pfc_headroom_terms t;
	struct pfc_config c;

	draft_link(&c);
	pfc_headroom_terms(&c, &t);
	ck_assert_uint_eq(t.t_wire_ns, 1500); /* 300 m x 5 ns/m */
	ck_assert_uint_eq(t.wire, 7500); /* r t_wire */
	ck_assert_uint_eq(t.t_pro_ns, 768);
	ck_assert_uint_eq(t.pro, 30720 / 8); /* r t_pro = 30720 bits */
	ck_assert_uint_eq(t.resp, 0);
	ck_assert_uint_eq(t.total, 2 * (1500 + 64 + 7500) + 3840);
	ck_assert_uint_eq(t.total, 21968);
	/* t_pro as a time gives the same at 40G, where 60 quanta are 768 ns. */
	c.t_pro_quanta = 0;
	c.t_pro_ns = 768;
	pfc_headroom_terms(&c, &t);
	ck_assert_uint_eq(t.total, 21968);
	/* And the agent's defaults come from it. */
	ck_assert_int_eq(pfc_config_finish(&c), 0);
	ck_assert_uint_eq(c.headroom[3], 21968);
	ck_assert_uint_eq(c.xon[3], 3840);
}
END_TEST

START_TEST(response_time_adds_r_t_resp)
{
	struct pfc_headroom_terms t;
	struct pfc_config c;

	draft_link(&c);
	c.t_resp_ns = 2000; /* 2 us at 40G: 10000 B */
	pfc_headroom_terms(&c, &t);
	ck_assert_uint_eq(t.resp, 10000);
	ck_assert_uint_eq(t.total, 21968 + 10000);
	/* Quanta are 512 bit times whatever the rate. */
	c.rate_bps = 100000000ull;
	c.t_resp_ns = 0;
	pfc_headroom_terms(&c, &t);
	ck_assert_uint_eq(t.pro, 3840);
	ck_assert_uint_eq(t.wire, 18); /* 12.5 MB/s x 1.5 us = 18.75 */
}
END_TEST

START_TEST(defaults_are_todays_model)
{
	struct pfc_headroom_terms t;
	struct pfc_config c;

	pfc_config_init(&c);
	pfc_headroom_terms(&c, &t);
	ck_assert_uint_eq(t.t_wire_ns, 0);
	ck_assert_uint_eq(t.t_pro_ns, PFC_T_PRO_NS);
	ck_assert_uint_eq(t.t_resp_ns, 0);
	ck_assert_uint_eq(t.total,
			  pfc_headroom(c.rate_bps, c.frame, PFC_T_PRO_NS));
	ck_assert_uint_eq(t.total, 2 * (1518 + 64) + 12500);
}
END_TEST

/* The draft: 32 ports x 8 priorities x ~22 KB = 5632 KB of a 12 MB buffer. */
START_TEST(a_switch_needs_ports_x_priorities_x_headroom)
{
	struct pfc_headroom_terms t;
	struct pfc_config c;

	draft_link(&c);
	pfc_headroom_terms(&c, &t);
	ck_assert_uint_eq(32 * 8 * t.total, 5623808);
	ck_assert_uint_le(32 * 8 * t.total, 12u << 20);
	ck_assert_uint_eq(32 * 4 * t.total, 2811904); /* Fat-tree: halved */
}
END_TEST

START_TEST(times_and_lengths_parse_strictly)
{
	uint64_t ns = 7;
	uint32_t m = 7;

	ck_assert(pfc_parse_time("1.5", "us", &ns));
	ck_assert_uint_eq(ns, 1500);
	ck_assert(pfc_parse_time("768ns", "us", &ns));
	ck_assert_uint_eq(ns, 768);
	ck_assert(pfc_parse_time("1ms", "us", &ns));
	ck_assert_uint_eq(ns, 1000000);
	ck_assert(pfc_parse_time("0", "us", &ns));
	ck_assert_uint_eq(ns, 0);
	ck_assert(!pfc_parse_time("", "us", &ns));
	ck_assert(!pfc_parse_time("-1", "us", &ns));
	ck_assert(!pfc_parse_time("1.5x", "us", &ns));
	ck_assert(!pfc_parse_time("2s", "us", &ns)); /* over 1 s */
	ck_assert(!pfc_parse_time("nan", "us", &ns));
	ck_assert(pfc_parse_meters("300", &m));
	ck_assert_uint_eq(m, 300);
	ck_assert(pfc_parse_meters("2m", &m));
	ck_assert_uint_eq(m, 2);
	ck_assert(!pfc_parse_meters("1.5", &m));
	ck_assert(!pfc_parse_meters("-3", &m));
	ck_assert(!pfc_parse_meters("100001", &m));
	ck_assert(!pfc_parse_meters("", &m));
}
END_TEST

Suite *pfc_headroom_suite(void)
{
	Suite *s = suite_create("pfc_headroom");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, the_drafts_40g_example_is_21968_bytes);
	tcase_add_test(tc, response_time_adds_r_t_resp);
	tcase_add_test(tc, defaults_are_todays_model);
	tcase_add_test(tc, a_switch_needs_ports_x_priorities_x_headroom);
	tcase_add_test(tc, times_and_lengths_parse_strictly);
	suite_add_tcase(s, tc);
	return s;
}
