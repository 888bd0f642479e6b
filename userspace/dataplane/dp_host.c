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
#include "dataplane/dp_pin_path.h"
#include "dataplane/dp_record.h"
#include "dataplane/dp_report.h"
#include "dataplane/dp_settle.h"
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

/* What an attach checked before it takes the lock: all its input. */
struct host_plan {
	struct rules *r;
	json_t *doc;
	int tag, prio; /* prio: -1 if no switch classifies tag */
	int ifindex;
	int *dscp, ndscp; /* --class-dscp */
	int udp_lo, udp_hi; /* --udp-dport, 0 if none */
	char what[256]; /* which packets are the class, as the report says */
};

/* The selector: the class's DSCP codepoints and UDP ports; an exit code. */
static int parse_selector(const struct dp_opts *o, struct host_plan *p)
{
	int *ports = NULL, np;

	if (o->class_dscp) {
		p->ndscp = split_list(o->class_dscp, 0, TAGGER_DSCP_MAX - 1,
				      &p->dscp);
		if (p->ndscp < 0) {
			p_err("--class-dscp \"%s\": expected DSCP codepoints 0-63, "
			      "as in 26 or 24,26-28",
			      o->class_dscp);
			return EXIT_USAGE;
		}
		snprintf(p->what, sizeof(p->what), "sent with DSCP %s",
			 o->class_dscp);
	}
	if (o->udp_dport) {
		np = split_list(o->udp_dport, 1, 65535, &ports);
		if (np < 0 || strchr(o->udp_dport, ',')) {
			p_err("--udp-dport \"%s\": expected PORT or LOW-HIGH",
			      o->udp_dport);
			free(ports);
			return EXIT_USAGE;
		}
		p->udp_lo = ports[0];
		p->udp_hi = ports[np - 1];
		free(ports);
		snprintf(p->what + strlen(p->what),
			 sizeof(p->what) - strlen(p->what), "%sto UDP port %s",
			 o->class_dscp ? " or " : "", o->udp_dport);
	}
	if (!o->class_dscp && !o->udp_dport)
		snprintf(p->what, sizeof(p->what), "all IP packets");
	return EXIT_OK;
}

/* The rules, the host's tag, its interface and selector; an exit code. */
static int host_check(const struct dp_opts *o, struct host_plan *p)
{
	int h;

	p->r = rules_load(o->rules_file, &p->doc);
	if (!p->r)
		return EXIT_USAGE;
	h = rules_find_host(p->r, o->name);
	if (h < 0) {
		p_err("%s: no host \"%s\" in the rules", o->rules_file,
		      o->name);
		return EXIT_USAGE;
	}
	p->tag = initial_tag(p->r, h, o);
	if (p->tag < 0)
		return EXIT_USAGE;
	p->prio = rules_tag_prio(p->r, p->tag);
	p->ifindex = if_nametoindex(o->ifname);
	if (!p->ifindex) {
		p_err("no interface \"%s\" in this network namespace",
		      o->ifname);
		return EXIT_USAGE;
	}
	return parse_selector(o, p);
}

static void host_plan_free(struct host_plan *p)
{
	free(p->dscp);
	rules_free(p->r);
	json_decref(p->doc);
}

/* The maps from the plan: tags by what the selector picks; 0 or -errno. */
static int fill_maps(struct tagger_host_bpf *skel, const struct host_plan *p)
{
	struct tagger_host_tag t = { .set = 1,
				     .dscp = p->tag,
				     .prio = p->prio < 0 ? 0 : p->prio };
	/* Group-addressed packets of the class leave lossy: see mcast.h. */
	struct tagger_host_cfg cfg = { .lossy_set = 1,
				       .lossy_dscp = p->r->lossy_tag,
				       .lossy_prio = p->r->lossy_prio,
				       .udp_lo = p->udp_lo,
				       .udp_hi = p->udp_hi,
				       /* RoCEv2 CNPs: their own class */
				       .cnp_set = p->r->cnp_tag >= 0,
				       .cnp_dscp = p->r->cnp_tag & 63,
				       .cnp_prio = p->r->cnp_prio & 7 };
	int fd = bpf_map__fd(skel->maps.tagger_host_tags), k, err = 0;
	uint32_t idx, zero = 0;

	if (p->udp_lo) {
		idx = TAGGER_HOST_UDP_ENTRY;
		err = bpf_map_update_elem(fd, &idx, &t, BPF_ANY);
	}
	for (k = 0; !err && !p->ndscp && !p->udp_lo && k < TAGGER_DSCP_MAX; k++)
		err = bpf_map_update_elem(fd, &k, &t, BPF_ANY);
	for (k = 0; !err && k < p->ndscp; k++)
		err = bpf_map_update_elem(fd, &p->dscp[k], &t, BPF_ANY);
	if (!err)
		err = bpf_map_update_elem(
			bpf_map__fd(skel->maps.tagger_host_cfg), &zero, &cfg,
			BPF_ANY);
	return err ? -errno : 0;
}

