// SPDX-License-Identifier: GPL-2.0
/*
 * Reader of the maps document ("tagger-maps/1", maps.h), so that maps
 * written elsewhere (by hand, from a switch's own configuration) can be
 * checked, run as rules and exported like tagger's own.
 *
 * The members the maps share with the rules ("lossy", "cnp", "tags",
 * "classes", "hosts" and each switch's "ports") mean the same in both, so
 * they go through the rules reader itself, on a rules document made of
 * just them: the same checks, the same messages, at the same JSON paths.
 * What only the maps have (a switch's "classes", "classify" and
 * "rewrite") is read here, with the maps' own rules: classes numbered
 * 0..n-1 with class 0 the lossy one, no wildcards, one answer per key, a
 * lossless class classifying only lossless tags and leaving with tags
 * that rank no lower (tags only grow), a lossy class leaving lossy.
 * Errors are "file: switches.T1.rewrite[3].out: message" (exit 2).
 *
 * Cost: one pass over the document; a switch's maps take 64 * ports
 * classes and classes * ports DSCPs.
 */
#include <stdlib.h>
#include <string.h>

#include "lib/json_doc.h"
#include "lib/json_path.h"
#include "lib/util.h"
#include "model/maps.h"

/* Every top-level key either format reads (the rules' are among them). */
static const char *const read_keys[] = { "format",  "rules", "max_classes",
					 "lossy",   "cnp",   "tags",
					 "classes", "hosts", "switches",
					 "links",   NULL };

struct mp {
	struct jpath jp;
	struct rules *r;
	struct maps *m;
	/* the switch being read: per (in, tag) and (class, out), entry + 1 */
	int *cls_at, *rw_at;
	/* per class: the highest-ranked tag classified into it, and where */
	int *top_rank, *top_at;
};

json_t *maps_doc_load(const char *path)
{
	return json_doc_load(path, RULES_MAX_BYTES, read_keys,
			     RULES_MAX_IGNORED);
}

static const char *port_name(const struct rules *r, int sw, int p)
{
	return r->sw[sw].ports[p];
}

/* A port of switch sw by name (no wildcard: maps have one entry a port). */
static bool get_port(struct mp *c, json_t *obj, const char *key, int sw,
		     int *out)
{
	json_t *v = json_object_get(obj, key);
	size_t old;
	bool ok = true;

	if (!v)
		return jp_err(&c->jp, "missing \"%s\"", key);
	old = jp_enter_key(&c->jp, key);
	if (!jp_want_type(&c->jp, v, JSON_STRING, "a string"))
		ok = false;
	else if ((*out = rules_find_port(c->r, sw, json_string_value(v))) < 0)
		ok = jp_err(&c->jp, "port \"%s\" is not in switches.%s.ports",
			    json_string_value(v), c->r->sw[sw].name);
	jp_leave(&c->jp, old);
	return ok;
}

static bool get_class(struct mp *c, json_t *obj, const struct maps_switch *ms,
		      int *out)
{
	return jp_get_int(&c->jp, obj, "class", 0, ms->nclasses - 1,
			  "a class of this switch's \"classes\"", out);
}

/* The array at key of obj (optional unless required), or NULL. */
static json_t *get_array(struct mp *c, json_t *obj, const char *key,
			 bool required, bool *ok)
{
	json_t *v = json_object_get(obj, key);
	size_t old = jp_enter_key(&c->jp, key);

	*ok = true;
	if (!v && required)
		*ok = jp_err(&c->jp, "missing");
	else if (v && !jp_want_type(&c->jp, v, JSON_ARRAY, "an array"))
		*ok = false;
	jp_leave(&c->jp, old);
	return *ok ? v : NULL;
}

