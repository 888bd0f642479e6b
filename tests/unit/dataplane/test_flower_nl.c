// SPDX-License-Identifier: GPL-2.0
/*
 * The netlink messages of flower_nl.c against what iproute2 6.1's tc sends
 * for the same batch lines (flower_tc.c), byte for byte but the sequence
 * number: the expected bytes were taken with strace from `tc -b` (`tc
 * -force -b` where the kernel has no cls_flower: the request is sent all
 * the same) of the lines named above each (interface swp2 at ifindex 11). Then the pedit
 * keys parsed back, and the mapping of a tc filter to its logical one.
 */
#include <arpa/inet.h>
#include <check.h>
#include <linux/pkt_cls.h>
#include <linux/rtnetlink.h>
#include <linux/tc_act/tc_pedit.h>
#include <stdlib.h>
#include <string.h>

#include "dataplane/flower_nl.h"
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
#define IFINDEX 11

static const char *const tc_bytes[] = {
	/* ingress chain 1 pref 8: 802.1q, vlan_ethtype ipv6, dst_ip ff00::/8, goto chain 2 */
	"ac0000002c0005060000000000000000000000000b00000000000000f2ffffff"
	"8100080008000b00010000000b000100666c6f77657200007400020006001900"
	"86dd000014001000ff00000000000000000000000000000014001100ff000000"
	"000000000000000000000000300003002c000100090001006761637400000000"
	"1c00028018000200000000000000000002000020000000000000000008001600"
	"010000000600080081000000",
	/* ingress chain 1 pref 10: ipv6, ip_tos 0x28/0xfc, skbedit priority 3 mark, goto chain 29799 */
	"a40000002c0005060000000000000000000000000b00000000000000f2ffffff"
	"86dd0a0008000b00010000000b000100666c6f77657200006c00020005004900"
	"2800000005004a00fc00000048000300440001000c000100736b626564697400"
	"3400028018000200000000000000000067740020000000000000000008000300"
	"0300000008000500030000c008000800070000c0080016000100000006000800"
	"86dd0000",
	/* egress chain 3 pref 11: ip, indev swp1, ip_tos 0x28/0xfc, pedit dsfield 0x50, csum, skbedit priority 4, goto chain 29799 */
	"300100002c0005060000000000000000000000000b00000000000000f3ffffff"
	"08000b0008000b00030000000b000100666c6f7765720000f800020009000200"
	"7377703100000000050049002800000005004a00fc000000c800030060000100"
	"0a00010070656469740000005000028034000400000000000000000003000000"
	"000000000000000001000000ff03ffff00500000000000000000000000000000"
	"0000000018000580140006800600010002000000060002000000000030000200"
	"090001006373756d00000000200002801c000100000000000000000003000000"
	"000000000000000001000000340003000c000100736b62656469740024000280"
	"1800020000000000000000006774002000000000000000000800030004000000"
	"08001600010000000600080008000000",
	/* --offload, generation 1: egress chain 6 pref 14: 802.1q, vlan_ethtype ipv6, indev swp1, pedit traffic_class 0x50, skbedit priority 4, skip_sw */
	"080100002c0005060000000000000000000000000b00000000000000f3ffffff"
	"81000e0008000b00060000000b000100666c6f7765720000d000020006001900"
	"86dd0000090002007377703100000000050049002800000005004a00fc000000"
	"98000300600001000a0001007065646974000000500002803400040000000000"
	"0000000003000000000000000000000001000000f03fffff0500000000000000"
	"0000000000000000000000001800058014000680060001000300000006000200"
	"00000000340002000c000100736b626564697400240002801800020000000000"
	"0000000000000000000000000000000008000300040000000800160002000000"
	"0600080081000000",
	/* filter replace, egress chain 0 pref 1 handle 1, goto chain 4 */
	"740000002c0005040000000000000000000000000b00000001000000f3ffffff"
	"0003010008000b00000000000b000100666c6f77657200003c00020030000300"
	"2c0001000900010067616374000000001c000280180002000000000000000000"
	"0400002000000000000000000800160000000000",
	/* chain del, ingress chain 1 */
	"2c000000650005000000000000000000000000000b00000000000000f2ffffff"
	"0000000008000b0001000000",
};

static struct flower_port fp;
static struct rules *r;
static json_t *root;

static void setup(void)
{
	json_error_t e;

	root = json_loads(rules_json, 0, &e);
	r = rules_from_json(root, "t.json");
	ck_assert_ptr_nonnull(r);
	ck_assert_int_eq(flower_port_build(r, 0, 1, &fp), 0);
}

static void teardown(void)
{
	flower_port_free(&fp);
	rules_free(r);
	json_decref(root);
}

struct find {
	bool egress;
	int chain, pref;
	struct flower_tc_filter t;
};

static int find_one(const struct flower_tc_filter *t, void *arg)
{
	struct find *f = arg;

	if (t->egress != f->egress || t->chain != f->chain ||
	    t->pref != f->pref)
		return 0;
	f->t = *t;
	return 1;
}

/* The tc filter of port b at (direction, chain, pref) of generation gen. */
static struct flower_tc_filter tc_filter(int gen, bool hw, bool egress,
					 int chain, int pref)
{
	struct find f = { .egress = egress, .chain = chain, .pref = pref };

	ck_assert_int_eq(flower_tc_walk(&fp, gen, hw, find_one, &f), 1);
	return f.t;
}

static char *hex(const struct nlmsghdr *nlh)
{
	const unsigned char *b = (const unsigned char *)nlh;
	char *s = malloc(2 * nlh->nlmsg_len + 1);
	unsigned int i;

	for (i = 0; i < nlh->nlmsg_len; i++)
		sprintf(s + 2 * i, "%02x", b[i]);
	return s;
}

