// SPDX-License-Identifier: GPL-2.0
/*
 * The rules document (Documentation/tagger-formats.7.rst) from the compiler's
 * per-switch rules. Tags on the wire are DSCP codepoints; tag index i is
 * dscp[i] with priority prios[i], anything not matched is the lossy tag.
 * Additions to the contract (all optional for readers): "compiler"
 * (metadata), "classes" (initial tag of each lossless class), hosts'
 * "classes", and "links" (every topology link, so a loader can check a
 * rule update for deadlock without the topology file).
 */
#include "compile/compile.h"
#include "lib/util.h"

static json_t *port_name(const struct topo *t, int port)
{
	return json_string(port == RULE_ANY ? "*" : t->ports[port].name);
}

static int wire_tag(const struct compile_opts *o, int tag)
{
	return tag == RULE_LOSSY ? o->lossy_dscp : o->dscp[tag];
}

static json_t *switch_json(const struct topo *t, const struct sw_rules *s,
			   const struct compile_opts *o)
{
	const struct topo_node *n = &t->nodes[s->node];
	json_t *ports = json_array(), *cls = json_array(), *rw = json_array();
	int i;

	for (i = 0; i < n->nports; i++)
		json_array_append_new(ports,
				      json_string(t->ports[n->ports[i]].name));
	for (i = 0; i < s->ncls; i++) {
		const struct cls_rule *c = &s->cls[i];

		json_array_append_new(cls,
				      json_pack("{s:o,s:i,s:i}", "in",
						port_name(t, c->in), "tag",
						o->dscp[c->tag], "priority",
						c->lossless ? o->prios[c->tag] :
							      o->lossy_prio));
	}
	for (i = 0; i < s->nrw; i++) {
		const struct rw_rule *w = &s->rw[i];

		json_array_append_new(rw,
				      json_pack("{s:i,s:o,s:o,s:i}", "tag",
						o->dscp[w->tag], "in",
						port_name(t, w->in), "out",
						port_name(t, w->out), "new_tag",
						wire_tag(o, w->new_tag)));
	}
	return json_pack("{s:o,s:o,s:o}", "ports", ports, "classify", cls,
			 "rewrite", rw);
}

static json_t *links_json(const struct topo *t)
{
	json_t *links = json_array();
	int i;

	for (i = 0; i < t->nports; i++) {
		const struct topo_port *p = &t->ports[i],
				       *q = &t->ports[p->peer];
		char a[512], b[512];

		if (p->peer < i)
			continue;
		snprintf(a, sizeof(a), "%s:%s", t->nodes[p->node].name,
			 p->name);
		snprintf(b, sizeof(b), "%s:%s", t->nodes[q->node].name,
			 q->name);
		json_array_append_new(links, json_pack("[s,s]", a, b));
	}
	return links;
}

static int class_tag(const struct compile_result *r,
		     const struct compile_opts *o, int c)
{
	return c < r->nlossless ? o->dscp[c] : o->lossy_dscp;
}

json_t *compile_rules_json(const struct topo *t, const struct compile_result *r,
			   const struct compile_opts *o)
{
	json_t *tags = json_array(), *classes = json_array(),
	       *hosts = json_object();
	json_t *sw = json_object(), *doc;
	int i, c;

	for (i = 0; i < r->nlossless; i++)
		json_array_append_new(tags,
				      json_pack("{s:i,s:i}", "tag", o->dscp[i],
						"priority", o->prios[i]));
	for (c = 0; c < o->nclasses; c++)
		json_array_append_new(classes,
				      json_pack("{s:i,s:i}", "class", c, "tag",
						class_tag(r, o, c)));
	for (i = 0; i < t->nnodes; i++) {
		json_t *ct = json_array();

		if (t->nodes[i].kind != NODE_HOST)
			continue;
		for (c = 0; c < o->nclasses; c++)
			json_array_append_new(ct,
					      json_integer(class_tag(r, o, c)));
		json_object_set_new(hosts, t->nodes[i].name,
				    json_pack("{s:i,s:o}", "tag",
					      class_tag(r, o, 0), "classes",
					      ct));
	}
	for (i = 0; i < r->nsw; i++)
		json_object_set_new(sw, t->nodes[r->sw[i].node].name,
				    switch_json(t, &r->sw[i], o));
	doc = json_pack(
		"{s:s,s:{s:s,s:s,s:i,s:i,s:b},s:{s:i,s:i},s:o,s:o,s:o,s:o,s:o}",
		"format", "tagger-rules/1", "compiler", "algorithm",
		o->algo->name, "chosen", r->algo->name, "classes", o->nclasses,
		"tags_needed", r->ntags, "compressed", o->compress, "lossy",
		"tag", o->lossy_dscp, "priority", o->lossy_prio, "tags", tags,
		"classes", classes, "hosts", hosts, "links", links_json(t),
		"switches", sw);
	/* the CNP class: rules_check() judges it against the tags used */
	if (o->cnp_dscp >= 0)
		json_object_set_new(doc, "cnp",
				    json_pack("{s:i,s:i}", "tag", o->cnp_dscp,
					      "priority", o->cnp_prio));
	return doc;
}
