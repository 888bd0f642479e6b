// SPDX-License-Identifier: GPL-2.0
/*
 * Reader of the rules JSON ("tagger-rules/1"); see rules.h. It checks
 * the document's shape (types, keys, the ranges its fields are stored in)
 * and resolves port names; whether the rules are sound is decided by
 * rules_check() (rules_check.c), which the compact form's reader calls too.
 *
 * JSON syntax errors are "file:line:col: message" (jansson's position);
 * after parsing, values have no line, so a semantic error names its JSON
 * path instead: "file: switches.T1.rewrite[3].in: message". Unknown
 * top-level keys are ignored (newer writers may add some) up to
 * RULES_MAX_IGNORED bytes each, checked before jansson parses; unknown keys
 * anywhere else are errors, because a misspelt rule field would silently
 * change what a packet gets.
 *
 * Cost: one pass over the document, one hash insert per rule.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/json_path.h"
#include "lib/json_doc.h"
#include "lib/log.h"
#include "model/rules.h"
#include "lib/util.h"

struct ctx {
	struct jpath jp; /* the file and the JSON path of the current value */
	struct rules *r;
};

static bool get_tag(struct ctx *c, json_t *obj, const char *key, int *out)
{
	return jp_get_int(&c->jp, obj, key, 0, RULES_NTAGS - 1,
			  "a DSCP codepoint", out);
}

static bool get_prio(struct ctx *c, json_t *obj, const char *key, int *out)
{
	return jp_get_int(&c->jp, obj, key, 0, RULES_NPRIOS - 1,
			  "an 802.1p priority", out);
}

static bool parse_lossy(struct ctx *c, json_t *root)
{
	static const char *const keys[] = { "tag", "priority", NULL };
	json_t *v = json_object_get(root, "lossy");
	struct rules *r = c->r;
	size_t old = jp_enter_key(&c->jp, "lossy");
	bool ok;

	ok = v ? jp_want_type(&c->jp, v, JSON_OBJECT, "an object") &&
			     jp_known_keys(&c->jp, v, keys) &&
			     get_tag(c, v, "tag", &r->lossy_tag) &&
			     get_prio(c, v, "priority", &r->lossy_prio) :
		 jp_err(&c->jp, "missing");
	jp_leave(&c->jp, old);
	return ok;
}

/* "cnp": optional, both members required when it is there. */
static bool parse_cnp(struct ctx *c, json_t *root)
{
	static const char *const keys[] = { "tag", "priority", NULL };
	json_t *v = json_object_get(root, "cnp");
	struct rules *r = c->r;
	size_t old;
	bool ok;

	if (!v)
		return true;
	old = jp_enter_key(&c->jp, "cnp");
	ok = jp_want_type(&c->jp, v, JSON_OBJECT, "an object") &&
	     jp_known_keys(&c->jp, v, keys) &&
	     get_tag(c, v, "tag", &r->cnp_tag) &&
	     get_prio(c, v, "priority", &r->cnp_prio);
	jp_leave(&c->jp, old);
	return ok;
}

/*
 * The array at key of obj, each element read in order by one(c, v, sw, i)
 * (sw: the switch of a rule table, else unused) into *items, allocated
 * here (size bytes an element, zeroed, one spare). A missing array is an
 * error only when required.
 */
static bool parse_array(struct ctx *c, json_t *obj, const char *key,
			bool required, void **items, size_t size, int sw,
			bool (*one)(struct ctx *, json_t *, int, int))
{
	json_t *arr = json_object_get(obj, key), *v;
	size_t old, o, i;
	bool ok = true;

	if (!arr && !required)
		return true;
	old = jp_enter_key(&c->jp, key);
	if (!arr)
		ok = jp_err(&c->jp, "missing");
	else if (!jp_want_type(&c->jp, arr, JSON_ARRAY, "an array"))
		ok = false;
	if (!ok) {
		jp_leave(&c->jp, old);
		return false;
	}
	*items = xcalloc(json_array_size(arr) + 1, size);
	json_array_foreach(arr, i, v) {
		o = jp_enter_index(&c->jp, i);
		ok = one(c, v, sw, (int)i);
		jp_leave(&c->jp, o);
		if (!ok)
			break;
	}
	jp_leave(&c->jp, old);
	return ok;
}

static bool parse_tag(struct ctx *c, json_t *v, int sw, int k)
{
	static const char *const keys[] = { "tag", "priority", NULL };
	struct rules *r = c->r;
	int tag, prio;

	if (!jp_want_type(&c->jp, v, JSON_OBJECT, "an object") ||
	    !jp_known_keys(&c->jp, v, keys) || !get_tag(c, v, "tag", &tag) ||
	    !get_prio(c, v, "priority", &prio))
		return false;
	r->tags[r->ntags].tag = tag;
	r->tags[r->ntags++].prio = prio;
	return true;
}

