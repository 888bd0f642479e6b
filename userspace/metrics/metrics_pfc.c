// SPDX-License-Identifier: GPL-2.0
/* A `tagger -j pfc show` document as metrics; see metrics.h. */
#include <stdio.h>
#include <string.h>

#include "metrics/metrics.h"

/* A number of a priority's object in the document, as a metric. */
struct field {
	const char *key, *name;
	enum prom_type type;
	double scale; /* to base units: seconds, bytes */
	const char *help;
};

#define C(k, n, h)                       \
	{                                \
		k, n, PROM_COUNTER, 1, h \
	}
#define G(k, n, h)                     \
	{                              \
		k, n, PROM_GAUGE, 1, h \
	}

static const struct field prio_fields[] = {
	G("buffered_bytes", "tagger_pfc_buffered_bytes",
	  "Bytes received on a port held in the switch, by priority."),
	G("peak_bytes", "tagger_pfc_buffered_peak_bytes",
	  "Most bytes received on a port held at once, by priority."),
	C("packets", "tagger_pfc_packets_total",
	  "Packets received on a port and accounted, by priority."),
	C("returned", "tagger_pfc_packets_released_total",
	  "Accounted packets that left the switch again."),
	C("drops", "tagger_pfc_drops_total",
	  "Accounted packets dropped in the switch."),
	G("xoff", "tagger_pfc_above_xoff",
	  "1 while a port's buffer is above XOFF (its upstream is paused)."),
	C("xoff_crossings", "tagger_pfc_xoff_total",
	  "Times a port's buffer rose above XOFF."),
	C("ecn_marked", "tagger_pfc_ecn_marked_packets_total",
	  "Packets received on a port marked CE (ECN), by priority."),
	C("pfc_tx", "tagger_pfc_frames_sent_total",
	  "PFC frames sent upstream to pause a priority."),
	C("pfc_tx_resume", "tagger_pfc_resume_frames_sent_total",
	  "PFC frames sent upstream to resume a priority."),
	C("pfc_tx_fast", "tagger_pfc_fast_frames_sent_total",
	  "Of the pausing PFC frames sent, those the BPF program sent at XOFF."),
	C("pfc_rx", "tagger_pfc_frames_received_total",
	  "PFC frames received pausing an egress queue."),
	C("pfc_rx_resume", "tagger_pfc_resume_frames_received_total",
	  "PFC frames received resuming an egress queue."),
	C("pfc_rx_ignored", "tagger_pfc_ignored_frames_received_total",
	  "PFC frames received and ignored."),
	G("paused", "tagger_pfc_paused", "1 while an egress queue is paused."),
	C("pauses", "tagger_pfc_pauses_total",
	  "Times an egress queue was paused."),
	{ "paused_ms", "tagger_pfc_paused_seconds_total", PROM_COUNTER, 1e-3,
	  "Time an egress queue spent paused." },
	G("queue_bytes", "tagger_pfc_queue_bytes", "Bytes in an egress queue."),
	G("queue_packets", "tagger_pfc_queue_packets",
	  "Packets in an egress queue."),
	C("queue_drops", "tagger_pfc_queue_drops_total",
	  "Packets an egress queue dropped."),
	C("tx_packets", "tagger_pfc_transmitted_packets_total",
	  "Packets an egress queue sent."),
	C("tx_bytes", "tagger_pfc_transmitted_bytes_total",
	  "Bytes an egress queue sent."),
	C("watchdog_events", "tagger_pfc_watchdog_events_total",
	  "Times the watchdog found an egress queue paused too long."),
	C("watchdog_drops", "tagger_pfc_watchdog_drops_total",
	  "Packets the watchdog's drop action dropped (egress, flushed, ingress)."),
	C("watchdog_flushed", "tagger_pfc_watchdog_flushed_packets_total",
	  "Packets the watchdog's drop action flushed from an egress queue."),
	C("watchdog_rx_drops", "tagger_pfc_watchdog_ingress_drops_total",
	  "Packets of a storming port the drop action dropped at ingress."),
	C("storms", "tagger_pfc_storms_total",
	  "PFC storms the watchdog detected on an egress queue."),
	G("storm", "tagger_pfc_storm",
	  "1 while an egress queue is in a PFC storm (not yet restored)."),
	{ "storm_start_ms", "tagger_pfc_storm_last_start_timestamp_seconds",
	  PROM_GAUGE, 1e-3,
	  "When the last PFC storm on an egress queue began (0: never)." },
	{ "storm_end_ms", "tagger_pfc_storm_last_end_timestamp_seconds",
	  PROM_GAUGE, 1e-3,
	  "When the last PFC storm on an egress queue was restored (0: not)." },
	C("failure_drops", "tagger_pfc_failure_drops_total",
	  "Packets lost to a failure (link down, no route)."),
	C("leftover_drops", "tagger_pfc_leftover_drops_total",
	  "Packets a dead agent's queue held or dropped unrecorded when removed."),
	C("underflow", "tagger_pfc_underflow_total",
	  "Times the buffer accounting would have gone below zero."),
	C("resynced_bytes", "tagger_pfc_resynced_bytes_total",
	  "Bytes whose return the accounting missed and resynchronised."),
	C("resumes", "tagger_pfc_resumes_total",
	  "Times traffic came back after an XON."),
	{ "resume_max_us", "tagger_pfc_resume_max_seconds", PROM_GAUGE, 1e-6,
	  "Longest wait from an XON to the first packet back." },
};

