// SPDX-License-Identifier: GPL-2.0
/*
 * A port's DCB state as JSON and back, bad JSON refused with the key
 * named, the plan between two states, PFC's delay from the headroom
 * model's cable, and the kernel's refusal of a device without DCB.
 */
#include <check.h>
#include <errno.h>
#include <string.h>

#include "lib/dcb_port.h"
#include "lib/dcb_state.h"

static struct dcb_state full(void)
{
	struct dcb_state s = { .ifname = "swp1",
			       .has = DCB_HAS_PFC | DCB_HAS_ETS |
				      DCB_HAS_BUFFER | DCB_HAS_REWR };
	int i;

	s.pfc = (struct ieee_pfc){
		.pfc_cap = 8, .pfc_en = 0x18, .mbc = 1, .delay = 4096
	};
	s.ets.ets_cap = 8;
	s.ets.willing = 1;
	for (i = 0; i < 8; i++) {
		s.ets.tc_tx_bw[i] = 12;
		s.ets.prio_tc[i] = i;
		s.ets.tc_tsa[i] = IEEE_8021QAZ_TSA_ETS;
		s.buffer.prio2buffer[i] = i == 3 || i == 4;
		s.buffer.buffer_size[i] = i * 65536;
	}
	s.buffer.total_size = 4000000000u;
	s.app[26] = 1 << 3 | 1 << 0;
	s.app[63] = 1 << 7;
	s.rewr[3] = 1ull << 26 | 1ull << 63;
	s.app_other = 2;
	return s;
}

START_TEST(a_state_survives_json)
{
	struct dcb_state s = full(), back;
	char err[256] = "";
	json_t *j = dcb_state_json(&s);
	char *text = json_dumps(j, JSON_COMPACT);
	json_t *again = json_loads(text, 0, NULL);

	ck_assert_ptr_nonnull(again);
	ck_assert_int_eq(dcb_state_from_json(again, &back, err, sizeof(err)),
			 0);
	ck_assert_str_eq(err, "");
	/* PFC's counters are not state: none were set, so all compares */
	ck_assert_mem_eq(&back, &s, sizeof(s));
	ck_assert_ptr_nonnull(strstr(text, "\"dscp_prio\":[[26,0],[26,3],"
					   "[63,7]]"));
	ck_assert_ptr_nonnull(strstr(text, "\"prio_dscp\":[[3,26],[3,63]]"));
	ck_assert_ptr_nonnull(strstr(text, "\"enabled\":[3,4]"));
	free(text);
	json_decref(j);
	json_decref(again);
}
END_TEST

START_TEST(what_a_port_lacks_is_left_out)
{
	struct dcb_state s = { .ifname = "eth0" }, back;
	json_t *j = dcb_state_json(&s);
	char err[256];

	ck_assert_ptr_null(json_object_get(j, "pfc"));
	ck_assert_ptr_null(json_object_get(j, "prio_dscp")); /* before 6.3 */
	ck_assert_int_eq(dcb_state_from_json(j, &back, err, sizeof(err)), 0);
	ck_assert_uint_eq(back.has, 0);
	json_decref(j);
}
END_TEST

static const char *refused(const char *text)
{
	static char err[256];
	struct dcb_state s;
	json_t *j = json_loads(text, 0, NULL);

	ck_assert_msg(j != NULL, "not JSON: %s", text);
	err[0] = '\0';
	ck_assert_int_eq(dcb_state_from_json(j, &s, err, sizeof(err)), -EINVAL);
	ck_assert_uint_eq(s.has, 0);
	json_decref(j);
	return err;
}

START_TEST(bad_json_is_refused_by_key)
{
	ck_assert_str_eq(refused("[]"), "dcb state: not an object");
	ck_assert_str_eq(refused("{\"ifname\": \"x\", \"dscp_prio\": [], "
				 "\"pcf\": {}}"),
			 "dcb state: unknown key \"pcf\"");
	ck_assert_str_eq(refused("{\"dscp_prio\": []}"),
			 "ifname: not a device name");
	ck_assert_str_eq(refused("{\"ifname\": \"0123456789abcdef\", "
				 "\"dscp_prio\": []}"),
			 "ifname: not a device name");
	ck_assert_str_eq(refused("{\"ifname\": \"x\"}"),
			 "dscp_prio: not an array of pairs");
	ck_assert_str_eq(refused("{\"ifname\": \"x\", \"dscp_prio\": "
				 "[[64, 1]]}"),
			 "dscp_prio[0]: not a DSCP 0..63 : a priority 0..7");
	ck_assert_str_eq(refused("{\"ifname\": \"x\", \"dscp_prio\": "
				 "[[1, 2, 3]]}"),
			 "dscp_prio[0]: not a pair of integers");
	ck_assert_str_eq(refused("{\"ifname\": \"x\", \"dscp_prio\": [], "
				 "\"prio_dscp\": [[8, 1]]}"),
			 "prio_dscp[0]: not a priority 0..7 : a DSCP 0..63");
	ck_assert_str_eq(refused("{\"ifname\": \"x\", \"dscp_prio\": [], "
				 "\"pfc\": {\"cap\": 8, \"enabled\": [], "
				 "\"mbc\": 0, \"delay\": 65536}}"),
			 "pfc.delay: not an integer 0..65535");
	ck_assert_str_eq(refused("{\"ifname\": \"x\", \"dscp_prio\": [], "
				 "\"pfc\": {\"cap\": 8, \"enabled\": [8], "
				 "\"mbc\": 0, \"delay\": 0}}"),
			 "pfc.enabled[0]: not a priority 0..7");
	ck_assert_str_eq(refused("{\"ifname\": \"x\", \"dscp_prio\": [], "
				 "\"buffer\": {\"prio_buffer\": [0], "
				 "\"buffer_size\": [], \"total_size\": 0}}"),
			 "buffer.prio_buffer: not an array of 8");
	ck_assert_str_eq(refused("{\"ifname\": \"x\", \"dscp_prio\": [], "
				 "\"buffer\": {\"prio_buffer\": "
				 "[0,0,0,0,0,0,0,0], \"buffer_size\": "
				 "[0,0,0,0,0,0,0,4294967296], "
				 "\"total_size\": 0}}"),
			 "buffer.buffer_size[7]: not an integer 0..4294967295");
	ck_assert_str_eq(refused("{\"ifname\": \"x\", \"dscp_prio\": [], "
				 "\"ets\": {\"willing\": 0}}"),
			 "ets.ets_cap: missing");
	/* found by fuzz_dcb_state: it would not have been written back */
	ck_assert_str_eq(refused("{\"ifname\": \"x\", \"dscp_prio\": [], "
				 "\"other_rewr\": 5}"),
			 "other_rewr: without prio_dscp");
}
END_TEST

