// SPDX-License-Identifier: GPL-2.0
/* tagger switch attach / update / detach; see dp_switch.h. */
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
#include "dataplane/dp_flower.h"
#include "dataplane/dp_pin.h"
#include "dataplane/dp_pin_path.h"
#include "dataplane/dp_record.h"
#include "dataplane/dp_state.h"
#include "dataplane/dp_report.h"
#include "dataplane/dp_settle.h"
#include "dataplane/dp_switch.h"
#include "dataplane/dp_switch_int.h"
#include "dataplane/dp_table.h"
#include "lib/link_switch.h"
#include "lib/log.h"
#include "tagger_port.skel.h"
#include "lib/util.h"

#define SYSCTL_PRIO "/proc/sys/net/ipv4/ip_forward_update_priority"

/* The switch's ports and the interfaces they run on (PORT=IFNAME maps). */
/*
 * A port of a switch ASIC (a switchdev device) hands these programs only
 * what the CPU forwards: the ASIC's own traffic never meets them. Said,
 * not refused: the CPU's traffic is still tagged, and a lab may want it.
 */
static void warn_asic_port(const struct dp_port *p)
{
	char id[2 * LINK_SWITCH_ID_MAX + 1];

	if (link_switch_id(p->ifindex, id, sizeof(id)) == 1)
		pr_warn("port %s: %s is a port of a switch ASIC (switch id %s): "
			"packets the ASIC forwards never reach the eBPF data "
			"plane; attach with --datapath flower (tc flower filters "
			"the driver can offload, tagger-switch(8))\n",
			p->name, p->ifname, id);
}

static struct dp_port *resolve_ports(const struct rules *r, int sw,
				     const struct dp_opts *o)
{
	const struct rules_switch *s = &r->sw[sw];
	struct dp_port *ports = xcalloc(s->nports + 1, sizeof(*ports));
	int i, j, p;

	if (s->nports >= TAGGER_MAX_PORTS) {
		p_err("switch %s has %d ports; the data plane takes %d",
		      o->name, s->nports, TAGGER_MAX_PORTS - 1);
		goto err;
	}
	for (i = 0; i < s->nports; i++) {
		ports[i].name = xstrdup(s->ports[i]);
		ports[i].ifname = xstrdup(s->ports[i]);
		ports[i].slot = i + 1;
	}
	for (i = 0; i < o->nmaps; i++) {
		char *eq = strchr(o->maps[i], '=');

		*eq = '\0';
		p = rules_find_port(r, sw, o->maps[i]);
		*eq = '=';
		if (p < 0) {
			p_err("%s: switch %s has no port \"%.*s\"",
			      o->rules_file, o->name, (int)(eq - o->maps[i]),
			      o->maps[i]);
			goto err;
		}
		free(ports[p].ifname);
		ports[p].ifname = xstrdup(eq + 1);
	}
	for (i = 0; i < s->nports; i++) {
		ports[i].ifindex = if_nametoindex(ports[i].ifname);
		if (!ports[i].ifindex) {
			p_err("port %s: no interface \"%s\" in this network namespace "
			      "(map it with %s=IFNAME)",
			      ports[i].name, ports[i].ifname, ports[i].name);
			goto err;
		}
		if (ports[i].ifindex >= TAGGER_MAX_IFINDEX) {
			p_err("port %s: ifindex %d of %s is beyond what the data plane "
			      "indexes (%d)",
			      ports[i].name, ports[i].ifindex, ports[i].ifname,
			      TAGGER_MAX_IFINDEX - 1);
			goto err;
		}
		if (o->datapath == DP_DATAPATH_BPF)
			warn_asic_port(&ports[i]);
		for (j = 0; j < i; j++)
			if (ports[j].ifindex == ports[i].ifindex) {
				p_err("ports %s and %s both map to %s",
				      ports[j].name, ports[i].name,
				      ports[i].ifname);
				goto err;
			}
	}
	return ports;
err:
	dp_free_ports(ports, s->nports);
	return NULL;
}