static double num(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	return json_is_boolean(v) ? json_is_true(v) : json_number_value(v);
}

static const char *str(json_t *o, const char *key)
{
	return json_string_value(json_object_get(o, key)) ?: "";
}

static void prio_metrics(struct prom *p, const struct prom_label *port,
			 json_t *prio)
{
	struct prom_label l[3] = { port[0], port[1] };
	char prio_s[24];
	size_t i;

	snprintf(prio_s, sizeof(prio_s), "%lld",
		 json_integer_value(json_object_get(prio, "prio")));
	l[2] = (struct prom_label){ "priority", prio_s };
	for (i = 0; i < sizeof(prio_fields) / sizeof(prio_fields[0]); i++) {
		const struct field *f = &prio_fields[i];

		if (json_object_get(prio, f->key))
			prom_add(p, f->name, f->type, f->help, l, 3,
				 num(prio, f->key) * f->scale);
	}
}

static void port_metrics(struct prom *p, const char *node, json_t *port)
{
	struct prom_label l[4] = { { "node", node },
				   { "port", str(port, "name") } };
	json_t *prio;
	size_t i;

	l[2] = (struct prom_label){ "ifname", str(port, "ifname") };
	l[3] = (struct prom_label){ "dcb", str(port, "dcb") };
	prom_add(p, "tagger_pfc_port_info", PROM_GAUGE,
		 "A port of a pause agent and its interface (always 1).", l, 4,
		 1);
	prom_add(
		p, "tagger_pfc_port_speed_bytes", PROM_GAUGE,
		"The rate a pause agent shapes a port to, in bytes per second.",
		l, 2, num(port, "rate_bps") / 8);
	json_array_foreach(json_object_get(port, "prios"), i, prio)
		prio_metrics(p, l, prio);
}

