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
#include "dataplane/dp_packed.h"
#include "dataplane/dp_paths.h"
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

/* The rules' digest (their version's name across a fabric), -j --packed. */
static void set_rules_digest(const struct dp_opts *o, const char *dir,
			     json_t *state, json_t *j)
{
	char digest[DIGEST_STR] = "";
	size_t plen = 0;
	void *packed = NULL;

	/* The digest as the record keeps it: a scrape packs and hashes none. */
	if (!o->packed) {
		if (dp_state_digest(dir, state, digest))
			digest[0] = '\0';
	} else {
		packed = dp_state_packed(dir, state, &plen);
		if (packed && digest_sha256(packed, plen, digest))
			digest[0] = '\0';
	}
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

/* The generation in the kernel: 0, or -1 after p_err. */
static int read_gen(const char *dir, uint32_t *gen)
{
	int fd = dp_pin_open(dir, tagger_str(TAGGER_GEN)), err;
	uint32_t zero = 0;

	err = fd < 0 ? fd : bpf_map_lookup_elem(fd, &zero, gen) ? -errno : 0;
	if (fd >= 0)
		close(fd);
	if (err)
		p_err("%s: the generation map is missing or unreadable: %s",
		      dir, strerror(-err));
	return err ? -1 : 0;
}

int dp_switch_json(const struct dp_opts *o, json_t **out)
{
	const struct dp_path *path;
	json_t *state = NULL, *j, *rules;
	char dir[PATH_MAX];
	uint32_t gen = 0;
	int ret = view_attached(o, dir, &state);

	if (ret)
		return ret;
	path = dp_path_of(state);
	if (!path) {
		p_err("%s: its record names a data path this tagger does not know "
		      "(\"%s\")",
		      dir,
		      json_string_value(json_object_get(state, "datapath")));
		json_decref(state);
		return EXIT_USAGE;
	}
	if (read_gen(dir, &gen)) {
		json_decref(state);
		return EXIT_RUNTIME;
	}
	rules = switch_rules(dir, state, o->name);
	j = json_pack(
		"{s:s,s:s,s:O,s:I,s:O,s:O,s:s?,s:o}", "switch", o->name,
		"datapath", path->name, "mode", json_object_get(state, "mode"),
		"generation", (json_int_t)gen, "table",
		json_object_get(state, "table") ?: json_null(), "rules_file",
		json_object_get(state, "rules_file"), "pins",
		dp_root_private() ? NULL : dir, "rules", rules ?: json_null());
	set_rules_digest(o, dir, state, j);
	ret = path->show(dir, state, j);
	if (ret)
		json_decref(j);
	else
		*out = j;
	json_decref(state);
	return ret;
}
