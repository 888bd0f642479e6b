// SPDX-License-Identifier: GPL-2.0
/*
 * The walk of tagger paths from-fib (fabric/fib_walk.h) over hand-written
 * FIBs of a diamond h1 - A - {B, C} - D - h2, read by the "ip -j route"
 * reader: ECMP fans out into every path, a loop and black holes are named
 * and not written, a link down and an interface that is no port end a
 * walk, host addresses come from /31 subnets and host routes, IPv4 and
 * IPv6 give one path once. Then the readers' errors (the JSON path of
 * the value) and FRR's JSON: only the selected and installed entry, only
 * next hops in the FIB, reject routes, interface addresses.
 */
#include <check.h>

#include "fabric/fib.h"
#include "fabric/fib_frr.h"
#include "fabric/fib_iproute.h"
#include "fabric/fib_walk.h"
#include "lib/json_get.h"
#include "lib/log.h"
#include "testlib.h"

static const char diamond[] = "switch A\nswitch B\nswitch C\nswitch D\n"
			      "host h1\nhost h2\n"
			      "link h1:eth0 A:p1\nlink A:p2 B:p1\n"
			      "link A:p3 C:p1\nlink B:p2 D:p1\n"
			      "link C:p2 D:p2\nlink D:p3 h2:eth0\n";

/* Connected subnets: h1 is 10.0.1.0 (A is .1), h2 is 10.0.2.0 (D .1). */
#define CONN(pfx, dev, src)                                                 \
	"{\"dst\":\"" pfx "\",\"dev\":\"" dev "\",\"protocol\":\"kernel\"," \
	"\"scope\":\"link\",\"prefsrc\":\"" src "\",\"flags\":[]}"
#define VIA(pfx, dev) \
	"{\"dst\":\"" pfx "\",\"gateway\":\"10.9.9.9\",\"dev\":\"" dev "\"}"
#define ECMP(pfx, d1, d2)                                                      \
	"{\"dst\":\"" pfx "\",\"nhid\":12,\"protocol\":\"bgp\",\"metric\":20," \
	"\"nexthops\":[{\"gateway\":\"10.9.9.1\",\"dev\":\"" d1 "\","          \
	"\"weight\":1,\"flags\":[]},{\"gateway\":\"10.9.9.3\",\"dev\":\"" d2   \
	"\",\"weight\":1,\"flags\":[]}]}"

struct lab {
	struct topo *t;
	struct fib *fib[8];
	struct fib_walk_out out;
};

static void set_fib(struct lab *l, const char *sw, const char *json)
{
	int n = topo_find_node(l->t, sw);

	ck_assert_int_ge(n, 0);
	fib_free(l->fib[n]);
	l->fib[n] = fib_new();
	ck_assert_int_eq(
		fib_iproute_parse(sw, json, strlen(json), 4, l->fib[n]), 0);
}

/* The diamond routed both ways over both middle switches. */
static void lab_init(struct lab *l)
{
	memset(l, 0, sizeof(*l));
	l->t = topo_from_str(diamond);
	ck_assert_ptr_nonnull(l->t);
	set_fib(l, "A",
		"[" CONN("10.0.1.0/31", "p1",
			 "10.0.1.1") "," ECMP("10.0.2.0/24", "p2", "p3") "]");
	set_fib(l, "B",
		"[" VIA("10.0.2.0/24", "p2") "," VIA("10.0.1.0/24", "p1") "]");
	set_fib(l, "C",
		"[" VIA("10.0.2.0/24", "p2") "," VIA("10.0.1.0/24", "p1") "]");
	set_fib(l, "D",
		"[" CONN("10.0.2.0/31", "p3",
			 "10.0.2.1") "," ECMP("10.0.1.0/24", "p1", "p2") "]");
}

static void walk(struct lab *l)
{
	struct fib_walk_in in = { .t = l->t, .fib = l->fib };

	fib_walk_free(&l->out);
	ck_assert_int_eq(fib_walk(&in, &l->out), 0);
}

static void lab_free(struct lab *l)
{
	int i;

	for (i = 0; i < 8; i++)
		fib_free(l->fib[i]);
	fib_walk_free(&l->out);
	topo_free(l->t);
}