static bool parse_tags(struct ctx *c, json_t *root)
{
	return parse_array(c, root, "tags", true, (void **)&c->r->tags,
			   sizeof(*c->r->tags), 0, parse_tag);
}

static bool parse_class(struct ctx *c, json_t *v, int sw, int k)
{
	static const char *const keys[] = { "class", "tag", NULL };
	struct rules *r = c->r;

	if (!jp_want_type(&c->jp, v, JSON_OBJECT, "an object") ||
	    !jp_known_keys(&c->jp, v, keys) ||
	    !jp_get_int(&c->jp, v, "class", 0, 1 << 30, "a class number",
			&r->class_ids[k]) ||
	    !get_tag(c, v, "tag", &r->class_tags[k]))
		return false;
	r->nclasses++;
	return true;
}

static bool parse_classes(struct ctx *c, json_t *root)
{
	struct rules *r = c->r;
	size_t n = json_array_size(json_object_get(root, "classes"));

	/* the tags beside the numbers parse_array() allocates */
	r->class_tags = xcalloc(n + 1, sizeof(*r->class_tags));
	return parse_array(c, root, "classes", false, (void **)&r->class_ids,
			   sizeof(*r->class_ids), 0, parse_class);
}

static bool parse_host_classes(struct ctx *c, json_t *v, struct rules_host *h)
{
	json_t *arr = json_object_get(v, "classes"), *x;
	size_t old = jp_enter_key(&c->jp, "classes"), o, i;
	bool ok = jp_want_type(&c->jp, arr, JSON_ARRAY, "an array");

	if (ok && (int)json_array_size(arr) != c->r->nclasses)
		ok = jp_err(&c->jp, "%zu tags for %d classes",
			    json_array_size(arr), c->r->nclasses);
	if (ok)
		h->classes = xcalloc(c->r->nclasses + 1, sizeof(int));
	json_array_foreach(arr, i, x) {
		if (!ok)
			break;
		o = jp_enter_index(&c->jp, i);
		if (!jp_want_type(&c->jp, x, JSON_INTEGER, "an integer"))
			ok = false;
		else if (json_integer_value(x) < 0 ||
			 json_integer_value(x) >= RULES_NTAGS)
			ok = jp_err(&c->jp,
				    "%lld is not a DSCP codepoint (0..%d)",
				    (long long)json_integer_value(x),
				    RULES_NTAGS - 1);
		else
			h->classes[h->nclasses++] = (int)json_integer_value(x);
		jp_leave(&c->jp, o);
	}
	jp_leave(&c->jp, old);
	return ok;
}

/* A host or switch entry: an object of known keys (rules_check: its name). */
static bool node_ok(struct ctx *c, json_t *v, const char *const *keys)
{
	return jp_want_type(&c->jp, v, JSON_OBJECT, "an object") &&
	       jp_known_keys(&c->jp, v, keys);
}

/*
 * "hosts" or "switches": an object of at most max entries, each read by
 * one(c, name, value) into *arr (size bytes each, zeroed, one spare).
 */
static bool parse_nodes(struct ctx *c, json_t *root, const char *key,
			bool required, size_t max, void **arr, size_t size,
			bool (*one)(struct ctx *, const char *, json_t *))
{
	json_t *obj = json_object_get(root, key), *v;
	const char *name;
	size_t old, o;
	bool ok = true;

	if (!obj && !required)
		return true;
	old = jp_enter_key(&c->jp, key);
	if (!obj)
		ok = jp_err(&c->jp, "missing");
	else if (!jp_want_type(&c->jp, obj, JSON_OBJECT, "an object"))
		ok = false;
	else if (json_object_size(obj) > max)
		ok = jp_err(&c->jp, "more than %zu %s", max, key);
	if (!ok) {
		jp_leave(&c->jp, old);
		return false;
	}
	*arr = xcalloc(json_object_size(obj) + 1, size);
	json_object_foreach(obj, name, v) {
		o = jp_enter_key(&c->jp, name);
		ok = one(c, name, v);
		jp_leave(&c->jp, o);
		if (!ok)
			break;
	}
	jp_leave(&c->jp, old);
	return ok;
}

static bool parse_host(struct ctx *c, const char *name, json_t *v)
{
	static const char *const keys[] = { "tag", "classes", NULL };
	struct rules *r = c->r;
	struct rules_host *h = &r->hosts[r->nhosts];

	if (!node_ok(c, v, keys))
		return false;
	h->name = xstrdup(name);
	h->tag = -1;
	r->nhosts++;
	strmap_add(&r->host_names, name, r->nhosts - 1);
	if (!json_object_get(v, "tag") && !json_object_get(v, "classes"))
		return jp_err(&c->jp, "missing \"tag\"");
	if (json_object_get(v, "tag") && !get_tag(c, v, "tag", &h->tag))
		return false;
	return !json_object_get(v, "classes") || parse_host_classes(c, v, h);
}

