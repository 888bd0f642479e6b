// SPDX-License-Identifier: GPL-2.0
/*
 * tagger switch check: a data path's dry run on a switch (dp_check.h).
 * Reads the ports' interfaces and counts entries; writes nothing.
 */
#include <errno.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compile/rules_maps.h"
#include "dataplane/dp_check.h"
#include "dataplane/dp_table.h"
#include "dataplane/dp_union.h"
#include "dataplane/flower_tc.h"
#include "lib/dcb.h"
#include "lib/ethtool_feat.h"
#include "lib/link_switch.h"
#include "lib/log.h"
#include "lib/util.h"
#include "model/dcb_map.h"
#include "model/flower_share.h"
#include "model/flower_table.h"

#define FLOWER_ENTRY_FILTERS 2 /* chain 0 of ingress and of egress */

static const char *const path_names[] = {
	[DP_CHECK_BPF] = "bpf",
	[DP_CHECK_FLOWER] = "flower",
	[DP_CHECK_DCB] = "dcb",
};

const char *dp_check_path_name(int path)
{
	return path >= 0 && path <= DP_CHECK_DCB ? path_names[path] : "?";
}

/* What the kernel says about one port's interface: -1 where unknown. */
struct facts {
	int ifindex; /* 0: no such interface here */
	int switchdev;
	char switch_id[2 * LINK_SWITCH_ID_MAX + 1];
	int tc_offload;
	bool tc_offload_changeable;
	int dcb;
};

struct check {
	const struct dp_check_in *in;
	const char *name; /* the switch */
	int n; /* ports */
	struct facts *f;
	long *entries; /* by port */
	long total;
	json_t *problems;
	json_t *extra; /* members the data path adds to the report */
	json_t **port_extra; /* by port */
};

static void read_facts(const char *ifname, int path, struct facts *f)
{
	struct ethtool_feat st;
	char msg[64];
	int r;

	memset(f, 0, sizeof(*f));
	f->switchdev = f->tc_offload = f->dcb = -1;
	f->ifindex = (int)if_nametoindex(ifname);
	if (!f->ifindex)
		return;
	r = link_switch_id(f->ifindex, f->switch_id, sizeof(f->switch_id));
	f->switchdev = r < 0 ? -1 : r;
	if (ethtool_feature(ifname, "hw-tc-offload", &st) == 0) {
		f->tc_offload = st.on;
		f->tc_offload_changeable = st.changeable;
	}
	if (path == DP_CHECK_DCB) {
		r = pfc_dcb_probe(ifname, msg, sizeof(msg));
		f->dcb = r < 0 ? -1 : r;
	}
}

static json_t *tri(int v)
{
	return v < 0 ? json_null() : json_boolean(v);
}

static json_t *port_or_null(const struct check *c, int p)
{
	return p < 0 ? json_null() :
		       json_string(c->in->r->sw[c->in->sw].ports[p]);
}

static void add_problem(struct check *c, const char *kind, int in, int tag,
			int out, const char *msg)
{
	json_array_append_new(
		c->problems,
		json_pack("{s:s, s:o, s:o, s:o, s:s}", "kind", kind, "in",
			  port_or_null(c, in), "tag",
			  tag < 0 ? json_null() : json_integer(tag), "out",
			  port_or_null(c, out), "message", msg));
}

/* bpf: the switch's one table; a port's share is its rows. */
static void bpf_entries(struct check *c)
{
	const struct rules *r = c->in->r;
	struct dp_port *ports = xcalloc(c->n ? c->n : 1, sizeof(*ports));
	struct dp_table tab;
	uint32_t row, out;
	size_t k;
	int p;

	for (p = 0; p < c->n; p++) {
		ports[p].name = r->sw[c->in->sw].ports[p];
		ports[p].ifname = c->in->ifnames[p];
		ports[p].slot = p + 1;
	}
	dp_table_build(r, c->in->sw, ports, &tab);
	for (k = 0; k < tab.n; k++) {
		row = tab.idx[k] / TAGGER_DSCP_MAX;
		if (row && row < tab.nslots)
			c->entries[row - 1]++; /* classify, by in-port */
		else if (row >= tab.nslots &&
			 (out = (row - tab.nslots) % tab.nslots))
			c->entries[out - 1]++; /* rewrite, by out-port */
	}
	c->total = (long)tab.n;
	dp_table_free(&tab);
	free(ports);
}

