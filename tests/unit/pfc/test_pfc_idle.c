// SPDX-License-Identifier: GPL-2.0
/*
 * An idle agent sleeps without a tick (pfc_idle.h): only after
 * PFC_IDLE_TICKS quiet ticks, never with a packet counted since the last
 * tick, a buffer held or a PAUSE or gate in force, and it ticks at once
 * when it wakes. The agent here is its private state (pfc_agent_int.h)
 * with the BPF side's arrays in memory: no skeleton, no root.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "pfc/pfc_agent_int.h"
#include "pfc/pfc_idle.h"
#include "pfc.skel.h"
#include "testlib.h"

static struct pfc_config cfg;
static struct pfc_bpf skel;
static struct pfc_bpf__bss bss;
static struct pfc_pp pp[PFC_MAX_PORTS * PFC_PRIOS];
static struct pfc_state *st;
static struct pfc_agent a;

static void setup(void)
{
	memset(&cfg, 0, sizeof(cfg));
	memset(&skel, 0, sizeof(skel));
	memset(&bss, 0, sizeof(bss));
	memset(pp, 0, sizeof(pp));
	memset(&a, 0, sizeof(a));
	st = calloc(1, sizeof(*st));
	ck_assert_ptr_nonnull(st);
	cfg.nports = 2;
	cfg.lossless_mask = 1u << 3;
	skel.bss = &bss;
	a.cfg = &cfg;
	a.skel = &skel;
	a.pp = pp;
	a.st = st;
	a.tick_at = 1;
}

static void teardown(void)
{
	free(st);
}

static void quiet_ticks(int n)
{
	while (n--)
		pfc_idle_tick(&a);
}

START_TEST(it_sleeps_only_after_enough_quiet_ticks)
{
	quiet_ticks(PFC_IDLE_TICKS - 1);
	ck_assert(!pfc_idle_enter(&a));
	ck_assert_uint_eq(bss.agent_asleep, 0);
	quiet_ticks(1);
	ck_assert(pfc_idle_enter(&a));
	ck_assert(a.asleep);
	ck_assert_uint_eq(a.tick_at, UINT64_MAX);
	ck_assert_uint_eq(bss.agent_asleep, 1);
	ck_assert_uint_eq(st->asleep, 1);
	ck_assert_uint_eq(st->ticks, PFC_IDLE_TICKS);
}
END_TEST

START_TEST(a_packet_between_the_tick_and_the_sleep_keeps_it_awake)
{
	quiet_ticks(PFC_IDLE_TICKS + 1);
	pp_of(&a, 1, 3)->pkts++; /* counted after the last tick */
	ck_assert(!pfc_idle_enter(&a));
	ck_assert(!a.asleep);
	ck_assert_uint_eq(bss.agent_asleep, 0);
	ck_assert_uint_eq(a.quiet_ticks, 0);
	ck_assert_uint_eq(a.tick_at, 1);
}
END_TEST

START_TEST(a_packet_counted_resets_the_quiet_ticks)
{
	quiet_ticks(PFC_IDLE_TICKS + 1);
	pp_of(&a, 0, 0)->pkts++;
	pfc_idle_tick(&a);
	ck_assert_uint_eq(a.quiet_ticks, 0);
	ck_assert(!pfc_idle_enter(&a));
}
END_TEST

START_TEST(anything_held_or_in_force_keeps_it_awake)
{
	int what;

	for (what = 0; what < 7; what++) {
		teardown();
		setup();
		switch (what) {
		case 0:
			pp_of(&a, 1, 3)->bytes = 1500; /* buffered */
			break;
		case 1:
			pp_of(&a, 1, 3)->xoff = 1; /* above XOFF */
			break;
		case 2:
			a.sent[0][3] = true; /* a PAUSE of ours */
			break;
		case 3:
			a.refresh_at[1] = 5;
			break;
		case 4:
			a.gate[1][3].closed = true; /* the upstream's */
			break;
		case 5:
			a.gate[0][3].ignoring = true; /* the watchdog's */
			break;
		case 6:
			sp_of(&a, 0, 3)->q_qlen = 2; /* a queue not empty */
			break;
		}
		quiet_ticks(PFC_IDLE_TICKS + 1);
		ck_assert_msg(!pfc_idle_enter(&a), "case %d slept", what);
		ck_assert_uint_eq(bss.agent_asleep, 0);
	}
}
END_TEST

START_TEST(polling_keeps_it_awake)
{
	a.polling = true;
	quiet_ticks(PFC_IDLE_TICKS + 1);
	ck_assert(!pfc_idle_enter(&a));
}
END_TEST

START_TEST(waking_ticks_at_once_and_counts_the_sleep)
{
	quiet_ticks(PFC_IDLE_TICKS + 1);
	ck_assert(pfc_idle_enter(&a));
	ck_assert(pfc_idle_enter(&a)); /* asleep already */
	pfc_idle_leave(&a);
	ck_assert(!a.asleep);
	ck_assert_uint_eq(a.tick_at, 0);
	ck_assert_uint_eq(bss.agent_asleep, 0);
	ck_assert_uint_eq(st->asleep, 0);
	ck_assert_uint_eq(st->sleeps, 1);
	pfc_idle_leave(&a); /* awake: no second sleep counted */
	ck_assert_uint_eq(st->sleeps, 1);
}
END_TEST

START_TEST(leaving_clears_a_flag_a_dead_agent_left)
{
	bss.agent_asleep = 1; /* a standby taking over */
	pfc_idle_leave(&a);
	ck_assert_uint_eq(bss.agent_asleep, 0);
	ck_assert_uint_eq(st->sleeps, 0);
	ck_assert_uint_eq(a.tick_at, 1);
}
END_TEST

Suite *pfc_idle_suite(void)
{
	Suite *s = suite_create("pfc_idle");
	TCase *tc = tcase_create("idle");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, it_sleeps_only_after_enough_quiet_ticks);
	tcase_add_test(tc,
		       a_packet_between_the_tick_and_the_sleep_keeps_it_awake);
	tcase_add_test(tc, a_packet_counted_resets_the_quiet_ticks);
	tcase_add_test(tc, anything_held_or_in_force_keeps_it_awake);
	tcase_add_test(tc, polling_keeps_it_awake);
	tcase_add_test(tc, waking_ticks_at_once_and_counts_the_sleep);
	tcase_add_test(tc, leaving_clears_a_flag_a_dead_agent_left);
	suite_add_tcase(s, tc);
	return s;
}
