// SPDX-License-Identifier: GPL-2.0
/*
 * DCB netlink messages: the requests for given settings, parsed back with
 * libmnl attribute by attribute, and the kernel's answers (built here as
 * dcbnl_ieee_fill() lays them out) read into a state.
 */
#include <check.h>
#include <errno.h>
#include <string.h>
#include <libmnl/libmnl.h>
#include <linux/rtnetlink.h>
#include <sys/socket.h>

#include "lib/dcb_msg.h"

static char buf[DCB_MSG_BUF];

/* The request's header, dcbmsg and name; its DCB_ATTR_IEEE nest. */
static const struct nlattr *check_head(const struct nlmsghdr *nlh, int type,
				       int cmd)
{
	const struct dcbmsg *d = mnl_nlmsg_get_payload(nlh);
	const struct nlattr *a, *ieee = NULL;
	int n = 0;

	ck_assert_int_eq(nlh->nlmsg_type, type);
	ck_assert_int_eq(nlh->nlmsg_flags, NLM_F_REQUEST | NLM_F_ACK);
	ck_assert_int_eq(d->dcb_family, AF_UNSPEC);
	ck_assert_int_eq(d->cmd, cmd);
	mnl_attr_for_each(a, nlh, sizeof(*d))
	{
		ck_assert(
			mnl_attr_ok(a, (char *)mnl_nlmsg_get_payload_tail(nlh) -
					       (char *)a));
		if (n++ == 0) {
			ck_assert_int_eq(mnl_attr_get_type(a), DCB_ATTR_IFNAME);
			ck_assert_str_eq(mnl_attr_get_str(a), "swp1");
		} else {
			ck_assert_int_eq(mnl_attr_get_type(a), DCB_ATTR_IEEE);
			ck_assert(a->nla_type & NLA_F_NESTED);
			ieee = a;
		}
	}
	ck_assert_int_le(n, 2);
	return ieee;
}

/* The nest's only attribute, of type type. */
static const struct nlattr *only(const struct nlattr *nest, int type)
{
	const struct nlattr *a, *got = NULL;

	mnl_attr_for_each_nested(a, nest)
	{
		ck_assert_ptr_null(got);
		got = a;
	}
	ck_assert_ptr_nonnull(got);
	ck_assert_int_eq(mnl_attr_get_type(got), type);
	return got;
}

START_TEST(a_get_is_the_name_alone)
{
	struct nlmsghdr *nlh = dcb_msg_get(buf, "swp1");

	ck_assert_ptr_null(check_head(nlh, RTM_GETDCB, DCB_CMD_IEEE_GET));
	/* 16 header, 4 dcbmsg, 4 + "swp1\0" padded to 8 */
	ck_assert_int_eq(nlh->nlmsg_len, 32);
}
END_TEST

START_TEST(app_entries_go_in_the_app_table_nest)
{
	struct dcb_app apps[] = { { IEEE_8021QAZ_APP_SEL_DSCP, 3, 26 },
				  { IEEE_8021QAZ_APP_SEL_DSCP, 5, 46 } };
	struct nlmsghdr *nlh =
		dcb_msg_apps(buf, DCB_CMD_IEEE_DEL, DCB_ATTR_IEEE_APP_TABLE,
			     "swp1", apps, 2);
	const struct nlattr *tab, *a;
	int i = 0;

	tab = only(check_head(nlh, RTM_SETDCB, DCB_CMD_IEEE_DEL),
		   DCB_ATTR_IEEE_APP_TABLE);
	mnl_attr_for_each_nested(a, tab)
	{
		ck_assert_int_eq(mnl_attr_get_type(a), DCB_ATTR_IEEE_APP);
		ck_assert_int_eq(mnl_attr_get_payload_len(a), 4);
		ck_assert_mem_eq(mnl_attr_get_payload(a), &apps[i], 4);
		i++;
	}
	ck_assert_int_eq(i, 2);
	/* The bytes of {selector 5, priority 3, protocol 26} */
	ck_assert_mem_eq((char *)nlh + nlh->nlmsg_len - 16,
			 "\x08\x00\x01\x00\x05\x03\x1a\x00", 8);
}
END_TEST

START_TEST(rewr_entries_go_in_attribute_12)
{
	struct dcb_app e = { IEEE_8021QAZ_APP_SEL_DSCP, 3, 26 };
	struct nlmsghdr *nlh = dcb_msg_apps(buf, DCB_CMD_IEEE_SET,
					    DCB_NL_REWR_TABLE, "swp1", &e, 1);
	const struct nlattr *tab =
		only(check_head(nlh, RTM_SETDCB, DCB_CMD_IEEE_SET), 12);

	ck_assert_mem_eq(mnl_attr_get_payload(only(tab, DCB_ATTR_IEEE_APP)),
			 "\x05\x03\x1a\x00", 4);
}
END_TEST

