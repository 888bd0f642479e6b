// SPDX-License-Identifier: GPL-2.0
/*
 * The agent's netlink requests are bounded (pfc_tc.h): an answer that
 * never comes ends in -ETIMEDOUT after the timeout instead of a recv that
 * never returns, says why, and leaves the socket usable. The request
 * without an answer is a no-op message (NLMSG_NOOP) without NLM_F_ACK,
 * which the kernel takes and does not answer: what a reply lost to a full
 * receive buffer looks like to the agent. Needs no privilege.
 */
#include <check.h>
#include <errno.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <string.h>
#include <time.h>

#include "pfc/pfc_tc.h"
#include "testlib.h"

static uint64_t ms_now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000ull + t.tv_nsec / 1000000;
}

static int count_msg(const struct nlmsghdr *nlh, void *data)
{
	(void)nlh;
	(*(int *)data)++;
	return MNL_CB_OK;
}

static void count_qdisc(const struct tc_qstats *s, void *arg)
{
	(void)s;
	(*(int *)arg)++;
}

START_TEST(an_answer_that_never_comes_times_out)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh;
	struct tc tc;
	uint64_t t0, took;
	int n = 0, r;

	ck_assert_int_eq(tc_open(&tc), 0);
	ck_assert_int_eq(tc.timeout_ms, TC_REPLY_TIMEOUT_MS);
	ck_assert_int_eq(tc_set_timeout(&tc, 200), 0);
	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = NLMSG_NOOP;
	nlh->nlmsg_flags = NLM_F_REQUEST; /* no ACK: nothing will answer */
	nlh->nlmsg_seq = ++tc.seq;
	t0 = ms_now();
	r = tc_talk(&tc, nlh, count_msg, &n);
	took = ms_now() - t0;
	ck_assert_int_eq(r, -ETIMEDOUT);
	ck_assert_msg(took >= 150 && took < 5000, "took %llu ms",
		      (unsigned long long)took);
	ck_assert_msg(strstr(tc.err, "no answer") != NULL, "err: %s", tc.err);
	ck_assert_int_eq(n, 0);
	/* The socket still works: a dump of this namespace's qdiscs. */
	ck_assert_int_eq(tc_qdisc_stats(&tc, count_qdisc, &n), 0);
	ck_assert_int_ge(n, 1); /* lo has one */
	tc_close(&tc);
}
END_TEST

START_TEST(an_answer_that_comes_is_read_and_timed)
{
	struct tc tc;
	int n = 0;

	ck_assert_int_eq(tc_open(&tc), 0);
	ck_assert_int_eq(tc_qdisc_stats(&tc, count_qdisc, &n), 0);
	ck_assert_int_ge(n, 1);
	ck_assert(tc.last_ns > 0 && tc.last_ns < 5000000000ull);
	tc_close(&tc);
}
END_TEST

/*
 * A gate change asks for no ACK (pfc_tc.c, change()): a refused one must
 * still report the kernel's error (here: no such device, or not
 * permitted without privilege), and leave nothing queued that a later
 * request would read as its own answer.
 */
START_TEST(a_refused_change_without_ack_reports_the_error)
{
	struct tc tc;
	int n = 0, r;

	ck_assert_int_eq(tc_open(&tc), 0);
	r = tc_tbf(&tc, 0x7ffffff0, 0x10010, 0x20000, 1, 1514, 100000, false);
	ck_assert_msg(r == -ENODEV || r == -EPERM || r == -EINVAL,
		      "change of a missing qdisc: %d", r);
	r = tc_plug(&tc, 0x7ffffff0, 0x300001, 0x20000, 0, 0, false);
	ck_assert_msg(r < 0, "plug change of a missing qdisc: %d", r);
	ck_assert_int_eq(tc_qdisc_stats(&tc, count_qdisc, &n), 0);
	ck_assert_int_ge(n, 1);
	tc_close(&tc);
}
END_TEST

Suite *pfc_tc_suite(void)
{
	Suite *s = suite_create("pfc_tc");
	TCase *tc = tcase_create("tc");

	tcase_set_timeout(tc, 10);
	tcase_add_test(tc, an_answer_that_never_comes_times_out);
	tcase_add_test(tc, an_answer_that_comes_is_read_and_timed);
	tcase_add_test(tc, a_refused_change_without_ack_reports_the_error);
	suite_add_tcase(s, tc);
	return s;
}
