// SPDX-License-Identifier: GPL-2.0
/*
 * When the agent polls for a resume instead of sleeping (pfc_poll.c, the
 * --busy-poll window) and when the BPF side says a paused buffer is near
 * XON (pfc_xon_near in pfc_maps.h): learned from the last episodes,
 * hinted, bounded by the budget, and never open without an episode.
 */
#include <check.h>
#include <string.h>

#include "pfc/pfc_poll.h"
#include "pfc_maps.h"
#include "testlib.h"

#define US 1000ull
#define MS 1000000ull

static struct pfc_expect e;

static void setup(void)
{
	memset(&e, 0, sizeof(e));
}

/* An episode from t to t + len. */
static void episode(uint64_t t, uint64_t len)
{
	pfc_expect_begin(&e, t);
	pfc_expect_end(&e, t + len);
}

START_TEST(no_episode_or_no_history_or_no_budget_means_no_window)
{
	uint64_t from, to;

	ck_assert(!pfc_expect_window(&e, 500 * US, &from, &to));
	pfc_expect_begin(&e, 10 * MS);
	ck_assert(!pfc_expect_window(&e, 500 * US, &from, &to)); /* unknown */
	pfc_expect_end(&e, 17 * MS);
	ck_assert(!pfc_expect_window(&e, 500 * US, &from, &to)); /* ended */
	pfc_expect_begin(&e, 20 * MS);
	ck_assert(!pfc_expect_window(&e, 0, &from, &to)); /* --busy-poll 0 */
	ck_assert(pfc_expect_window(&e, 500 * US, &from, &to));
}
END_TEST

START_TEST(the_window_opens_a_quarter_budget_before_the_shortest_episode)
{
	uint64_t from, to;

	episode(1 * MS, 7 * MS);
	episode(10 * MS, 6 * MS);
	episode(20 * MS, 8 * MS);
	pfc_expect_begin(&e, 100 * MS);
	ck_assert(pfc_expect_window(&e, 400 * US, &from, &to));
	ck_assert_uint_eq(from, 100 * MS + 6 * MS - 100 * US);
	ck_assert_uint_eq(to, from + 400 * US);
}
END_TEST

START_TEST(only_the_last_episodes_count)
{
	uint64_t from, to;
	int i;

	episode(1 * MS, 1 * MS); /* an old, short one */
	for (i = 0; i < PFC_EXPECT_HIST; i++)
		episode((uint64_t)(i + 1) * 100 * MS, 5 * MS);
	pfc_expect_begin(&e, 2000 * MS);
	ck_assert(pfc_expect_window(&e, 400 * US, &from, &to));
	ck_assert_uint_eq(from, 2000 * MS + 5 * MS - 100 * US);
}
END_TEST

START_TEST(a_cancelled_episode_is_not_learned)
{
	uint64_t from, to;

	episode(1 * MS, 7 * MS);
	pfc_expect_begin(&e, 10 * MS);
	pfc_expect_cancel(&e); /* expired or the watchdog: not a resume */
	ck_assert(!pfc_expect_window(&e, 400 * US, &from, &to));
	pfc_expect_begin(&e, 20 * MS);
	ck_assert(pfc_expect_window(&e, 400 * US, &from, &to));
	ck_assert_uint_eq(from, 20 * MS + 7 * MS - 100 * US);
	ck_assert_uint_eq(e.n, 1);
}
END_TEST

START_TEST(a_second_begin_keeps_the_first_start)
{
	uint64_t from, to;

	episode(1 * MS, 2 * MS);
	pfc_expect_begin(&e, 10 * MS);
	pfc_expect_begin(&e, 11 * MS); /* a refresh, the same episode */
	ck_assert(pfc_expect_window(&e, 400 * US, &from, &to));
	ck_assert_uint_eq(from, 12 * MS - 100 * US);
}
END_TEST

START_TEST(a_hint_opens_the_window_at_once_even_without_history)
{
	uint64_t from, to;

	pfc_expect_begin(&e, 10 * MS);
	pfc_expect_hint(&e, 13 * MS);
	ck_assert(pfc_expect_window(&e, 400 * US, &from, &to));
	ck_assert_uint_eq(from, 13 * MS);
	ck_assert_uint_eq(to, 13 * MS + 400 * US);
	pfc_expect_hint(&e, 14 * MS); /* one per episode */
	ck_assert(pfc_expect_window(&e, 400 * US, &from, &to));
	ck_assert_uint_eq(from, 13 * MS);
	pfc_expect_end(&e, 13 * MS + 50 * US);
	pfc_expect_begin(&e, 20 * MS); /* a new episode: no hint yet */
	ck_assert(pfc_expect_window(&e, 400 * US, &from, &to));
	ck_assert_uint_eq(from, 20 * MS + 3050 * US - 100 * US);
}
END_TEST

START_TEST(a_hint_inside_the_learned_window_keeps_it)
{
	uint64_t from, to;

	episode(1 * MS, 5 * MS);
	pfc_expect_begin(&e, 10 * MS);
	pfc_expect_hint(&e, 15 * MS); /* in [14.9, 15.3) ms */
	ck_assert(pfc_expect_window(&e, 400 * US, &from, &to));
	ck_assert_uint_eq(from, 15 * MS - 100 * US);
	memset(&e, 0, sizeof(e));
	episode(1 * MS, 5 * MS);
	pfc_expect_begin(&e, 10 * MS);
	pfc_expect_hint(&e, 18 * MS); /* after it: a window of its own */
	ck_assert(pfc_expect_window(&e, 400 * US, &from, &to));
	ck_assert_uint_eq(from, 18 * MS);
}
END_TEST

START_TEST(near_xon_is_a_paused_buffer_within_the_margin_above_xon)
{
	const uint64_t xon = 12500, near = 1562;

	ck_assert(!pfc_xon_near(0, xon + 10, xon, near)); /* not paused */
	ck_assert(!pfc_xon_near(1, xon + near + 1, xon, near));
	ck_assert(pfc_xon_near(1, xon + near, xon, near));
	ck_assert(pfc_xon_near(1, xon + 1, xon, near));
	ck_assert(!pfc_xon_near(1, xon, xon, near)); /* that is XON itself */
	ck_assert(!pfc_xon_near(1, xon + 1, xon, 0)); /* --busy-poll 0 */
}
END_TEST

Suite *pfc_poll_suite(void)
{
	Suite *s = suite_create("pfc_poll");
	TCase *tc = tcase_create("poll");

	tcase_add_checked_fixture(tc, setup, NULL);
	tcase_add_test(tc,
		       no_episode_or_no_history_or_no_budget_means_no_window);
	tcase_add_test(
		tc,
		the_window_opens_a_quarter_budget_before_the_shortest_episode);
	tcase_add_test(tc, only_the_last_episodes_count);
	tcase_add_test(tc, a_cancelled_episode_is_not_learned);
	tcase_add_test(tc, a_second_begin_keeps_the_first_start);
	tcase_add_test(tc,
		       a_hint_opens_the_window_at_once_even_without_history);
	tcase_add_test(tc, a_hint_inside_the_learned_window_keeps_it);
	tcase_add_test(tc,
		       near_xon_is_a_paused_buffer_within_the_margin_above_xon);
	suite_add_tcase(s, tc);
	return s;
}