START_TEST(pfc_is_the_whole_struct)
{
	struct ieee_pfc pfc = { .pfc_cap = 8, .pfc_en = 0x18, .delay = 4096 };
	struct nlmsghdr *nlh = dcb_msg_pfc(buf, "swp1", &pfc);
	const struct nlattr *a =
		only(check_head(nlh, RTM_SETDCB, DCB_CMD_IEEE_SET),
		     DCB_ATTR_IEEE_PFC);
	const uint8_t *p = mnl_attr_get_payload(a);

	ck_assert_int_eq(mnl_attr_get_payload_len(a), 136);
	ck_assert_int_eq(p[0], 8);
	ck_assert_int_eq(p[1], 0x18);
	ck_assert_int_eq(p[4] | p[5] << 8, 4096);
}
END_TEST

START_TEST(ets_and_buffer_are_their_structs)
{
	struct dcbnl_buffer b = { .prio2buffer = { 0, 0, 0, 1 },
				  .buffer_size = { 0, 65536 } };
	struct ieee_ets ets = { .ets_cap = 8, .prio_tc = { 0, 1, 2, 3 } };
	const struct nlattr *a;

	a = only(check_head(dcb_msg_buffer(buf, "swp1", &b), RTM_SETDCB,
			    DCB_CMD_IEEE_SET),
		 DCB_ATTR_DCB_BUFFER);
	ck_assert_int_eq(mnl_attr_get_payload_len(a), 44);
	ck_assert_mem_eq(mnl_attr_get_payload(a), &b, sizeof(b));
	a = only(check_head(dcb_msg_ets(buf, "swp1", &ets), RTM_SETDCB,
			    DCB_CMD_IEEE_SET),
		 DCB_ATTR_IEEE_ETS);
	ck_assert_int_eq(mnl_attr_get_payload_len(a), 59);
	ck_assert_mem_eq(mnl_attr_get_payload(a), &ets, sizeof(ets));
}
END_TEST

START_TEST(five_hundred_twelve_entries_fit)
{
	static struct dcb_app apps[DCB_ENTRIES_MAX];
	struct dcb_state s = { 0 };
	int n;

	memset(s.app, 0xff, sizeof(s.app));
	n = dcb_state_apps(&s, DCB_ATTR_IEEE_APP_TABLE, apps, DCB_ENTRIES_MAX);
	ck_assert_int_eq(n, DCB_ENTRIES_MAX);
	ck_assert_int_le(dcb_msg_apps(buf, DCB_CMD_IEEE_SET,
				      DCB_ATTR_IEEE_APP_TABLE, "swp1", apps, n)
				 ->nlmsg_len,
			 DCB_MSG_BUF);
}
END_TEST

static void put_app(struct nlmsghdr *nlh, int type, int sel, int prio,
		    int proto)
{
	struct dcb_app a = { sel, prio, proto };

	mnl_attr_put(nlh, type, sizeof(a), &a);
}

/* A GET answer as the kernel lays it out; rewr as 6.3+ adds it. */
static struct nlmsghdr *answer(bool rewr)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct ieee_pfc pfc = { .pfc_cap = 8, .pfc_en = 0x08, .delay = 77 };
	struct dcbnl_buffer b = { .total_size = 1000 };
	struct nlattr *ieee, *tab;
	struct dcbmsg *d;

	nlh->nlmsg_type = RTM_GETDCB;
	d = mnl_nlmsg_put_extra_header(nlh, sizeof(*d));
	d->cmd = DCB_CMD_IEEE_GET;
	mnl_attr_put_strz(nlh, DCB_ATTR_IFNAME, "swp1");
	ieee = mnl_attr_nest_start(nlh, DCB_ATTR_IEEE);
	mnl_attr_put(nlh, DCB_ATTR_IEEE_PFC, sizeof(pfc), &pfc);
	mnl_attr_put(nlh, DCB_ATTR_DCB_BUFFER, sizeof(b), &b);
	tab = mnl_attr_nest_start(nlh, DCB_ATTR_IEEE_APP_TABLE);
	put_app(nlh, DCB_ATTR_IEEE_APP, IEEE_8021QAZ_APP_SEL_DSCP, 3, 26);
	put_app(nlh, DCB_ATTR_IEEE_APP, IEEE_8021QAZ_APP_SEL_DSCP, 0, 26);
	put_app(nlh, DCB_ATTR_IEEE_APP, IEEE_8021QAZ_APP_SEL_ETHERTYPE, 3,
		0x8906);
	put_app(nlh, DCB_NL_APP_PCP, 255, 1, 2);
	mnl_attr_nest_end(nlh, tab);
	if (rewr) {
		tab = mnl_attr_nest_start(nlh, DCB_NL_REWR_TABLE);
		put_app(nlh, DCB_ATTR_IEEE_APP, IEEE_8021QAZ_APP_SEL_DSCP, 3,
			26);
		mnl_attr_nest_end(nlh, tab);
	}
	mnl_attr_nest_end(nlh, ieee);
	mnl_attr_put_u8(nlh, DCB_ATTR_DCBX, DCB_CAP_DCBX_VER_IEEE);
	return nlh;
}