static int count_filter(const struct flower_tc_filter *t, void *arg)
{
	(void)t;
	(*(long *)arg)++;
	return 0;
}

/* One direction's tc filters of a port, with its entry filter. */
static long dir_filters(const struct flower_port *fp, bool egress, bool hw)
{
	struct flower_port one = { 0 };
	long n = 1;

	if (egress)
		one.out = fp->out;
	else
		one.in = fp->in;
	flower_tc_walk(&one, 0, hw, count_filter, &n);
	return n + flower_tc_handoffs(egress, hw);
}

/*
 * What attach --shared-blocks would bind (flower_share.h, the first port
 * keeping its own hooks as there): the blocks, their ports, and the
 * filters with each block's once.
 */
static void flower_sharing(struct check *c, const struct flower_port *fp)
{
	int *rep = xcalloc(c->n + 1, sizeof(*rep)), d, p, q;
	json_t *blocks = json_array(), *ports;
	long shared = 0;

	for (d = 0; d < 2; d++) {
		flower_share(fp, c->n, d, 1, rep);
		for (p = 0; p < c->n; p++) {
			if (rep[p] < 0 || rep[p] == p)
				shared += dir_filters(&fp[p], d,
						      c->f[p].tc_offload == 1);
			if (rep[p] != p)
				continue;
			ports = json_array();
			for (q = p; q < c->n; q++)
				if (rep[q] == p)
					json_array_append_new(
						ports,
						json_string(
							c->in->r->sw[c->in->sw]
								.ports[q]));
			json_array_append_new(
				blocks, json_pack("{s:s,s:o}", "direction",
						  d ? "egress" : "ingress",
						  "ports", ports));
		}
	}
	json_object_set_new(c->extra, "shared_blocks",
			    json_pack("{s:o,s:I,s:I}", "blocks", blocks,
				      "entries", (json_int_t)shared, "saved",
				      (json_int_t)(c->total - shared)));
	free(rep);
}

/* flower: the tc filters of each port as export would write them. */
static int flower_entries(struct check *c)
{
	const struct rules *r = c->in->r;
	struct flower_port *fp = xcalloc(c->n + 1, sizeof(*fp));
	char msg[256];
	int p, err = 0;
	bool hw;
	long n;

	for (p = 0; p < c->n && !err; p++) {
		if (flower_port_build(r, c->in->sw, p, &fp[p])) {
			p_err("switch %s: %s", c->name, strerror(ENOMEM));
			err = EXIT_RUNTIME;
			break;
		}
		n = 0;
		hw = c->f[p].tc_offload == 1;
		err = flower_tc_walk(&fp[p], 0, hw, count_filter, &n);
		n += flower_tc_handoffs(false, hw) +
		     flower_tc_handoffs(true, hw);
		if (err == -E2BIG) {
			snprintf(msg, sizeof(msg),
				 "switch %s: port %s needs more tc filters in "
				 "one chain than tc's %d prefs",
				 c->name, r->sw[c->in->sw].ports[p],
				 FLOWER_TC_MAX_PREF);
			add_problem(c, "size", -1, -1, p, msg);
			err = 0;
		}
		c->entries[p] = n + FLOWER_ENTRY_FILTERS;
		c->total += c->entries[p];
	}
	if (!err)
		flower_sharing(c, fp);
	for (p = 0; p < c->n; p++)
		flower_port_free(&fp[p]);
	free(fp);
	return err;
}

/* The switch's maps form (tagger maps): evidence for the remedies. */
static json_t *maps_evidence(const struct check *c)
{
	const struct maps_switch *ms;
	struct maps m;
	json_t *o;

	maps_build(c->in->r, MAPS_DEFAULT_CLASSES, RULES_NPRIOS, &m);
	ms = maps_find(&m, c->in->sw);
	o = json_pack("{s:i, s:b, s:i, s:i, s:b}", "classes",
		      ms->nclasses - ms->saturated, "classes_at_least",
		      ms->saturated, "max_classes", m.max_classes,
		      "lossless_priorities", ms->nprios, "refused",
		      ms->refused);
	maps_free(&m);
	return o;
}

static json_t *prio_list(uint8_t mask)
{
	json_t *a = json_array();
	int p;

	for (p = 0; p < RULES_NPRIOS; p++)
		if (mask & (1u << p))
			json_array_append_new(a, json_integer(p));
	return a;
}