/* The paths as "path|path|...", in their order. */
static char *paths(const struct lab *l)
{
	static char buf[2048];
	size_t n = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; i < l->out.e->npaths; i++) {
		char *s = elp_path_text(l->t, l->out.e, i);

		n += snprintf(buf + n, sizeof(buf) - n, "%s%s", i ? "|" : "",
			      s);
		free(s);
	}
	return buf;
}

/* Problem i's text. */
static const char *problem(const struct lab *l, int i)
{
	return json_string_value(
		json_object_get(json_array_get(l->out.problems, i), "text"));
}

START_TEST(ecmp_fans_out_into_every_path)
{
	struct lab l;

	lab_init(&l);
	walk(&l);
	ck_assert_str_eq(paths(&l), "h2 D B A h1|h2 D C A h1|"
				    "h1 A B D h2|h1 A C D h2");
	ck_assert_int_eq(l.out.pairs, 2);
	ck_assert_int_eq(l.out.unreachable, 0);
	ck_assert_int_eq(json_array_size(l.out.problems), 0);
	lab_free(&l);
}
END_TEST

START_TEST(a_loop_is_named_and_not_a_path)
{
	struct lab l;
	json_t *p;
	char *s;

	lab_init(&l);
	/* B sends h2 back to A: A B A loops, A C D still delivers. */
	set_fib(&l, "B",
		"[" VIA("10.0.2.0/24", "p1") "," VIA("10.0.1.0/24", "p1") "]");
	walk(&l);
	ck_assert_str_eq(paths(&l), "h2 D B A h1|h2 D C A h1|h1 A C D h2");
	ck_assert_int_eq(l.out.loops, 1);
	ck_assert_int_eq(json_array_size(l.out.problems), 1);
	ck_assert_str_eq(problem(&l, 0), "loop toward h2 (10.0.2.0): A B A");
	p = json_array_get(l.out.problems, 0);
	s = json_dumps(json_object_get(p, "cycle"), JSON_COMPACT);
	ck_assert_str_eq(s, "[\"A\",\"B\",\"A\"]");
	free(s);
	ck_assert_str_eq(json_string_value(json_object_get(p, "toward")), "h2");
	lab_free(&l);
}
END_TEST

START_TEST(a_longer_loop_is_named_with_its_cycle)
{
	struct lab l;

	lab_init(&l);
	/* h2: A -> B -> D, whose host route sends it to C, back to A. */
	set_fib(&l, "A",
		"[" CONN("10.0.1.0/31", "p1", "10.0.1.1") "," VIA("10.0.2.0/24",
								  "p2") "]");
	set_fib(&l, "D",
		"[" CONN("10.0.2.0/31", "p3", "10.0.2.1") "," VIA(
			"10.0.2.0/32", "p2") "," ECMP("10.0.1.0/24", "p1",
						      "p2") "]");
	set_fib(&l, "C",
		"[" VIA("10.0.2.0/24", "p1") "," VIA("10.0.1.0/24", "p1") "]");
	walk(&l);
	ck_assert_str_eq(paths(&l), "h2 D B A h1|h2 D C A h1");
	ck_assert_int_eq(l.out.unreachable, 1);
	ck_assert_int_eq(l.out.loops, 1);
	ck_assert_str_eq(problem(&l, 0),
			 "loop toward h2 (10.0.2.0): A B D C A");
	ck_assert_int_eq(jget_int(json_array_get(l.out.problems, 0), "walks"),
			 1);
	lab_free(&l);
}
END_TEST

START_TEST(black_holes_are_named_and_not_paths)
{
	struct lab l;

	lab_init(&l);
	/* B: a blackhole route; C: no route to h2 at all. */
	set_fib(&l, "B",
		"[{\"type\":\"blackhole\",\"dst\":\"10.0.2.0/24\",\"flags\":[]}," VIA(
			"10.0.1.0/24", "p1") "]");
	set_fib(&l, "C", "[" VIA("10.0.1.0/24", "p1") "]");
	walk(&l);
	ck_assert_str_eq(paths(&l), "h2 D B A h1|h2 D C A h1");
	ck_assert_int_eq(l.out.unreachable, 1);
	ck_assert_int_eq(l.out.holes, 2);
	ck_assert_str_eq(problem(&l, 0), "B drops 10.0.2.0 (h2): "
					 "10.0.2.0/24 is a blackhole route");
	ck_assert_str_eq(problem(&l, 1), "C has no route to 10.0.2.0 (h2)");
	ck_assert_str_eq(jget_str(json_array_get(l.out.problems, 1), "switch"),
			 "C");
	lab_free(&l);
}
END_TEST