START_TEST(an_answer_reads_into_a_state)
{
	struct dcb_state s;

	ck_assert_int_eq(dcb_parse_state(answer(true), &s), 0);
	ck_assert_str_eq(s.ifname, "swp1");
	ck_assert_uint_eq(s.has, DCB_HAS_PFC | DCB_HAS_BUFFER | DCB_HAS_REWR);
	ck_assert_int_eq(s.pfc.pfc_en, 0x08);
	ck_assert_int_eq(s.pfc.delay, 77);
	ck_assert_int_eq(s.buffer.total_size, 1000);
	ck_assert_int_eq(s.app[26], 1 << 3 | 1 << 0); /* a multimap */
	ck_assert_int_eq(s.app_other, 2); /* EtherType, PCP: kept apart */
	ck_assert(s.rewr[3] == 1ull << 26);
	ck_assert_int_eq(dcb_parse_state(answer(false), &s), 0);
	ck_assert_uint_eq(s.has & DCB_HAS_REWR, 0); /* 6.1 */
}
END_TEST

START_TEST(malformed_answers_are_refused)
{
	struct nlmsghdr *nlh = answer(true);
	struct dcb_state s;
	struct nlattr *a;

	nlh->nlmsg_type = RTM_SETDCB;
	ck_assert_int_eq(dcb_parse_state(nlh, &s), -EINVAL);
	/* A PFC shorter than its struct */
	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = RTM_GETDCB;
	((struct dcbmsg *)mnl_nlmsg_put_extra_header(nlh,
						     sizeof(struct dcbmsg)))
		->cmd = DCB_CMD_IEEE_GET;
	a = mnl_attr_nest_start(nlh, DCB_ATTR_IEEE);
	mnl_attr_put_u32(nlh, DCB_ATTR_IEEE_PFC, 8);
	mnl_attr_nest_end(nlh, a);
	ck_assert_int_eq(dcb_parse_state(nlh, &s), -EINVAL);
	ck_assert_uint_eq(s.has, 0);
	/* Too short for its dcbmsg */
	nlh->nlmsg_len = MNL_NLMSG_HDRLEN + 2;
	ck_assert_int_eq(dcb_parse_state(nlh, &s), -EINVAL);
}
END_TEST

/*
 * A message is whole with its padding: an attribute may reach up to the
 * padded end, which libmnl walks to (fuzz_dcb_answer's overread).
 */
START_TEST(a_message_is_whole_with_its_padding)
{
	struct nlmsghdr *nlh = answer(false);
	int len = nlh->nlmsg_len;

	ck_assert(dcb_msg_whole(nlh, len));
	ck_assert(!dcb_msg_whole(nlh, len - 1));
	nlh->nlmsg_len = len - 2; /* unpadded: its padding must be read too */
	ck_assert(!dcb_msg_whole(nlh, len - 2));
	ck_assert(dcb_msg_whole(nlh, len));
	ck_assert(!dcb_msg_whole(nlh, 0));
	ck_assert(!dcb_msg_whole(nlh, -1));
}
END_TEST

static struct nlmsghdr *status(int attr, int v)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);

	nlh->nlmsg_type = RTM_SETDCB;
	((struct dcbmsg *)mnl_nlmsg_put_extra_header(nlh,
						     sizeof(struct dcbmsg)))
		->cmd = DCB_CMD_IEEE_SET;
	mnl_attr_put_u8(nlh, attr, v);
	return nlh;
}

START_TEST(a_status_is_the_drivers_errno)
{
	ck_assert_int_eq(dcb_parse_status(status(DCB_ATTR_IEEE, 0)), 0);
	/* the kernel's -EOPNOTSUPP in a u8 */
	ck_assert_int_eq(
		dcb_parse_status(status(DCB_ATTR_IEEE, (uint8_t)-EOPNOTSUPP)),
		-EOPNOTSUPP);
	ck_assert_int_eq(dcb_parse_status(status(DCB_ATTR_DCBX, 0)), -EINVAL);
}
END_TEST

Suite *dcb_msg_suite(void)
{
	Suite *s = suite_create("dcb_msg");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, a_get_is_the_name_alone);
	tcase_add_test(tc, app_entries_go_in_the_app_table_nest);
	tcase_add_test(tc, rewr_entries_go_in_attribute_12);
	tcase_add_test(tc, pfc_is_the_whole_struct);
	tcase_add_test(tc, ets_and_buffer_are_their_structs);
	tcase_add_test(tc, five_hundred_twelve_entries_fit);
	tcase_add_test(tc, an_answer_reads_into_a_state);
	tcase_add_test(tc, malformed_answers_are_refused);
	tcase_add_test(tc, a_status_is_the_drivers_errno);
	tcase_add_test(tc, a_message_is_whole_with_its_padding);
	suite_add_tcase(s, tc);
	return s;
}