static bool read_class(struct mp *c, json_t *v, struct maps_switch *ms,
		       bool *seen)
{
	static const char *const keys[] = { "class", "priority", NULL };
	const struct rules *r = c->r;
	int k, prio;

	if (!jp_want_type(&c->jp, v, JSON_OBJECT, "an object") ||
	    !jp_known_keys(&c->jp, v, keys) || !get_class(c, v, ms, &k) ||
	    !jp_get_int(&c->jp, v, "priority", 0, RULES_NPRIOS - 1,
			"an 802.1p priority", &prio))
		return false;
	if (seen[k])
		return jp_err(&c->jp, "class %d is listed twice", k);
	if (k == MAPS_LOSSY_CLASS && prio != r->lossy_prio)
		return jp_err(&c->jp,
			      "class 0 is the lossy class: its priority is the "
			      "lossy priority %d, not %d",
			      r->lossy_prio, prio);
	seen[k] = true;
	ms->prio[k] = (int8_t)prio;
	return true;
}

static bool read_classes(struct mp *c, json_t *v, struct maps_switch *ms)
{
	bool seen[MAPS_MAX_CLASSES] = { false }, ok;
	json_t *arr = get_array(c, v, "classes", true, &ok), *x;
	size_t old, o, i;

	if (!ok)
		return false;
	old = jp_enter_key(&c->jp, "classes");
	if (!json_array_size(arr))
		ok = jp_err(&c->jp, "no class 0 (the lossy class)");
	else if (json_array_size(arr) > MAPS_MAX_CLASSES)
		ok = jp_err(&c->jp, "%zu classes; a switch has at most %d",
			    json_array_size(arr), MAPS_MAX_CLASSES);
	if (ok) {
		/* n entries, each a distinct class of 0..n-1: all of them */
		ms->nclasses = (int)json_array_size(arr);
		ms->prio = xcalloc(ms->nclasses, sizeof(*ms->prio));
	}
	json_array_foreach(arr, i, x) {
		if (!ok)
			break;
		o = jp_enter_index(&c->jp, i);
		ok = read_class(c, x, ms, seen);
		jp_leave(&c->jp, o);
	}
	jp_leave(&c->jp, old);
	return ok;
}

static bool read_classify(struct mp *c, json_t *v, struct maps_switch *ms,
			  int k)
{
	static const char *const keys[] = { "in", "tag", "class", NULL };
	const struct rules *r = c->r;
	int in, tag, cls, at;

	if (!jp_want_type(&c->jp, v, JSON_OBJECT, "an object") ||
	    !jp_known_keys(&c->jp, v, keys) ||
	    !get_port(c, v, "in", ms->sw, &in) ||
	    !jp_get_int(&c->jp, v, "tag", 0, RULES_NTAGS - 1,
			"a DSCP codepoint", &tag) ||
	    !get_class(c, v, ms, &cls))
		return false;
	at = in * RULES_NTAGS + tag;
	if (c->cls_at[at])
		return jp_err(
			&c->jp,
			"in %s tag %d is already answered by classify[%d]",
			port_name(r, ms->sw, in), tag, c->cls_at[at] - 1);
	/* A lossless class takes what the rules could classify lossless. */
	if (maps_prio_lossless(r, ms->prio[cls]) && tag == r->lossy_tag)
		return jp_err(
			&c->jp,
			"the lossy tag %d must stay in the lossy priority "
			"%d, not class %d's %d",
			tag, r->lossy_prio, cls, ms->prio[cls]);
	if (maps_prio_lossless(r, ms->prio[cls]) && !rules_tag_lossless(r, tag))
		return jp_err(&c->jp,
			      "tag %d is neither in \"tags\" nor the lossy tag",
			      tag);
	c->cls_at[at] = k + 1;
	ms->cls[at] = (uint16_t)cls;
	if (maps_prio_lossless(r, ms->prio[cls]) &&
	    rules_tag_rank(r, tag) > c->top_rank[cls]) {
		c->top_rank[cls] = rules_tag_rank(r, tag);
		c->top_at[cls] = k;
	}
	return true;
}

