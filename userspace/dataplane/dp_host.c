// SPDX-License-Identifier: GPL-2.0
/* tagger host attach / detach; see dp_host.h. */
#include <errno.h>
#include <limits.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "dataplane/dp_anchor.h"
#include "dataplane/dp_host.h"
#include "dataplane/dp_pin.h"
#include "dataplane/dp_record.h"
#include "dataplane/dp_rdma.h"
#include "dataplane/dp_state.h"
#include "lib/log.h"
#include "tagger_host.skel.h"
#include "tagger_maps.h"
#include "lib/util.h"

/* The host's initial tag: its "tag", or its tag for --class. */
static int initial_tag(const struct rules *r, int h, const struct dp_opts *o)
{
	const struct rules_host *host = &r->hosts[h];
	int k;

	if (o->class_id < 0) {
		if (host->tag < 0)
			p_err("%s: host %s has a tag per class: give --class N",
			      o->rules_file, o->name);
		return host->tag;
	}
	for (k = 0; k < r->nclasses && k < host->nclasses; k++)
		if (r->class_ids[k] == o->class_id)
			return host->classes[k];
	p_err("%s: host %s has no tag for class %d", o->rules_file, o->name,
	      o->class_id);
	return -1;
}

/* Fill the maps from the selector; 0 or an exit code after the error. */
static int fill_maps(struct tagger_host_bpf *skel, const struct dp_opts *o,
		     const struct rules *r, int tag, int prio, char *what,
		     size_t len)
{
	struct tagger_host_tag t = { .set = 1, .dscp = tag, .prio = prio };
	/* Group-addressed packets of the class leave lossy: see mcast.h. */
	struct tagger_host_cfg cfg = { .lossy_set = 1,
				       .lossy_dscp = r->lossy_tag,
				       .lossy_prio = r->lossy_prio };
	int tags_fd = bpf_map__fd(skel->maps.tagger_host_tags);
	int *dscp = NULL, n = 0, k, *ports = NULL;
	uint32_t idx, zero = 0;

	if (o->class_dscp) {
		n = split_list(o->class_dscp, 0, TAGGER_DSCP_MAX - 1, &dscp);
		if (n < 0) {
			p_err("--class-dscp \"%s\": expected DSCP codepoints 0-63, "
			      "as in 26 or 24,26-28",
			      o->class_dscp);
			return EXIT_USAGE;
		}
		snprintf(what, len, "sent with DSCP %s", o->class_dscp);
	}
	if (o->udp_dport) {
		int np = split_list(o->udp_dport, 1, 65535, &ports);

		if (np < 0 || strchr(o->udp_dport, ',')) {
			p_err("--udp-dport \"%s\": expected PORT or LOW-HIGH",
			      o->udp_dport);
			free(dscp);
			free(ports);
			return EXIT_USAGE;
		}
		cfg.udp_lo = ports[0];
		cfg.udp_hi = ports[np - 1];
		free(ports);
		idx = TAGGER_HOST_UDP_ENTRY;
		bpf_map_update_elem(tags_fd, &idx, &t, BPF_ANY);
		snprintf(what + strlen(what), len - strlen(what),
			 "%sto UDP port %s", o->class_dscp ? " or " : "",
			 o->udp_dport);
	}
	if (!o->class_dscp && !o->udp_dport) {
		for (k = 0; k < TAGGER_DSCP_MAX; k++)
			bpf_map_update_elem(tags_fd, &k, &t, BPF_ANY);
		snprintf(what, len, "all IP packets");
	}
	for (k = 0; k < n; k++)
		bpf_map_update_elem(tags_fd, &dscp[k], &t, BPF_ANY);
	free(dscp);
	bpf_map_update_elem(bpf_map__fd(skel->maps.tagger_host_cfg), &zero,
			    &cfg, BPF_ANY);
	return 0;
}

/*
 * Detach what a host record names (a tcx link pin, or the tc filter at
 * the recorded or the known handle) and remove dir, the record last.
 */
