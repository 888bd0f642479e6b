// SPDX-License-Identifier: GPL-2.0
/*
 * Per-port maps (maps.h): the queries on them and the "tagger-maps/1"
 * document (Documentation/tagger-formats.7.rst).
 */
#include <stdlib.h>
#include <string.h>

#include "model/maps.h"

int maps_queue(const struct maps *m, const struct maps_switch *ms, int cls,
	       int out)
{
	int p = rules_tag_prio(m->r, maps_new_tag(ms, cls, out));

	return p >= 0 ? p : m->r->lossy_prio;
}

uint32_t maps_prio_mask(const struct maps *m, const struct maps_switch *ms,
			int port)
{
	const struct rules *r = m->r;
	uint32_t mask = 0;
	int d, c, q;

	for (d = 0; d < RULES_NTAGS; d++) {
		c = maps_class(ms, port, d);
		if (maps_prio_lossless(r, ms->prio[c]))
			mask |= 1u << ms->prio[c];
	}
	for (c = 0; c < maps_known(ms); c++) {
		if (!maps_prio_lossless(r, ms->prio[c]))
			continue;
		q = maps_queue(m, ms, c, port);
		if (maps_prio_lossless(r, q) &&
		    rules_tag_lossless(r, maps_new_tag(ms, c, port)))
			mask |= 1u << q;
	}
	return mask;
}

void maps_free(struct maps *m)
{
	int s;

	for (s = 0; s < m->nsw; s++) {
		free(m->sw[s].cls);
		free(m->sw[s].rw);
		free(m->sw[s].prio);
		free(m->sw[s].rep);
	}
	free(m->sw);
	memset(m, 0, sizeof(*m));
}

const struct maps_switch *maps_find(const struct maps *m, int sw)
{
	return sw >= 0 && sw < m->nsw ? &m->sw[sw] : NULL;
}

static json_t *switch_json(const struct maps *m, const struct maps_switch *ms)
{
	const struct rules *r = m->r;
	const struct rules_switch *rs = &r->sw[ms->sw];
	json_t *ports = json_array(), *classes = json_array(),
	       *cls = json_array(), *rw = json_array();
	int p, d, c, out, nt;

	for (p = 0; p < ms->nports; p++)
		json_array_append_new(ports, json_string(rs->ports[p]));
	for (c = 0; c < ms->nclasses; c++)
		json_array_append_new(classes,
				      json_pack("{s:i,s:i}", "class", c,
						"priority", ms->prio[c]));
	for (p = 0; p < ms->nports; p++)
		for (d = 0; d < RULES_NTAGS; d++) {
			c = maps_class(ms, p, d);
			if (c != MAPS_LOSSY_CLASS)
				json_array_append_new(
					cls, json_pack("{s:s,s:i,s:i}", "in",
						       rs->ports[p], "tag", d,
						       "class", c));
		}
	for (c = 1; c < ms->nclasses; c++)
		for (out = 0; out < ms->nports; out++) {
			nt = maps_new_tag(ms, c, out);
			if (nt != r->lossy_tag)
				json_array_append_new(
					rw, json_pack("{s:i,s:s,s:i}", "class",
						      c, "out", rs->ports[out],
						      "new_tag", nt));
		}
	return json_pack("{s:o,s:o,s:o,s:o}", "ports", ports, "classes",
			 classes, "classify", cls, "rewrite", rw);
}

int maps_set_limits(struct maps *m, int max_classes, int max_prios)
{
	int s, p;

	m->max_classes = max_classes;
	m->max_prios = max_prios;
	m->refused = 0;
	for (s = 0; s < m->nsw; s++) {
		struct maps_switch *ms = &m->sw[s];

		ms->prio_mask = 0;
		for (p = 0; p < ms->nports; p++)
			ms->prio_mask |= maps_prio_mask(m, ms, p);
		ms->nprios = __builtin_popcount(ms->prio_mask);
		ms->refused =
			ms->nclasses > max_classes || ms->nprios > max_prios;
		m->refused += ms->refused;
	}
	return m->refused;
}

static json_t *host_json(const struct rules_host *h)
{
	json_t *o = json_object(), *cls;
	int k;

	if (h->tag >= 0)
		json_object_set_new(o, "tag", json_integer(h->tag));
	if (h->nclasses) {
		cls = json_array();
		for (k = 0; k < h->nclasses; k++)
			json_array_append_new(cls, json_integer(h->classes[k]));
		json_object_set_new(o, "classes", cls);
	}
	return o;
}

void maps_shared_json(const struct rules *r, json_t *o)
{
	json_t *tags = json_array(), *v;
	int i;

	json_object_set_new(o, "lossy",
			    json_pack("{s:i,s:i}", "tag", r->lossy_tag,
				      "priority", r->lossy_prio));
	if (r->cnp_tag >= 0)
		json_object_set_new(o, "cnp",
				    json_pack("{s:i,s:i}", "tag", r->cnp_tag,
					      "priority", r->cnp_prio));
	for (i = 0; i < r->ntags; i++)
		json_array_append_new(
			tags, json_pack("{s:i,s:i}", "tag", r->tags[i].tag,
					"priority", r->tags[i].prio));
	json_object_set_new(o, "tags", tags);
	if (r->nclasses) {
		v = json_array();
		for (i = 0; i < r->nclasses; i++)
			json_array_append_new(v,
					      json_pack("{s:i,s:i}", "class",
							r->class_ids[i], "tag",
							r->class_tags[i]));
		json_object_set_new(o, "classes", v);
	}
	if (r->nhosts) {
		v = json_object();
		for (i = 0; i < r->nhosts; i++)
			json_object_set_new(v, r->hosts[i].name,
					    host_json(&r->hosts[i]));
		json_object_set_new(o, "hosts", v);
	}
}

json_t *maps_json(const struct maps *m, const char *src)
{
	const struct rules *r = m->r;
	json_t *sws = json_object(), *o;
	int s;

	for (s = 0; s < m->nsw; s++)
		if (!m->sw[s].refused)
			json_object_set_new(sws, r->sw[s].name,
					    switch_json(m, &m->sw[s]));
	o = json_pack("{s:s,s:s,s:i}", "format", MAPS_FORMAT, "rules",
		      src ? src : "", "max_classes", m->max_classes);
	maps_shared_json(r, o);
	json_object_set_new(o, "switches", sws);
	return o;
}
