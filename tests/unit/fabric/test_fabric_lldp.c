// SPDX-License-Identifier: GPL-2.0
/*
 * lldpcli's JSON of the neighbours (fabric_lldp.h), in the shapes lldpd's
 * writer folds it into: one interface as an object, several as a list,
 * one port heard twice; the port named by an id of type ifname or local,
 * or by its description next to a MAC address id; no neighbours. Refused
 * with the JSON path: fields missing, a chassis without a system name,
 * names the topology format cannot hold (blanks, newlines, slashes), not
 * JSON, too much.
 */
#include <check.h>

#include "fabric/fabric_lldp.h"
#include "fabric/fabric_topo.h"
#include "lib/log.h"
#include "testlib.h"

/* lldpd 1.0.16's output for one neighbour (the lab's, trimmed). */
#define NB(ifn, sys, idtype, idval, descr)                                  \
	"{\"" ifn "\":{\"via\":\"LLDP\",\"rid\":\"1\",\"age\":\"0 day, "    \
	"00:00:02\",\"chassis\":{\"" sys "\":{\"id\":{\"type\":\"mac\","    \
	"\"value\":\"ca:31:1b:a4:27:dc\"},\"descr\":\"Debian\",\"mgmt-ip\"" \
	":\"fe80::1\",\"capability\":[{\"type\":\"Bridge\",\"enabled\":"    \
	"false}]}},\"port\":{\"id\":{\"type\":\"" idtype                    \
	"\",\"value\":\"" idval "\"}" descr ",\"ttl\":\"4\"}}}"

static int parse(const char *s, struct lldp_nb **nb)
{
	int n = -1;

	if (lldp_parse("sw1: lldpcli", s, strlen(s), nb, &n))
		return -1;
	return n;
}

static void want_nb(const struct lldp_nb *nb, const char *port, const char *sys,
		    const char *rport)
{
	ck_assert_str_eq(nb->port, port);
	ck_assert_str_eq(nb->sys, sys);
	ck_assert_str_eq(nb->rport, rport);
}

START_TEST(one_interface_is_an_object)
{
	struct lldp_nb *nb;
	const char *s = "{\"lldp\":{\"interface\":" NB(
		"eth1", "sw2", "mac", "ca:31:1b:a4:27:dc",
		",\"descr\":\"eth2\"") "}}";

	ck_assert_int_eq(parse(s, &nb), 1);
	want_nb(&nb[0], "eth1", "sw2", "eth2");
	lldp_free(nb, 1);
}
END_TEST

START_TEST(several_are_a_list_with_every_port_id_type)
{
	struct lldp_nb *nb;
	const char *s =
		"{\"lldp\":{\"interface\":[" NB("eth1", "sw2", "ifname", "swp7", ",\"descr\":\"uplink\"") "," NB(
			"eth2", "sw3.example.net", "local", "p-9",
			"") "," NB("eth3", "h1", "mac", "02:00:00:00:00:01",
				   ",\"descr\":\"eth0\"") "," NB("eth3", "h2",
								 "mac",
								 "02:00:00:00:00:02",
								 ",\"descr\":\"eth0\"") "]}}";

	ck_assert_int_eq(parse(s, &nb), 4);
	want_nb(&nb[0], "eth1", "sw2", "swp7");
	want_nb(&nb[1], "eth2", "sw3.example.net", "p-9");
	want_nb(&nb[2], "eth3", "h1", "eth0");
	want_nb(&nb[3], "eth3", "h2", "eth0");
	lldp_free(nb, 4);
}
END_TEST

START_TEST(no_neighbours)
{
	struct lldp_nb *nb;

	ck_assert_int_eq(parse("{\"lldp\":{}}", &nb), 0);
	ck_assert_int_eq(parse("{\"lldp\":{\"interface\":[]}}", &nb), 0);
}
END_TEST

static void refused(const char *s, const char *msg)
{
	struct lldp_nb *nb = (void *)1;
	const char *err;
	int n = 7;

	capture_begin();
	ck_assert_int_eq(lldp_parse("sw1: lldpcli", s, strlen(s), &nb, &n),
			 EXIT_USAGE);
	err = capture_end();
	ck_assert_msg(strstr(err, msg), "wanted \"%s\", got \"%s\"", msg, err);
	ck_assert_ptr_null(nb);
	ck_assert_int_eq(n, 0);
}

