// SPDX-License-Identifier: GPL-2.0
/*
 * show -j documents into metrics (units, labels, lossless and lossy of one
 * tag apart), and the addresses metrics serve takes.
 */
#include <arpa/inet.h>
#include <check.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>

#include "metrics/metrics.h"
#include "metrics/metrics_http.h"
#include "testlib.h"

static char *text(const struct prom *p)
{
	return CAPTURE(f, prom_write(p, f));
}

static json_t *doc(const char *s)
{
	json_t *j = json_loads(s, 0, NULL);

	ck_assert_ptr_nonnull(j);
	return j;
}

START_TEST(switch_document)
{
	json_t *d = doc(
		"{\"switch\": \"S1\", \"generation\": 3, \"table\": "
		"{\"entries\": 4, \"classify\": 2, \"rewrite\": 2}, \"ports\": [{"
		"\"port\": \"hp\", \"ifname\": \"eth\\\"0\", \"ifindex\": 7,"
		"\"in\": [{\"tag\": 10, \"lossless\": true, \"packets\": 5, \"bytes\": 500},"
		"         {\"tag\": 10, \"lossless\": false, \"packets\": 1, \"bytes\": 64}],"
		"\"out\": [], \"lossy\": {\"no_classify\": 2}, \"pfc_frames\": 0,"
		"\"pause_frames\": 1, \"non_ip\": 9}]}");
	struct prom *p = prom_new();
	char *t;

	metrics_switch(p, d);
	t = text(p);
	ck_assert_ptr_nonnull(strstr(
		t, "tagger_switch_packets_total{node=\"S1\",port=\"hp\","
		   "direction=\"in\",tag=\"10\",class=\"lossless\"} 5\n"));
	ck_assert_ptr_nonnull(
		strstr(t, "tagger_switch_bytes_total{node=\"S1\",port=\"hp\","
			  "direction=\"in\",tag=\"10\",class=\"lossy\"} 64\n"));
	ck_assert_ptr_nonnull(
		strstr(t, "tagger_switch_lossy_total{node=\"S1\",port=\"hp\","
			  "reason=\"no_classify\"} 2\n"));
	ck_assert_ptr_nonnull(strstr(t, "ifname=\"eth\\\"0\""));
	ck_assert_ptr_nonnull(
		strstr(t, "tagger_switch_generation{node=\"S1\"} 3\n"));
	free(t);
	prom_free(p);
	json_decref(d);
}
END_TEST

/* The demoted samples: counters per port, the flows as labels, escaped. */
START_TEST(switch_samples)
{
	json_t *d = doc(
		"{\"switch\": \"S1\", \"generation\": 0, \"ports\": [{"
		"\"port\": \"L1\", \"ifname\": \"L1\", \"ifindex\": 3,"
		"\"in\": [], \"out\": [], \"lossy\": {}, \"samples\":"
		"{\"taken\": 20, \"lost\": 1}}],"
		"\"demoted_samples\": ["
		"{\"age_seconds\": 2.5, \"in_port\": \"a\\\"b\", \"out_port\": \"L1\","
		"\"src\": \"fd00::1\", \"dst\": \"fd00::2\", \"proto\": 6,"
		"\"sport\": 1, \"dport\": 2, \"tag\": 9},"
		"{\"age_seconds\": 0.5, \"in_port\": \"L2\", \"out_port\": \"L1\","
		"\"src\": \"10.0.0.2\", \"dst\": \"10.0.0.0\", \"proto\": 17,"
		"\"sport\": 40000, \"dport\": 5000, \"tag\": 1}]}");
	struct prom *p = prom_new();
	char *t;

	metrics_switch(p, d);
	t = text(p);
	ck_assert_ptr_nonnull(
		strstr(t, "tagger_switch_demoted_samples_total{node=\"S1\","
			  "port=\"L1\"} 20\n"));
	ck_assert_ptr_nonnull(strstr(
		t, "tagger_switch_demoted_samples_lost_total{node=\"S1\","
		   "port=\"L1\"} 1\n"));
	/* The newest is sample 0. */
	ck_assert_ptr_nonnull(strstr(
		t, "tagger_switch_demoted_sample_age_seconds{node=\"S1\","
		   "sample=\"0\",in_port=\"L2\",out_port=\"L1\","
		   "src=\"10.0.0.2\",dst=\"10.0.0.0\",proto=\"17\","
		   "sport=\"40000\",dport=\"5000\",tag=\"1\"} 0.5\n"));
	ck_assert_ptr_nonnull(strstr(t, "sample=\"1\",in_port=\"a\\\"b\""));
	free(t);
	prom_free(p);
	json_decref(d);
}
END_TEST