START_TEST(link_down_and_unknown_interfaces_end_walks)
{
	struct lab l;

	lab_init(&l);
	set_fib(&l, "A",
		"[" CONN(
			"10.0.1.0/31", "p1",
			"10.0.1.1") ","
				    "{\"dst\":\"10.0.2.0/24\",\"nexthops\":["
				    "{\"dev\":\"p2\",\"flags\":[\"linkdown\"]},"
				    "{\"dev\":\"p3\",\"flags\":[\"dead\"]},"
				    "{\"dev\":\"vxlan7\",\"flags\":[]}]}]");
	walk(&l);
	ck_assert_int_eq(l.out.unreachable, 1);
	ck_assert_int_eq(l.out.holes, 2);
	ck_assert_str_eq(problem(&l, 0), "A routes 10.0.2.0 (h2) out of p2, "
					 "whose link is down");
	ck_assert_str_eq(problem(&l, 1),
			 "A routes 10.0.2.0 (h2) out of vxlan7, which is no "
			 "port of A in the topology");
	lab_free(&l);
}
END_TEST

START_TEST(not_in_the_inventory_and_a_wrong_host)
{
	struct lab l;
	int c;

	lab_init(&l);
	c = topo_find_node(l.t, "C");
	fib_free(l.fib[c]);
	l.fib[c] = NULL;
	walk(&l);
	ck_assert_str_eq(paths(&l), "h2 D B A h1|h1 A B D h2");
	ck_assert_str_eq(problem(&l, 0),
			 "C: its FIB was not read (not in the inventory)");
	set_fib(&l, "C",
		"[" VIA("10.0.2.0/24", "p1") "," VIA("10.0.1.0/24", "p1") "]");
	set_fib(&l, "A",
		"[" CONN("10.0.1.0/31", "p1", "10.0.1.1") "," VIA("10.0.2.0/24",
								  "p1") "]");
	walk(&l);
	ck_assert_str_eq(problem(&l, 0), "A forwards 10.0.2.0 (h2) to host h1");
	lab_free(&l);
}
END_TEST

START_TEST(host_addresses_from_host_routes_and_subnets)
{
	struct lab l;
	const char *v6 =
		"[{\"dst\":\"2001:db8::/127\",\"dev\":\"p3\","
		"\"protocol\":\"kernel\",\"prefsrc\":\"2001:db8::\"},"
		"{\"dst\":\"2001:db8:1::/64\",\"nexthops\":[{\"dev\":\"p1\"},"
		"{\"dev\":\"p2\"}]}]";
	int d;

	lab_init(&l);
	/* h2 by a host route on D instead of a subnet. */
	set_fib(&l, "D",
		"[" VIA("10.0.2.7", "p3") "," ECMP("10.0.1.0/24", "p1",
						   "p2") "]");
	walk(&l);
	ck_assert_int_eq(l.out.unreachable, 0);
	ck_assert_int_eq(l.out.e->npaths, 4);
	ck_assert_str_eq(paths(&l), "h2 D B A h1|h2 D C A h1|"
				    "h1 A B D h2|h1 A C D h2");
	/* An IPv6 /127 too: the same paths, once; A has no IPv6 route. */
	d = topo_find_node(l.t, "D");
	ck_assert_int_eq(fib_iproute_parse("D", v6, strlen(v6), 6, l.fib[d]),
			 0);
	walk(&l);
	ck_assert_int_eq(l.out.e->npaths, 4);
	ck_assert_str_eq(problem(&l, 0), "A has no route to 2001:db8::1 (h2)");
	lab_free(&l);
}
END_TEST

START_TEST(max_per_pair_stops_a_pair)
{
	struct lab l;
	struct fib_walk_in in = { .max_per_pair = 1 };

	lab_init(&l);
	in.t = l.t;
	in.fib = l.fib;
	ck_assert_int_eq(fib_walk(&in, &l.out), 0);
	ck_assert_int_eq(l.out.e->npaths, 2);
	ck_assert_int_eq(l.out.truncated, 2);
	lab_free(&l);
}
END_TEST

static const char *iproute_err(const char *json, int family)
{
	struct fib *f = fib_new();
	const char *err;
	int rc;

	capture_begin();
	rc = fib_iproute_parse("S1: ip -j route", json, strlen(json), family,
			       f);
	err = capture_end();
	ck_assert_int_eq(rc, EXIT_USAGE);
	ck_assert_int_eq(f->n, 0);
	fib_free(f);
	return err;
}

