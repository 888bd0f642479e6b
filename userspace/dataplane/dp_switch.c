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

#include "dataplane/dp_packed.h"
#include "dataplane/dp_paths.h"
#include "dataplane/dp_pin.h"
#include "dataplane/dp_state.h"
#include "dataplane/dp_table.h"
#include "dataplane/dp_record.h"
#include "dataplane/dp_report.h"
#include "dataplane/dp_settle.h"
#include "dataplane/dp_switch.h"
#include "dataplane/dp_switch_int.h"
#include "lib/link_switch.h"
#include "lib/log.h"
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

/* The record written before anything is attached; see dp_state.h. */
static json_t *attaching_state(const struct dp_opts *o,
			       const struct dp_port *ports, int n)
{
	json_t *st = json_pack("{s:s,s:s,s:s,s:s,s:o,s:s,s:o}", "format",
			       DP_STATE_FORMAT, "kind", "switch", "name",
			       o->name, "phase", "attaching", "netns",
			       dp_netns_json(), "mode", dp_mode_name(o->mode),
			       "ports", dp_ports_json(ports, n));
	int was = dp_sysctl_read();

	/* Which teardown undoes it, whatever happens after. */
	json_object_set_new(st, "datapath",
			    json_string(dp_path_get(o->datapath)->name));
	if (was) /* to restore, whatever happens after */
		json_object_set_new(st, "sysctl_prio_was", json_integer(was));
	return st;
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
	rep->attach.datapath = dp_path_get(o->datapath)->name;
	ret = err ? EXIT_RUNTIME :
		    dp_path_get(o->datapath)
			      ->attach(o, &j, ports, n, &rep->attach);
	/* show reads the rules' digest from the record, not packs them */
	if (!ret && dp_packed_mark(j.dir))
		pr_debug("%s: no digest kept in the record\n", j.dir);
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
