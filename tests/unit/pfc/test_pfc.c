// SPDX-License-Identifier: GPL-2.0
/*
 * The pause machinery's pure parts: 802.1Qbb frame layout, quanta <-> time,
 * the headroom formula and defaults, the XOFF/XON rule the BPF programs
 * run, and the watchdog's decisions.
 */
#include <check.h>

#include "pfc/pfc_config.h"
#include "pfc/pfc_frame.h"
#include "pfc_maps.h"
#include "pfc/pfc_watchdog.h"
#include "pfc/pfc_wd_config.h"
#include "testlib.h"

static const uint8_t src[6] = { 0x02, 0x11, 0x22, 0x33, 0x44, 0x55 };

START_TEST(frame_has_the_8021qbb_layout)
{
	uint16_t q[8] = { 0, 0, 0, 0xffff, 0x1234, 7, 0, 0 };
	uint8_t b[PFC_FRAME_LEN + 4];
	static const uint8_t head[] = {
		0x01, 0x80, 0xc2, 0x00, 0x00, 0x01, /* dst */
		0x02, 0x11, 0x22, 0x33, 0x44, 0x55, /* src */
		0x88, 0x08, /* MAC control */
		0x01, 0x01, /* PFC opcode */
		0x00, 0x18, /* classes 3 and 4 */
	};
	int i;

	memset(b, 0xee, sizeof(b));
	ck_assert_int_eq(pfc_frame_build(b, src, 0x18, q), 60);
	ck_assert_mem_eq(b, head, sizeof(head));
	/* time[3] = 0xffff, time[4] = 0x1234, disabled classes zero. */
	ck_assert_int_eq(b[18 + 6], 0xff);
	ck_assert_int_eq(b[18 + 7], 0xff);
	ck_assert_int_eq(b[18 + 8], 0x12);
	ck_assert_int_eq(b[18 + 9], 0x34);
	ck_assert_int_eq(b[18 + 10], 0); /* time[5] disabled */
	ck_assert_int_eq(b[18 + 11], 0);
	for (i = 34; i < 60; i++)
		ck_assert_int_eq(b[i], 0); /* padding */
	ck_assert_int_eq(b[60], 0xee); /* nothing beyond 60 */
}
END_TEST

START_TEST(frame_round_trips_and_rejects_others)
{
	uint16_t q[8] = { 1, 2, 3, 4, 5, 6, 7, 8 }, out[8];
	uint8_t b[PFC_FRAME_LEN], vec;
	int i;

	pfc_frame_build(b, src, 0xff, q);
	ck_assert_int_eq(pfc_frame_parse(b, sizeof(b), &vec, out), 0);
	ck_assert_int_eq(vec, 0xff);
	for (i = 0; i < 8; i++)
		ck_assert_int_eq(out[i], q[i]);
	ck_assert_int_eq(pfc_frame_parse(b, 20, &vec, out), -1); /* short */
	b[15] = 0x01; /* 802.3x PAUSE opcode 0x0001 */
	b[14] = 0x00;
	ck_assert_int_eq(pfc_frame_parse(b, sizeof(b), &vec, out), -1);
	pfc_frame_build(b, src, 0x08, q);
	b[13] = 0x00; /* ethertype 0x8800 */
	ck_assert_int_eq(pfc_frame_parse(b, sizeof(b), &vec, out), -1);
}
END_TEST

START_TEST(quanta_are_512_bit_times)
{
	/* 1 quantum at 10 Gbit/s = 51.2 ns, rounded up. */
	ck_assert_uint_eq(pfc_quanta_ns(1, 10000000000ull), 52);
	/* 65535 quanta at 100 Mbit/s = 335.5392 ms. */
	ck_assert_uint_eq(pfc_quanta_ns(65535, 100000000ull), 335539200);
	ck_assert_uint_eq(pfc_quanta_ns(0, 100000000ull), 0);
	/* Inverse, rounded up so that the pause covers the time. */
	ck_assert_uint_eq(pfc_ns_quanta(335539200, 100000000ull), 65535);
	ck_assert_uint_eq(pfc_ns_quanta(5121, 100000000ull), 2);
	ck_assert_uint_eq(pfc_ns_quanta(10ull * 1000000000, 100000000ull),
			  65535);
	/* Exact where a quantum is a whole number of ns (1 Gbit/s: 512). */
	for (unsigned int q = 1; q < 65536; q += 997)
		ck_assert_uint_eq(pfc_ns_quanta(pfc_quanta_ns(q, 1000000000ull),
						1000000000ull),
				  q);
}
END_TEST