START_TEST(iproute_errors_name_the_switch_and_the_value)
{
	ck_assert_ptr_nonnull(
		strstr(iproute_err("[{\"dst\":\"10.0.0.0/8\",\"dev\":\"e\"},"
				   "{\"dst\":\"10.1.0.0/16\",\"nexthops\":"
				   "[{\"gateway\":\"1.2.3.4\"}]}]",
				   4),
		       "S1: ip -j route: [1].nexthops[0].dev: missing"));
	ck_assert_ptr_nonnull(
		strstr(iproute_err("[{\"dst\":\"10.0.0.0/8\",\"nhid\":3}]", 4),
		       "[0]: a route by nexthop object with no next hop "
		       "shown (net.ipv4.nexthop_compat_mode is 0)"));
	ck_assert_ptr_nonnull(strstr(
		iproute_err("[{\"dst\":\"2001:db8::/64\",\"dev\":\"e\"}]", 4),
		"[0].dst: expected an IPv4 prefix"));
	ck_assert_ptr_nonnull(strstr(
		iproute_err("[{\"dst\":\"10.0.0.0/33\",\"dev\":\"e\"}]", 4),
		"[0].dst:"));
	ck_assert_ptr_nonnull(strstr(
		iproute_err("[{\"type\":\"nat\",\"dst\":\"10.0.0.0/8\"}]", 4),
		"[0].type: unknown route type \"nat\""));
	ck_assert_ptr_nonnull(strstr(iproute_err("{\"dst\":1}", 4),
				     "expected an array of routes"));
	ck_assert_ptr_nonnull(
		strstr(iproute_err("[{\"dst\":", 4), "S1: ip -j route:1:"));
}
END_TEST

START_TEST(iproute_lookup_is_longest_prefix_then_metric)
{
	const char *s =
		"[{\"dst\":\"default\",\"dev\":\"a\"},"
		"{\"dst\":\"10.0.0.0/8\",\"dev\":\"b\",\"metric\":5},"
		"{\"dst\":\"10.0.0.0/8\",\"dev\":\"c\",\"metric\":1},"
		"{\"dst\":\"10.1.0.0/16\",\"dev\":\"d\"},"
		"{\"type\":\"local\",\"dst\":\"10.1.2.3\",\"dev\":\"lo\"},"
		"{\"dst\":\"10.1.2.0/24\",\"dev\":\"e\",\"flags\":[\"dead\"]}]";
	struct fib *f = fib_new();
	uint8_t a[16];
	int plen;

	ck_assert_int_eq(fib_iproute_parse("f", s, strlen(s), 4, f), 0);
	ck_assert_int_eq(f->n, 4);
	fib_prefix_parse("10.1.2.3", 4, a, &plen);
	ck_assert_str_eq(fib_lookup(f, 4, a)->nh[0].dev, "d");
	fib_prefix_parse("10.2.0.1", 4, a, &plen);
	ck_assert_str_eq(fib_lookup(f, 4, a)->nh[0].dev, "c");
	fib_prefix_parse("192.0.2.1", 4, a, &plen);
	ck_assert_str_eq(fib_lookup(f, 4, a)->nh[0].dev, "a");
	ck_assert_ptr_null(fib_lookup(f, 6, a));
	fib_free(f);
}
END_TEST

#define FRR_NH(extra) "{\"flags\":3" extra "}"