static bool parse_hosts(struct ctx *c, json_t *root)
{
	return parse_nodes(c, root, "hosts", false, SIZE_MAX,
			   (void **)&c->r->hosts, sizeof(*c->r->hosts),
			   parse_host);
}

/* Most switches have a few dozen ports: compare names before hashing. */
static int port_index(const struct rules *r, int sw, const char *name)
{
	const struct rules_switch *s = &r->sw[sw];
	int k;

	if (s->nports > 32)
		return rules_find_port(r, sw, name);
	for (k = 0; k < s->nports; k++)
		if (!strcmp(s->ports[k], name))
			return k;
	return -1;
}

/* A rule's port: a name in the switch's "ports", or "*". */
static bool get_port(struct ctx *c, json_t *obj, const char *key, int sw,
		     uint16_t *out)
{
	json_t *v = json_object_get(obj, key);
	const char *name;
	size_t old;
	bool ok = true;
	int p;

	if (!v)
		return jp_err(&c->jp, "missing \"%s\"", key);
	old = jp_enter_key(&c->jp, key);
	if (!jp_want_type(&c->jp, v, JSON_STRING, "a string")) {
		ok = false;
	} else if (!strcmp((name = json_string_value(v)), "*")) {
		*out = RULES_ANY;
	} else if ((p = port_index(c->r, sw, name)) < 0) {
		ok = jp_err(&c->jp, "port \"%s\" is not in switches.%s.ports",
			    name, c->r->sw[sw].name);
	} else {
		*out = (uint16_t)p;
	}
	jp_leave(&c->jp, old);
	return ok;
}

static bool parse_ports(struct ctx *c, json_t *v, int sw)
{
	json_t *arr = json_object_get(v, "ports"), *x;
	struct rules_switch *s = &c->r->sw[sw];
	size_t old = jp_enter_key(&c->jp, "ports"), o, i;
	char key[512];
	bool ok = true;

	if (!arr)
		ok = jp_err(&c->jp, "missing");
	else if (!jp_want_type(&c->jp, arr, JSON_ARRAY, "an array"))
		ok = false;
	else if (json_array_size(arr) > RULES_MAX_PORTS)
		ok = jp_err(&c->jp, "more than %d ports", RULES_MAX_PORTS);
	if (!ok) {
		jp_leave(&c->jp, old);
		return false;
	}
	s->ports = xcalloc(json_array_size(arr) + 1, sizeof(*s->ports));
	json_array_foreach(arr, i, x) {
		const char *name = json_string_value(x);

		o = jp_enter_index(&c->jp, i);
		if (!jp_want_type(&c->jp, x, JSON_STRING, "a string")) {
			ok = false;
		} else {
			/* rules_check: a valid name, and only once */
			if (snprintf(key, sizeof(key), "%s:%s", s->name, name) <
			    (int)sizeof(key))
				strmap_add(&c->r->port_names, key, s->nports);
			s->ports[s->nports++] = xstrdup(name);
		}
		jp_leave(&c->jp, o);
		if (!ok)
			break;
	}
	jp_leave(&c->jp, old);
	return ok;
}

static bool parse_classify_rule(struct ctx *c, json_t *v, int sw, int k)
{
	static const char *const keys[] = { "in", "tag", "priority", NULL };
	struct rules *r = c->r;
	struct rules_switch *s = &r->sw[sw];
	struct rules_classify *cl = &s->classify[k];
	int tag, prio;
	uint16_t in;
	uint64_t *slot;
	bool fresh;

	if (!jp_want_type(&c->jp, v, JSON_OBJECT, "an object") ||
	    !jp_known_keys(&c->jp, v, keys) || !get_port(c, v, "in", sw, &in) ||
	    !get_tag(c, v, "tag", &tag) || !get_prio(c, v, "priority", &prio))
		return false;
	cl->in = in; /* the table is byte aligned (rules.h) */
	cl->tag = (uint8_t)tag;
	cl->prio = (uint8_t)prio;
	/* The first rule of a key answers; rules_check refuses a second. */
	slot = hmap_slot(&r->classify, rules_classify_key(sw, cl->in, tag),
			 &fresh);
	if (fresh)
		*slot = (uint64_t)k;
	s->wild_classify |= cl->in == RULES_ANY;
	s->nclassify++;
	return true;
}

