// SPDX-License-Identifier: GPL-2.0
/*
 * A device's physical switch id: read from crafted RTM_NEWLINK messages
 * (no switchdev device exists here to ask), and asked of lo for real.
 */
#include <check.h>
#include <errno.h>
#include <string.h>
#include <libmnl/libmnl.h>
#include <linux/if_link.h>
#include <linux/rtnetlink.h>
#include <sys/socket.h>

#include "lib/link_switch.h"

static char buf[4096];

static struct nlmsghdr *link_msg(int type, const void *id, size_t n)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct ifinfomsg *ifi;

	nlh->nlmsg_type = type;
	ifi = mnl_nlmsg_put_extra_header(nlh, sizeof(*ifi));
	ifi->ifi_index = 7;
	mnl_attr_put_strz(nlh, IFLA_IFNAME, "swp1");
	if (id)
		mnl_attr_put(nlh, IFLA_PHYS_SWITCH_ID, n, id);
	mnl_attr_put_u32(nlh, IFLA_MTU, 9000);
	return nlh;
}

START_TEST(a_switch_port_has_its_id_in_hex)
{
	char id[2 * LINK_SWITCH_ID_MAX + 1];

	ck_assert_int_eq(
		link_switch_id_parse(
			link_msg(RTM_NEWLINK, "\x00\x11\xaa\xbb\xcc\xdd", 6),
			id, sizeof(id)),
		1);
	ck_assert_str_eq(id, "0011aabbccdd");
}
END_TEST

START_TEST(a_device_without_one_is_no_switch_port)
{
	char id[2 * LINK_SWITCH_ID_MAX + 1];

	ck_assert_int_eq(link_switch_id_parse(link_msg(RTM_NEWLINK, NULL, 0),
					      id, sizeof(id)),
			 0);
}
END_TEST

START_TEST(malformed_answers_are_refused)
{
	char id[2 * LINK_SWITCH_ID_MAX + 1],
		big[LINK_SWITCH_ID_MAX + 1] = { 0 };

	ck_assert_int_eq(
		link_switch_id_parse(link_msg(RTM_NEWLINK, big, sizeof(big)),
				     id, sizeof(id)),
		-EINVAL);
	ck_assert_int_eq(link_switch_id_parse(link_msg(RTM_NEWLINK, big, 0), id,
					      sizeof(id)),
			 -EINVAL);
	ck_assert_int_eq(link_switch_id_parse(link_msg(RTM_NEWROUTE, "\x01", 1),
					      id, sizeof(id)),
			 -EINVAL);
	/* room for the hex and its NUL, or nothing written */
	ck_assert_int_eq(link_switch_id_parse(
				 link_msg(RTM_NEWLINK, "\x01\x02", 2), id, 4),
			 -EINVAL);
}
END_TEST

START_TEST(the_kernel_says_lo_is_no_switch_port)
{
	char id[2 * LINK_SWITCH_ID_MAX + 1];

	ck_assert_int_eq(link_switch_id(1, id, sizeof(id)), 0);
	ck_assert_int_eq(link_switch_id(0x7ffffff0, id, sizeof(id)), -ENODEV);
}
END_TEST

Suite *link_switch_suite(void)
{
	Suite *s = suite_create("link_switch");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, a_switch_port_has_its_id_in_hex);
	tcase_add_test(tc, a_device_without_one_is_no_switch_port);
	tcase_add_test(tc, malformed_answers_are_refused);
	tcase_add_test(tc, the_kernel_says_lo_is_no_switch_port);
	suite_add_tcase(s, tc);
	return s;
}