static void same_as_tc(struct nlmsghdr *nlh, int i)
{
	char *s;

	nlh->nlmsg_seq = 0;
	s = hex(nlh);
	ck_assert_str_eq(s, tc_bytes[i]);
	free(s);
}

START_TEST(filters_are_the_bytes_tc_sends)
{
	static char buf[16384];
	struct tc tc = { 0 };
	struct flower_tc_filter t;

	t = tc_filter(0, false, false, 1, 8);
	same_as_tc(flower_nl_filter_msg(&tc, buf, &t, IFINDEX, ifnames), 0);
	t = tc_filter(0, false, false, 1, 10);
	same_as_tc(flower_nl_filter_msg(&tc, buf, &t, IFINDEX, ifnames), 1);
	t = tc_filter(0, false, true, 3, 11);
	same_as_tc(flower_nl_filter_msg(&tc, buf, &t, IFINDEX, ifnames), 2);
	t = tc_filter(1, true, true, 6, 14);
	same_as_tc(flower_nl_filter_msg(&tc, buf, &t, IFINDEX, ifnames), 3);
}
END_TEST

START_TEST(entry_and_chain_del_are_the_bytes_tc_sends)
{
	static char buf[16384];
	struct tc tc = { 0 };

	same_as_tc(flower_nl_entry_msg(&tc, buf, IFINDEX, 1, true, true), 4);
	same_as_tc(flower_nl_chain_del_msg(&tc, buf, IFINDEX, false, 1), 5);
}
END_TEST

/* The attribute at path (types, from TCA_OPTIONS down) in a message. */
static const struct nlattr *attr_at(const struct nlmsghdr *nlh, const int *path,
				    int n)
{
	const struct nlattr *a, *found = NULL;
	int i;

	mnl_attr_for_each(a, nlh,
			  sizeof(struct tcmsg)) if (mnl_attr_get_type(a) ==
						    path[0]) found = a;
	for (i = 1; found && i < n; i++) {
		const struct nlattr *in = found;

		found = NULL;
		mnl_attr_for_each_nested(a, in) if (mnl_attr_get_type(a) ==
						    path[i]) found = a;
	}
	return found;
}

static const struct tc_pedit_key *pedit_key(const struct nlmsghdr *nlh)
{
	static const int path[] = { TCA_OPTIONS, TCA_FLOWER_ACT, 1,
				    TCA_ACT_OPTIONS, TCA_PEDIT_PARMS_EX };
	const struct nlattr *a = attr_at(nlh, path, 5);
	const struct tc_pedit_sel *sel;

	ck_assert_ptr_nonnull(a);
	ck_assert_uint_eq(mnl_attr_get_payload_len(a),
			  sizeof(*sel) + sizeof(struct tc_pedit_key));
	sel = mnl_attr_get_payload(a);
	ck_assert_uint_eq(sel->nkeys, 1);
	ck_assert_int_eq(sel->action, TC_ACT_PIPE);
	return &sel->keys[0];
}

/*
 * DSCP 20 (tos 0x50) into the DSCP bits only: iproute2's pack_key8 for
 * "ip dsfield set 0x50 retain 0xfc" (byte 1, so a 16-bit shift in the
 * first word) and p_ip6's 4 more bits for "ip6 traffic_class".
 */
START_TEST(pedit_keys_write_the_dscp_bits_only)
{
	static char buf[16384];
	struct tc tc = { 0 };
	struct flower_tc_filter t = tc_filter(0, false, true, 3, 11);
	const struct tc_pedit_key *k =
		pedit_key(flower_nl_filter_msg(&tc, buf, &t, IFINDEX, ifnames));

	ck_assert_uint_eq(k->off, 0);
	ck_assert_uint_eq(k->mask, htonl(0xff03ffff));
	ck_assert_uint_eq(k->val, htonl(0x00500000));
	t = tc_filter(0, false, true, 3, 12); /* the same for IPv6 */
	k = pedit_key(flower_nl_filter_msg(&tc, buf, &t, IFINDEX, ifnames));
	ck_assert_uint_eq(k->off, 0);
	ck_assert_uint_eq(k->mask, htonl(0xf03fffff));
	ck_assert_uint_eq(k->val, htonl(0x05000000));
}
END_TEST

START_TEST(a_tc_filter_maps_to_its_logical_filter)
{
	struct flower_tc_filter t = tc_filter(0, false, true, 3, 11);
	int i = flower_tc_origin(&fp, 0, true, 3, 11);

	ck_assert_int_ge(i, 0);
	ck_assert_ptr_eq(&fp.out.f[i], t.fl);
	/* from a (port 0), tag 10 -> 20 */
	ck_assert_int_eq(fp.out.f[i].indev, 0);
	ck_assert_int_eq(fp.out.f[i].dscp, 10);
	ck_assert_int_eq(fp.out.f[i].new_dscp, 20);
	/* generation 1's chains give the same filter */
	ck_assert_int_eq(flower_tc_origin(&fp, flower_nl_gen(6), true, 6, 11),
			 i);
	ck_assert_int_eq(flower_nl_gen(6), 1);
	ck_assert_int_eq(flower_tc_origin(&fp, 0, false, 0, 1), -1);
	ck_assert_int_eq(flower_tc_origin(&fp, 0, true, 3, 9999), -1);
}
END_TEST

Suite *flower_nl_suite(void)
{
	Suite *s = suite_create("flower_nl");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, filters_are_the_bytes_tc_sends);
	tcase_add_test(tc, entry_and_chain_del_are_the_bytes_tc_sends);
	tcase_add_test(tc, pedit_keys_write_the_dscp_bits_only);
	tcase_add_test(tc, a_tc_filter_maps_to_its_logical_filter);
	suite_add_tcase(s, tc);
	return s;
}
