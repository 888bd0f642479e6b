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

json_t *maps_sonic_json(const struct maps *m, const struct maps_switch *ms,
			const struct sonic_buffer *b)
{
	const struct rules_switch *rs = &m->r->sw[ms->sw];
	json_t *doc = json_object(), *d2t = json_object(), *t2d = json_object(),
	       *t2q = json_object(), *t2pg = json_object(),
	       *pqm = json_object(), *cable = json_object(),
	       *prof = json_object(), *bpg = json_object(), *wd = json_object(),
	       *pgmap = json_object(), *c;
	char profile[96], list[32], key[300], len[24];
	const char *n_d2t, *n_t2d, *n_t2q;
	int p, d, k, pr;
	uint32_t mask, in_mask;

	for (k = 0; k < ms->nclasses; k++) {
		char *s = num(k);

		set_num(pgmap, s, ms->prio[k]);
		free(s);
	}
	json_object_set_new(t2pg, "TAGGER_TC_PG", pgmap);
	snprintf(profile, sizeof(profile), "tagger_pg_lossless_%llu_%um",
		 (unsigned long long)(b->rate_bps / 1000000), b->cable_m);
	snprintf(len, sizeof(len), "%um", b->cable_m);
	for (p = 0; p < ms->nports; p++) {
		const char *port = rs->ports[p];

		c = json_object();
		for (d = 0; d < RULES_NTAGS; d++) {
			char *s = num(d);

			set_num(c, s, maps_class(ms, p, d));
			free(s);
		}
		n_d2t = map_name(d2t, "TAGGER_DSCP_TC", c);
		c = json_object();
		for (k = 0; k < ms->nclasses; k++) {
			char *s = num(k);

			set_num(c, s, maps_new_tag(ms, k, p));
			free(s);
		}
		n_t2d = map_name(t2d, "TAGGER_TC_DSCP", c);
		c = json_object();
		for (k = 0; k < ms->nclasses; k++) {
			char *s = num(k);

			set_num(c, s, maps_queue(m, ms, k, p));
			free(s);
		}
		n_t2q = map_name(t2q, "TAGGER_TC_QUEUE", c);
		mask = maps_prio_mask(m, ms, p);
		prio_list(mask, list, sizeof(list));
		json_object_set_new(
			pqm, port,
			json_pack("{s:s,s:s,s:s,s:s,s:s,s:s}", "dscp_to_tc_map",
				  n_d2t, "tc_to_dscp_map", n_t2d,
				  "tc_to_queue_map", n_t2q, "tc_to_pg_map",
				  "TAGGER_TC_PG", "pfc_enable", list,
				  "pfcwd_sw_enable", list));
		json_object_set_new(cable, port, json_string(len));
		in_mask = ingress_mask(m, ms, p);
		for (pr = 0; pr < RULES_NPRIOS; pr++) {
			if (!(in_mask & (1u << pr)))
				continue;
			snprintf(key, sizeof(key), "%s|%d", port, pr);
			json_object_set_new(
				bpg, key,
				json_pack("{s:s}", "profile", profile));
		}
		if (mask) {
			json_t *w = json_pack("{s:s}", "action", b->wd_action);

			set_num(w, "detection_time", b->wd_detect_ms);
			set_num(w, "restoration_time", b->wd_restore_ms);
			json_object_set_new(wd, port, w);
		}
	}
	if (json_object_size(bpg)) {
		json_t *pf = json_pack("{s:s}", "pool", b->pool);

		set_num(pf, "size", (long long)(b->xon + b->headroom));
		set_num(pf, "xon", (long long)b->xon);
		set_num(pf, "xoff", (long long)b->headroom);
		set_num(pf, "dynamic_th", b->dynamic_th);
		json_object_set_new(prof, profile, pf);
	}
	if (json_object_size(wd)) {
		json_t *g = json_object();
		int poll = 200;

		if (b->wd_detect_ms < poll)
			poll = b->wd_detect_ms;
		if (b->wd_restore_ms < poll)
			poll = b->wd_restore_ms;
		set_num(g, "POLL_INTERVAL", poll);
		json_object_set_new(wd, "GLOBAL", g);
	}
	json_object_set_new(doc, "DSCP_TO_TC_MAP", d2t);
	json_object_set_new(doc, "TC_TO_DSCP_MAP", t2d);
	json_object_set_new(doc, "TC_TO_QUEUE_MAP", t2q);
	json_object_set_new(doc, "TC_TO_PRIORITY_GROUP_MAP", t2pg);
	json_object_set_new(doc, "PORT_QOS_MAP", pqm);
	json_object_set_new(doc, "CABLE_LENGTH",
			    json_pack("{s:o}", "AZURE", cable));
	json_object_set_new(doc, "BUFFER_PROFILE", prof);
	json_object_set_new(doc, "BUFFER_PG", bpg);
	json_object_set_new(doc, "PFC_WD", wd);
	return doc;
}
