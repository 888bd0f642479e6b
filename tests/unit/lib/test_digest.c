// SPDX-License-Identifier: GPL-2.0
/* SHA-256 and base64 through libcrypto (userspace/lib/digest.c). */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "lib/digest.h"

START_TEST(sha256_of_known_strings)
{
	char hex[DIGEST_STR];

	ck_assert_int_eq(digest_sha256("abc", 3, hex), 0);
	ck_assert_str_eq(hex, "sha256:ba7816bf8f01cfea414140de5dae2223"
			      "b00361a396177a9cb410ff61f20015ad");
	ck_assert_int_eq(digest_sha256("", 0, hex), 0);
	ck_assert_str_eq(hex, "sha256:e3b0c44298fc1c149afbf4c8996fb924"
			      "27ae41e4649b934ca495991b7852b855");
	ck_assert_int_eq(strlen(hex), DIGEST_STR - 1);
}
END_TEST

START_TEST(base64_round_trip_and_refusals)
{
	unsigned char buf[257];
	size_t n, len;
	char *s;
	void *back;

	for (n = 0; n < sizeof(buf); n++)
		buf[n] = n * 7;
	for (n = 0; n <= sizeof(buf); n += 1 + n / 4) {
		s = base64_encode(buf, n);
		ck_assert_int_eq(strlen(s), 4 * ((n + 2) / 3));
		back = base64_decode(s, &len);
		ck_assert_ptr_nonnull(back);
		ck_assert_int_eq(len, n);
		ck_assert(!memcmp(back, buf, n));
		free(back);
		free(s);
	}
	ck_assert_ptr_null(base64_decode("abc", &len)); /* not 4k long */
	ck_assert_ptr_null(base64_decode("ab!d", &len)); /* alphabet */
	back = base64_decode("", &len);
	ck_assert_ptr_nonnull(back);
	ck_assert_int_eq(len, 0);
	free(back);
}
END_TEST

Suite *digest_suite(void)
{
	Suite *s = suite_create("digest");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, sha256_of_known_strings);
	tcase_add_test(tc, base64_round_trip_and_refusals);
	suite_add_tcase(s, tc);
	return s;
}
