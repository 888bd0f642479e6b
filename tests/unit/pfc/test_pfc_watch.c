// SPDX-License-Identifier: GPL-2.0
/*
 * Heartbeats (pfc_watch.h): when a watcher (the standby, or the agent
 * watching its standby) calls the other hung, and the deadline the pause
 * timing gives. A frozen process is one whose beat stops changing while
 * it owes beats; a watcher frozen along with it must not call it hung the
 * moment both run again.
 */
#include <check.h>
#include <string.h>

#include "pfc/pfc_config.h"
#include "pfc/pfc_watch.h"
#include "testlib.h"

#define MS 1000000ull
#define D (200 * MS)

static struct pfc_watch w;

static void setup(void)
{
	memset(&w, 0, sizeof(w));
}

START_TEST(nothing_pending_is_never_a_stall)
{
	uint64_t t;

	for (t = 1; t < 10000; t += 50)
		ck_assert(!pfc_watch_stale(&w, 5, false, t * MS, D));
}
END_TEST

START_TEST(a_beat_unchanged_for_the_deadline_with_work_pending_is)
{
	ck_assert(!pfc_watch_stale(&w, 5, true, 1000 * MS, D));
	ck_assert(!pfc_watch_stale(&w, 5, true, 1050 * MS, D));
	ck_assert(!pfc_watch_stale(&w, 5, true, 1100 * MS, D));
	ck_assert(!pfc_watch_stale(&w, 5, true, 1150 * MS, D));
	ck_assert(!pfc_watch_stale(&w, 5, true, 1200 * MS, D)); /* = D */
	ck_assert(pfc_watch_stale(&w, 5, true, 1250 * MS, D));
}
END_TEST

START_TEST(a_new_beat_or_a_pause_in_the_work_starts_afresh)
{
	ck_assert(!pfc_watch_stale(&w, 5, true, 1000 * MS, D));
	ck_assert(!pfc_watch_stale(&w, 5, true, 1090 * MS, D));
	ck_assert(!pfc_watch_stale(&w, 6, true, 1180 * MS, D)); /* beat */
	ck_assert(!pfc_watch_stale(&w, 6, true, 1270 * MS, D));
	ck_assert(!pfc_watch_stale(&w, 6, false, 1360 * MS, D)); /* asleep */
	ck_assert(!pfc_watch_stale(&w, 6, true, 1450 * MS, D));
	ck_assert(!pfc_watch_stale(&w, 6, true, 1540 * MS, D));
	ck_assert(!pfc_watch_stale(&w, 6, true, 1630 * MS, D));
	ck_assert(pfc_watch_stale(&w, 6, true, 1700 * MS, D));
}
END_TEST

START_TEST(a_watcher_that_was_away_itself_measures_afresh)
{
	ck_assert(!pfc_watch_stale(&w, 5, true, 1000 * MS, D));
	/* Both frozen for 3 s, then the watcher looks first. */
	ck_assert(!pfc_watch_stale(&w, 5, true, 4000 * MS, D));
	ck_assert(!pfc_watch_stale(&w, 5, true, 4050 * MS, D));
	/* ... and the other really is hung: the deadline, from 4 s. */
	ck_assert(!pfc_watch_stale(&w, 5, true, 4150 * MS, D));
	ck_assert(pfc_watch_stale(&w, 5, true, 4250 * MS, D));
}
END_TEST

START_TEST(no_deadline_no_verdict)
{
	ck_assert(!pfc_watch_stale(&w, 5, true, 1000 * MS, 0));
	ck_assert(!pfc_watch_stale(&w, 5, true, 1000 * MS + 1, 0));
}
END_TEST

START_TEST(the_deadline_is_a_tick_and_the_pause_at_least_500_ms)
{
	struct pfc_config c;

	memset(&c, 0, sizeof(c));
	c.nports = 2;
	c.rate_bps = 20000000ull;
	c.quanta = 65535;
	c.wd_detect_ms = 200;
	/* 50 ms tick + 1677.7 ms of PAUSE at 20 Mbit/s */
	ck_assert_uint_eq(pfc_stall_ns(&c) / 100000, 17276);
	c.ports[1].rate_bps = 1000000000ull; /* 33.6 ms: the shortest */
	ck_assert_uint_eq(pfc_stall_ns(&c), PFC_STALL_MIN_NS);
	c.ports[1].rate_bps = 10000000ull; /* slower: port 0 still counts */
	ck_assert_uint_eq(pfc_stall_ns(&c) / 100000, 17276);
	c.wd_detect_ms = 2000; /* the tick is at most 100 ms */
	ck_assert_uint_eq(pfc_stall_ns(&c) / 100000, 17776);
	c.rate_bps = 100000000ull; /* 100 + 335.5 ms: the floor */
	c.ports[1].rate_bps = 0;
	ck_assert_uint_eq(pfc_stall_ns(&c), PFC_STALL_MIN_NS);
}
END_TEST

Suite *pfc_watch_suite(void)
{
	Suite *s = suite_create("pfc_watch");
	TCase *tc = tcase_create("watch");

	tcase_add_checked_fixture(tc, setup, NULL);
	tcase_add_test(tc, nothing_pending_is_never_a_stall);
	tcase_add_test(tc,
		       a_beat_unchanged_for_the_deadline_with_work_pending_is);
	tcase_add_test(tc, a_new_beat_or_a_pause_in_the_work_starts_afresh);
	tcase_add_test(tc, a_watcher_that_was_away_itself_measures_afresh);
	tcase_add_test(tc, no_deadline_no_verdict);
	tcase_add_test(tc,
		       the_deadline_is_a_tick_and_the_pause_at_least_500_ms);
	suite_add_tcase(s, tc);
	return s;
}