static bool read_rewrite(struct mp *c, json_t *v, struct maps_switch *ms, int k)
{
	static const char *const keys[] = { "class", "out", "new_tag", NULL };
	const struct rules *r = c->r;
	int cls, out, nt, at;
	size_t old;
	bool ok = true;

	if (!jp_want_type(&c->jp, v, JSON_OBJECT, "an object") ||
	    !jp_known_keys(&c->jp, v, keys) || !get_class(c, v, ms, &cls) ||
	    !get_port(c, v, "out", ms->sw, &out) ||
	    !jp_get_int(&c->jp, v, "new_tag", 0, RULES_NTAGS - 1,
			"a DSCP codepoint", &nt))
		return false;
	at = cls * ms->nports + out;
	if (c->rw_at[at])
		return jp_err(&c->jp,
			      "class %d out %s is already answered by "
			      "rewrite[%d]",
			      cls, port_name(r, ms->sw, out), c->rw_at[at] - 1);
	old = jp_enter_key(&c->jp, "new_tag");
	if (rules_tag_rank(r, nt) < 0)
		ok = jp_err(&c->jp,
			    "tag %d is neither in \"tags\" nor the lossy tag",
			    nt);
	else if (rules_tag_lossless(r, nt) &&
		 !maps_prio_lossless(r, ms->prio[cls]))
		/* As on the data plane: what is classified lossy leaves lossy. */
		ok = jp_err(&c->jp,
			    "class %d has the lossy priority %d: it leaves "
			    "with the lossy tag, not %d",
			    cls, r->lossy_prio, nt);
	else if (rules_tag_lossless(r, nt) &&
		 rules_tag_rank(r, nt) < c->top_rank[cls])
		ok = jp_err(&c->jp,
			    "tag %d ranks below tag %d, which classify[%d] "
			    "puts in class %d (tags only grow)",
			    nt, r->tags[c->top_rank[cls]].tag, c->top_at[cls],
			    cls);
	jp_leave(&c->jp, old);
	if (!ok)
		return false;
	c->rw_at[at] = k + 1;
	ms->rw[at] = (uint8_t)nt;
	return true;
}

/* The entries of the array at key, each by one(); optional. */
static bool
read_entries(struct mp *c, json_t *v, const char *key, struct maps_switch *ms,
	     bool (*one)(struct mp *, json_t *, struct maps_switch *, int))
{
	json_t *arr, *x;
	size_t old, o, i;
	bool ok;

	arr = get_array(c, v, key, false, &ok);
	old = jp_enter_key(&c->jp, key);
	json_array_foreach(arr, i, x) {
		if (!ok)
			break;
		o = jp_enter_index(&c->jp, i);
		ok = one(c, x, ms, (int)i);
		jp_leave(&c->jp, o);
	}
	jp_leave(&c->jp, old);
	return ok;
}

static bool read_switch(struct mp *c, json_t *v, struct maps_switch *ms)
{
	static const char *const keys[] = { "ports", "classes", "classify",
					    "rewrite", NULL };
	const struct rules *r = c->r;
	size_t npairs, nrw;
	bool ok;
	int k;

	/* The rules reader took "ports" (and said so if v was no object). */
	if (!jp_known_keys(&c->jp, v, keys) || !read_classes(c, v, ms))
		return false;
	npairs = (size_t)(ms->nports ? ms->nports : 1) * RULES_NTAGS;
	nrw = (size_t)ms->nclasses * (ms->nports ? ms->nports : 1);
	ms->cls = xcalloc(npairs, sizeof(*ms->cls)); /* all class 0 */
	ms->rw = xmalloc(nrw);
	memset(ms->rw, r->lossy_tag, nrw);
	ms->rep = xmalloc(MAPS_COUNT_CAP * sizeof(*ms->rep));
	memset(ms->rep, 0xff, MAPS_COUNT_CAP * sizeof(*ms->rep));
	c->cls_at = xcalloc(npairs, sizeof(*c->cls_at));
	c->rw_at = xcalloc(nrw, sizeof(*c->rw_at));
	c->top_rank = xcalloc(ms->nclasses, sizeof(*c->top_rank));
	c->top_at = xcalloc(ms->nclasses, sizeof(*c->top_at));
	for (k = 0; k < ms->nclasses; k++)
		c->top_rank[k] = -1;
	ok = read_entries(c, v, "classify", ms, read_classify) &&
	     read_entries(c, v, "rewrite", ms, read_rewrite);
	/* each class's first pair, as the builder numbers them: a witness */
	for (k = 0; k < ms->nports * RULES_NTAGS; k++)
		if (ms->rep[ms->cls[k]] == UINT32_MAX)
			ms->rep[ms->cls[k]] = (uint32_t)k;
	free(c->cls_at);
	free(c->rw_at);
	free(c->top_rank);
	free(c->top_at);
	return ok;
}

