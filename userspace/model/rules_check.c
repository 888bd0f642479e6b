// SPDX-License-Identifier: GPL-2.0
/*
 * The one semantic check of a rule set, whatever form it was read from.
 *
 * The readers (rules_parse.c for the document, rules_blob.c for the
 * compact form that compiled files and switch states hold) only decode:
 * types, field ranges that their storage needs, and port names resolved to
 * indexes. Everything that makes rules sound is decided here, on the
 * struct rules either reader built, so a packed file edited after
 * "tagger switch pack" is refused exactly as its JSON twin is, and the two
 * forms cannot drift apart when a rule is added to one of them.
 *
 * Messages name the item by its document path ("file: hosts.h1.tag: ..."),
 * also for a blob, whose items are in the same order as the document's.
 * Names are shown as printable ASCII only: a hostile blob may hold any
 * byte, and an error must not write control sequences to a terminal.
 *
 * The readers index rules before the check (first rule of a key wins and
 * out-of-range rules are left out), so a second rule of one key is found
 * here by its key answering another rule.
 *
 * Cost: one pass over the rules, one probe per rule and per name.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/json_path.h"
#include "lib/util.h"
#include "model/rules.h"

#define SHOWN_MAX 64 /* bytes of a name a message shows */

struct check {
	struct jpath jp;
	struct rules *r;
};

/* s as a message shows it: printable ASCII, '?' for other bytes, cut. */
static const char *shown(const char *s, char *buf, size_t size)
{
	size_t i;

	for (i = 0; s[i] && i + 4 < size && i < SHOWN_MAX; i++)
		buf[i] = s[i] >= 0x20 && s[i] < 0x7f ? s[i] : '?';
	if (s[i])
		memcpy(buf + i, "...", 4);
	else
		buf[i] = '\0';
	return buf;
}

/* v in lo..hi at key, with the document reader's message. */
static bool in_range(struct check *c, const char *key, long long v, int lo,
		     int hi, const char *what)
{
	size_t old;

	if (v >= lo && v <= hi)
		return true;
	old = jp_enter_key(&c->jp, key);
	jp_err(&c->jp, "%lld is not %s (%d..%d)", v, what, lo, hi);
	jp_leave(&c->jp, old);
	return false;
}

static bool tag_in_range(struct check *c, const char *key, int tag)
{
	return in_range(c, key, tag, 0, RULES_NTAGS - 1, "a DSCP codepoint");
}

static bool prio_in_range(struct check *c, const char *key, int prio)
{
	return in_range(c, key, prio, 0, RULES_NPRIOS - 1,
			"an 802.1p priority");
}

/* A tag a rule names: a lossless tag or the lossy tag. */
static bool known_tag(struct check *c, const char *key, int tag)
{
	size_t old;

	if (!tag_in_range(c, key, tag))
		return false;
	if (c->r->rank[tag] >= 0)
		return true;
	old = jp_enter_key(&c->jp, key);
	jp_err(&c->jp, "tag %d is neither in \"tags\" nor the lossy tag", tag);
	jp_leave(&c->jp, old);
	return false;
}

/* A tag a host starts with or a class gets: a lossless tag of "tags". */
static bool lossless_tag(struct check *c, const char *key, int tag)
{
	size_t old;

	if (tag >= 0 && tag < RULES_NTAGS && c->r->prio[tag] >= 0)
		return true;
	old = key ? jp_enter_key(&c->jp, key) : c->jp.len;
	jp_err(&c->jp, "%s%d is not a lossless tag of \"tags\"",
	       key ? "tag " : "", tag);
	jp_leave(&c->jp, old);
	return false;
}