/* Per priority of the node: lossless or not, and its thresholds. */
static void node_prios(struct prom *p, const char *node, json_t *doc)
{
	struct prom_label l[2] = { { "node", node } };
	json_t *ll = json_object_get(doc, "lossless"), *v;
	char prio_s[24];
	size_t i, k;

	l[1] = (struct prom_label){ "priority", prio_s };
	json_array_foreach(json_object_get(doc, "xoff"), i, v) {
		bool lossless = false;

		snprintf(prio_s, sizeof(prio_s), "%zu", i);
		for (k = 0; k < json_array_size(ll); k++)
			lossless |= json_integer_value(json_array_get(ll, k)) ==
				    (json_int_t)i;
		prom_add(p, "tagger_pfc_priority_lossless", PROM_GAUGE,
			 "1 if a priority is lossless on a node.", l, 2,
			 lossless);
		prom_add(
			p, "tagger_pfc_xoff_threshold_bytes", PROM_GAUGE,
			"Buffered bytes above which a port pauses its upstream.",
			l, 2, json_number_value(v));
		prom_add(
			p, "tagger_pfc_xon_threshold_bytes", PROM_GAUGE,
			"Buffered bytes below which a port resumes its upstream.",
			l, 2,
			json_number_value(json_array_get(
				json_object_get(doc, "xon"), i)));
	}
}

static void agent_metrics(struct prom *p, const char *node, json_t *doc)
{
	static const char *const states[] = { "running", "stopped", "died",
					      "stalled" };
	struct prom_label l[2] = { { "node", node } };
	json_t *t = json_object_get(doc, "totals");
	json_t *hb = json_object_get(doc, "heartbeat");
	size_t i;

	/* A stalled agent runs but does not pause: not up (pfc_standby.h). */
	prom_add(p, "tagger_pfc_agent_up", PROM_GAUGE,
		 "1 if a node's pause agent runs and makes progress.", l, 1,
		 !strcmp(str(doc, "status"), "running"));
	if (json_is_object(hb) && num(doc, "running")) {
		prom_add(p, "tagger_pfc_agent_heartbeat_age_seconds",
			 PROM_GAUGE,
			 "Time since a running pause agent's loop last made "
			 "progress.",
			 l, 1, num(hb, "age_ms") / 1e3);
		prom_add(p, "tagger_pfc_agent_stalls_total", PROM_COUNTER,
			 "Hung pause agents their standby killed and replaced.",
			 l, 1, num(hb, "stalls"));
	}
	for (i = 0; i < sizeof(states) / sizeof(states[0]); i++) {
		l[1] = (struct prom_label){ "status", states[i] };
		prom_add(p, "tagger_pfc_agent_status", PROM_GAUGE,
			 "1 for the status a node's pause agent is in.", l, 2,
			 !strcmp(str(doc, "status"), states[i]));
	}
	prom_add(p, "tagger_pfc_agent_takeovers_total", PROM_COUNTER,
		 "Times a standby took over from a killed pause agent.", l, 1,
		 num(doc, "takeovers"));
	prom_add(p, "tagger_pfc_agent_adoptions_total", PROM_COUNTER,
		 "Times a pause agent adopted a dead one's queues.", l, 1,
		 num(doc, "adoptions"));
	prom_add(p, "tagger_pfc_lossless_drops_total", PROM_COUNTER,
		 "Drops of lossless packets on a node (should stay 0).", l, 1,
		 num(t, "lossless_drops"));
	prom_add(p, "tagger_pfc_lossy_drops_total", PROM_COUNTER,
		 "Drops of lossy packets on a node.", l, 1,
		 num(t, "lossy_drops"));
	prom_add(
		p, "tagger_pfc_big_red_switch", PROM_GAUGE,
		"1 while every lossless queue of a node drops (big red switch).",
		l, 1, num(json_object_get(doc, "watchdog"), "big_red_switch"));
	prom_add(p, "tagger_pfc_resyncs_total", PROM_COUNTER,
		 "Times the buffer accounting was resynchronised.", l, 1,
		 num(t, "resyncs"));
}

void metrics_pfc(struct prom *p, json_t *doc)
{
	const char *node = str(doc, "node");
	json_t *port;
	size_t i;

	agent_metrics(p, node, doc);
	node_prios(p, node, doc);
	json_array_foreach(json_object_get(doc, "ports"), i, port)
		port_metrics(p, node, port);
}
