// SPDX-License-Identifier: GPL-2.0
/*
 * Rules as compact bytes and back; see rules_blob.h. The reader decodes
 * and indexes only what it can do safely (an index out of range or a
 * second rule of one key is left out of the lookups), and rules_check()
 * (rules_check.c), the document's own check, decides whether the rules are
 * sound. Memory: every count is bounded by what the rest of the blob can
 * hold before anything is allocated, and a switch gets arrays by key only
 * when they are not much bigger than its rules, so the rules in memory
 * stay within a small multiple of the blob (C8: 3,000 rule-less switches
 * of 256 ports took 160 times their 4.6 MB in dense arrays).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"
#include "model/rules_blob.h"

#define BLOB_MAGIC 0x31627274u /* "trb1" */
/*
 * Optional sections after the switches, each a magic and its fields, so
 * that blobs written before they existed still decode: "cnp1", the CNP
 * tag and priority (only when the rules have a "cnp").
 */
#define BLOB_CNP 0x31706e63u /* "cnp1" */
#define PREFETCH 8 /* rules ahead whose map slot is fetched */
#define DENSE_MAX_PORTS 256 /* dense lookups: at most 16 MiB a switch */
#define DENSE_PER_RULE 16 /* and at most this many entries per rule */

struct out {
	uint8_t *buf;
	size_t len, cap;
};

static void put(struct out *o, const void *p, size_t n)
{
	if (o->len + n > o->cap) {
		o->cap = o->cap * 2 + n + 4096;
		o->buf = xrealloc(o->buf, o->cap);
	}
	memcpy(o->buf + o->len, p, n);
	o->len += n;
}

static void put_u32(struct out *o, uint32_t v)
{
	put(o, &v, sizeof(v));
}

static void put_str(struct out *o, const char *s)
{
	put_u32(o, strlen(s));
	put(o, s, strlen(s));
}

static void put_switch(struct out *o, const struct rules_switch *s)
{
	int k;

	put_str(o, s->name);
	put_u32(o, s->nports);
	for (k = 0; k < s->nports; k++)
		put_str(o, s->ports[k]);
	put_u32(o, s->nclassify);
	put(o, s->classify, (size_t)s->nclassify * sizeof(*s->classify));
	put_u32(o, s->nrewrite);
	put(o, s->rewrite, (size_t)s->nrewrite * sizeof(*s->rewrite));
}

void *rules_to_blob(const struct rules *r, size_t *len)
{
	struct out o = { 0 };
	int k, i;

	put_u32(&o, BLOB_MAGIC);
	put_u32(&o, r->lossy_tag);
	put_u32(&o, r->lossy_prio);
	put_u32(&o, r->ntags);
	for (k = 0; k < r->ntags; k++) {
		put_u32(&o, r->tags[k].tag);
		put_u32(&o, r->tags[k].prio);
	}
	put_u32(&o, r->nclasses);
	for (k = 0; k < r->nclasses; k++) {
		put_u32(&o, r->class_ids[k]);
		put_u32(&o, r->class_tags[k]);
	}
	put_u32(&o, r->nhosts);
	for (k = 0; k < r->nhosts; k++) {
		put_str(&o, r->hosts[k].name);
		put_u32(&o, r->hosts[k].tag);
		put_u32(&o, r->hosts[k].nclasses);
		for (i = 0; i < r->hosts[k].nclasses; i++)
			put_u32(&o, r->hosts[k].classes[i]);
	}
	put_u32(&o, r->nsw);
	for (k = 0; k < r->nsw; k++)
		put_switch(&o, &r->sw[k]);
	if (r->cnp_tag >= 0 || r->cnp_prio >= 0) {
		put_u32(&o, BLOB_CNP);
		put_u32(&o, r->cnp_tag);
		put_u32(&o, r->cnp_prio);
	}
	*len = o.len;
	return o.buf;
}

/*
 * The offsets rules_to_blob writes at, counted, not written. Decoding
 * keeps every field it reads but for an empty "cnp1" section (both
 * values negative), which rules_to_blob leaves out: so the length alone
 * says whether a decoded blob is rules_to_blob's own.
 */
size_t rules_blob_layout(const struct rules *r, size_t *cls, size_t *rw)
{
	size_t at =
		4 * 4 + 8 * (size_t)r->ntags + 4 + 8 * (size_t)r->nclasses + 4;
	int k, p;

	for (k = 0; k < r->nhosts; k++)
		at += 4 + strlen(r->hosts[k].name) + 4 + 4 +
		      4 * (size_t)r->hosts[k].nclasses;
	at += 4;
	for (k = 0; k < r->nsw; k++) {
		const struct rules_switch *s = &r->sw[k];

		at += 4 + strlen(s->name) + 4;
		for (p = 0; p < s->nports; p++)
			at += 4 + strlen(s->ports[p]);
		at += 4;
		if (cls)
			cls[k] = at;
		at += (size_t)s->nclassify * sizeof(*s->classify) + 4;
		if (rw)
			rw[k] = at;
		at += (size_t)s->nrewrite * sizeof(*s->rewrite);
	}
	if (r->cnp_tag >= 0 || r->cnp_prio >= 0)
		at += 3 * 4;
	return at;
}

