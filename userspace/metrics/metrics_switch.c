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
	if (json_object_get(port, "samples")) {
		json_t *s = json_object_get(port, "samples");

		prom_add(p, "tagger_switch_demoted_samples_total", PROM_COUNTER,
			 "Samples taken of packets a switch port demoted "
			 "with reason no_rewrite (rate-limited).",
			 l, 2, num(s, "taken"));
		prom_add(p, "tagger_switch_demoted_samples_lost_total",
			 PROM_COUNTER,
			 "Samples a switch port could not keep (ring full).", l,
			 2, num(s, "lost"));
	}
}

/*
 * The last sampled packets demoted off the ELP, their flow in the labels
 * and their age as the value: at most TAGGER_SAMPLES_KEPT per switch,
 * numbered by age (0 the newest), so the series stay few.
 */
static void sample_metrics(struct prom *p, const char *node, json_t *arr)
{
	char idx[12], proto[12], sport[8], dport[8], tag[8];
	struct prom_label l[10] = { { "node", node } };
	size_t n = json_array_size(arr), i;
	json_t *v;

	json_array_foreach(arr, i, v) {
		snprintf(idx, sizeof(idx), "%zu", n - 1 - i);
		snprintf(proto, sizeof(proto), "%lld",
			 json_integer_value(json_object_get(v, "proto")));
		snprintf(sport, sizeof(sport), "%lld",
			 json_integer_value(json_object_get(v, "sport")));
		snprintf(dport, sizeof(dport), "%lld",
			 json_integer_value(json_object_get(v, "dport")));
		snprintf(tag, sizeof(tag), "%lld",
			 json_integer_value(json_object_get(v, "tag")));
		l[1] = (struct prom_label){ "sample", idx };
		l[2] = (struct prom_label){ "in_port", str(v, "in_port") };
		l[3] = (struct prom_label){ "out_port", str(v, "out_port") };
		l[4] = (struct prom_label){ "src", str(v, "src") };
		l[5] = (struct prom_label){ "dst", str(v, "dst") };
		l[6] = (struct prom_label){ "proto", proto };
		l[7] = (struct prom_label){ "sport", sport };
		l[8] = (struct prom_label){ "dport", dport };
		l[9] = (struct prom_label){ "tag", tag };
		prom_add(p, "tagger_switch_demoted_sample_age_seconds",
			 PROM_GAUGE,
			 "The last sampled packets a switch demoted with "
			 "reason no_rewrite, by flow: seconds since each.",
			 l, 10, num(v, "age_seconds"));
	}
}

/*
 * --shared-blocks: a tc block's counters are its ports' together, so they
 * are labelled by block, not port; tagger_switch_block_port_info says
 * which ports a block serves.
 */
static void block_metrics(struct prom *p, const char *node, json_t *b)
{
	char blk[16];
	struct prom_label l[5] = { { "node", node }, { "block", blk } };
	const char *reason;
	json_t *v;
	size_t i;

	snprintf(blk, sizeof(blk), "%lld",
		 json_integer_value(json_object_get(b, "block")));
	l[2] = (struct prom_label){ "direction", str(b, "direction") };
	json_array_foreach(json_object_get(b, "ports"), i, v) {
		l[3] = (struct prom_label){ "port", json_string_value(v) };
		prom_add(p, "tagger_switch_block_port_info", PROM_GAUGE,
			 "A port whose hook of a direction runs a shared tc "
			 "block (always 1).",
			 l, 4, 1);
	}
	tag_counters(p, l, json_object_get(b, "in"), "in");
	tag_counters(p, l, json_object_get(b, "out"), "out");
	json_object_foreach(json_object_get(b, "lossy"), reason, v) {
		l[2] = (struct prom_label){ "reason", reason };
		prom_add(p, "tagger_switch_block_lossy_total", PROM_COUNTER,
			 "Packets a shared tc block's ports demoted to lossy, "
			 "by reason (the block's counters: its ports' "
			 "together).",
			 l, 3, json_number_value(v));
	}
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
	json_array_foreach(json_object_get(doc, "blocks"), i, port)
		block_metrics(p, node, port);
	sample_metrics(p, node, json_object_get(doc, "demoted_samples"));
}
