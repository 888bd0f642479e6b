// SPDX-License-Identifier: GPL-2.0
/* Per-port maps -> SONiC config_db entries (maps_sonic.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "compile/maps_sonic.h"
#include "lib/util.h"

bool maps_sonic_refusal(const struct maps *m, const struct maps_switch *ms,
			char *why, size_t len)
{
	const struct rules_switch *rs = &m->r->sw[ms->sw];
	int p;

	if (ms->nclasses > m->max_classes || ms->nclasses > MAPS_MAX_CLASSES) {
		snprintf(
			why, len,
			"switch %s needs %s%d traffic classes, SONiC is given at most %d (TC 0..%d)",
			rs->name, ms->saturated ? "more than " : "",
			maps_known(ms), m->max_classes, m->max_classes - 1);
		return true;
	}
	if (ms->nprios > m->max_prios) {
		snprintf(
			why, len,
			"switch %s uses %d lossless priorities, at most %d allowed",
			rs->name, ms->nprios, m->max_prios);
		return true;
	}
	for (p = 0; p < rs->nports; p++)
		if (!strcasecmp(rs->ports[p], "global")) {
			snprintf(
				why, len,
				"switch %s: port \"%s\" is the key SONiC's PORT_QOS_MAP and PFC_WD keep for the global entry",
				rs->name, rs->ports[p]);
			return true;
		}
	return false;
}

static char *num(long long v)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%lld", v);
	return xstrdup(buf);
}

static void set_num(json_t *o, const char *key, long long v)
{
	char *s = num(v);

	json_object_set_new(o, key, json_string(s));
	free(s);
}

/*
 * The name of map content c in table tab, "<prefix>_<n>": an existing
 * map's with the same content, else a new one.
 */
static const char *map_name(json_t *tab, const char *prefix, json_t *c)
{
	const char *k;
	json_t *v;
	char name[40];

	json_object_foreach(tab, k, v) {
		if (json_equal(v, c)) {
			json_decref(c);
			return k;
		}
	}
	snprintf(name, sizeof(name), "%s_%zu", prefix, json_object_size(tab));
	json_object_set_new(tab, name, c);
	return json_object_iter_key(json_object_iter_at(tab, name));
}

static const char *prio_list(uint32_t mask, char *buf, size_t len)
{
	size_t n = 0;
	int p;

	buf[0] = 0;
	for (p = 0; p < RULES_NPRIOS; p++)
		if (mask & (1u << p))
			n += snprintf(buf + n, len - n, "%s%d", n ? "," : "",
				      p);
	return buf;
}

/* The lossless priorities classified at in-port port: its lossless PGs. */
static uint32_t ingress_mask(const struct maps *m, const struct maps_switch *ms,
			     int port)
{
	uint32_t mask = 0;
	int d, c;

	for (d = 0; d < RULES_NTAGS; d++) {
		c = maps_class(ms, port, d);
		if (maps_prio_lossless(m->r, ms->prio[c]))
			mask |= 1u << ms->prio[c];
	}
	return mask;
}

/* o["k"] = "v", both numbers written as strings (config_db's way). */
static void set_at(json_t *o, long long k, long long v)
{
	char *s = num(k);

	set_num(o, s, v);
	free(s);
}

/* The config_db tables, filled port by port, then put together. */
struct sonic_tables {
	json_t *d2t, *t2d, *t2q, *t2pg, *pqm, *cable, *prof, *bpg, *wd;
	char profile[96]; /* the one lossless PG profile's name */
	char len[24]; /* the cable length, "5m" */
};

/* TC_TO_PRIORITY_GROUP_MAP: one map for all ports, class -> priority. */
static json_t *tc_pg_map(const struct maps_switch *ms)
{
	json_t *pgmap = json_object(), *t2pg = json_object();
	int k;

	for (k = 0; k < ms->nclasses; k++)
		set_at(pgmap, k, ms->prio[k]);
	json_object_set_new(t2pg, "TAGGER_TC_PG", pgmap);
	return t2pg;
}

/*
 * Port p's three maps (DSCP -> class, class -> new DSCP, class -> queue),
 * each shared with the ports of the same content, and its PORT_QOS_MAP
 * entry naming them, with PFC and its watchdog on its lossless priorities.
 */
static void port_qos(const struct maps *m, const struct maps_switch *ms, int p,
		     struct sonic_tables *t)
{
	const char *n_d2t, *n_t2d, *n_t2q;
	char list[32];
	json_t *c;
	int d, k;

	c = json_object();
	for (d = 0; d < RULES_NTAGS; d++)
		set_at(c, d, maps_class(ms, p, d));
	n_d2t = map_name(t->d2t, "TAGGER_DSCP_TC", c);
	c = json_object();
	for (k = 0; k < ms->nclasses; k++)
		set_at(c, k, maps_new_tag(ms, k, p));
	n_t2d = map_name(t->t2d, "TAGGER_TC_DSCP", c);
	c = json_object();
	for (k = 0; k < ms->nclasses; k++)
		set_at(c, k, maps_queue(m, ms, k, p));
	n_t2q = map_name(t->t2q, "TAGGER_TC_QUEUE", c);
	prio_list(maps_prio_mask(m, ms, p), list, sizeof(list));
	json_object_set_new(
		t->pqm, m->r->sw[ms->sw].ports[p],
		json_pack("{s:s,s:s,s:s,s:s,s:s,s:s}", "dscp_to_tc_map", n_d2t,
			  "tc_to_dscp_map", n_t2d, "tc_to_queue_map", n_t2q,
			  "tc_to_pg_map", "TAGGER_TC_PG", "pfc_enable", list,
			  "pfcwd_sw_enable", list));
}