struct in {
	const uint8_t *p, *end;
	bool bad;
	bool keep; /* tables where they lie (rules_blob_decode_in) */
};

static bool take(struct in *in, void *dst, size_t n)
{
	if (in->bad || (size_t)(in->end - in->p) < n) {
		in->bad = true;
		return false;
	}
	memcpy(dst, in->p, n);
	in->p += n;
	return true;
}

static uint32_t get_u32(struct in *in)
{
	uint32_t v = 0;

	take(in, &v, sizeof(v));
	return v;
}

/* A count of items of at least size bytes each that the rest can hold. */
static uint32_t get_count(struct in *in, size_t size)
{
	uint32_t n = get_u32(in);

	if (!in->bad && (size_t)n > (size_t)(in->end - in->p) / size)
		in->bad = true;
	return in->bad ? 0 : n;
}

static char *get_str(struct in *in)
{
	uint32_t n = get_count(in, 1);
	char *s = xmalloc((size_t)n + 1);

	take(in, s, n);
	s[in->bad ? 0 : n] = '\0';
	if (strlen(s) != n)
		in->bad = true;
	return s;
}

static bool tag_ok(int t)
{
	return t >= 0 && t < RULES_NTAGS;
}

static bool port_ok(const struct rules_switch *s, uint16_t p)
{
	return p == RULES_ANY || p < s->nports;
}

/*
 * The switch's key tags (of classify and rewrite keys, not new tags) in
 * order of first use: slot[tag] = index + 1, 0 for a tag no key has.
 * Their number, the third dimension of the arrays by key.
 */
static int key_tags(const struct rules_switch *s, uint8_t *slot)
{
	int k, n = 0;

	memset(slot, 0, RULES_NTAGS);
	for (k = 0; k < s->nclassify; k++)
		if (tag_ok(s->classify[k].tag) && !slot[s->classify[k].tag])
			slot[s->classify[k].tag] = (uint8_t)++n;
	for (k = 0; k < s->nrewrite; k++)
		if (tag_ok(s->rewrite[k].tag) && !slot[s->rewrite[k].tag])
			slot[s->rewrite[k].tag] = (uint8_t)++n;
	return n;
}

/*
 * No "*" in any rule, few enough ports for arrays by key, and enough
 * rules to fill them: arrays of a switch with many ports and few rules
 * would cost memory out of proportion to the rules. The arrays span only
 * the tags the switch's keys use (a compile uses a few of the 64).
 */
static bool exact_switch(const struct rules_switch *s)
{
	uint8_t slot[RULES_NTAGS];
	size_t n = (size_t)s->nports, nt = (size_t)key_tags(s, slot),
	       entries = (n + n * n) * nt;
	int k;

	/* no key to look up: the (empty) maps answer as well */
	if (!nt || s->nports > DENSE_MAX_PORTS ||
	    entries > DENSE_PER_RULE * ((size_t)s->nclassify + s->nrewrite))
		return false;
	for (k = 0; k < s->nclassify; k++)
		if (s->classify[k].in == RULES_ANY)
			return false;
	for (k = 0; k < s->nrewrite; k++)
		if (s->rewrite[k].in == RULES_ANY ||
		    s->rewrite[k].out == RULES_ANY)
			return false;
	return true;
}

/* One slot of a dense index; the first rule of a key keeps it. */
static void dense_put(int32_t *d, size_t at, int k)
{
	if (!d[at])
		d[at] = k + 1;
}

/*
 * A switch without wildcards: its lookups are arrays by key, filled in
 * rule order (a hash map of 100,000 rules costs several times more).
 */
static void index_dense(struct rules_switch *s)
{
	size_t n = (size_t)s->nports, nt;
	uint8_t *slot = s->dense_slot = xmalloc(RULES_NTAGS);
	int k;

	nt = (size_t)(s->dense_ntags = key_tags(s, slot));
	s->dense_classify = xcalloc(n * nt + 1, sizeof(int32_t));
	s->dense_rewrite = xcalloc(n * n * nt + 1, sizeof(int32_t));
	for (k = 0; k < s->nclassify; k++) {
		const struct rules_classify *c = &s->classify[k];

		if (port_ok(s, c->in) && tag_ok(c->tag))
			dense_put(s->dense_classify,
				  (size_t)c->in * nt + slot[c->tag] - 1, k);
	}
	for (k = 0; k < s->nrewrite; k++) {
		const struct rules_rewrite *w = &s->rewrite[k];

		if (port_ok(s, w->in) && port_ok(s, w->out) && tag_ok(w->tag))
			dense_put(s->dense_rewrite,
				  ((size_t)w->in * n + w->out) * nt +
					  slot[w->tag] - 1,
				  k);
	}
}