/* The lossy class and the lossless tags, then the tables they imply. */
static bool check_tags(struct check *c)
{
	struct rules *r = c->r;
	bool seen[RULES_NTAGS] = { false };
	size_t old = jp_enter_key(&c->jp, "lossy");
	bool ok;
	int k;

	ok = tag_in_range(c, "tag", r->lossy_tag) &&
	     prio_in_range(c, "priority", r->lossy_prio);
	jp_leave(&c->jp, old);
	old = jp_enter_key(&c->jp, "tags");
	for (k = 0; ok && k < r->ntags; k++) {
		const struct rules_tag *t = &r->tags[k];
		size_t o = jp_enter_index(&c->jp, k);

		if (!tag_in_range(c, "tag", t->tag) ||
		    !prio_in_range(c, "priority", t->prio))
			ok = false;
		else if (t->tag == r->lossy_tag)
			ok = jp_err(&c->jp, "tag %d is the lossy tag", t->tag);
		else if (seen[t->tag])
			ok = jp_err(&c->jp, "tag %d is listed twice", t->tag);
		else if (t->prio == r->lossy_prio)
			ok = jp_err(&c->jp, "priority %d is the lossy priority",
				    t->prio);
		if (ok)
			seen[t->tag] = true;
		jp_leave(&c->jp, o);
	}
	jp_leave(&c->jp, old);
	if (!ok)
		return false;
	memset(r->rank, -1, sizeof(r->rank));
	memset(r->prio, -1, sizeof(r->prio));
	for (k = 0; k < r->ntags; k++) {
		r->rank[r->tags[k].tag] = (int8_t)k;
		r->prio[r->tags[k].tag] = (int8_t)r->tags[k].prio;
	}
	/* The lossy tag ranks above every lossless tag: demotion always goes up. */
	r->rank[r->lossy_tag] = (int8_t)r->ntags;
	return true;
}

/*
 * "cnp": a class of its own. Its tag is neither the lossy tag nor a
 * lossless one (so no rule can name it: known_tag()), and no lossless tag
 * has its priority (a PAUSE of that priority would hold the notifications
 * back, and data would queue with them).
 */
static bool check_cnp(struct check *c)
{
	struct rules *r = c->r;
	size_t old;
	bool ok;
	int k;

	if (r->cnp_tag < 0 && r->cnp_prio < 0)
		return true;
	old = jp_enter_key(&c->jp, "cnp");
	ok = tag_in_range(c, "tag", r->cnp_tag) &&
	     prio_in_range(c, "priority", r->cnp_prio);
	if (ok && r->cnp_tag == r->lossy_tag)
		ok = jp_err(&c->jp, "tag %d is the lossy tag", r->cnp_tag);
	else if (ok && r->prio[r->cnp_tag] >= 0)
		ok = jp_err(&c->jp, "tag %d is a lossless tag of \"tags\"",
			    r->cnp_tag);
	for (k = 0; ok && k < r->ntags; k++)
		if (r->tags[k].prio == r->cnp_prio)
			ok = jp_err(&c->jp,
				    "priority %d is the priority of lossless "
				    "tag %d",
				    r->cnp_prio, r->tags[k].tag);
	jp_leave(&c->jp, old);
	return ok;
}

struct class_at {
	int id;
	int at;
};

static int by_id_then_at(const void *a, const void *b)
{
	const struct class_at *x = a, *y = b;

	if (x->id != y->id)
		return x->id < y->id ? -1 : 1;
	return x->at < y->at ? -1 : x->at > y->at;
}

/*
 * The first class whose number an earlier one has, or -1. Sorted copies,
 * not a map: a blob may hold millions, and this stays at 8 bytes each.
 */
static int class_twice(const struct rules *r)
{
	struct class_at *v = xcalloc((size_t)r->nclasses + 1, sizeof(*v));
	int k, first = -1;

	for (k = 0; k < r->nclasses; k++)
		v[k] = (struct class_at){ r->class_ids[k], k };
	qsort(v, r->nclasses, sizeof(*v), by_id_then_at);
	for (k = 1; k < r->nclasses; k++)
		if (v[k].id == v[k - 1].id &&
		    (k < 2 || v[k - 2].id != v[k].id) &&
		    (first < 0 || v[k].at < first))
			first = v[k].at;
	free(v);
	return first;
}

static bool check_classes(struct check *c)
{
	const struct rules *r = c->r;
	size_t old = jp_enter_key(&c->jp, "classes"), o;
	bool ok = true;
	int k;

	for (k = 0; ok && k < r->nclasses; k++) {
		o = jp_enter_index(&c->jp, k);
		ok = in_range(c, "class", r->class_ids[k], 0, 1 << 30,
			      "a class number") &&
		     lossless_tag(c, "tag", r->class_tags[k]);
		jp_leave(&c->jp, o);
	}
	if (ok && (k = class_twice(r)) >= 0) {
		o = jp_enter_index(&c->jp, k);
		ok = jp_err(&c->jp, "class %d is listed twice",
			    r->class_ids[k]);
		jp_leave(&c->jp, o);
	}
	jp_leave(&c->jp, old);
	return ok;
}

