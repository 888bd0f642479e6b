// SPDX-License-Identifier: GPL-2.0
/*
 * The agent's exact recount of (in-port, priority) buffers from the egress
 * queue logs (pfc_recount.c), on hand-built logs and qdisc counts: the
 * attribution per in-port, the log/qdisc alignment, and every case where
 * it must refuse to answer rather than guess.
 */
#include <check.h>
#include <errno.h>
#include <stdlib.h>

#include "pfc/pfc_recount.h"
#include "testlib.h"

static struct pfc_pp pp[PFC_MAX_PORTS * PFC_PRIOS];
static uint64_t *ring;
static struct pfc_recount rc;
static struct pfc_qsnap qs[PFC_MAX_PORTS][PFC_PRIOS];
static uint64_t target[PFC_MAX_PORTS][PFC_PRIOS];

static void setup(void)
{
	memset(pp, 0, sizeof(pp));
	memset(&rc, 0, sizeof(rc));
	memset(qs, 0, sizeof(qs));
	ring = calloc((size_t)PFC_MAX_PORTS * PFC_PRIOS * PFC_RING,
		      sizeof(*ring));
	ck_assert_ptr_nonnull(ring);
}

static void teardown(void)
{
	free(ring);
}

/* What pfc_ingress + pfc_egress do for one forwarded packet. */
static void forward(int in, int prio, int out, int q, uint32_t len)
{
	struct pfc_pp *c = &pp[PFC_SLOT(in, prio)], *o = &pp[PFC_SLOT(out, q)];
	uint64_t idx = o->ring_head++;

	c->in_bytes += len;
	c->queued_bytes += len;
	ring[PFC_RING_SLOT(out, q, idx)] = pfc_ring_entry(idx, in, prio, len);
}

/* The qdisc of (out, q) sends n packets. */
static void send_n(int out, int q, int n)
{
	qs[out][q].done += n;
	qs[out][q].qlen -= n;
}

static int run(int nports)
{
	memset(target, 0, sizeof(target));
	pfc_recount_mark(&rc, pp, nports);
	return pfc_recount_targets(&rc, pp, ring, qs, nports, target);
}

/* Two empty observations that agree: the log is aligned. */
static void align(int nports)
{
	ck_assert_int_eq(run(nports), -EAGAIN);
	ck_assert_int_eq(run(nports), 0);
}

START_TEST(queued_bytes_go_to_their_in_ports)
{
	align(3);
	forward(0, 3, 2, 3, 1000);
	forward(1, 3, 2, 3, 1500);
	forward(0, 3, 2, 3, 700);
	forward(1, 4, 2, 5, 64); /* rewritten to another priority */
	qs[2][3].qlen = 3;
	qs[2][5].qlen = 1;
	ck_assert_int_eq(run(3), 0);
	ck_assert_uint_eq(target[0][3], 1700);
	ck_assert_uint_eq(target[1][3], 1500);
	ck_assert_uint_eq(target[1][4], 64);
	send_n(2, 3, 1); /* FIFO: port 0's 1000 B left first */
	ck_assert_int_eq(run(3), 0);
	ck_assert_uint_eq(target[0][3], 700);
	ck_assert_uint_eq(target[1][3], 1500);
	send_n(2, 3, 2);
	send_n(2, 5, 1);
	ck_assert_int_eq(run(3), 0);
	ck_assert_uint_eq(target[0][3], 0);
	ck_assert_uint_eq(target[1][3], 0);
	ck_assert_uint_eq(target[1][4], 0);
}
END_TEST

START_TEST(bytes_not_yet_queued_count_and_early_drops_do_not)
{
	align(2);
	pp[PFC_SLOT(0, 3)].in_bytes = 5000; /* 5000 B in the IP stack */
	forward(0, 3, 1, 3, 1000);
	qs[1][3].qlen = 1;
	ck_assert_int_eq(run(2), 0);
	ck_assert_uint_eq(target[0][3], 6000);
	pp[PFC_SLOT(0, 3)].early_drop_bytes = 2000; /* e.g. TTL expired */
	ck_assert_int_eq(run(2), 0);
	ck_assert_uint_eq(target[0][3], 4000);
}
END_TEST

START_TEST(packets_nobody_counted_are_skipped)
{
	struct pfc_pp *o = &pp[PFC_SLOT(1, 0)];
	uint64_t idx;

	align(2);
	idx = o->ring_head++; /* sent by the switch itself */
	ring[PFC_RING_SLOT(1, 0, idx)] =
		pfc_ring_entry(idx, PFC_RE_NONE, 0, 90);
	forward(0, 0, 1, 0, 100);
	qs[1][0].qlen = 2;
	ck_assert_int_eq(run(2), 0);
	ck_assert_uint_eq(target[0][0], 100);
}
END_TEST

START_TEST(a_log_that_started_late_is_aligned_when_empty)
{
	/* The qdisc sent 3 packets before the log existed. */
	qs[1][2].done = 3;
	align(2);
	forward(0, 2, 1, 2, 300);
	forward(0, 2, 1, 2, 400);
	qs[1][2].qlen = 2;
	send_n(1, 2, 1);
	ck_assert_int_eq(run(2), 0);
	ck_assert_uint_eq(target[0][2], 400);
}
END_TEST

START_TEST(disagreeing_alignments_are_not_trusted)
{
	ck_assert_int_eq(run(2), -EAGAIN);
	qs[1][1].done = 1; /* moved between the two observations */
	ck_assert_int_eq(run(2), -EAGAIN);
	ck_assert_int_eq(run(2), 0);
}
END_TEST

START_TEST(an_entry_being_written_is_not_guessed)
{
	struct pfc_pp *o = &pp[PFC_SLOT(1, 3)];

	align(2);
	forward(0, 3, 1, 3, 100);
	o->ring_head++; /* index taken, entry not yet stored */
	qs[1][3].qlen = 2;
	ck_assert_int_eq(run(2), -EAGAIN);
}
END_TEST

START_TEST(more_queued_than_the_log_holds_is_refused)
{
	int i;

	align(2);
	for (i = 0; i < PFC_RING + 1; i++)
		forward(0, 3, 1, 3, 64);
	qs[1][3].qlen = PFC_RING + 1;
	ck_assert_int_eq(run(2), -EAGAIN);
	send_n(1, 3, 1);
	ck_assert_int_eq(run(2), 0);
	ck_assert_uint_eq(target[0][3], 64ull * PFC_RING);
}
END_TEST

Suite *pfc_recount_suite(void)
{
	Suite *s = suite_create("pfc_recount");
	TCase *tc = tcase_create("recount");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, queued_bytes_go_to_their_in_ports);
	tcase_add_test(tc, bytes_not_yet_queued_count_and_early_drops_do_not);
	tcase_add_test(tc, packets_nobody_counted_are_skipped);
	tcase_add_test(tc, a_log_that_started_late_is_aligned_when_empty);
	tcase_add_test(tc, disagreeing_alignments_are_not_trusted);
	tcase_add_test(tc, an_entry_being_written_is_not_guessed);
	tcase_add_test(tc, more_queued_than_the_log_holds_is_refused);
	suite_add_tcase(s, tc);
	return s;
}
