// SPDX-License-Identifier: GPL-2.0
/*
 * Flower lists as tc batch lines: one line per tc filter the lists count,
 * the keys and actions of known filters, software against hardware form.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "dataplane/flower_tc.h"
#include "testlib.h"

static const char *rules_json =
	"{\"format\":\"tagger-rules/1\",\"lossy\":{\"tag\":0,\"priority\":0},"
	"\"tags\":[{\"tag\":10,\"priority\":3},{\"tag\":20,\"priority\":4}],"
	"\"switches\":{\"S\":{\"ports\":[\"a\",\"b\"],"
	"\"classify\":[{\"in\":\"a\",\"tag\":10,\"priority\":3},"
	"{\"in\":\"b\",\"tag\":10,\"priority\":3}],"
	"\"rewrite\":[{\"tag\":10,\"in\":\"a\",\"out\":\"b\",\"new_tag\":20},"
	"{\"tag\":10,\"in\":\"b\",\"out\":\"b\",\"new_tag\":0}]}}}";

static char *const ifnames[] = { "swp1", "swp2" };

static char *render(int port, int gen, bool hw, long *entries)
{
	json_error_t e;
	json_t *root = json_loads(rules_json, 0, &e);
	struct rules *r = rules_from_json(root, "t.json");
	struct flower_port fp;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	ck_assert_ptr_nonnull(r);
	ck_assert_int_eq(flower_port_build(r, 0, port, &fp), 0);
	ck_assert_int_eq(flower_tc_write(f, &fp, ifnames, port, gen, hw), 0);
	fclose(f);
	*entries = flower_list_entries(&fp.in) + flower_list_entries(&fp.out) +
		   flower_tc_handoffs(false, hw) + flower_tc_handoffs(true, hw);
	flower_port_free(&fp);
	rules_free(r);
	json_decref(root);
	return buf;
}

static long count(const char *s, const char *word)
{
	long n = 0;

	for (; (s = strstr(s, word)); s++)
		n++;
	return n;
}

START_TEST(one_line_per_counted_filter)
{
	long entries;
	char *s = render(1, 0, false, &entries);

	ck_assert_int_eq(count(s, "\n"), entries);
	ck_assert_int_eq(count(s, "filter add dev swp2 "), entries);
	free(s);
}
END_TEST

START_TEST(software_filters_classify_rewrite_and_fix_the_checksum)
{
	long entries;
	char *s = render(1, 0, false, &entries);

	/* classify at b's ingress: tag 10 (tos 0x28) lossless at 3 */
	ck_assert_ptr_nonnull(strstr(
		s,
		"filter add dev swp2 ingress chain 1 pref 10 protocol ipv6 flower skip_hw ip_tos 0x28/0xfc "
		"action skbedit priority 3 mark 0xc0000003/0xc0000007 goto chain 29799\n"));
	/* what no filter of a chain matched goes on to the pause agent */
	ck_assert_ptr_nonnull(strstr(
		s, "filter add dev swp2 egress chain 3 pref 65535 protocol all "
		   "flower skip_hw action goto chain 29799\n"));
	/* group-addressed go to the group chain */
	ck_assert_ptr_nonnull(strstr(
		s,
		"filter add dev swp2 ingress chain 1 pref 2 protocol all flower skip_hw "
		"dst_mac 01:00:00:00:00:00/01:00:00:00:00:00 action goto chain 2\n"));
	/* rewrite at b's egress: from a, 10 -> 20, priority 4, ECN kept */
	ck_assert_ptr_nonnull(strstr(
		s,
		"protocol ip flower skip_hw indev swp1 ip_tos 0x28/0xfc "
		"action pedit ex munge ip dsfield set 0x50 retain 0xfc pipe "
		"action csum ip4h pipe action skbedit priority 4 goto chain 29799\n"));
	/* from b itself, a rule to the lossy tag */
	ck_assert_ptr_nonnull(strstr(
		s,
		"indev swp2 ip_tos 0x28/0xfc action pedit ex munge ip dsfield set 0x00 retain 0xfc pipe"));
	/* behind two VLAN tags: lossy, DSCP kept, at both ends */
	ck_assert_ptr_nonnull(strstr(
		s,
		"filter add dev swp2 ingress chain 1 pref 1 protocol 802.1ad "
		"flower skip_hw action skbedit priority 0 mark "
		"0x80000000/0xc0000007 goto chain 29799\n"));
	ck_assert_ptr_nonnull(strstr(
		s,
		"filter add dev swp2 egress chain 1 pref 1 protocol 802.1ad "
		"flower skip_hw action skbedit priority 0 goto chain 29799\n"));
	ck_assert_int_eq(count(s, "skip_sw"), 0);
	free(s);
}
END_TEST

START_TEST(hardware_filters_skip_software_without_csum_or_mark)
{
	long entries;
	char *s = render(1, 1, true, &entries);

	ck_assert_int_eq(count(s, "skip_sw"), entries);
	ck_assert_int_eq(count(s, "csum"), 0);
	ck_assert_int_eq(count(s, " mark "), 0);
	/* generation 1's chains */
	ck_assert_ptr_nonnull(strstr(s, "ingress chain 4 pref 1 "));
	ck_assert_ptr_null(strstr(s, "ingress chain 1 "));
	free(s);
}
END_TEST

START_TEST(the_chain_entry_switches_generations_by_handle)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	ck_assert_int_eq(flower_tc_chain_entry(f, "swp1", 1, true, true), 0);
	fclose(f);
	ck_assert_str_eq(
		buf, "filter replace dev swp1 egress chain 0 pref 1 handle 1 "
		     "protocol all flower action goto chain 4\n");
	free(buf);
}
END_TEST

Suite *flower_tc_suite(void)
{
	Suite *s = suite_create("flower_tc");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, one_line_per_counted_filter);
	tcase_add_test(tc,
		       software_filters_classify_rewrite_and_fix_the_checksum);
	tcase_add_test(tc, hardware_filters_skip_software_without_csum_or_mark);
	tcase_add_test(tc, the_chain_entry_switches_generations_by_handle);
	suite_add_tcase(s, tc);
	return s;
}
