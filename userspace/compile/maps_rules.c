// SPDX-License-Identifier: GPL-2.0
/*
 * Per-port maps -> rules (maps_rules.h). The rules are exact, not
 * compressed: a switch of n ports has at most 64 n classify and 64 n^2
 * rewrite rules, the keys a switch's maps answer.
 */
#include "compile/maps_rules.h"

/* Whether the pair (in, dscp) gets rules: its class is lossless. */
static bool pair_lossless(const struct maps *m, const struct maps_switch *ms,
			  int in, int dscp)
{
	return maps_prio_lossless(m->r, ms->prio[maps_class(ms, in, dscp)]);
}

static json_t *switch_json(const struct maps *m, const struct maps_switch *ms)
{
	const struct rules *r = m->r;
	char *const *ports = r->sw[ms->sw].ports;
	json_t *pj = json_array(), *cl = json_array(), *rw = json_array();
	int in, d, out, c, nt;

	for (in = 0; in < ms->nports; in++)
		json_array_append_new(pj, json_string(ports[in]));
	for (in = 0; in < ms->nports && !ms->saturated; in++)
		for (d = 0; d < RULES_NTAGS; d++) {
			if (!pair_lossless(m, ms, in, d))
				continue;
			c = maps_class(ms, in, d);
			json_array_append_new(
				cl,
				json_pack("{s:s,s:i,s:i}", "in", ports[in],
					  "tag", d, "priority", ms->prio[c]));
			for (out = 0; out < ms->nports; out++) {
				nt = maps_new_tag(ms, c, out);
				if (nt == r->lossy_tag)
					continue;
				json_array_append_new(
					rw,
					json_pack("{s:i,s:s,s:s,s:i}", "tag", d,
						  "in", ports[in], "out",
						  ports[out], "new_tag", nt));
			}
		}
	return json_pack("{s:o,s:o,s:o}", "ports", pj, "classify", cl,
			 "rewrite", rw);
}

json_t *maps_rules_json(const struct maps *m, const json_t *links)
{
	json_t *o = json_pack("{s:s,s:{s:s}}", "format", RULES_FORMAT,
			      "compiler", "from", MAPS_FORMAT),
	       *sws = json_object();
	int s;

	maps_shared_json(m->r, o);
	for (s = 0; s < m->nsw; s++)
		json_object_set_new(sws, m->r->sw[s].name,
				    switch_json(m, &m->sw[s]));
	json_object_set_new(o, "switches", sws);
	if (links)
		json_object_set(o, "links", (json_t *)links);
	return o;
}

long maps_rules_count(const struct maps *m)
{
	long n = 0;
	int s, in, d, out;

	for (s = 0; s < m->nsw; s++) {
		const struct maps_switch *ms = &m->sw[s];

		for (in = 0; in < ms->nports && !ms->saturated; in++)
			for (d = 0; d < RULES_NTAGS; d++) {
				if (!pair_lossless(m, ms, in, d))
					continue;
				n++;
				for (out = 0; out < ms->nports; out++)
					n += maps_new_tag(
						     ms, maps_class(ms, in, d),
						     out) != m->r->lossy_tag;
			}
	}
	return n;
}