/*
 * Detach what a host record names (a tcx link pin, or the tc filter at
 * the recorded or the known handle), put the RDMA ToS back and remove
 * dir, the record last.
 */
static int host_teardown(const char *dir, json_t *state,
			 const struct dp_node *node)
{
	int err;

	if (dp_rdma_detach(json_object_get(state, "rdma")))
		pr_warn("%s: the RDMA CM's default RoCE ToS was not put back\n",
			node->ifname);
	/* legacy: link pins (dp_state.h) */
	err = dp_hook_teardown(dir, node->ifname, true, "link_egress",
			       json_object_get(state, "egress"),
			       dp_node_mode(state));
	return dp_remove(dir) ?: err;
}

/* Host name on ifname, as dp_node_settle sees it. */
static struct dp_node host_node(const struct dp_opts *o)
{
	return (struct dp_node){ .kind = "host",
				 .name = o->name,
				 .ifname = o->ifname,
				 .teardown = host_teardown };
}

/*
 * Under the lock: the host's record at dir in *state if it is attached
 * here, else NULL there. EXIT_OK, or the exit code of a failed settle
 * (after p_err).
 */
static int host_settled(const char *dir, const struct dp_opts *o,
			json_t **state)
{
	struct dp_node node = host_node(o);
	int err = dp_node_settle(dir, &node, state);

	return err < 0 && err != -ENOENT ? dp_settle_exit(err) : EXIT_OK;
}

/*
 * Under the lock: dir (<root>/<name>/<ifname>), with no attached record;
 * a leftover of a killed command is cleaned up. An exit code.
 */
static int host_settled_free(char *dir, size_t len, const struct dp_opts *o)
{
	json_t *state;
	int ret;

	if (mkdir(dir, 0700) && errno != EEXIST) {
		p_err("mkdir %s: %s", dir, strerror(errno));
		return EXIT_RUNTIME;
	}
	snprintf(dir + strlen(dir), len - strlen(dir), "/%s", o->ifname);
	ret = host_settled(dir, o, &state);
	if (ret || !state)
		return ret;
	p_err("host %s is attached to %s already: detach first", o->name,
	      o->ifname);
	json_decref(state);
	return EXIT_USAGE;
}

/* The record of the host's attachment; 0 or -errno. */
static int save_record(const char *dir, const struct dp_opts *o,
		       const struct host_plan *p, const struct dp_attachment *a,
		       json_t *rdma)
{
	json_t *state = json_pack(
		"{s:s,s:s,s:s,s:s,s:s,s:o,s:s}", "format", DP_STATE_FORMAT,
		"kind", "host", "name", o->name, "ifname", o->ifname, "phase",
		a ? "attached" : "attaching", "netns", dp_netns_json(), "mode",
		dp_mode_name(a ? a->mode : o->mode));
	int err;

	if (a) {
		json_object_set_new(state, "ifindex", json_integer(p->ifindex));
		json_object_set_new(state, "tag", json_integer(p->tag));
		json_object_set_new(state, "priority", json_integer(p->prio));
		json_object_set_new(state, "egress",
				    json_pack("[i,i]", a->handle, a->prio));
		if (rdma)
			json_object_set(state, "rdma", rdma);
	}
	err = dp_state_save(dir, DP_STATE_CUR, state);
	json_decref(state);
	if (err)
		p_err("saving state in %s: %s", dir, strerror(-err));
	return err;
}

/* Load the program, fill its maps, pin it and its anchor; 0 or -errno. */
static int load_host(const char *dir, const struct host_plan *p,
		     struct tagger_host_bpf **skel, int *prog)
{
	LIBBPF_OPTS(bpf_object_open_opts, oo, .pin_root_path = dir);
	char path[PATH_MAX + 64];
	int err;

