// SPDX-License-Identifier: GPL-2.0
/*
 * tagger switch show: the attached rules and the counters, read from the
 * pins alone, so any tagger process (or a restarted one) sees the same.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "dataplane/dp_anchor.h"
#include "dataplane/dp_flower.h"
#include "dataplane/dp_packed.h"
#include "dataplane/dp_pin.h"
#include "dataplane/dp_pin_path.h"
#include "dataplane/dp_record.h"
#include "dataplane/dp_report.h"
#include "dataplane/dp_state.h"
#include "dataplane/dp_switch.h"
#include "model/rules_blob.h"
#include "lib/digest.h"
#include "lib/log.h"
#include "tagger_maps.h"
#include "lib/util.h"

struct pins {
	int counters, stats, outer, gen;
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

	percpu_sum(p, p->stats, slot, sizeof(st), &st);
	return dp_show_port_json(port, port_counters(p, slot, TAGGER_DIR_IN),
				 port_counters(p, slot, TAGGER_DIR_OUT), &st);
}

/* The switch's own rules as the rules file gives them (null if unreadable). */
static json_t *switch_rules(const char *dir, json_t *state, const char *name)
{
	json_t *doc = json_object_get(state, "rules");
	struct rules *r;
	json_t *j = NULL;
	int sw;

	if (doc) /* legacy: rules document (dp_state.h) */
		return json_incref(json_object_get(
			json_object_get(doc, "switches"), name));
	r = dp_state_rules(dir, state);
	sw = r ? rules_find_switch(r, name) : -1;
	if (sw >= 0)
		j = rules_switch_json(r, sw);
	rules_free(r);
	return j;
}

/*
 * The record of what runs, of this namespace and attached: 0, or an
 * exit code after p_err. dir gets the switch's directory.
 */
static int view_attached(const struct dp_opts *o, char *dir, json_t **state)
{
	char what[300];
	json_t *st;

	if (dp_path(dir, o->name, NULL))
		return EXIT_USAGE;
	if (dp_root_prepare())
		return EXIT_RUNTIME;
	/* Pins of our own, from the kernel: nobody else sees them. */
	if (dp_root_private() &&
	    dp_anchor_sync(dir, "switch", o->name, NULL) < 0)
		return EXIT_RUNTIME; /* p_err'd */
	/* Reads only: no lock, so show never waits for an update. */
	if (!access(dp_root(), F_OK)) {
		int rfd = dp_root_open(); /* trusted, or nothing is read */

		if (rfd < 0)
			return EXIT_USAGE;
		close(rfd);
	}
	/* What runs: a swapped-in update not yet committed counts. */
	st = dp_state_view(dir);
	if (!st && errno == ENOENT) {
		p_err("switch %s is not attached (%s: %s)", o->name, dir,
		      strerror(errno));
		return EXIT_USAGE;
	}
	if (!st) { /* there, but unreadable: the system's failure */
		p_err("switch %s: its state in %s cannot be read: %s", o->name,
		      dir, strerror(errno));
		return EXIT_RUNTIME;
	}
	snprintf(what, sizeof(what), "switch %s", o->name);
	if (!dp_state_netns_ok(st, what)) {
		json_decref(st);
		return EXIT_USAGE;
	}
	if (strcmp(dp_record_phase(st), "attached")) {
		p_err("switch %s is %s (or a tagger was killed doing so: the next "
		      "attach, update or detach cleans up)",
		      o->name,
		      !strcmp(dp_record_phase(st), "attaching") ?
			      "being attached" :
			      "being detached");
		json_decref(st);
		return EXIT_USAGE;
	}
	*state = st;
	return EXIT_OK;
}

/* The pinned maps show reads (flower: the generation only); 0 or -1. */
static int open_pins(const char *dir, bool flower, struct pins *p,
		     uint32_t *gen)
{
	uint32_t zero = 0;

	p->ncpu = libbpf_num_possible_cpus();
	p->gen = dp_pin_open(dir, tagger_str(TAGGER_GEN));
	if (!flower) {
		p->counters = dp_pin_open(dir, tagger_str(TAGGER_COUNTERS));
		p->stats = dp_pin_open(dir, tagger_str(TAGGER_PORT_STATS));
		p->outer = dp_pin_open(dir, tagger_str(TAGGER_RULES_OUTER));
	}
	if ((!flower && (p->counters < 0 || p->stats < 0 || p->outer < 0)) ||
	    p->gen < 0 || p->ncpu < 1 ||
	    bpf_map_lookup_elem(p->gen, &zero, gen)) {
		p_err("%s: pinned maps missing or unreadable: %s", dir,
		      strerror(errno));
		return -1;
	}
	return 0;
}

/* The rules' digest (their version's name across a fabric), -j --packed. */
static void set_rules_digest(const struct dp_opts *o, const char *dir,
			     json_t *state, json_t *j)
{
	char digest[DIGEST_STR] = "";
	size_t plen = 0;
	void *packed = dp_state_packed(dir, state, &plen);

	if (packed && digest_sha256(packed, plen, digest))
		digest[0] = '\0';
	json_object_set_new(j, "rules_digest",
			    digest[0] ? json_string(digest) : json_null());
	if (o->packed && packed) {
		char *b64 = base64_encode(packed, plen);

		json_object_set_new(j, "packed",
				    b64 ? json_string(b64) : json_null());
		free(b64);
	}
	free(packed);
}

int dp_switch_json(const struct dp_opts *o, json_t **out)
{
	struct pins p = { .counters = -1, .stats = -1, .outer = -1, .gen = -1 };
	json_t *state = NULL, *j, *ports, *port, *rules;
	char dir[PATH_MAX];
	uint32_t gen = 0;
	bool flower;
	size_t i;
	int ret = view_attached(o, dir, &state);

	if (ret)
		return ret;
	flower = dp_record_flower(state);
	if (open_pins(dir, flower, &p, &gen)) {
		ret = EXIT_RUNTIME;
		goto out;
	}
	ports = json_array();
	json_array_foreach(json_object_get(state, "ports"), i, port)
		if (!flower)
			json_array_append_new(ports, port_json(&p, port));
	rules = switch_rules(dir, state, o->name);
	j = json_pack("{s:s,s:s,s:O,s:I,s:O,s:O,s:s?,s:o,s:o}", "switch",
		      o->name, "datapath", flower ? "flower" : "bpf", "mode",
		      json_object_get(state, "mode"), "generation",
		      (json_int_t)gen, "table",
		      json_object_get(state, "table") ?: json_null(),
		      "rules_file", json_object_get(state, "rules_file"),
		      "pins", dp_root_private() ? NULL : dir, "ports", ports,
		      "rules", rules ?: json_null());
	set_rules_digest(o, dir, state, j);
	ret = flower ? dp_flower_show(dir, state, o->name, j) : EXIT_OK;
	if (ret)
		json_decref(j);
	else
		*out = j;
out:
	close(p.counters);
	close(p.stats);
	close(p.outer);
	close(p.gen);
	json_decref(state);
	return ret;
}