/* A host's or switch's name; "what" says which, for the message. */
static bool name_ok(struct check *c, const char *name, const char *what)
{
	char buf[SHOWN_MAX + 8];

	if (strlen(name) > NAME_MAX_LEN)
		return jp_err(&c->jp,
			      "name \"%.32s...\" is longer than %d bytes",
			      shown(name, buf, sizeof(buf)), NAME_MAX_LEN);
	if (!valid_name(name))
		return jp_err(&c->jp, "\"%s\" is not a valid %s name",
			      shown(name, buf, sizeof(buf)), what);
	return true;
}

static bool check_host_classes(struct check *c, const struct rules_host *h)
{
	size_t old = jp_enter_key(&c->jp, "classes"), o;
	bool ok = true;
	int i;

	if (h->nclasses != c->r->nclasses)
		ok = jp_err(&c->jp, "%d tags for %d classes", h->nclasses,
			    c->r->nclasses);
	for (i = 0; ok && i < h->nclasses; i++) {
		o = jp_enter_index(&c->jp, i);
		ok = lossless_tag(c, NULL, h->classes[i]);
		jp_leave(&c->jp, o);
	}
	jp_leave(&c->jp, old);
	return ok;
}

static bool check_host(struct check *c, int k)
{
	const struct rules_host *h = &c->r->hosts[k];

	if (!name_ok(c, h->name, "node"))
		return false;
	if (rules_find_host(c->r, h->name) != k)
		return jp_err(&c->jp, "host is listed twice");
	/* No tag and no class tags: the host would send nothing lossless. */
	if (h->tag == -1 && !h->nclasses)
		return jp_err(&c->jp, "missing \"tag\"");
	if (h->tag != -1 && !lossless_tag(c, "tag", h->tag))
		return false;
	return !h->nclasses || check_host_classes(c, h);
}

static bool check_hosts(struct check *c)
{
	size_t old = jp_enter_key(&c->jp, "hosts"), o;
	char buf[SHOWN_MAX + 8];
	bool ok = true;
	int k;

	for (k = 0; ok && k < c->r->nhosts; k++) {
		o = jp_enter_key(&c->jp,
				 shown(c->r->hosts[k].name, buf, sizeof(buf)));
		ok = check_host(c, k);
		jp_leave(&c->jp, o);
	}
	jp_leave(&c->jp, old);
	return ok;
}

static bool check_ports(struct check *c, int sw)
{
	const struct rules_switch *s = &c->r->sw[sw];
	size_t old = jp_enter_key(&c->jp, "ports"), o;
	char buf[SHOWN_MAX + 8];
	bool ok = true;
	int k;

	if (s->nports > RULES_MAX_PORTS)
		ok = jp_err(&c->jp, "more than %d ports", RULES_MAX_PORTS);
	for (k = 0; ok && k < s->nports; k++) {
		o = jp_enter_index(&c->jp, k);
		ok = name_ok(c, s->ports[k], "port");
		if (ok && rules_find_port(c->r, sw, s->ports[k]) != k)
			ok = jp_err(&c->jp, "port \"%s\" is listed twice",
				    shown(s->ports[k], buf, sizeof(buf)));
		jp_leave(&c->jp, o);
	}
	jp_leave(&c->jp, old);
	return ok;
}

/* A rule's port index: one of the switch's ports, or "*". */
static bool port_ok(struct check *c, int sw, const char *key, int port)
{
	const struct rules_switch *s = &c->r->sw[sw];
	char buf[SHOWN_MAX + 8];
	size_t old;

	if (port == RULES_ANY || port < s->nports)
		return true;
	old = jp_enter_key(&c->jp, key);
	jp_err(&c->jp, "port index %d is not in switches.%s.ports", port,
	       shown(s->name, buf, sizeof(buf)));
	jp_leave(&c->jp, old);
	return false;
}

static bool check_classify(struct check *c, int sw, int k)
{
	const struct rules *r = c->r;
	const struct rules_classify *cl = &r->sw[sw].classify[k];
	int at;

	if (!port_ok(c, sw, "in", cl->in) || !known_tag(c, "tag", cl->tag) ||
	    !prio_in_range(c, "priority", cl->prio))
		return false;
	/* Lossy packets must never wait in, or make anyone wait for, a lossless queue. */
	if (cl->tag == r->lossy_tag && cl->prio != r->lossy_prio)
		return jp_err(
			&c->jp,
			"the lossy tag %d must stay in the lossy priority %d, not %d",
			cl->tag, r->lossy_prio, cl->prio);
	at = rules_classify_at(r, sw, cl->in, cl->tag);
	if (at != k)
		return jp_err(
			&c->jp,
			"in %s tag %d is already answered by classify[%d]",
			rules_port_name(r, sw, cl->in), cl->tag, at);
	return true;
}