/* The lookups of switch sw, as the JSON reader builds them. */
static void index_switch(struct rules *r, int sw)
{
	struct rules_switch *s = &r->sw[sw];
	char key[512];
	uint64_t *slot;
	bool fresh;
	int k;

	/* rules_check refuses names too long for a key, and a name twice */
	for (k = 0; k < s->nports; k++)
		if (snprintf(key, sizeof(key), "%s:%s", s->name, s->ports[k]) <
		    (int)sizeof(key))
			strmap_add(&r->port_names, key, k);
	if (exact_switch(s)) {
		index_dense(s);
		return;
	}
	for (k = 0; k < s->nclassify; k++) {
		const struct rules_classify *c = &s->classify[k];

		if (!port_ok(s, c->in) || !tag_ok(c->tag))
			continue;
		slot = hmap_slot(&r->classify,
				 rules_classify_key(sw, c->in, c->tag), &fresh);
		if (fresh)
			*slot = k;
		s->wild_classify |= c->in == RULES_ANY;
	}
	for (k = 0; k < s->nrewrite; k++) {
		const struct rules_rewrite *w = &s->rewrite[k], *ahead;

		/* Scattered slots of a big map: fetch a few rules ahead. */
		if (k + PREFETCH < s->nrewrite) {
			ahead = &s->rewrite[k + PREFETCH];
			__builtin_prefetch(
				hmap_slot_addr(&r->rewrite,
					       rules_rewrite_key(sw, ahead->tag,
								 ahead->in,
								 ahead->out)),
				1);
		}

		if (!port_ok(s, w->in) || !port_ok(s, w->out) ||
		    !tag_ok(w->tag))
			continue;
		slot = hmap_slot(&r->rewrite,
				 rules_rewrite_key(sw, w->tag, w->in, w->out),
				 &fresh);
		if (fresh)
			*slot = k;
		s->wild_rewrite |= w->in == RULES_ANY || w->out == RULES_ANY;
	}
}

/*
 * A switch's port names, in one block: one allocation each cost 32 bytes
 * or more for names of a few, several times their bytes in the blob.
 * The first pass only adds up their lengths, each within the rest.
 */
static void get_ports(struct in *in, struct rules_switch *s)
{
	const uint8_t *start = in->p;
	size_t total = 0;
	uint32_t n;
	char *p;
	int k;

	for (k = 0; k < s->nports && !in->bad; k++) {
		n = get_count(in, 1);
		in->p += in->bad ? 0 : n;
		total += (size_t)n + 1;
	}
	if (in->bad || !s->nports)
		return;
	in->p = start;
	p = s->port_buf = xmalloc(total + 1);
	for (k = 0; k < s->nports; k++) {
		n = get_u32(in);
		take(in, p, n);
		p[n] = '\0';
		if (strlen(p) != n)
			in->bad = true;
		s->ports[k] = p;
		p += (size_t)n + 1;
	}
}

/*
 * A table of n rules (get_count checked that they are there): copied,
 * or where it lies if in->keep (its rules are byte aligned: rules.h).
 */
static void *get_table(struct in *in, uint32_t n, size_t size)
{
	void *t;

	if (in->keep && !in->bad) {
		t = (void *)in->p;
		in->p += (size_t)n * size;
		return t;
	}
	t = xcalloc((size_t)n + 1, size);
	take(in, t, (size_t)n * size);
	return t;
}

static bool get_switch(struct in *in, struct rules *r)
{
	struct rules_switch *s = &r->sw[r->nsw];

	s->name = get_str(in);
	r->nsw++;
	s->nports = get_count(in, 4);
	s->ports = xcalloc(s->nports + 1, sizeof(*s->ports));
	get_ports(in, s);
	s->nclassify = get_count(in, sizeof(*s->classify));
	s->classify = get_table(in, s->nclassify, sizeof(*s->classify));
	s->nrewrite = get_count(in, sizeof(*s->rewrite));
	s->rewrite = get_table(in, s->nrewrite, sizeof(*s->rewrite));
	/* rules_check: a name twice, too many ports */
	strmap_add(&r->sw_names, s->name, r->nsw - 1);
	return !in->bad;
}

/*
 * Every switch's lookups, in maps sized once for all of their rules: the
 * blob's rules, and rules a reader of another form filled the same way
 * (the compiler's, compile/rules_model.c).
 */