START_TEST(a_plan_adds_deletes_and_sets_what_differs)
{
	struct dcb_state now = full(), want = full();
	static struct dcb_plan p;

	ck_assert_int_eq(dcb_plan(&now, &want, &p), 0);
	want.app[26] = 1 << 5; /* 26: 0 and 3 go, 5 comes */
	want.rewr[3] = 0;
	want.pfc.pfc_en = 0x08;
	want.pfc.requests[0] = 99; /* counters are no setting */
	want.ets.ets_cap = 4; /* nor a capability */
	want.buffer.total_size = 1; /* nor the port's total */
	ck_assert_int_eq(dcb_plan(&now, &want, &p), 1 + 2 + 2 + 1);
	ck_assert_int_eq(p.n_app_add, 1);
	ck_assert_int_eq(p.app_add[0].protocol, 26);
	ck_assert_int_eq(p.app_add[0].priority, 5);
	ck_assert_int_eq(p.app_add[0].selector, IEEE_8021QAZ_APP_SEL_DSCP);
	ck_assert_int_eq(p.n_app_del, 2);
	ck_assert_int_eq(p.app_del[0].priority, 0);
	ck_assert_int_eq(p.app_del[1].priority, 3);
	ck_assert_int_eq(p.n_rewr_del, 2);
	ck_assert_int_eq(p.rewr_del[1].protocol, 63);
	ck_assert(p.pfc && !p.ets && !p.buffer);
	want.buffer.buffer_size[7] = 0;
	ck_assert_int_eq(dcb_plan(&now, &want, &p), 7);
	ck_assert(p.buffer);
}
END_TEST

START_TEST(a_plan_needs_what_the_port_has)
{
	struct dcb_state now = full(), want = full();
	static struct dcb_plan p;

	now.has &= ~DCB_HAS_REWR; /* saved on 6.3, restored on 6.1 */
	ck_assert_int_eq(dcb_plan(&now, &want, &p), -EOPNOTSUPP);
	/* saved on 6.1: the rewr table is left as it is */
	want.has &= ~DCB_HAS_REWR;
	now.has |= DCB_HAS_REWR;
	now.rewr[0] = 1;
	ck_assert_int_eq(dcb_plan(&now, &want, &p), 0);
}
END_TEST

START_TEST(pfc_delay_is_the_cables_round_trip_in_bits)
{
	uint16_t bits = 0;

	/* 100 Gbit/s, 10 m (50 ns at 5 ns/m): 2 x 5000 bits */
	ck_assert_int_eq(dcb_pfc_delay_bits(100000000000ull, 50, &bits), 0);
	ck_assert_int_eq(bits, 10000);
	/* rounded up: a bit short would be a frame lost */
	ck_assert_int_eq(dcb_pfc_delay_bits(1000000000ull, 1, &bits), 0);
	ck_assert_int_eq(bits, 2);
	/* 100 Gbit/s over 100 m: 100000 bits, more than the field holds */
	ck_assert_int_eq(dcb_pfc_delay_bits(100000000000ull, 500, &bits),
			 -ERANGE);
}
END_TEST

START_TEST(lo_does_not_support_dcb)
{
	struct dcb_nl d;
	struct dcb_state s;
	char name[IF_NAMESIZE];

	ck_assert_int_eq(dcb_ifname(1, NULL, name), 0);
	ck_assert_str_eq(name, "lo");
	ck_assert_int_eq(dcb_ifname(0, "0123456789abcdef", name), -EINVAL);
	ck_assert_int_eq(dcb_nl_open(&d), 0);
	ck_assert_int_eq(dcb_port_read(&d, name, &s), -EOPNOTSUPP);
	ck_assert_str_eq(d.err, "lo does not support DCB (its driver has no "
				"DCB operations)");
	ck_assert_int_eq(dcb_port_read(&d, "tgr-none0", &s), -ENODEV);
	ck_assert_str_eq(d.err, "tgr-none0: no such device");
	ck_assert_int_eq(dcb_port_pfc(&d, "lo", 0x08, 70000), -ERANGE);
	dcb_nl_close(&d);
}
END_TEST

Suite *dcb_state_suite(void)
{
	Suite *s = suite_create("dcb_state");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, a_state_survives_json);
	tcase_add_test(tc, what_a_port_lacks_is_left_out);
	tcase_add_test(tc, bad_json_is_refused_by_key);
	tcase_add_test(tc, a_plan_adds_deletes_and_sets_what_differs);
	tcase_add_test(tc, a_plan_needs_what_the_port_has);
	tcase_add_test(tc, pfc_delay_is_the_cables_round_trip_in_bits);
	tcase_add_test(tc, lo_does_not_support_dcb);
	suite_add_tcase(s, tc);
	return s;
}