START_TEST(frr_takes_the_installed_entry_and_fib_next_hops)
{
	const char *s =
		"{\"10.0.0.2/31\":["
		"{\"protocol\":\"ospf\",\"selected\":false,\"nexthops\":"
		"[" FRR_NH(
			",\"fib\":true,\"interfaceName\":\"x\"") "]},"
								 "{\"protocol\":\"bgp\",\"selected\":true,\"installed\":true,"
								 "\"nexthops\":[" FRR_NH(
									 ",\"fib\":true,\"ip\":\"10.0.0.9\",\"interfaceName\":\"eth2\"") "," FRR_NH(",\"ip\":\"10.0.0.11\",\"interfaceName\":\"eth3\"") "," FRR_NH(",\"fib\":true,\"ip\":\"1.1.1.1\",\"recursive\":true") "," FRR_NH(",\"fib\":true,\"ip\":\"10.0.0.13\",\"interfaceName\":\"eth4\"") "]}],"
																																										      "\"10.0.0.0/31\":[{\"protocol\":\"connected\",\"selected\":true,"
																																										      "\"installed\":true,\"nexthops\":[" FRR_NH(",\"fib\":true,\"directlyConnected\":true,"
																																																 "\"interfaceName\":\"eth1\"") "]}],"
																																																			       "\"10.9.0.0/16\":[{\"protocol\":\"static\",\"selected\":true,"
																																																			       "\"installed\":true,\"nexthops\":[" FRR_NH(",\"fib\":true,\"unreachable\":true,\"blackhole\":true") "]}]}";
	const char *ifs = "{\"eth1\":{\"ipAddresses\":[{\"address\":"
			  "\"10.0.0.1/31\"},{\"address\":\"fe80::1/64\"}]},"
			  "\"lo\":{}}";
	struct fib *f = fib_new();

	ck_assert_int_eq(fib_frr_routes_parse("S1: vtysh", s, strlen(s), 4, f),
			 0);
	ck_assert_int_eq(f->n, 3);
	ck_assert_int_eq(f->r[0].nnh, 2);
	ck_assert_str_eq(f->r[0].nh[0].dev, "eth2");
	ck_assert_str_eq(f->r[0].nh[1].dev, "eth4");
	ck_assert(!f->r[0].connected);
	ck_assert(f->r[1].connected);
	ck_assert_int_eq(f->r[2].type, FIB_BLACKHOLE);
	ck_assert_int_eq(fib_frr_ifaces_parse("S1: vtysh", ifs, strlen(ifs), f),
			 0);
	ck_assert_int_eq(f->nown, 2);
	ck_assert_int_eq(f->own[0].plen, 31);
	ck_assert_int_eq(f->own[0].addr[3], 1);
	ck_assert_int_eq(f->own[1].family, 6);
	fib_free(f);
}
END_TEST

START_TEST(frr_errors_name_the_prefix_and_the_value)
{
	struct fib *f = fib_new();
	const char *bad[][2] = {
		{ "{\"10.0.0.0/31\":[{\"selected\":true,\"installed\":true,"
		  "\"nexthops\":[{\"fib\":true,\"interfaceName\":7}]}]}",
		  "S1: vtysh: 10.0.0.0/31[0].nexthops[0].interfaceName: "
		  "expected an interface name" },
		{ "{\"10.0.0.0/31\":[{\"selected\":1}]}",
		  "10.0.0.0/31[0].selected: expected true or false" },
		{ "{\"not-a-prefix\":[]}",
		  "not-a-prefix: expected an IPv4 prefix" },
		{ "[]", "expected an object" },
	};
	const char *err;
	size_t k;

	for (k = 0; k < ARRAY_SIZE(bad); k++) {
		capture_begin();
		ck_assert_int_eq(fib_frr_routes_parse("S1: vtysh", bad[k][0],
						      strlen(bad[k][0]), 4, f),
				 EXIT_USAGE);
		err = capture_end();
		ck_assert_msg(strstr(err, bad[k][1]), "%s", err);
		ck_assert_int_eq(f->n, 0);
	}
	fib_free(f);
}
END_TEST

Suite *fib_walk_suite(void)
{
	Suite *s = suite_create("fib_walk");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, ecmp_fans_out_into_every_path);
	tcase_add_test(tc, a_loop_is_named_and_not_a_path);
	tcase_add_test(tc, a_longer_loop_is_named_with_its_cycle);
	tcase_add_test(tc, black_holes_are_named_and_not_paths);
	tcase_add_test(tc, link_down_and_unknown_interfaces_end_walks);
	tcase_add_test(tc, not_in_the_inventory_and_a_wrong_host);
	tcase_add_test(tc, host_addresses_from_host_routes_and_subnets);
	tcase_add_test(tc, max_per_pair_stops_a_pair);
	tcase_add_test(tc, iproute_errors_name_the_switch_and_the_value);
	tcase_add_test(tc, iproute_lookup_is_longest_prefix_then_metric);
	tcase_add_test(tc, frr_takes_the_installed_entry_and_fib_next_hops);
	tcase_add_test(tc, frr_errors_name_the_prefix_and_the_value);
	suite_add_tcase(s, tc);
	return s;
}