void rules_index(struct rules *r)
{
	size_t nc = 0, nw = 0;
	int k;

	for (k = 0; k < r->nsw; k++) {
		if (exact_switch(&r->sw[k]))
			continue;
		nc += r->sw[k].nclassify;
		nw += r->sw[k].nrewrite;
	}
	hmap_free(&r->classify);
	hmap_free(&r->rewrite);
	hmap_init(&r->classify, nc);
	hmap_init(&r->rewrite, nw);
	for (k = 0; k < r->nsw; k++)
		index_switch(r, k);
}

static bool get_host(struct in *in, struct rules *r)
{
	struct rules_host *h = &r->hosts[r->nhosts];
	int k;

	h->name = get_str(in);
	r->nhosts++;
	h->tag = (int)get_u32(in);
	h->nclasses = get_count(in, 4);
	h->classes = xcalloc(h->nclasses + 1, sizeof(int));
	for (k = 0; k < h->nclasses; k++)
		h->classes[k] = (int)get_u32(in);
	strmap_add(&r->host_names, h->name, r->nhosts - 1);
	return !in->bad;
}

static bool get_tags(struct in *in, struct rules *r)
{
	int k, n;

	r->lossy_tag = (int)get_u32(in);
	r->lossy_prio = (int)get_u32(in);
	n = get_count(in, 8);
	r->tags = xcalloc(n + 1, sizeof(*r->tags));
	for (k = 0; k < n; k++) {
		r->tags[k].tag = (int)get_u32(in);
		r->tags[k].prio = (int)get_u32(in);
		r->ntags++;
	}
	n = get_count(in, 8);
	r->class_ids = xcalloc(n + 1, sizeof(int));
	r->class_tags = xcalloc(n + 1, sizeof(int));
	for (k = 0; k < n; k++) {
		r->class_ids[k] = (int)get_u32(in);
		r->class_tags[k] = (int)get_u32(in);
		r->nclasses++;
	}
	return !in->bad;
}

static struct rules *decode(const void *buf, size_t len, const char *name,
			    bool keep)
{
	struct in in = { buf, (const uint8_t *)buf + len, false, keep };
	struct rules *r = rules_new(name);
	uint32_t n, k;
	bool ok = get_u32(&in) == BLOB_MAGIC && get_tags(&in, r);

	n = ok ? get_count(&in, 12) : 0;
	r->hosts = xcalloc(n + 1, sizeof(*r->hosts));
	for (k = 0; ok && k < n; k++)
		ok = get_host(&in, r);
	n = ok ? get_count(&in, 16) : 0;
	r->sw = xcalloc(n + 1, sizeof(*r->sw));
	for (k = 0; ok && k < n; k++)
		ok = get_switch(&in, r);
	if (ok && in.p != in.end) {
		if (get_u32(&in) != BLOB_CNP)
			in.bad = true;
		r->cnp_tag = (int)get_u32(&in);
		r->cnp_prio = (int)get_u32(&in);
	}
	if (keep) {
		r->tables_buf = (void *)buf;
		r->tables_len = len;
	}
	if (!ok || in.bad || in.p != in.end) {
		rules_free(r);
		return NULL;
	}
	rules_index(r);
	return r;
}

struct rules *rules_blob_decode(const void *buf, size_t len, const char *name)
{
	return decode(buf, len, name, false);
}

struct rules *rules_blob_decode_in(const void *buf, size_t len,
				   const char *name)
{
	return decode(buf, len, name, true);
}

struct rules *rules_from_blob(const void *buf, size_t len, const char *name)
{
	struct rules *r = rules_blob_decode(buf, len, name);

	if (r && !rules_check(r)) {
		rules_free(r);
		return NULL;
	}
	return r;
}

static const char *port_json(const struct rules *r, int sw, int p)
{
	return p == RULES_ANY ? "*" : r->sw[sw].ports[p];
}

json_t *rules_switch_json(const struct rules *r, int sw)
{
	const struct rules_switch *s = &r->sw[sw];
	json_t *ports = json_array(), *cl = json_array(), *rw = json_array();
	int k;

	for (k = 0; k < s->nports; k++)
		json_array_append_new(ports, json_string(s->ports[k]));
	for (k = 0; k < s->nclassify; k++)
		json_array_append_new(
			cl, json_pack("{s:s,s:i,s:i}", "in",
				      port_json(r, sw, s->classify[k].in),
				      "tag", s->classify[k].tag, "priority",
				      s->classify[k].prio));
	for (k = 0; k < s->nrewrite; k++)
		json_array_append_new(
			rw,
			json_pack("{s:i,s:s,s:s,s:i}", "tag", s->rewrite[k].tag,
				  "in", port_json(r, sw, s->rewrite[k].in),
				  "out", port_json(r, sw, s->rewrite[k].out),
				  "new_tag", s->rewrite[k].new_tag));
	return json_pack("{s:o,s:o,s:o}", "ports", ports, "classify", cl,
			 "rewrite", rw);
}
