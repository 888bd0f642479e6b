// SPDX-License-Identifier: GPL-2.0
/*
 * The eBPF data plane's part of tagger switch show: the ports' counters,
 * read from the pinned per-CPU maps, and the last samples of packets
 * demoted off the ELP (dp_samples.h); see dp_bpf.h.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "dataplane/dp_bpf.h"
#include "dataplane/dp_pin_path.h"
#include "dataplane/dp_report.h"
#include "dataplane/dp_samples.h"
#include "lib/log.h"
#include "lib/util.h"
#include "tagger_maps.h"

struct pins {
	int counters, stats;
	int gate; /* -errno: a switch attached before samples existed */
	int ncpu;
};

/*
 * Sum a per-CPU value made of __u64 fields into out; false if the entry is
 * not there. Through memcpy: the value types (__u64) and uint64_t differ.
 */
static bool percpu_sum(const struct pins *p, int fd, uint32_t idx, size_t vsize,
		       void *out)
{
	size_t words = vsize / 8, k;
	__u64 *v = xcalloc(p->ncpu, vsize), *sum = xcalloc(1, vsize);
	bool ok = !bpf_map_lookup_elem(fd, &idx, v);
	int c;

	for (c = 0; ok && c < p->ncpu; c++)
		for (k = 0; k < words; k++)
			sum[k] += v[c * words + k];
	memcpy(out, sum, vsize);
	free(sum);
	free(v);
	return ok;
}

static json_t *port_counters(const struct pins *p, int slot, int dir)
{
	json_t *arr = json_array();
	struct tagger_counter c;
	int tag, ll;

	for (tag = 0; tag < TAGGER_DSCP_MAX; tag++)
		for (ll = 1; ll >= 0; ll--) {
			uint32_t idx = tagger_counter_index(slot, dir, tag, ll);

			if (!percpu_sum(p, p->counters, idx, sizeof(c), &c) ||
			    !c.packets)
				continue;
			json_array_append_new(
				arr, dp_show_counter_json(tag, ll, c.packets,
							  c.bytes));
		}
	return arr;
}

static json_t *port_json(const struct pins *p, json_t *port)
{
	int slot = json_integer_value(json_object_get(port, "slot"));
	struct tagger_port_stats st;

	struct tagger_sample_gate g = { 0 };
	uint32_t key = slot;
	json_t *j;

	percpu_sum(p, p->stats, slot, sizeof(st), &st);
	j = dp_show_port_json(port, port_counters(p, slot, TAGGER_DIR_IN),
			      port_counters(p, slot, TAGGER_DIR_OUT), &st);
	if (p->gate >= 0 && !bpf_map_lookup_elem(p->gate, &key, &g))
		json_object_set_new(j, "samples",
				    json_pack("{s:I,s:I}", "taken",
					      (json_int_t)g.taken, "lost",
					      (json_int_t)g.lost));
	return j;
}

/* A port's name by its slot ("-": none, e.g. traffic of the switch). */
static const char *slot_name(json_t *state, int slot)
{
	json_t *port;
	size_t i;

	json_array_foreach(json_object_get(state, "ports"), i, port)
		if (json_integer_value(json_object_get(port, "slot")) == slot)
			return json_string_value(json_object_get(port, "port")) ?:
				       "?";
	return "-";
}

/* The last samples of demoted packets, oldest first (none: no ring). */
static json_t *samples_json(const char *dir, json_t *state)
{
	struct tagger_sample s[TAGGER_SAMPLES_KEPT];
	int fd = dp_pin_open(dir, tagger_str(TAGGER_SAMPLES)), n, k;
	uint64_t now = dp_monotonic_ns();
	json_t *arr = json_array();

	n = fd < 0 ? 0 : dp_samples_read(fd, s, TAGGER_SAMPLES_KEPT);
	for (k = 0; k < n; k++)
		json_array_append_new(
			arr,
			dp_sample_json(&s[k], slot_name(state, s[k].in_slot),
				       slot_name(state, s[k].out_slot), now));
	if (fd >= 0)
		close(fd);
	return arr;
}

int dp_bpf_show(const char *dir, json_t *state, json_t *j)
{
	struct pins p = { .ncpu = libbpf_num_possible_cpus() };
	json_t *ports, *port;
	int ret = EXIT_OK;
	size_t i;

	p.counters = dp_pin_open(dir, tagger_str(TAGGER_COUNTERS));
	p.stats = dp_pin_open(dir, tagger_str(TAGGER_PORT_STATS));
	p.gate = dp_pin_open(dir, tagger_str(TAGGER_SAMPLE_GATE));
	if (p.counters < 0 || p.stats < 0 || p.ncpu < 1) {
		p_err("%s: pinned maps missing or unreadable: %s", dir,
		      strerror(p.counters < 0 ? -p.counters :
			       p.stats < 0    ? -p.stats :
						EINVAL));
		ret = EXIT_RUNTIME;
		goto out;
	}
	ports = json_array();
	json_array_foreach(json_object_get(state, "ports"), i, port)
		json_array_append_new(ports, port_json(&p, port));
	json_object_set_new(j, "ports", ports);
	json_object_set_new(j, "demoted_samples", samples_json(dir, state));
out:
	if (p.counters >= 0)
		close(p.counters);
	if (p.stats >= 0)
		close(p.stats);
	if (p.gate >= 0)
		close(p.gate);
	return ret;
}
