// SPDX-License-Identifier: GPL-2.0
/* The eBPF data plane of tagger switch: attach and teardown; see dp_bpf.h. */
#include <errno.h>
#include <limits.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "dataplane/dp_anchor.h"
#include "dataplane/dp_bpf.h"
#include "dataplane/dp_pin.h"
#include "dataplane/dp_pin_path.h"
#include "dataplane/dp_record.h"
#include "dataplane/dp_report.h"
#include "dataplane/dp_settle.h"
#include "dataplane/dp_state.h"
#include "dataplane/dp_job.h"
#include "dataplane/dp_table.h"
#include "lib/log.h"
#include "lib/util.h"
#include "tagger_port.skel.h"

/* The ports as the record keeps them, with each hook's tc [handle, prio]. */
static json_t *ports_json(const struct dp_port *ports, int n,
			  const struct dp_attachment *att)
{
	json_t *arr = dp_ports_json(ports, n), *p;
	size_t i;

	json_array_foreach(arr, i, p) {
		json_object_set_new(
			p, "ingress",
			json_pack("[i,i]", att[2 * i].handle, att[2 * i].prio));
		json_object_set_new(p, "egress",
				    json_pack("[i,i]", att[2 * i + 1].handle,
					      att[2 * i + 1].prio));
	}
	return arr;
}

static void detach_all(const struct dp_port *ports, struct dp_attachment *att,
		       int natt)
{
	int k;

	for (k = 0; k < natt; k++) {
		int err = dp_detach(&att[k]);

		if (err && !dp_hook_gone(err))
			pr_warn("detach %s %s: %s\n", ports[k / 2].ifname,
				att[k].egress ? "egress" : "ingress",
				strerror(-err));
	}
}

static int attach_ports(struct tagger_port_bpf *skel,
			const struct dp_port *ports, int n, enum dp_mode mode,
			struct dp_attachment *att)
{
	int k, err,
		fds[2] = { bpf_program__fd(skel->progs.tagger_ingress),
			   bpf_program__fd(skel->progs.tagger_egress) };

	for (k = 0; k < 2 * n; k++) {
		err = dp_attach(fds[k & 1], ports[k / 2].ifindex, k & 1, mode,
				&att[k]);
		if (err) {
			p_err("attach to %s %s: %s", ports[k / 2].ifname,
			      k & 1 ? "egress" : "ingress", strerror(-err));
			detach_all(ports, att, k);
			return err;
		}
		/* Every port the same way: the first one decides. */
		mode = att[k].mode;
	}
	return 0;
}

static int load_programs(const char *dir, const struct dp_port *ports,
			 int nports, struct tagger_port_bpf **out)
{
	LIBBPF_OPTS(bpf_object_open_opts, oo, .pin_root_path = dir);
	struct tagger_port_bpf *skel;
	char path[PATH_MAX + 64];
	int err, tmpl;

	skel = tagger_port_bpf__open_opts(&oo);
	if (!skel)
		return -errno;
	tmpl = dp_prepare(skel, nports);
	err = tmpl < 0 ? tmpl : tagger_port_bpf__load(skel);
	if (tmpl >= 0)
		close(tmpl);
	if (!err)
		err = dp_ifslots_set(bpf_map__fd(skel->maps.tagger_ifslot),
				     ports, nports);
	if (!err)
		err = dp_pin_path(path, sizeof(path), dir, "prog_ingress") ?:
			      bpf_program__pin(skel->progs.tagger_ingress,
					       path);
	if (!err)
		err = dp_pin_path(path, sizeof(path), dir, "prog_egress") ?:
			      bpf_program__pin(skel->progs.tagger_egress, path);
	if (!err) {
		int fds[2] = { bpf_program__fd(skel->progs.tagger_ingress),
			       bpf_program__fd(skel->progs.tagger_egress) };

		err = dp_anchor_create(dir, fds, 2);
	}
	if (err) {
		tagger_port_bpf__destroy(skel);
		return err;
	}
	*out = skel;
	return 0;
}

