// SPDX-License-Identifier: GPL-2.0
/* Numbers with tc(8) units (lib/units.h). */
#include <check.h>

#include "lib/units.h"
#include "testlib.h"

START_TEST(rates_parse_like_tc)
{
	uint64_t v;

	ck_assert(parse_rate("100mbit", &v) && v == 100000000ull);
	ck_assert(parse_rate("1gbit", &v) && v == 1000000000ull);
	ck_assert(parse_rate("2.5Gbit", &v) && v == 2500000000ull);
	ck_assert(parse_rate("10mbps", &v) && v == 80000000ull);
	ck_assert(parse_rate("64000", &v) && v == 64000);
	ck_assert(!parse_rate("fast", &v));
	ck_assert(!parse_rate("10furlongs", &v));
	ck_assert(!parse_rate("0.1bit", &v));
	ck_assert(!parse_rate("", &v));
}
END_TEST

START_TEST(sizes_parse_like_tc)
{
	uint64_t v;

	ck_assert(parse_size("64k", &v) && v == 65536);
	ck_assert(parse_size("64KB", &v) && v == 65536);
	ck_assert(parse_size("1500", &v) && v == 1500);
	ck_assert(parse_size("1.5m", &v) && v == 1572864);
	ck_assert(parse_size("2g", &v) && v == 2147483648ull);
	ck_assert(!parse_size("-1", &v));
	ck_assert(!parse_size("0", &v));
	ck_assert(!parse_size("1e30", &v));
	ck_assert(!parse_size("64kbit", &v));
}
END_TEST

Suite *units_suite(void)
{
	Suite *s = suite_create("units");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, rates_parse_like_tc);
	tcase_add_test(tc, sizes_parse_like_tc);
	suite_add_tcase(s, tc);
	return s;
}
