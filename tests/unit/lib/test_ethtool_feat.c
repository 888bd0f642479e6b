// SPDX-License-Identifier: GPL-2.0
/*
 * A device's feature flag by name: lo's hw-tc-offload is off and fixed, as
 * `ethtool -k lo` says, its loopback flag on; a name the kernel lacks is
 * -ENOENT, a device that is not here -ENODEV; the name lookup in a string
 * set stops at each string's 32 bytes.
 */
#include <check.h>
#include <errno.h>
#include <linux/ethtool.h>
#include <string.h>

#include "lib/ethtool_feat.h"

START_TEST(lo_has_no_tc_offload_and_cannot_get_one)
{
	struct ethtool_feat st = { true, true };

	ck_assert_int_eq(ethtool_feature("lo", "hw-tc-offload", &st), 0);
	ck_assert(!st.on);
	ck_assert(!st.changeable);
	ck_assert_int_eq(ethtool_feature("lo", "loopback", &st), 0);
	ck_assert(st.on);
}
END_TEST

START_TEST(unknown_names_and_devices)
{
	struct ethtool_feat st;

	ck_assert_int_eq(ethtool_feature("lo", "no-such-feature", &st),
			 -ENOENT);
	ck_assert_int_eq(
		ethtool_feature("tgr-nonexistent", "hw-tc-offload", &st),
		-ENODEV);
	ck_assert_int_eq(
		ethtool_feature("0123456789abcdefgh", "hw-tc-offload", &st),
		-ENODEV);
}
END_TEST

START_TEST(index_matches_whole_strings_only)
{
	char s[3 * ETH_GSTRING_LEN] = { 0 };

	strcpy(s, "hw-tc");
	strcpy(s + ETH_GSTRING_LEN, "hw-tc-offload");
	/* 32 bytes without a NUL */
	memset(s + 2 * ETH_GSTRING_LEN, 'a', ETH_GSTRING_LEN);
	ck_assert_int_eq(ethtool_feature_index(s, 3, "hw-tc-offload"), 1);
	ck_assert_int_eq(ethtool_feature_index(s, 3, "hw-tc"), 0);
	ck_assert_int_eq(ethtool_feature_index(s, 3, "hw"), -1);
	ck_assert_int_eq(
		ethtool_feature_index(s, 3, "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"),
		2);
	ck_assert_int_eq(ethtool_feature_index(
				 s, 3, "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"),
			 -1);
	ck_assert_int_eq(ethtool_feature_index(s, 1, "hw-tc-offload"), -1);
}
END_TEST

Suite *ethtool_feat_suite(void)
{
	Suite *s = suite_create("ethtool_feat");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, lo_has_no_tc_offload_and_cannot_get_one);
	tcase_add_test(tc, unknown_names_and_devices);
	tcase_add_test(tc, index_matches_whole_strings_only);
	suite_add_tcase(s, tc);
	return s;
}