static int host_teardown(const char *dir, json_t *state, const char *ifname)
{
	char path[PATH_MAX + 64];
	struct dp_attachment a = { .egress = true,
				   .link_fd = -1,
				   .prog_fd = -1 };
	json_t *h = json_object_get(state, "egress");
	enum dp_mode mode;
	int err = 0;

	mode = dp_mode_parse(
		json_string_value(json_object_get(state, "mode")) ?: "");
	a.ifindex = if_nametoindex(ifname);
	a.handle = h ? json_integer_value(json_array_get(h, 0)) : DP_TC_HANDLE;
	a.prio = h ? json_integer_value(json_array_get(h, 1)) : DP_TC_PRIO;
	snprintf(path, sizeof(path), "%s/link_egress", dir);
	a.link_fd = bpf_obj_get(path); /* an older tagger's tcx link */
	snprintf(path, sizeof(path), "%s/prog_egress", dir);
	a.prog_fd = bpf_obj_get(path);
	if (dp_rdma_detach(json_object_get(state, "rdma")))
		pr_warn("%s: the RDMA CM's default RoCE ToS was not put back\n",
			ifname);
	if (a.ifindex || a.link_fd >= 0)
		err = dp_teardown_hook(&a, mode);
	if (a.link_fd >= 0)
		close(a.link_fd);
	if (a.prog_fd >= 0)
		close(a.prog_fd);
	if (err && err != -ENOENT && err != -ENODEV && err != -EINVAL)
		p_err("detach %s: %s", ifname, strerror(-err));
	else
		err = 0;
	return dp_remove(dir) ?: err;
}

/*
 * Under the lock: the host's record at dir in *state if it is attached
 * here, else NULL there; a record of a killed attach ("attaching", or
 * none) is rolled back first. Returns EXIT_OK, EXIT_USAGE (another
 * namespace) or EXIT_RUNTIME (what the kernel holds could not be read),
 * both after p_err.
 */
static int host_settled(const char *dir, const struct dp_opts *o,
			json_t **state)
{
	char what[300];
	json_t *st;
	struct stat sb;

	*state = NULL;
	/* What the kernel holds wins over the pins; it may be all there is. */
	if (dp_anchor_sync(dir, "host", o->name, o->ifname) < 0)
		return EXIT_RUNTIME;
	if (stat(dir, &sb))
		return EXIT_OK;
	st = dp_record_load(dir);
	snprintf(what, sizeof(what), "host %s on %s", o->name, o->ifname);
	if (!dp_state_netns_ok(st, what)) {
		json_decref(st);
		return EXIT_USAGE;
	}
	if (st && !strcmp(dp_record_phase(st), "attached")) {
		*state = st;
		return EXIT_OK;
	}
	pr_warn("host %s on %s: an attach or detach was interrupted: cleaning up\n",
		o->name, o->ifname);
	host_teardown(dir, st, o->ifname);
	json_decref(st);
	return EXIT_OK;
}