/* The rules document of the members the two formats share. */
static json_t *shared_members(json_t *root)
{
	static const char *const shared[] = { "lossy",	 "cnp",	  "tags",
					      "classes", "hosts", NULL };
	json_t *doc = json_pack("{s:s}", "format", RULES_FORMAT), *sws, *v,
	       *out;
	const char *name;
	int k;

	for (k = 0; shared[k]; k++)
		if ((v = json_object_get(root, shared[k])))
			json_object_set(doc, shared[k], v);
	sws = json_object_get(root, "switches");
	if (!json_is_object(sws)) {
		if (sws)
			json_object_set(doc, "switches", sws);
		return doc;
	}
	out = json_object();
	json_object_foreach(sws, name, v) {
		if (json_is_object(v) && json_object_get(v, "ports"))
			json_object_set_new(
				out, name,
				json_pack("{s:O}", "ports",
					  json_object_get(v, "ports")));
		else if (json_is_object(v))
			json_object_set_new(out, name, json_object());
		else
			json_object_set(out, name, v);
	}
	json_object_set_new(doc, "switches", out);
	return doc;
}

static bool read_head(struct mp *c, json_t *root, int *max_classes)
{
	json_t *v = json_object_get(root, "format");
	size_t old = jp_enter_key(&c->jp, "format");
	bool ok = true;

	if (!json_is_string(v) || strcmp(json_string_value(v), MAPS_FORMAT))
		ok = jp_err(&c->jp, "must be \"%s\"", MAPS_FORMAT);
	jp_leave(&c->jp, old);
	if (ok && (v = json_object_get(root, "rules"))) {
		old = jp_enter_key(&c->jp, "rules");
		ok = jp_want_type(&c->jp, v, JSON_STRING, "a string");
		jp_leave(&c->jp, old);
	}
	*max_classes = MAPS_DEFAULT_CLASSES;
	if (ok && json_object_get(root, "max_classes"))
		ok = jp_get_int(&c->jp, root, "max_classes", 1,
				MAPS_MAX_CLASSES, "a number of classes",
				max_classes);
	return ok;
}

struct rules *maps_from_json(json_t *root, const char *name, struct maps *m)
{
	struct mp c = { .jp.file = name, .m = m };
	json_t *doc, *v;
	const char *sname;
	size_t old, o;
	int max_classes, s = 0;
	bool ok = true;

	memset(m, 0, sizeof(*m));
	if (!jp_want_type(&c.jp, root, JSON_OBJECT, "an object") ||
	    !read_head(&c, root, &max_classes))
		return NULL;
	doc = shared_members(root);
	c.r = rules_from_json(doc, name);
	json_decref(doc);
	if (!c.r)
		return NULL;
	m->r = c.r;
	m->nsw = c.r->nsw;
	m->sw = xcalloc(c.r->nsw ? c.r->nsw : 1, sizeof(*m->sw));
	for (s = 0; s < m->nsw; s++) {
		m->sw[s].sw = s;
		m->sw[s].nports = c.r->sw[s].nports;
	}
	/* The rules reader numbered the switches in this order. */
	s = 0;
	old = jp_enter_key(&c.jp, "switches");
	json_object_foreach(json_object_get(root, "switches"), sname, v) {
		o = jp_enter_key(&c.jp, sname);
		ok = read_switch(&c, v, &m->sw[s++]);
		jp_leave(&c.jp, o);
		if (!ok)
			break;
	}
	jp_leave(&c.jp, old);
	if (!ok) {
		maps_free(m);
		rules_free(c.r);
		return NULL;
	}
	maps_set_limits(m, max_classes, RULES_NPRIOS);
	return c.r;
}