static void dcb_off_elp(struct check *c, const struct dcb_map *m)
{
	char msg[512];

	json_object_set_new(
		c->extra, "off_elp",
		json_pack("{s:I, s:b, s:o}", "pairs",
			  (json_int_t)m->off_elp_total, "problems",
			  c->in->strict, "example",
			  m->off_elp_total ?
				  json_pack("{s:o, s:i, s:o}", "in",
					    port_or_null(c, m->off_in), "tag",
					    m->off_tag, "out",
					    port_or_null(c, m->off_out)) :
				  json_null()));
	if (!c->in->strict || !m->off_elp_total)
		return;
	snprintf(msg, sizeof(msg),
		 "switch %s: %ld (in-port, tag, out-port) combinations off the "
		 "ELP (e.g. in %s tag %d out %s, no rewrite rule) keep their "
		 "lossless priority on DCB: the eBPF and flower data paths "
		 "demote them",
		 c->name, m->off_elp_total,
		 c->in->r->sw[c->in->sw].ports[m->off_in], m->off_tag,
		 c->in->r->sw[c->in->sw].ports[m->off_out]);
	add_problem(c, "off-elp", m->off_in, m->off_tag, m->off_out, msg);
}

/* dcb: the app, rewr and PFC tables; links give the next hops. */
static int dcb_entries(struct check *c)
{
	const struct rules *r = c->in->r;
	struct dcb_peer *peers = xcalloc(c->n ? c->n : 1, sizeof(*peers));
	bool seen[DCB_KINDS] = { false };
	json_t *rem = json_array();
	struct dp_links l;
	struct dcb_map m;
	int p, k, has;

	has = c->in->doc ?
		      dp_links_from_json(c->in->doc, c->in->rules_file, &l) :
		      0;
	if (has < 0) {
		free(peers);
		json_decref(rem);
		return EXIT_USAGE;
	}
	if (has > 0)
		dcb_peers(r, c->in->sw, l.a, l.b, l.n, peers);
	dcb_map_build(r, c->in->sw, has > 0 ? peers : NULL, &m);
	if (has > 0)
		dp_links_free(&l);
	free(peers);
	for (p = 0; p < c->n; p++) {
		c->entries[p] =
			dcb_app_entries(&m, p) + dcb_rewr_entries(&m, p);
		c->total += c->entries[p];
		c->port_extra[p] = json_pack("{s:i, s:i, s:o, s:I}", "app",
					     dcb_app_entries(&m, p), "rewr",
					     dcb_rewr_entries(&m, p), "pfc",
					     prio_list(m.pfc[p]), "off_elp",
					     (json_int_t)m.off_elp[p]);
	}
	for (k = 0; k < m.nproblems; k++) {
		const struct dcb_problem *q = &m.problems[k];

		add_problem(c, dcb_problem_kind_name(q->kind), q->in, q->tag,
			    q->out, q->msg);
		seen[q->kind] = true;
	}
	for (k = 0; k < DCB_KINDS; k++)
		if (seen[k])
			json_array_append_new(
				rem, json_pack("{s:s, s:s}", "kind",
					       dcb_problem_kind_name(k), "text",
					       dcb_problem_remedy(k)));
	json_object_set_new(c->extra, "next_hops",
			    json_string(has > 0 ? "links" : "tags"));
	json_object_set_new(c->extra, "pfc", prio_list(m.pfc_any));
	dcb_off_elp(c, &m);
	json_object_set_new(c->extra, "remedies", rem);
	json_object_set_new(c->extra, "maps",
			    m.nproblems ? maps_evidence(c) : json_null());
	dcb_map_free(&m);
	return 0;
}