/* The table of switch sw's rules, in its first generation: 0 or -errno. */
static int install_table(const struct dp_job *j, const struct dp_port *ports,
			 struct tagger_port_bpf *skel, struct dp_table *tab,
			 int64_t *gen)
{
	int fd;

	dp_table_build(j->r, j->sw, ports, tab);
	fd = dp_table_create(tab);
	if (fd < 0)
		return fd;
	*gen = dp_table_install(bpf_map__fd(skel->maps.tagger_rules),
				bpf_map__fd(skel->maps.tagger_gen), fd, true);
	close(fd); /* the outer map holds the table now */
	return *gen < 0 ? (int)*gen : 0;
}

/*
 * Load, install the table, attach every port, set the sysctl; the record
 * ("attaching" in *state) becomes "attached". Every failure here is the
 * system's (p_err'd): 0 or its exit code.
 */
int dp_bpf_attach(const struct dp_opts *o, struct dp_job *j,
		  const struct dp_port *ports, int n,
		  struct dp_attach_report *rep)
{
	struct dp_attachment *att = xcalloc(2 * n + 1, sizeof(*att));
	struct tagger_port_bpf *skel = NULL;
	struct dp_table tab = { 0 };
	int64_t gen = -1;
	int err, ret = EXIT_RUNTIME;

	err = load_programs(j->dir, ports, n, &skel);
	if (err) {
		p_err("loading the port programs: %s", strerror(-err));
		goto out;
	}
	err = install_table(j, ports, skel, &tab, &gen);
	if (err) {
		p_err("loading %zu rule table entries: %s", tab.n,
		      strerror(-err));
		goto out;
	}
	if (attach_ports(skel, ports, n, o->mode, att))
		goto out;
	rep->mode = n ? att[0].mode : DP_MODE_TCX;
	rep->sysctl_changed = dp_sysctl_prio(&rep->sysctl_was);
	json_object_set_new(j->state, "phase", json_string("attached"));
	json_object_set_new(j->state, "mode",
			    json_string(dp_mode_name(rep->mode)));
	json_object_set_new(j->state, "ports", ports_json(ports, n, att));
	json_object_set_new(j->state, "generation", json_integer(gen));
	dp_switch_record_rules(j->state, o, j->doc, &tab);
	err = dp_state_save_rules(j->dir, DP_STATE_CUR, j->state, j->r);
	if (err) {
		ret = dp_state_save_err(o, j->dir, err);
		goto out;
	}
	rep->ports = n;
	rep->generation = gen;
	rep->table = dp_table_counts(&tab);
	if (!dp_root_private())
		snprintf(rep->pins, sizeof(rep->pins), "%s", j->dir);
	ret = EXIT_OK;
out:
	if (skel)
		tagger_port_bpf__destroy(skel); /* pins and links keep them */
	dp_table_free(&tab);
	free(att);
	return ret;
}

/* Every port's two hooks, as a record of the eBPF data plane names them. */
int dp_bpf_teardown(const char *dir, json_t *state)
{
	static const char *const hook[2] = { "ingress", "egress" };
	enum dp_mode mode = dp_node_mode(state);
	char link[IF_NAMESIZE + 32];
	const char *ifname;
	int k, err, ret = 0;
	json_t *port;
	size_t i;

	json_array_foreach(json_object_get(state, "ports"), i, port) {
		ifname = json_string_value(json_object_get(port, "ifname")) ?:
									      "?";
		for (k = 0; k < 2; k++) {
			/* legacy: link pins (dp_state.h) */
			snprintf(link, sizeof(link), "link_%s_%s", ifname,
				 hook[k]);
			err = dp_hook_teardown(dir, ifname, k, link,
					       json_object_get(port, hook[k]),
					       mode);
			ret = ret ?: err;
		}
	}
	return ret;
}

const struct dp_path dp_bpf_path = {
	.name = "bpf",
	.attach = dp_bpf_attach,
	.update = dp_bpf_update,
	.after_update = dp_bpf_after_update,
	.teardown = dp_bpf_teardown,
	.show = dp_bpf_show,
};
