// SPDX-License-Identifier: GPL-2.0
/* A `tagger -j switch show` document as metrics; see metrics.h. */
#include <stdio.h>

#include "metrics/metrics.h"

static double num(json_t *o, const char *key)
{
	return json_number_value(json_object_get(o, key));
}

static const char *str(json_t *o, const char *key)
{
	return json_string_value(json_object_get(o, key)) ?: "";
}

/* Packets and bytes by tag; a tag may be counted lossless and lossy. */
static void tag_counters(struct prom *p, const struct prom_label *port,
			 json_t *arr, const char *dir)
{
	struct prom_label l[5] = { port[0], port[1] };
	char tag[24];
	json_t *c;
	size_t i;

	l[2] = (struct prom_label){ "direction", dir };
	l[3] = (struct prom_label){ "tag", tag };
	json_array_foreach(arr, i, c) {
		snprintf(tag, sizeof(tag), "%lld",
			 json_integer_value(json_object_get(c, "tag")));
		l[4] = (struct prom_label){
			"class", json_is_true(json_object_get(c, "lossless")) ?
					 "lossless" :
					 "lossy"
		};
		prom_add(
			p, "tagger_switch_packets_total", PROM_COUNTER,
			"Packets through a switch port, by direction, tag and class.",
			l, 5, num(c, "packets"));
		prom_add(
			p, "tagger_switch_bytes_total", PROM_COUNTER,
			"Bytes through a switch port, by direction, tag and class.",
			l, 5, num(c, "bytes"));
	}
}

static void port_metrics(struct prom *p, const char *node, json_t *port)
{
	struct prom_label l[5] = { { "node", node },
				   { "port", str(port, "port") } };
	json_t *lossy = json_object_get(port, "lossy"), *v;
	const char *reason;
	char ifindex[16];

	snprintf(ifindex, sizeof(ifindex), "%lld",
		 json_integer_value(json_object_get(port, "ifindex")));
	l[2] = (struct prom_label){ "ifname", str(port, "ifname") };
	l[3] = (struct prom_label){ "ifindex", ifindex };
	prom_add(p, "tagger_switch_port_info", PROM_GAUGE,
		 "A switch port and its interface (always 1).", l, 4, 1);
	tag_counters(p, l, json_object_get(port, "in"), "in");
	tag_counters(p, l, json_object_get(port, "out"), "out");
	json_object_foreach(lossy, reason, v) {
		l[2] = (struct prom_label){ "reason", reason };
		prom_add(p, "tagger_switch_lossy_total", PROM_COUNTER,
			 "Packets a switch port demoted to lossy, by reason.",
			 l, 3, json_number_value(v));
	}
	prom_add(p, "tagger_switch_pfc_frames_total", PROM_COUNTER,
		 "PFC frames seen on a switch port.", l, 2,
		 num(port, "pfc_frames"));
	prom_add(p, "tagger_switch_pause_frames_total", PROM_COUNTER,
		 "802.3x PAUSE frames seen on a switch port.", l, 2,
		 num(port, "pause_frames"));
	prom_add(p, "tagger_switch_non_ip_packets_total", PROM_COUNTER,
		 "Packets neither IPv4 nor IPv6 on a switch port.", l, 2,
		 num(port, "non_ip"));
	prom_add(p, "tagger_switch_cnp_packets_total", PROM_COUNTER,
		 "RoCEv2 congestion notifications (the rules' CNP class) a "
		 "switch port classified.",
		 l, 2, num(port, "cnp"));
}

void metrics_switch(struct prom *p, json_t *doc)
{
	const char *node = str(doc, "switch");
	struct prom_label l[2] = { { "node", node } };
	json_t *tab = json_object_get(doc, "table"), *port;
	size_t i;

	prom_add(
		p, "tagger_switch_generation", PROM_GAUGE,
		"Generation of the rules a switch runs (bumped by every update).",
		l, 1, num(doc, "generation"));
	if (json_is_object(tab)) {
		l[1] = (struct prom_label){ "kind", "classify" };
		prom_add(p, "tagger_switch_table_entries", PROM_GAUGE,
			 "Entries in a switch's rule table, by kind.", l, 2,
			 num(tab, "classify"));
		l[1] = (struct prom_label){ "kind", "rewrite" };
		prom_add(p, "tagger_switch_table_entries", PROM_GAUGE,
			 "Entries in a switch's rule table, by kind.", l, 2,
			 num(tab, "rewrite"));
	}
	json_array_foreach(json_object_get(doc, "ports"), i, port)
		port_metrics(p, node, port);
}