START_TEST(headroom_matches_the_paper_at_40g)
{
	/*
	 * Section 3.3: 40 Gbit/s, MTU 1500, PFC 64 B, t_wire 1.5 us, r t_pro
	 * = 30720 bits -> about 22 KB. With t_wire 0 and t_pro as the time
	 * of 60 quanta at 40G (768 ns), the formula gives 2 (1500 + 64) +
	 * 3840 = 6968; the paper's 21968 adds 2 r t_wire = 15000.
	 */
	uint64_t t_pro = pfc_quanta_ns(60, 40000000000ull);

	ck_assert_uint_eq(pfc_headroom(40000000000ull, 1500, t_pro), 6968);
	ck_assert_uint_eq(pfc_headroom(40000000000ull, 1500, t_pro) + 15000,
			  21968);
}
END_TEST

START_TEST(defaults_follow_the_buffer_model)
{
	struct pfc_config c;

	pfc_config_init(&c);
	c.nports = 2;
	ck_assert_int_eq(pfc_config_finish(&c), 0);
	/* 100 Mbit/s, 1518-byte frames, t_pro 1 ms. */
	ck_assert_uint_eq(c.headroom[3], 2 * (1518 + 64) + 12500);
	ck_assert_uint_eq(c.xon[3], 12500);
	ck_assert_uint_eq(c.xoff[3], 12500 + c.headroom[3]);
	ck_assert_uint_eq(c.lossy_limit, c.xoff[3] + c.headroom[3]);
	ck_assert_uint_ge(c.lossless_limit, 2 * (c.xoff[3] + c.headroom[3]));
	ck_assert_uint_eq(c.lossless_mask, 0x18);
	ck_assert_uint_eq(c.dscp_prio[26], 3);
	ck_assert_uint_eq(c.dscp_prio[46], 5);

	pfc_config_init(&c);
	c.xoff[3] = 4000; /* below the default XON: XON follows */
	ck_assert_int_eq(pfc_config_finish(&c), 0);
	ck_assert_uint_lt(c.xon[3], c.xoff[3]);
	pfc_config_init(&c);
	c.xoff[3] = 4000;
	c.xon[3] = 5000;
	ck_assert_int_eq(pfc_config_finish(&c), -1);
}
END_TEST

/*
 * ECN settings: Kmin <= Kmax < XOFF on each lossless priority that marks,
 * named by the option at fault; lossy priorities never mark.
 */
START_TEST(ecn_settings_are_checked_against_xoff)
{
	struct pfc_config c;
	char why[160];
	int p;

	pfc_config_init(&c);
	ck_assert_int_eq(pfc_config_finish(&c), 0);
	ck_assert_ptr_null(pfc_ecn_bad(&c, why, sizeof(why)));
	ck_assert_uint_eq(pfc_ecn_mask(&c), 0);
	ck_assert_uint_eq(c.ecn_pmax[3], 100);
	for (p = 0; p < PFC_PRIOS; p++) {
		c.ecn_kmin[p] = 5000;
		c.ecn_kmax[p] = 20000;
	}
	ck_assert_ptr_null(pfc_ecn_bad(&c, why, sizeof(why)));
	ck_assert_uint_eq(pfc_ecn_mask(&c), 0x18); /* lossless 3, 4 only */
	c.ecn_kmin[4] = 20000; /* Kmin = Kmax: a step, allowed */
	ck_assert_ptr_null(pfc_ecn_bad(&c, why, sizeof(why)));
	c.ecn_kmin[4] = 20001;
	ck_assert_str_eq(pfc_ecn_bad(&c, why, sizeof(why)),
			 "--ecn-kmin: 20001 B is above --ecn-kmax 20000 B "
			 "(priority 4)");
	c.ecn_kmin[4] = 0;
	c.ecn_kmax[3] = c.xoff[3];
	ck_assert_ptr_nonnull(pfc_ecn_bad(&c, why, sizeof(why)));
	ck_assert_ptr_nonnull(strstr(why, "--ecn-kmax: "));
	ck_assert_ptr_nonnull(strstr(why, "is not below XOFF"));
	c.ecn_kmax[3] = c.xoff[3] - 1;
	ck_assert_ptr_null(pfc_ecn_bad(&c, why, sizeof(why)));
	c.ecn_kmax[3] = 0; /* Kmin without Kmax */
	ck_assert_str_eq(pfc_ecn_bad(&c, why, sizeof(why)),
			 "--ecn-kmin: priority 3 has no --ecn-kmax");
	c.ecn_kmin[3] = 0;
	ck_assert_ptr_null(pfc_ecn_bad(&c, why, sizeof(why)));
	ck_assert_uint_eq(pfc_ecn_mask(&c), 0x10);
	c.xoff[4] = c.ecn_kmax[4] = 1ull << 33;
	c.xoff[4]++;
	ck_assert_ptr_nonnull(pfc_ecn_bad(&c, why, sizeof(why)));
	ck_assert_ptr_nonnull(strstr(why, "above 4 GiB"));
}
END_TEST