static bool check_rewrite(struct check *c, int sw, int k)
{
	const struct rules *r = c->r;
	const struct rules_rewrite *w = &r->sw[sw].rewrite[k];
	int at;

	if (!known_tag(c, "tag", w->tag) || !port_ok(c, sw, "in", w->in) ||
	    !port_ok(c, sw, "out", w->out) ||
	    !known_tag(c, "new_tag", w->new_tag))
		return false;
	at = rules_rewrite_at(r, sw, w->tag, w->in, w->out);
	if (at != k)
		return jp_err(
			&c->jp,
			"tag %d in %s out %s is already answered by rewrite[%d]",
			w->tag, rules_port_name(r, sw, w->in),
			rules_port_name(r, sw, w->out), at);
	return true;
}

static bool known(const struct rules *r, int tag)
{
	return tag >= 0 && tag < RULES_NTAGS && r->rank[tag] >= 0;
}

static bool port_in(const struct rules_switch *s, int port)
{
	return port == RULES_ANY || port < s->nports;
}

/*
 * What check_classify and check_rewrite find, without a message: every
 * rule of the table sound. A table of 100,000 rules passes here in a
 * fraction of their cost; one that does not is checked again by them,
 * for the very message (the first rule that fails).
 */
static bool table_sound(const struct rules *r, int sw, bool classify)
{
	const struct rules_switch *s = &r->sw[sw];
	int k;

	if (classify) {
		for (k = 0; k < s->nclassify; k++) {
			const struct rules_classify *cl = &s->classify[k];

			if (!port_in(s, cl->in) || !known(r, cl->tag) ||
			    cl->prio > RULES_NPRIOS - 1 ||
			    (cl->tag == r->lossy_tag &&
			     cl->prio != r->lossy_prio) ||
			    rules_classify_at(r, sw, cl->in, cl->tag) != k)
				return false;
		}
		return true;
	}
	for (k = 0; k < s->nrewrite; k++) {
		const struct rules_rewrite *w = &s->rewrite[k];

		if (!known(r, w->tag) || !port_in(s, w->in) ||
		    !port_in(s, w->out) || !known(r, w->new_tag) ||
		    rules_rewrite_at(r, sw, w->tag, w->in, w->out) != k)
			return false;
	}
	return true;
}

/* Switch sw's "classify" (classify true) or "rewrite" rules. */
static bool check_table(struct check *c, int sw, bool classify)
{
	const struct rules_switch *s = &c->r->sw[sw];
	size_t old;
	int k, n = classify ? s->nclassify : s->nrewrite;
	bool ok = true;

	if (table_sound(c->r, sw, classify))
		return true;
	old = jp_enter_key(&c->jp, classify ? "classify" : "rewrite");
	for (k = 0; ok && k < n; k++) {
		size_t o = jp_enter_index(&c->jp, k);

		ok = classify ? check_classify(c, sw, k) :
				check_rewrite(c, sw, k);
		jp_leave(&c->jp, o);
	}
	jp_leave(&c->jp, old);
	return ok;
}

static bool check_switch(struct check *c, int sw)
{
	const char *name = c->r->sw[sw].name;

	if (!name_ok(c, name, "node"))
		return false;
	if (rules_find_switch(c->r, name) != sw)
		return jp_err(&c->jp, "switch is listed twice");
	return check_ports(c, sw) && check_table(c, sw, true) &&
	       check_table(c, sw, false);
}

static bool check_switches(struct check *c)
{
	size_t old = jp_enter_key(&c->jp, "switches"), o;
	char buf[SHOWN_MAX + 8];
	bool ok = true;
	int sw;

	if (c->r->nsw > RULES_MAX_SWITCHES)
		ok = jp_err(&c->jp, "more than %d switches",
			    RULES_MAX_SWITCHES);
	for (sw = 0; ok && sw < c->r->nsw; sw++) {
		o = jp_enter_key(&c->jp,
				 shown(c->r->sw[sw].name, buf, sizeof(buf)));
		ok = check_switch(c, sw);
		jp_leave(&c->jp, o);
	}
	jp_leave(&c->jp, old);
	return ok;
}

bool rules_check(struct rules *r)
{
	struct check c = { .jp.file = r->file, .r = r };

	return check_tags(&c) && check_cnp(&c) && check_classes(&c) &&
	       check_hosts(&c) && check_switches(&c);
}