static json_t *ports_json(const struct dp_port *ports, int n,
			  const struct dp_attachment *att)
{
	json_t *arr = json_array();
	int i;

	for (i = 0; i < n; i++) {
		json_t *p =
			json_pack("{s:s,s:s,s:i,s:i}", "port", ports[i].name,
				  "ifname", ports[i].ifname, "ifindex",
				  ports[i].ifindex, "slot", ports[i].slot);

		if (att) {
			json_object_set_new(p, "ingress",
					    json_pack("[i,i]",
						      att[2 * i].handle,
						      att[2 * i].prio));
			json_object_set_new(p, "egress",
					    json_pack("[i,i]",
						      att[2 * i + 1].handle,
						      att[2 * i + 1].prio));
		}
		json_array_append_new(arr, p);
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

/* The record written before anything is attached; see dp_state.h. */
static json_t *attaching_state(const struct dp_opts *o,
			       const struct dp_port *ports, int n)
{
	bool fl = o->datapath == DP_DATAPATH_FLOWER;
	json_t *st =
		json_pack("{s:s,s:s,s:s,s:s,s:o,s:s,s:o}", "format",
			  DP_STATE_FORMAT, "kind", "switch", "name", o->name,
			  "phase", "attaching", "netns", dp_netns_json(),
			  "mode", dp_mode_name(fl ? DP_MODE_TC : o->mode),
			  "ports", ports_json(ports, n, NULL));
	int was = dp_sysctl_read();

	/* Which teardown undoes it, whatever happens after. */
	if (fl)
		json_object_set_new(st, "datapath", json_string("flower"));
	if (was) /* to restore, whatever happens after */
		json_object_set_new(st, "sysctl_prio_was", json_integer(was));
	return st;
}

/*
 * Load, install the table, attach every port, set the sysctl; the record
 * ("attaching" in *state) becomes "attached". Every failure here is the
 * system's (p_err'd): 0 or its exit code.
 */
static int attach_apply(const struct dp_opts *o, struct dp_job *j,
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

/*
 * Record "attaching" first, then load, attach and set the sysctl, then
 * record "attached": a kill anywhere leaves a record the next command
 * rolls back by (dp_node_settle).
 */
int dp_switch_attach(const struct dp_opts *o, struct dp_report *rep)
{
	struct dp_port *ports = NULL;
	struct dp_job j;
	int n = 0, err, ret;

	ret = dp_switch_open(o, &j);
	if (!ret) {
		n = j.r->sw[j.sw].nports;
		ports = resolve_ports(j.r, j.sw, o);
		ret = ports ? EXIT_OK : EXIT_USAGE;
	}
	if (!ret && j.state) {
		p_err("switch %s is attached already (%s): use update or detach",
		      o->name, j.dir);
		ret = EXIT_USAGE;
	}
	if (ret)
		goto out;
	/* From here on what fails is the system's doing. */
	if (mkdir(j.dir, 0700)) {
		p_err("mkdir %s: %s", j.dir, strerror(errno));
		ret = EXIT_RUNTIME;
		goto out;
	}
	j.state = attaching_state(o, ports, n);
	err = dp_state_save(j.dir, DP_STATE_CUR, j.state);
	if (err)
		p_err("saving state in %s: %s", j.dir, strerror(-err));
	if (err)
		ret = EXIT_RUNTIME;
	else if (o->datapath == DP_DATAPATH_FLOWER)
		ret = dp_flower_attach(o, &j, ports, n, &rep->attach);
	else
		ret = attach_apply(o, &j, ports, n, &rep->attach);
	if (!ret)
		rep->json = dp_attach_json(o, &rep->attach);
	/* The "attaching" record says what to undo (or nothing is there). */
	else if (err || dp_switch_teardown(j.dir, j.state, NULL))
		dp_remove(j.dir);
out:
	dp_free_ports(ports, n);
	dp_switch_close(&j);
	return ret;
}

/* Record "detaching", then tear down: a killed detach is completed. */
int dp_switch_detach(const struct dp_opts *o, struct dp_report *rep)
{
	struct dp_detach_report *d = &rep->detach;
	struct dp_job j;
	int err, ret;

	ret = dp_switch_lock(o, &j);
	if (!ret && !j.state && !j.leftover) {
		p_err("switch %s is not attached (%s)", o->name, j.dir);
		ret = EXIT_USAGE;
	}
	if (ret)
		goto out;
	/* Not attached, but what an interrupted command left is gone. */
	d->leftover = !j.state;
	if (j.state) {
		d->restored = json_object_get(j.state, "sysctl_prio_was");
		d->ports = json_array_size(json_object_get(j.state, "ports"));
		json_object_set_new(j.state, "phase", json_string("detaching"));
		err = dp_state_save(j.dir, DP_STATE_CUR, j.state);
		if (err)
			pr_warn("marking %s detaching: %s\n", j.dir,
				strerror(-err));
		if (dp_switch_teardown(j.dir, j.state, NULL))
			ret = EXIT_RUNTIME;
	}
	d->detached = ret == EXIT_OK;
	rep->json = dp_detach_json(o, d);
out:
	dp_switch_close(&j);
	return ret;
}