static bool parse_rewrite_rule(struct ctx *c, json_t *v, int sw, int k)
{
	static const char *const keys[] = { "tag", "in", "out", "new_tag",
					    NULL };
	struct rules *r = c->r;
	struct rules_switch *s = &r->sw[sw];
	struct rules_rewrite *rw = &s->rewrite[k];
	int tag, new_tag;
	uint16_t in, out;
	uint64_t *slot;
	bool fresh;

	if (!jp_want_type(&c->jp, v, JSON_OBJECT, "an object") ||
	    !jp_known_keys(&c->jp, v, keys) || !get_tag(c, v, "tag", &tag) ||
	    !get_port(c, v, "in", sw, &in) ||
	    !get_port(c, v, "out", sw, &out) ||
	    !get_tag(c, v, "new_tag", &new_tag))
		return false;
	rw->in = in; /* the table is byte aligned (rules.h) */
	rw->out = out;
	rw->tag = (uint8_t)tag;
	rw->new_tag = (uint8_t)new_tag;
	slot = hmap_slot(&r->rewrite,
			 rules_rewrite_key(sw, tag, rw->in, rw->out), &fresh);
	if (fresh)
		*slot = (uint64_t)k;
	s->wild_rewrite |= rw->in == RULES_ANY || rw->out == RULES_ANY;
	s->nrewrite++;
	return true;
}

static bool parse_switch(struct ctx *c, const char *name, json_t *v)
{
	static const char *const keys[] = { "ports", "classify", "rewrite",
					    NULL };
	struct rules *r = c->r;
	int sw = r->nsw;

	if (!node_ok(c, v, keys))
		return false;
	r->sw[sw].name = xstrdup(name);
	r->nsw++;
	strmap_add(&r->sw_names, name, sw);
	return parse_ports(c, v, sw) &&
	       parse_array(
		       c, v, "classify", false, (void **)&r->sw[sw].classify,
		       sizeof(*r->sw[sw].classify), sw, parse_classify_rule) &&
	       parse_array(c, v, "rewrite", false, (void **)&r->sw[sw].rewrite,
			   sizeof(*r->sw[sw].rewrite), sw, parse_rewrite_rule);
}

static bool parse_switches(struct ctx *c, json_t *root)
{
	return parse_nodes(c, root, "switches", true, RULES_MAX_SWITCHES,
			   (void **)&c->r->sw, sizeof(*c->r->sw), parse_switch);
}

static bool parse_format(struct ctx *c, json_t *root)
{
	json_t *v = json_object_get(root, "format");
	size_t old = jp_enter_key(&c->jp, "format");
	bool ok = true;

	if (!v)
		ok = jp_err(&c->jp, "missing (expected \"%s\")", RULES_FORMAT);
	else if (!json_is_string(v) ||
		 strcmp(json_string_value(v), RULES_FORMAT))
		ok = jp_err(&c->jp, "must be \"%s\"", RULES_FORMAT);
	jp_leave(&c->jp, old);
	return ok;
}

struct rules *rules_new(const char *name)
{
	struct rules *r = xcalloc(1, sizeof(*r));

	r->file = xstrdup(name);
	r->cnp_tag = -1;
	r->cnp_prio = -1;
	memset(r->rank, -1, sizeof(r->rank));
	memset(r->prio, -1, sizeof(r->prio));
	strmap_init(&r->sw_names);
	strmap_init(&r->host_names);
	strmap_init(&r->port_names);
	hmap_init(&r->classify, 1024);
	hmap_init(&r->rewrite, 1024);
	return r;
}

struct rules *rules_from_json(json_t *root, const char *name)
{
	struct ctx c = { .jp.file = name };

	c.r = rules_new(name);
	if (!jp_want_type(&c.jp, root, JSON_OBJECT, "an object") ||
	    !parse_format(&c, root) || !parse_lossy(&c, root) ||
	    !parse_cnp(&c, root) || !parse_tags(&c, root) ||
	    !parse_classes(&c, root) || !parse_hosts(&c, root) ||
	    !parse_switches(&c, root) || !rules_check(c.r)) {
		rules_free(c.r);
		return NULL;
	}
	return c.r;
}

/* The top-level keys the reader reads (json_doc.h limits the others). */
static const char *const rules_read_keys[] = { "format",   "lossy",   "cnp",
					       "tags",	   "classes", "hosts",
					       "switches", "links",   NULL };

struct rules *rules_load(const char *path, json_t **doc)
{
	json_t *root = json_doc_load(path, RULES_MAX_BYTES, rules_read_keys,
				     RULES_MAX_IGNORED);
	struct rules *r;

	if (!root)
		return NULL;
	r = rules_from_json(root, path);
	if (r && doc)
		*doc = root;
	else
		json_decref(root);
	return r;
}

struct rules *rules_parse(const char *path)
{
	return rules_load(path, NULL);
}
