// SPDX-License-Identifier: GPL-2.0
/*
 * Where a polling agent may go (pfc_cpu.h): off the CPU that drains its
 * paused buffer when it is on it, within the set it was allowed, and
 * never to an empty set; and it gets its set back, unless someone set
 * another meanwhile.
 */
#include <check.h>
#include <sched.h>

#include "pfc/pfc_cpu.h"
#include "testlib.h"

static cpu_set_t of(int a, int b)
{
	cpu_set_t s;

	CPU_ZERO(&s);
	if (a >= 0)
		CPU_SET(a, &s);
	if (b >= 0)
		CPU_SET(b, &s);
	return s;
}

START_TEST(on_the_draining_cpu_it_leaves_it)
{
	cpu_set_t all = of(0, 1), out;

	ck_assert(pfc_cpu_away(&all, 1, 1, &out));
	ck_assert(CPU_ISSET(0, &out) && !CPU_ISSET(1, &out));
	ck_assert_int_eq(CPU_COUNT(&out), 1);
}
END_TEST

START_TEST(elsewhere_or_unknown_it_stays)
{
	cpu_set_t all = of(0, 1), out;

	ck_assert(!pfc_cpu_away(&all, 1, 0, &out)); /* away already */
	ck_assert(!pfc_cpu_away(&all, -1, 0, &out)); /* not said */
	ck_assert(!pfc_cpu_away(&all, CPU_SETSIZE, 0, &out));
}
END_TEST

START_TEST(it_never_goes_outside_its_set_or_to_none)
{
	cpu_set_t one = of(0, -1), two = of(2, 3), out;

	ck_assert(!pfc_cpu_away(&one, 0, 0, &out)); /* taskset -c 0 */
	/* Draining on a CPU it may not use: nothing to leave. */
	ck_assert(!pfc_cpu_away(&two, 1, 1, &out));
	ck_assert(pfc_cpu_away(&two, 3, 3, &out));
	ck_assert(CPU_ISSET(2, &out) && CPU_COUNT(&out) == 1);
}
END_TEST

START_TEST(restore_gives_the_set_back)
{
	struct pfc_cpu c = { .away = false };
	cpu_set_t mine, now;
	int cpu = sched_getcpu();

	ck_assert_int_eq(sched_getaffinity(0, sizeof(mine), &mine), 0);
	if (CPU_COUNT(&mine) < 2 || cpu < 0)
		return; /* one CPU: nothing to leave */
	ck_assert_int_eq(pfc_cpu_avoid(&c, cpu), cpu);
	ck_assert(c.away);
	ck_assert_int_eq(c.moves, 1);
	ck_assert_int_eq(sched_getaffinity(0, sizeof(now), &now), 0);
	ck_assert(!CPU_ISSET(cpu, &now));
	ck_assert_int_ne(sched_getcpu(), cpu);
	pfc_cpu_restore(&c);
	ck_assert(!c.away);
	ck_assert_int_eq(sched_getaffinity(0, sizeof(now), &now), 0);
	ck_assert(CPU_EQUAL(&now, &mine));
	/* Set by someone else while away (taskset): theirs stands. */
	cpu = sched_getcpu();
	ck_assert_int_eq(pfc_cpu_avoid(&c, cpu), cpu);
	CPU_ZERO(&now);
	CPU_SET(cpu, &now);
	ck_assert_int_eq(sched_setaffinity(0, sizeof(now), &now), 0);
	pfc_cpu_restore(&c);
	ck_assert(!c.away);
	ck_assert_int_eq(sched_getaffinity(0, sizeof(now), &now), 0);
	ck_assert(CPU_COUNT(&now) == 1 && CPU_ISSET(cpu, &now));
	ck_assert_int_eq(sched_setaffinity(0, sizeof(mine), &mine), 0);
	/* Not on the draining CPU: no move. */
	cpu = sched_getcpu();
	ck_assert_int_eq(pfc_cpu_avoid(&c, cpu == 0 ? 1 : 0), -1);
	ck_assert(!c.away);
}
END_TEST

Suite *pfc_cpu_suite(void)
{
	Suite *s = suite_create("pfc_cpu");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, on_the_draining_cpu_it_leaves_it);
	tcase_add_test(tc, elsewhere_or_unknown_it_stays);
	tcase_add_test(tc, it_never_goes_outside_its_set_or_to_none);
	tcase_add_test(tc, restore_gives_the_set_back);
	suite_add_tcase(s, tc);
	return s;
}