int dp_host_attach(const struct dp_opts *o, struct dp_report *rep)
{
	char dir[PATH_MAX], path[PATH_MAX + 64], what[256] = "";
	struct tagger_host_bpf *skel = NULL;
	struct dp_attachment a = { .link_fd = -1, .prog_fd = -1 };
	int h, tag, prio, ifindex, lock = -1, err, ret = EXIT_USAGE, prog;
	struct rules *r;
	json_t *doc = NULL, *state, *rdma = NULL;

	r = rules_load(o->rules_file, &doc);
	if (!r)
		return EXIT_USAGE;
	h = rules_find_host(r, o->name);
	if (h < 0) {
		p_err("%s: no host \"%s\" in the rules", o->rules_file,
		      o->name);
		goto out;
	}
	tag = initial_tag(r, h, o);
	if (tag < 0)
		goto out;
	prio = rules_tag_prio(r, tag);
	ifindex = if_nametoindex(o->ifname);
	if (!ifindex) {
		p_err("no interface \"%s\" in this network namespace",
		      o->ifname);
		goto out;
	}
	if (dp_path(dir, o->name, NULL))
		goto out;
	lock = dp_lock();
	if (lock < 0) {
		ret = -lock;
		goto out;
	}
	if (mkdir(dir, 0700) && errno != EEXIST) {
		ret = EXIT_RUNTIME;
		p_err("mkdir %s: %s", dir, strerror(errno));
		goto out;
	}
	snprintf(dir + strlen(dir), sizeof(dir) - strlen(dir), "/%s",
		 o->ifname);
	ret = host_settled(dir, o, &state);
	if (ret)
		goto out;
	if (state) {
		ret = EXIT_USAGE;
		p_err("host %s is attached to %s already: detach first",
		      o->name, o->ifname);
		json_decref(state);
		goto out;
	}
	/* From here on what fails is the system's doing. */
	ret = EXIT_RUNTIME;
	if (mkdir(dir, 0700)) {
		p_err("mkdir %s: %s", dir, strerror(errno));
		goto out;
	}
	/* Before anything is attached: a killed attach is rolled back by it. */
	state = json_pack("{s:s,s:s,s:s,s:s,s:s,s:o,s:s}", "format",
			  DP_STATE_FORMAT, "kind", "host", "name", o->name,
			  "ifname", o->ifname, "phase", "attaching", "netns",
			  dp_netns_json(), "mode", dp_mode_name(o->mode));
	err = dp_state_save(dir, DP_STATE_CUR, state);
	json_decref(state);
	if (err) {
		p_err("saving state in %s: %s", dir, strerror(-err));
		goto fail;
	}
	LIBBPF_OPTS(bpf_object_open_opts, oo, .pin_root_path = dir);
	skel = tagger_host_bpf__open_opts(&oo);
	err = skel ? tagger_host_bpf__load(skel) : -errno;
	if (err) {
		p_err("loading the host program: %s", strerror(-err));
		goto fail;
	}
	ret = fill_maps(skel, o, r, tag, prio < 0 ? 0 : prio, what,
			sizeof(what));
	if (ret)
		goto fail;
	ret = EXIT_RUNTIME;
	prog = bpf_program__fd(skel->progs.tagger_host_egress);
	snprintf(path, sizeof(path), "%s/prog_egress", dir);
	err = bpf_obj_pin(prog, path) ? -errno :
					dp_anchor_create(dir, &prog, 1);
	if (err) {
		p_err("pinning the host program in %s: %s", dir,
		      strerror(-err));
		goto fail;
	}
	err = dp_attach(prog, ifindex, true, o->mode, &a);
	if (err) {
		p_err("attach to %s egress: %s", o->ifname, strerror(-err));
		goto fail;
	}
	/* An RDMA engine's packets bypass tc: it is told the tag itself. */
	rdma = dp_rdma_attach(o->ifname, r, tag);
	state = json_pack("{s:s,s:s,s:s,s:s,s:s,s:o,s:i,s:s,s:i,s:i,s:[i,i]}",
			  "format", DP_STATE_FORMAT, "kind", "host", "name",
			  o->name, "ifname", o->ifname, "phase", "attached",
			  "netns", dp_netns_json(), "ifindex", ifindex, "mode",
			  dp_mode_name(a.mode), "tag", tag, "priority", prio,
			  "egress", a.handle, a.prio);
	if (rdma)
		json_object_set(state, "rdma", rdma);
	err = dp_state_save(dir, DP_STATE_CUR, state);
	json_decref(state);
	if (err) {
		p_err("saving state in %s: %s", dir, strerror(-err));
		dp_rdma_detach(rdma);
		dp_detach(&a);
		goto fail;
	}
	rep->json = json_pack("{s:s,s:s,s:s,s:i,s:i,s:s,s:O?}", "host", o->name,
			      "ifname", o->ifname, "mode", dp_mode_name(a.mode),
			      "tag", tag, "priority", prio, "selects", what,
			      "rdma", rdma);
	ret = EXIT_OK;
	goto out;
fail:
	dp_remove(dir);
out:
	tagger_host_bpf__destroy(skel);
	dp_unlock(lock);
	rules_free(r);
	json_decref(doc);
	json_decref(rdma);
	return ret;
}

int dp_host_detach(const struct dp_opts *o, struct dp_report *rep)
{
	char dir[PATH_MAX];
	int lock, err;
	json_t *state;

	if (dp_path(dir, o->name, o->ifname))
		return EXIT_USAGE;
	lock = dp_lock();
	if (lock < 0)
		return -lock;
	err = host_settled(dir, o, &state);
	if (!err && !state) {
		p_err("host %s is not attached to %s (%s)", o->name, o->ifname,
		      dir);
		err = EXIT_USAGE;
	}
	if (err) {
		dp_unlock(lock);
		return err;
	}
	err = host_teardown(dir, state, o->ifname);
	dp_path(dir, o->name, NULL);
	rmdir(dir); /* if no other interface of the host is attached */
	if (!err)
		rep->json = json_pack("{s:s,s:s,s:b}", "host", o->name,
				      "ifname", o->ifname, "detached", 1);
	json_decref(state);
	dp_unlock(lock);
	return err ? EXIT_RUNTIME : EXIT_OK;
}