START_TEST(bad_input_is_refused_with_its_path)
{
	refused("{\"lldp\":", "sw1: lldpcli:1: ");
	refused("[]", "sw1: lldpcli: expected an object");
	refused("{\"lldpx\":{}}", "no \"lldp\" object");
	refused("{\"lldp\":{\"interface\":3}}",
		"lldp.interface: expected an object or an array");
	refused("{\"lldp\":{\"interface\":[{\"eth1\":{}},{}]}}",
		"lldp.interface[0].eth1.chassis: missing");
	refused("{\"lldp\":{\"interface\":[" NB("eth1", "sw2", "ifname", "e1",
						"") ",{}]}}",
		"lldp.interface[1]: expected {\"IFNAME\": {...}}");
	/* A chassis without SysName: only its id. */
	refused("{\"lldp\":{\"interface\":{\"eth1\":{\"chassis\":{\"id\":"
		"{\"type\":\"mac\",\"value\":\"x\"}},\"port\":{}}}}}",
		"lldp.interface.eth1.chassis: the neighbour sends no system "
		"name");
	refused("{\"lldp\":{\"interface\":" NB("eth1", "sw2", "mac", "x",
					       "") "}}",
		"lldp.interface.eth1.port.descr: missing");
	refused("{\"lldp\":{\"interface\":{\"eth1\":{\"chassis\":{\"sw2\":{}},"
		"\"port\":{\"descr\":\"e\"}}}}}",
		"lldp.interface.eth1.port.id: expected {\"type\"");
	refused("{\"lldp\":{\"interface\":{\"eth1\":{\"chassis\":{\"sw2\":{}},"
		"\"port\":{\"id\":{\"type\":\"ifname\",\"value\":3}}}}}}",
		"lldp.interface.eth1.port.id: expected");
	refused("{\"lldp\":{}, \"lldp\":{}}", "duplicate object key");
}
END_TEST

START_TEST(hostile_names_are_refused)
{
	refused("{\"lldp\":{\"interface\":" NB("eth1", "evil host", "ifname",
					       "e1", "") "}}",
		"chassis: system name \"evil host\" is not a topology name");
	refused("{\"lldp\":{\"interface\":" NB("eth1", "sw2\\nlink a:b c:d",
					       "ifname", "e1", "") "}}",
		"is not a topology name");
	refused("{\"lldp\":{\"interface\":" NB("eth1", "sw2", "ifname",
					       "Ethernet1/1", "") "}}",
		"port.id.value: port id \"Ethernet1/1\" is not a topology name");
	refused("{\"lldp\":{\"interface\":" NB(
			"eth1", "sw2", "mac", "x",
			",\"descr\":\"to spine 1\"") "}}",
		"port.descr: port description \"to spine 1\"");
	refused("{\"lldp\":{\"interface\":" NB("e th1", "sw2", "ifname", "e1",
					       "") "}}",
		"interface name \"e th1\"");
	refused("{\"lldp\":{\"interface\":" NB("eth1", "..", "ifname", "e1",
					       "") "}}",
		"system name \"..\"");
}
END_TEST

START_TEST(too_big_is_refused_before_parsing)
{
	struct lldp_nb *nb;
	int n;

	capture_begin();
	ck_assert_int_eq(lldp_parse("f", "{}", LLDP_MAX_BYTES + 1, &nb, &n),
			 EXIT_USAGE);
	ck_assert_ptr_nonnull(strstr(capture_end(), "f: more than"));
}
END_TEST

/* The cabling against a topology: every kind of difference, named. */
START_TEST(diff_names_missing_extra_and_swapped)
{
	struct topo *want =
		topo_from_str("switch a\nswitch b\nswitch c\nhost h\n"
			      "link a:e2 b:e1\nlink b:e2 c:e1\nlink c:e2 a:e1\n"
			      "link a:e9 h:eth0\n");
	struct topo *got =
		topo_from_str("switch a\nswitch b\nswitch c\nhost x\n"
			      "link a:e2 b:e2\nlink b:e1 c:e1\nlink c:e2 a:e1\n"
			      "link c:e5 x:eth0\n");
	json_t *d = fabric_topo_diff(want, got), *e;
	char *s;

	ck_assert_int_eq(json_array_size(d), 4);
	e = json_array_get(d, 0);
	ck_assert_str_eq(json_string_value(json_object_get(e, "kind")),
			 "differs");
	ck_assert_str_eq(json_string_value(json_object_get(e, "link")),
			 "a:e2 b:e1");
	s = json_dumps(json_object_get(e, "found"), JSON_COMPACT);
	ck_assert_str_eq(s, "[\"a:e2 b:e2\",\"b:e1 c:e1\"]");
	free(s);
	ck_assert_str_eq(json_string_value(
				 json_object_get(json_array_get(d, 1), "link")),
			 "b:e2 c:e1");
	e = json_array_get(d, 2);
	ck_assert_str_eq(json_string_value(json_object_get(e, "kind")),
			 "missing");
	ck_assert_str_eq(json_string_value(json_object_get(e, "link")),
			 "a:e9 h:eth0");
	e = json_array_get(d, 3);
	ck_assert_str_eq(json_string_value(json_object_get(e, "kind")),
			 "extra");
	ck_assert_str_eq(json_string_value(json_object_get(e, "link")),
			 "c:e5 x:eth0");
	json_decref(d);
	d = fabric_topo_diff(want, want);
	ck_assert_int_eq(json_array_size(d), 0);
	json_decref(d);
	topo_free(want);
	topo_free(got);
}
END_TEST

Suite *fabric_lldp_suite(void)
{
	Suite *s = suite_create("fabric_lldp");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, one_interface_is_an_object);
	tcase_add_test(tc, several_are_a_list_with_every_port_id_type);
	tcase_add_test(tc, no_neighbours);
	tcase_add_test(tc, bad_input_is_refused_with_its_path);
	tcase_add_test(tc, hostile_names_are_refused);
	tcase_add_test(tc, too_big_is_refused_before_parsing);
	tcase_add_test(tc, diff_names_missing_extra_and_swapped);
	suite_add_tcase(s, tc);
	return s;
}