	*skel = tagger_host_bpf__open_opts(&oo);
	err = *skel ? tagger_host_bpf__load(*skel) : -errno;
	if (err) {
		p_err("loading the host program: %s", strerror(-err));
		return err;
	}
	err = fill_maps(*skel, p);
	if (err) {
		p_err("filling the host program's maps: %s", strerror(-err));
		return err;
	}
	*prog = bpf_program__fd((*skel)->progs.tagger_host_egress);
	err = dp_pin_path(path, sizeof(path), dir, "prog_egress");
	if (!err)
		err = bpf_obj_pin(*prog, path) ? -errno :
						 dp_anchor_create(dir, prog, 1);
	if (err)
		p_err("pinning the host program in %s: %s", dir,
		      strerror(-err));
	return err;
}

/*
 * Record "attaching" first, then load and attach, then record "attached":
 * a kill anywhere leaves a record the next command rolls back by. Every
 * failure here is the system's; dir is removed again. An exit code.
 */
static int host_apply(const char *dir, const struct dp_opts *o,
		      const struct host_plan *p, struct dp_report *rep)
{
	struct dp_attachment a = { .link_fd = -1, .prog_fd = -1 };
	struct tagger_host_bpf *skel = NULL;
	json_t *rdma = NULL;
	int err, prog;

	if (mkdir(dir, 0700)) {
		p_err("mkdir %s: %s", dir, strerror(errno));
		return EXIT_RUNTIME;
	}
	err = save_record(dir, o, p, NULL, NULL) ?:
		      load_host(dir, p, &skel, &prog);
	if (!err) {
		err = dp_attach(prog, p->ifindex, true, o->mode, &a);
		if (err)
			p_err("attach to %s egress: %s", o->ifname,
			      strerror(-err));
	}
	if (!err) {
		/* An RDMA engine's packets bypass tc: it is told the tag. */
		rdma = dp_rdma_attach(o->ifname, p->r, p->tag);
		err = save_record(dir, o, p, &a, rdma);
		if (err) {
			dp_rdma_detach(rdma);
			dp_detach(&a);
		}
	}
	if (!err) {
		rep->host.mode = a.mode;
		rep->host.tag = p->tag;
		rep->host.priority = p->prio;
		rep->host.cnp_tag = p->r->cnp_tag;
		rep->host.cnp_prio = p->r->cnp_prio;
		snprintf(rep->host.selects, sizeof(rep->host.selects), "%s",
			 p->what);
		rep->host.rdma = rdma; /* rep->json's, from the next line on */
		rep->json = dp_host_json(o, &rep->host);
	} else {
		dp_remove(dir);
	}
	tagger_host_bpf__destroy(skel);
	json_decref(rdma);
	return err ? EXIT_RUNTIME : EXIT_OK;
}

int dp_host_attach(const struct dp_opts *o, struct dp_report *rep)
{
	struct host_plan p = { 0 };
	char dir[PATH_MAX];
	int lock = -1, ret;

	ret = host_check(o, &p);
	if (!ret && dp_path(dir, o->name, NULL))
		ret = EXIT_USAGE;
	if (!ret) {
		lock = dp_lock(o->name);
		ret = lock < 0 ? -lock : host_settled_free(dir, sizeof(dir), o);
	}
	if (!ret)
		ret = host_apply(dir, o, &p, rep);
	dp_unlock(lock);
	host_plan_free(&p);
	return ret;
}

int dp_host_detach(const struct dp_opts *o, struct dp_report *rep)
{
	struct dp_node node;
	char dir[PATH_MAX];
	int lock, err;
	json_t *state;

	if (dp_path(dir, o->name, o->ifname))
		return EXIT_USAGE;
	lock = dp_lock(o->name);
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
	node = host_node(o);
	err = host_teardown(dir, state, &node);
	dp_path(dir, o->name, NULL);
	rmdir(dir); /* if no other interface of the host is attached */
	if (!err) {
		rep->host.detached = true;
		rep->json = dp_host_json(o, &rep->host);
	}
	json_decref(state);
	dp_unlock(lock);
	return err ? EXIT_RUNTIME : EXIT_OK;
}