START_TEST(dscp_maps_parse)
{
	uint8_t map[64] = { 0 };

	ck_assert_int_eq(pfc_parse_dscp_map("26:3,48:6", map), 0);
	ck_assert_int_eq(map[26], 3);
	ck_assert_int_eq(map[48], 6);
	ck_assert_int_eq(pfc_parse_dscp_map("64:1", map), -1);
	ck_assert_int_eq(pfc_parse_dscp_map("3:8", map), -1);
	ck_assert_int_eq(pfc_parse_dscp_map("3", map), -1);
}
END_TEST

START_TEST(thresholds_have_hysteresis)
{
	const uint64_t xoff = 3000, xon = 1000;
	uint32_t s = 0;

	s = pfc_xoff_next(s, 2999, xoff, xon);
	ck_assert_uint_eq(s, 0);
	s = pfc_xoff_next(s, 3000, xoff, xon); /* at XOFF: not above */
	ck_assert_uint_eq(s, 0);
	s = pfc_xoff_next(s, 3001, xoff, xon);
	ck_assert_uint_eq(s, 1);
	s = pfc_xoff_next(s, 2000, xoff, xon); /* between: stays paused */
	ck_assert_uint_eq(s, 1);
	s = pfc_xoff_next(s, 1001, xoff, xon);
	ck_assert_uint_eq(s, 1);
	s = pfc_xoff_next(s, 1000, xoff, xon); /* at XON: resume */
	ck_assert_uint_eq(s, 0);
	s = pfc_xoff_next(s, 2000, xoff, xon); /* between: stays running */
	ck_assert_uint_eq(s, 0);
}
END_TEST

START_TEST(watchdog_detects_a_storm_once)
{
	const uint64_t ms = 1000000;
	struct pfc_wd_cfg c = { 200, 300, PFC_WD_ALERT, 1 };
	struct pfc_wd w = { 0 };
	uint64_t t = 0;

	/* Paused 150 ms with packets: not yet. */
	ck_assert_int_eq(pfc_wd_step(&w, &c, true, 1000 * ms, 5, 1150 * ms, &t),
			 PFC_WD_NONE);
	/* Paused long but nothing queued: not a storm. */
	ck_assert_int_eq(pfc_wd_step(&w, &c, true, 1000 * ms, 0, 1250 * ms, &t),
			 PFC_WD_NONE);
	/* 250 ms with packets: a storm, with how long. */
	ck_assert_int_eq(pfc_wd_step(&w, &c, true, 1000 * ms, 5, 1250 * ms, &t),
			 PFC_WD_FIRE);
	ck_assert_uint_eq(t, 250 * ms);
	ck_assert_int_eq(pfc_wd_step(&w, &c, true, 1000 * ms, 5, 1400 * ms, &t),
			 PFC_WD_NONE);
	/* alert ends with the condition, whatever the restoration time. */
	ck_assert_int_eq(pfc_wd_step(&w, &c, false, 0, 5, 1410 * ms, &t),
			 PFC_WD_RESTORE);
	ck_assert_int_eq(pfc_wd_step(&w, &c, true, 1600 * ms, 5, 1900 * ms, &t),
			 PFC_WD_FIRE);
}
END_TEST

