// SPDX-License-Identifier: GPL-2.0
/*
 * The two-order search (two_orders.h) against the exhaustive search of
 * sat_oracle.h: sound (its taggings verify), nearly complete at 2 tags,
 * deterministic, monotone in its work budget, and refusing what its bit
 * masks cannot hold.
 */
#include <check.h>

#include "compile/two_orders.h"
#include "lib/log.h"
#include "lib/util.h"
#include "sat_oracle.h"

/*
 * The two-order search against the exhaustive search: every tagging it
 * returns has at most 2 tags and compiles into rules the verifier accepts
 * (so it never answers where 2 tags are impossible), it finds one on
 * nearly every instance where 2 tags are the fewest, and it is
 * deterministic (the same keys twice).
 */
START_TEST(two_orders_are_sound_and_find_twos)
{
	int i, twos = 0, found = 0, skipped = 0;

	for (i = 0; i < 400; i++) {
		struct topo *t = random_topo();
		struct elp *e = random_walks(t);
		struct two_orders_opts opts;
		struct two_orders w, again;
		struct sat_trie tr;
		int least = brute_min(t, e, SAT_TAGGING), res;

		two_orders_opts_init(&opts);
		opts.max_share = 1;
		sat_trie_build(t, e, &tr);
		res = two_orders_search(t, e, &tr, &opts, &w);
		ck_assert_int_eq(two_orders_search(t, e, &tr, &opts, &again),
				 res);
		if (res == 1) {
			struct sat_answer a = { .k = 2, .keys = w.keys };
			struct hmap_entry *it;

			ck_assert_msg(least <= 2,
				      "instance %d: 2 tags found, "
				      "%d needed",
				      i, least);
			check_rules(t, e, &a);
			ck_assert_int_eq(again.keys.n, w.keys.n);
			HMAP_FOR_EACH(&w.keys, it)
			{
				uint64_t v;

				ck_assert(hmap_get(&again.keys, it->key, &v));
				ck_assert_int_eq(v, it->val);
			}
			found += least == 2;
		}
		skipped += res < 0;
		twos += least == 2;
		two_orders_free(&w);
		two_orders_free(&again);
		sat_trie_free(&tr);
		elp_free(e);
		topo_free(t);
	}
	pr_info("two orders: found %d of %d instances that need 2 tags\n",
		found, twos);
	ck_assert_int_eq(skipped, 0);
	ck_assert_int_gt(twos, 20);
	ck_assert_int_ge(found * 10, twos * 9);
}
END_TEST

/*
 * The breakout wanders (a weight bump can make a move that leaves more
 * paths unfit pay), so the search hands back the best orders it met, not
 * the last: with the same walk, a larger work budget never leaves more
 * paths unfit, and none leaves more than the start.
 */
START_TEST(two_orders_end_at_their_best)
{
	static const uint64_t budgets[] = { 1, 2, 5, 20, 100, 1000 };
	int i, b, tried = 0;

	for (i = 0; i < 400; i++) {
		struct topo *t = random_topo();
		struct elp *e = random_walks(t);
		struct two_orders_opts opts;
		struct sat_trie tr;
		int64_t was = INT64_MAX;

		two_orders_opts_init(&opts);
		opts.max_share = 1;
		sat_trie_build(t, e, &tr);
		for (b = 0; b < (int)ARRAY_SIZE(budgets); b++) {
			struct two_orders w;

			opts.work_per_visit = budgets[b];
			if (two_orders_search(t, e, &tr, &opts, &w) == 0) {
				tried += !b;
				ck_assert_int_le(w.unfit, w.unfit_start);
				ck_assert_msg(
					w.unfit <= was,
					"instance %d: %lld unfit with %llu "
					"events per visit, %lld with fewer",
					i, (long long)w.unfit,
					(unsigned long long)budgets[b],
					(long long)was);
				was = w.unfit;
			}
			two_orders_free(&w);
		}
		sat_trie_free(&tr);
		elp_free(e);
		topo_free(t);
	}
	ck_assert_int_gt(tried, 20);
}
END_TEST

/*
 * A path of 64 in-ports or more does not fit the search's bit masks: the
 * search says "not applicable" (-1) rather than read past them, and
 * compile_exact goes on to the solver.
 */
START_TEST(two_orders_refuse_paths_too_long)
{
	struct topo *t = topo_from_str(
		"switch T1 layer=0\nswitch L1 layer=1\nswitch L2 layer=1\n"
		"link T1:a L1:a\nlink T1:b L1:b\nlink T1:c L2:a\n");
	struct two_orders_opts opts;
	struct two_orders w;
	struct sat_trie tr;
	char line[1024] = "L2 T1:a";
	struct elp *e;
	int i;

	/* a loop through T1 and L1: two in-ports per turn */
	for (i = 0; i < 40; i++)
		strcat(line, " L1:b T1:a");
	strcat(line, " L1\n");
	e = elp_from_str(t, line);
	ck_assert_ptr_nonnull(e);
	sat_trie_build(t, e, &tr);
	two_orders_opts_init(&opts);
	opts.max_share = 1;
	ck_assert_int_eq(two_orders_search(t, e, &tr, &opts, &w), -1);
	ck_assert_ptr_null(w.tag);
	two_orders_free(&w);
	sat_trie_free(&tr);
	elp_free(e);
	topo_free(t);
}
END_TEST

Suite *two_orders_suite(void)
{
	Suite *s = suite_create("two_orders");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, two_orders_are_sound_and_find_twos);
	tcase_add_test(tc, two_orders_end_at_their_best);
	tcase_add_test(tc, two_orders_refuse_paths_too_long);
	suite_add_tcase(s, tc);
	return s;
}