/* Where the port's data path would run, and what to say about it. */
static const char *runs(const struct check *c, int p, char *note, size_t len)
{
	const struct facts *f = &c->f[p];
	const char *ifname = c->in->ifnames[p];

	*note = '\0';
	if (!f->ifindex) {
		snprintf(note, len, "no interface %s in this network namespace",
			 ifname);
		return "none";
	}
	switch (c->in->path) {
	case DP_CHECK_BPF:
		if (f->switchdev == 1)
			snprintf(note, len,
				 "a switchdev port: traffic its ASIC forwards "
				 "bypasses tc, so bpf sees only what the CPU "
				 "forwards (--datapath flower)");
		return "software";
	case DP_CHECK_FLOWER:
		if (f->tc_offload == 1)
			return "hardware";
		if (f->switchdev == 1)
			snprintf(note, len,
				 "a switchdev port with hw-tc-offload off: "
				 "traffic its ASIC forwards bypasses software "
				 "filters%s",
				 f->tc_offload_changeable ?
					 " (ethtool -K IF hw-tc-offload on)" :
					 ", and the driver cannot turn it on");
		return "software";
	default:
		if (f->dcb == 1)
			return "hardware";
		snprintf(note, len, "the driver has %s: nothing would run here",
			 f->dcb == 0 ? "no DCB operations" :
				       "not answered the DCB probe");
		return "none";
	}
}

static json_t *port_json(struct check *c, int p)
{
	const struct facts *f = &c->f[p];
	char note[256];
	const char *where = runs(c, p, note, sizeof(note));
	json_t *o;

	o = json_pack(
		"{s:s, s:s, s:o, s:b, s:o, s:o, s:o, s:s, s:b, s:I, s:o}",
		"port", c->in->r->sw[c->in->sw].ports[p], "ifname",
		c->in->ifnames[p], "ifindex",
		f->ifindex ? json_integer(f->ifindex) : json_null(), "found",
		f->ifindex != 0, "switchdev", tri(f->switchdev), "switch_id",
		f->switchdev == 1 ? json_string(f->switch_id) : json_null(),
		"hw_tc_offload", tri(f->tc_offload), "runs", where, "offloaded",
		!strcmp(where, "hardware"), "entries",
		(json_int_t)c->entries[p], "note",
		note[0] ? json_string(note) : json_null());
	if (c->in->path == DP_CHECK_DCB)
		json_object_set_new(o, "dcb", tri(f->dcb));
	if (c->port_extra[p])
		json_object_update(o, c->port_extra[p]);
	return o;
}

static void check_free(struct check *c)
{
	int p;

	for (p = 0; c->port_extra && p < c->n; p++)
		json_decref(c->port_extra[p]);
	free(c->port_extra);
	free(c->f);
	free(c->entries);
	json_decref(c->problems);
	json_decref(c->extra);
}

int dp_check(const struct dp_check_in *in, json_t **report)
{
	const struct rules_switch *s = &in->r->sw[in->sw];
	struct check c = { .in = in, .name = s->name, .n = s->nports };
	json_t *ports;
	int p, found = 0, ret = 0;

	*report = NULL;
	c.f = xcalloc(c.n ? c.n : 1, sizeof(*c.f));
	c.entries = xcalloc(c.n ? c.n : 1, sizeof(*c.entries));
	c.port_extra = xcalloc(c.n ? c.n : 1, sizeof(*c.port_extra));
	c.problems = json_array();
	c.extra = json_object();
	for (p = 0; p < c.n; p++) {
		read_facts(in->ifnames[p], in->path, &c.f[p]);
		found += c.f[p].ifindex != 0;
	}
	if (c.n && !found) {
		p_err("switch %s: none of its %d ports has an interface in this "
		      "network namespace (run it in the switch's namespace, or "
		      "map PORT=IFNAME)",
		      c.name, c.n);
		check_free(&c);
		return EXIT_USAGE;
	}
	if (in->path == DP_CHECK_BPF)
		bpf_entries(&c);
	else if (in->path == DP_CHECK_FLOWER)
		ret = flower_entries(&c);
	else
		ret = dcb_entries(&c);
	if (ret) {
		check_free(&c);
		return ret;
	}
	ports = json_array();
	for (p = 0; p < c.n; p++)
		json_array_append_new(ports, port_json(&c, p));
	*report = json_pack("{s:s, s:s, s:s, s:b, s:i, s:i, s:I, s:o, s:O}",
			    "switch", c.name, "rules", in->rules_file,
			    "datapath", dp_check_path_name(in->path),
			    "expressible", json_array_size(c.problems) == 0,
			    "ports_found", found, "ports_missing", c.n - found,
			    "entries", (json_int_t)c.total, "ports", ports,
			    "problems", c.problems);
	json_object_update(*report, c.extra);
	ret = json_array_size(c.problems) ? EXIT_PROBLEM : EXIT_OK;
	check_free(&c);
	return ret;
}