START_TEST(pfc_document)
{
	json_t *d = doc(
		"{\"node\": \"sw1\", \"running\": false, \"status\": \"died\","
		"\"takeovers\": 2, \"adoptions\": 0, \"lossless\": [3],"
		"\"xoff\": [0, 0, 0, 9000], \"xon\": [0, 0, 0, 3000],"
		"\"totals\": {\"lossless_drops\": 0, \"lossy_drops\": 4, \"resyncs\": 0},"
		"\"ports\": [{\"name\": \"p1\", \"ifname\": \"sw1-h1\", \"dcb\": \"none\","
		"\"rate_bps\": 8000, \"prios\": [{\"prio\": 3, \"paused_ms\": 1500.5,"
		"\"pfc_tx\": 7, \"paused\": true, \"buffered_bytes\": 100,"
		"\"resume_max_us\": 250.0}]}]}");
	struct prom *p = prom_new();
	char *t;

	metrics_pfc(p, d);
	t = text(p);
	ck_assert_ptr_nonnull(
		strstr(t, "tagger_pfc_agent_up{node=\"sw1\"} 0\n"));
	ck_assert_ptr_nonnull(strstr(
		t,
		"tagger_pfc_agent_status{node=\"sw1\",status=\"died\"} 1\n"));
	ck_assert_ptr_nonnull(strstr(
		t,
		"tagger_pfc_agent_status{node=\"sw1\",status=\"running\"} 0\n"));
	ck_assert_ptr_nonnull(strstr(
		t, "tagger_pfc_agent_takeovers_total{node=\"sw1\"} 2\n"));
	ck_assert_ptr_nonnull(strstr(
		t, "tagger_pfc_paused_seconds_total{node=\"sw1\",port=\"p1\","
		   "priority=\"3\"} 1.5005\n"));
	ck_assert_ptr_nonnull(strstr(
		t, "tagger_pfc_resume_max_seconds{node=\"sw1\",port=\"p1\","
		   "priority=\"3\"} 0.00025\n"));
	ck_assert_ptr_nonnull(strstr(
		t,
		"tagger_pfc_paused{node=\"sw1\",port=\"p1\",priority=\"3\"} 1\n"));
	ck_assert_ptr_nonnull(strstr(
		t, "tagger_pfc_frames_sent_total{node=\"sw1\",port=\"p1\","
		   "priority=\"3\"} 7\n"));
	ck_assert_ptr_nonnull(strstr(
		t,
		"tagger_pfc_priority_lossless{node=\"sw1\",priority=\"3\"} 1\n"));
	ck_assert_ptr_nonnull(strstr(
		t,
		"tagger_pfc_xoff_threshold_bytes{node=\"sw1\",priority=\"3\"} 9000\n"));
	ck_assert_ptr_nonnull(strstr(
		t,
		"tagger_pfc_port_speed_bytes{node=\"sw1\",port=\"p1\"} 1000\n"));
	/* What the document does not have is not made up. */
	ck_assert_ptr_null(strstr(t, "tagger_pfc_queue_drops_total"));
	free(t);
	prom_free(p);
	json_decref(d);
}
END_TEST

START_TEST(listen_addresses)
{
	struct sockaddr_storage ss;
	struct sockaddr_in *in = (void *)&ss;
	struct sockaddr_in6 *in6 = (void *)&ss;
	socklen_t len;

	ck_assert_int_eq(metrics_http_addr("127.0.0.1", &ss, &len), 0);
	ck_assert_int_eq(ntohs(in->sin_port), METRICS_HTTP_PORT);
	ck_assert_int_eq(metrics_http_addr("0.0.0.0:0", &ss, &len), 0);
	ck_assert_int_eq(in->sin_port, 0);
	ck_assert_int_eq(metrics_http_addr("[::1]:9100", &ss, &len), 0);
	ck_assert_int_eq(ss.ss_family, AF_INET6);
	ck_assert_int_eq(ntohs(in6->sin6_port), 9100);
	ck_assert_int_eq(len, sizeof(*in6));
	ck_assert_int_eq(metrics_http_addr("[::]", &ss, &len), 0);
	ck_assert_int_ne(metrics_http_addr("::1", &ss, &len), 0);
	ck_assert_int_ne(metrics_http_addr("[::1]9100", &ss, &len), 0);
	ck_assert_int_ne(metrics_http_addr("127.0.0.1:", &ss, &len), 0);
	ck_assert_int_ne(metrics_http_addr(":9100", &ss, &len), 0);
	ck_assert_int_ne(metrics_http_addr("127.0.0.1:+1", &ss, &len), 0);
	ck_assert_int_ne(metrics_http_addr("host.example:80", &ss, &len), 0);
}
END_TEST

Suite *metrics_suite(void)
{
	Suite *s = suite_create("metrics");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, switch_document);
	tcase_add_test(tc, switch_samples);
	tcase_add_test(tc, pfc_document);
	tcase_add_test(tc, listen_addresses);
	suite_add_tcase(s, tc);
	return s;
}