/* Port p's BUFFER_PG entries: the lossless profile per lossless PG. */
static void port_buffers(const struct maps *m, const struct maps_switch *ms,
			 int p, struct sonic_tables *t)
{
	const char *port = m->r->sw[ms->sw].ports[p];
	uint32_t in_mask = ingress_mask(m, ms, p);
	char key[300];
	int pr;

	for (pr = 0; pr < RULES_NPRIOS; pr++) {
		if (!(in_mask & (1u << pr)))
			continue;
		snprintf(key, sizeof(key), "%s|%d", port, pr);
		json_object_set_new(t->bpg, key,
				    json_pack("{s:s}", "profile", t->profile));
	}
}

/* Port p's PFC_WD entry, if it has lossless priorities. */
static void port_watchdog(const struct maps *m, const struct maps_switch *ms,
			  int p, const struct sonic_buffer *b,
			  struct sonic_tables *t)
{
	json_t *w;

	if (!maps_prio_mask(m, ms, p))
		return;
	w = json_pack("{s:s}", "action", b->wd_action);
	set_num(w, "detection_time", b->wd_detect_ms);
	set_num(w, "restoration_time", b->wd_restore_ms);
	json_object_set_new(t->wd, m->r->sw[ms->sw].ports[p], w);
}

/* BUFFER_PROFILE: the lossless PG profile, if a BUFFER_PG uses it. */
static void buffer_profile(const struct sonic_buffer *b, struct sonic_tables *t)
{
	json_t *pf;

	if (!json_object_size(t->bpg))
		return;
	pf = json_pack("{s:s}", "pool", b->pool);
	set_num(pf, "size", (long long)(b->xon + b->headroom));
	set_num(pf, "xon", (long long)b->xon);
	set_num(pf, "xoff", (long long)b->headroom);
	set_num(pf, "dynamic_th", b->dynamic_th);
	json_object_set_new(t->prof, t->profile, pf);
}

/* PFC_WD's GLOBAL entry: polled at least as often as either timer. */
static void watchdog_global(const struct sonic_buffer *b,
			    struct sonic_tables *t)
{
	json_t *g;
	int poll = 200;

	if (!json_object_size(t->wd))
		return;
	g = json_object();
	if (b->wd_detect_ms < poll)
		poll = b->wd_detect_ms;
	if (b->wd_restore_ms < poll)
		poll = b->wd_restore_ms;
	set_num(g, "POLL_INTERVAL", poll);
	json_object_set_new(t->wd, "GLOBAL", g);
}

static json_t *tables_doc(struct sonic_tables *t)
{
	json_t *doc = json_object();

	json_object_set_new(doc, "DSCP_TO_TC_MAP", t->d2t);
	json_object_set_new(doc, "TC_TO_DSCP_MAP", t->t2d);
	json_object_set_new(doc, "TC_TO_QUEUE_MAP", t->t2q);
	json_object_set_new(doc, "TC_TO_PRIORITY_GROUP_MAP", t->t2pg);
	json_object_set_new(doc, "PORT_QOS_MAP", t->pqm);
	json_object_set_new(doc, "CABLE_LENGTH",
			    json_pack("{s:o}", "AZURE", t->cable));
	json_object_set_new(doc, "BUFFER_PROFILE", t->prof);
	json_object_set_new(doc, "BUFFER_PG", t->bpg);
	json_object_set_new(doc, "PFC_WD", t->wd);
	return doc;
}

json_t *maps_sonic_json(const struct maps *m, const struct maps_switch *ms,
			const struct sonic_buffer *b)
{
	const struct rules_switch *rs = &m->r->sw[ms->sw];
	struct sonic_tables t = {
		.d2t = json_object(),
		.t2d = json_object(),
		.t2q = json_object(),
		.t2pg = tc_pg_map(ms),
		.pqm = json_object(),
		.cable = json_object(),
		.prof = json_object(),
		.bpg = json_object(),
		.wd = json_object(),
	};
	int p;

	snprintf(t.profile, sizeof(t.profile), "tagger_pg_lossless_%llu_%um",
		 (unsigned long long)(b->rate_bps / 1000000), b->cable_m);
	snprintf(t.len, sizeof(t.len), "%um", b->cable_m);
	for (p = 0; p < ms->nports; p++) {
		port_qos(m, ms, p, &t);
		json_object_set_new(t.cable, rs->ports[p], json_string(t.len));
		port_buffers(m, ms, p, &t);
		port_watchdog(m, ms, p, b, &t);
	}
	buffer_profile(b, &t);
	watchdog_global(b, &t);
	return tables_doc(&t);
}
