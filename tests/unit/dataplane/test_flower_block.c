// SPDX-License-Identifier: GPL-2.0
/*
 * Shared block indices: the lowest free ones of tagger's range, around
 * blocks any qdisc is bound to (ingress or egress, ours or another's);
 * a full range refused; a device's blocks found by ifindex.
 */
#include <check.h>
#include <errno.h>
#include <stdlib.h>

#include "dataplane/flower_block.h"
#include "testlib.h"

START_TEST(picks_the_lowest_free_indices)
{
	const struct flower_block_use used[] = {
		{ .ifindex = 3, .in = FLOWER_BLOCK_BASE },
		{ .ifindex = 4, .eg = FLOWER_BLOCK_BASE + 2 },
		{ .ifindex = 5, .in = 7 },
	};
	uint32_t out[3], in, eg;

	ck_assert_int_eq(flower_block_pick(used, 3, out, 3), 0);
	ck_assert_uint_eq(out[0], FLOWER_BLOCK_BASE + 1);
	ck_assert_uint_eq(out[1], FLOWER_BLOCK_BASE + 3);
	ck_assert_uint_eq(out[2], FLOWER_BLOCK_BASE + 4);
	ck_assert(flower_block_ours(out[0]));
	ck_assert(!flower_block_ours(7));
	ck_assert(flower_block_of(used, 3, 4, &in, &eg));
	ck_assert_uint_eq(in, 0);
	ck_assert_uint_eq(eg, FLOWER_BLOCK_BASE + 2);
	ck_assert(!flower_block_of(used, 3, 9, &in, &eg));
}
END_TEST

START_TEST(a_full_range_is_refused)
{
	uint32_t n = FLOWER_BLOCK_RANGE, i, out[1];
	struct flower_block_use *used = calloc(n, sizeof(*used));

	for (i = 0; i < n; i++)
		used[i].in = FLOWER_BLOCK_BASE + i;
	ck_assert_int_eq(flower_block_pick(used, (int)n - 1, out, 1), 0);
	ck_assert_uint_eq(out[0], FLOWER_BLOCK_BASE + n - 1);
	ck_assert_int_eq(flower_block_pick(used, (int)n, out, 1), -ENOSPC);
	free(used);
}
END_TEST

Suite *flower_block_suite(void)
{
	Suite *s = suite_create("flower_block");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, picks_the_lowest_free_indices);
	tcase_add_test(tc, a_full_range_is_refused);
	suite_add_tcase(s, tc);
	return s;
}
