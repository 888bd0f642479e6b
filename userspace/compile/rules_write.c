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
#include "model/rules_blob.h"
#include "model/rules_text.h"

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

/*
 * The document from the rules as the compiler hands them to the verifier
 * (compile_rules): the rule tables, tags, classes, hosts, the lossy class
 * and "cnp" are those rules, "compiler" and "links" come from the compile.
 * The same keys in the same order as compile_rules_json, so the same bytes.
 */
static json_t *checked_head(const struct topo *t,
			    const struct compile_result *r,
			    const struct compile_opts *o,
			    const struct rules *rules)
{
	json_t *tags = json_array(), *classes = json_array(),
	       *hosts = json_object();
	int i, c;

	for (i = 0; i < rules->ntags; i++)
		json_array_append_new(
			tags, json_pack("{s:i,s:i}", "tag", rules->tags[i].tag,
					"priority", rules->tags[i].prio));
	for (c = 0; c < rules->nclasses; c++)
		json_array_append_new(classes,
				      json_pack("{s:i,s:i}", "class",
						rules->class_ids[c], "tag",
						rules->class_tags[c]));
	for (i = 0; i < rules->nhosts; i++) {
		const struct rules_host *h = &rules->hosts[i];
		json_t *ct = json_array();

		for (c = 0; c < h->nclasses; c++)
			json_array_append_new(ct, json_integer(h->classes[c]));
		json_object_set_new(
			hosts, h->name,
			json_pack("{s:i,s:o}", "tag", h->tag, "classes", ct));
	}
	return json_pack(
		"{s:s,s:{s:s,s:s,s:i,s:i,s:b},s:{s:i,s:i},s:o,s:o,s:o,s:o}",
		"format", "tagger-rules/1", "compiler", "algorithm",
		o->algo->name, "chosen", r->algo->name, "classes", o->nclasses,
		"tags_needed", r->ntags, "compressed", o->compress, "lossy",
		"tag", rules->lossy_tag, "priority", rules->lossy_prio, "tags",
		tags, "classes", classes, "hosts", hosts, "links",
		links_json(t));
}

static json_t *cnp_json(const struct rules *rules)
{
	return json_pack("{s:i,s:i}", "tag", rules->cnp_tag, "priority",
			 rules->cnp_prio);
}

/* v as the compact dump of a whole document writes it inside one. */
static int dump_compact(FILE *f, json_t *v)
{
	return json_dumpf(v, f, JSON_COMPACT | JSON_ENCODE_ANY);
}

static int key_compact(FILE *f, const char *key)
{
	json_t *k = json_string(key);
	int rc = k ? dump_compact(f, k) : -1;

	json_decref(k);
	return rc || fputc(':', f) == EOF ? -1 : 0;
}

/*
 * Compact: the head's keys one by one, then each switch straight from the
 * rules (model/rules_text.h), never more than one switch's text at a time.
 */
static int write_compact(FILE *f, json_t *head, const struct rules *rules)
{
	const char *key;
	json_t *v;
	int k;

	if (fputc('{', f) == EOF)
		return -1;
	json_object_foreach(head, key, v) {
		if (key_compact(f, key) || dump_compact(f, v) ||
		    fputc(',', f) == EOF)
			return -1;
	}
	if (key_compact(f, "switches") || fputc('{', f) == EOF)
		return -1;
	for (k = 0; k < rules->nsw; k++)
		if ((k && fputc(',', f) == EOF) ||
		    key_compact(f, rules->sw[k].name) ||
		    rules_switch_write(f, rules, k))
			return -1;
	if (fputc('}', f) == EOF)
		return -1;
	if (rules->cnp_tag >= 0) {
		json_t *cnp = cnp_json(rules);
		int rc = fputc(',', f) == EOF || key_compact(f, "cnp") ||
			 dump_compact(f, cnp);

		json_decref(cnp);
		if (rc)
			return -1;
	}
	return fputc('}', f) == EOF ? -1 : 0;
}

int compile_rules_write(FILE *f, const struct topo *t,
			const struct compile_result *r,
			const struct compile_opts *o, const struct rules *rules,
			bool compact)
{
	json_t *doc = checked_head(t, r, o, rules), *sw;
	int k, rc;

	if (!doc)
		return -1;
	if (compact) {
		rc = write_compact(f, doc, rules);
		json_decref(doc);
		return rc;
	}
	sw = json_object();
	for (k = 0; k < rules->nsw; k++)
		json_object_set_new(sw, rules->sw[k].name,
				    rules_switch_json(rules, k));
	json_object_set_new(doc, "switches", sw);
	if (rules->cnp_tag >= 0)
		json_object_set_new(doc, "cnp", cnp_json(rules));
	rc = json_dumpf(doc, f, JSON_INDENT(1));
	json_decref(doc);
	return rc;
}