START_TEST(watchdog_restores_only_after_quiet)
{
	const uint64_t ms = 1000000;
	struct pfc_wd_cfg c = { 200, 100, PFC_WD_DROP, 1 };
	struct pfc_wd w = { 0 };
	uint64_t t = 0, now;

	ck_assert_int_eq(pfc_wd_step(&w, &c, true, 0, 3, 900 * ms, &t),
			 PFC_WD_FIRE);
	/* The gate is open now (ignored), but PAUSEs keep coming: a storm
	 * that keeps pausing is never restored. */
	for (now = 950 * ms; now < 5000 * ms; now += 50 * ms) {
		pfc_wd_paused(&w, now - 10 * ms);
		ck_assert_int_eq(pfc_wd_step(&w, &c, false, 0, 0, now, &t),
				 PFC_WD_NONE);
	}
	/* The last PAUSE at 4940 ms: restored 100 ms later, not before. */
	ck_assert_int_eq(pfc_wd_step(&w, &c, false, 0, 0, 5030 * ms, &t),
			 PFC_WD_NONE);
	ck_assert_int_eq(pfc_wd_step(&w, &c, false, 0, 0, 5040 * ms, &t),
			 PFC_WD_RESTORE);
	ck_assert(!w.storm);
}
END_TEST

START_TEST(watchdog_specs_parse_and_refuse)
{
	struct pfc_config c;
	char why[PFC_WD_WHY_LEN];
	struct pfc_wd_cfg w;

	pfc_config_init(&c);
	c.nports = 2;
	strcpy(c.ports[0].name, "p1");
	strcpy(c.ports[1].name, "p2");
	c.wd_spec[c.wd_nspecs++] = "*:3:100:400:forward";
	c.wd_spec[c.wd_nspecs++] = "p2:3:50:60:drop";
	ck_assert_int_eq(pfc_wd_specs_apply(&c, why, sizeof(why)), 0);
	w = pfc_wd_of(&c, 0, 3);
	ck_assert_uint_eq(w.detect_ms, 100);
	ck_assert_uint_eq(w.restore_ms, 400);
	ck_assert_uint_eq(w.action, PFC_WD_FORWARD);
	w = pfc_wd_of(&c, 1, 3);
	ck_assert_uint_eq(w.action, PFC_WD_DROP);
	w = pfc_wd_of(&c, 1, 4); /* the defaults */
	ck_assert_uint_eq(w.detect_ms, 200);
	ck_assert_uint_eq(w.action, PFC_WD_ALERT);
	ck_assert_uint_eq(pfc_wd_tick_ms(&c), 50);
	c.wd_spec[c.wd_nspecs++] = "p2:1:50:60:drop";
	ck_assert_int_eq(pfc_wd_specs_apply(&c, why, sizeof(why)), -1);
	ck_assert_ptr_nonnull(strstr(why, "p2:1:50:60:drop"));
	ck_assert_ptr_nonnull(strstr(why, "not lossless"));
	c.wd_spec[c.wd_nspecs - 1] = "p9:3:50:60:drop";
	ck_assert_int_eq(pfc_wd_specs_apply(&c, why, sizeof(why)), -1);
	c.wd_spec[c.wd_nspecs - 1] = "p1:3:0:60:drop";
	ck_assert_int_eq(pfc_wd_specs_apply(&c, why, sizeof(why)), -1);
	c.wd_spec[c.wd_nspecs - 1] = "p1:3:10:60:panic";
	ck_assert_int_eq(pfc_wd_specs_apply(&c, why, sizeof(why)), -1);
	c.wd_spec[c.wd_nspecs - 1] = "p1:3:10:60";
	ck_assert_int_eq(pfc_wd_specs_apply(&c, why, sizeof(why)), -1);
	c.wd_spec[c.wd_nspecs - 1] = "p1:3:10:60:drop:x";
	ck_assert_int_eq(pfc_wd_specs_apply(&c, why, sizeof(why)), -1);
}
END_TEST

Suite *pfc_suite(void)
{
	Suite *s = suite_create("pfc");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, frame_has_the_8021qbb_layout);
	tcase_add_test(tc, frame_round_trips_and_rejects_others);
	tcase_add_test(tc, quanta_are_512_bit_times);
	tcase_add_test(tc, headroom_matches_the_paper_at_40g);
	tcase_add_test(tc, defaults_follow_the_buffer_model);
	tcase_add_test(tc, dscp_maps_parse);
	tcase_add_test(tc, thresholds_have_hysteresis);
	tcase_add_test(tc, watchdog_detects_a_storm_once);
	tcase_add_test(tc, watchdog_restores_only_after_quiet);
	tcase_add_test(tc, watchdog_specs_parse_and_refuse);
	tcase_add_test(tc, ecn_settings_are_checked_against_xoff);
	suite_add_tcase(s, tc);
	return s;
}
