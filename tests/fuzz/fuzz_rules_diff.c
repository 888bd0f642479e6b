// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the compact form's reader (rules_blob.h, what a
 * compiled file holds) against the document reader (rules_parse.c). The
 * input's bytes describe a rule set as it may sit in memory, sound or not:
 * tags and priorities a little out of range, tags twice, names from a pool
 * of valid and hostile ones (twice too), ports, rules with indexes out of
 * range and keys twice. It is written both as a tagger-rules/1 document and
 * as a blob, and each is read back by its reader. Whatever one refuses the
 * other must refuse; what both accept must be the rule set written, with
 * the same answer to every lookup. A difference is a check one form has
 * and the other lacks (C5: an edited packed file, accepted, demoted
 * lossless traffic that its JSON twin would have refused).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "fuzz_common.h"
#include "lib/log.h"
#include "lib/util.h"
#include "model/rules_blob.h"

struct bytes {
	const uint8_t *p, *end;
};

/* The next byte, 0 once the input is used up. */
static unsigned int next(struct bytes *b)
{
	return b->p < b->end ? *b->p++ : 0;
}

/* Mostly valid names first: the fuzzer finds sound rule sets quickly. */
static const char *const names[] = {
	"a",	"b",	     "h1",	 "s1",	  "x",	    "y",   "p1",
	"eth0", "",	     "..",	 ".",	  "h 1/..", "a:b", "et h2",
	"e\n1", "eth2\"} 1", "\xc3\xa9", "Z_9.-", NULL,
};

static char long_name[NAME_MAX_LEN + 2];

static char *pick_name(struct bytes *b)
{
	unsigned int i = next(b);

	if (i == 0xff) /* one byte over the limit */
		return xstrdup(long_name);
	return xstrdup(names[i % (ARRAY_SIZE(names) - 1)]);
}

/* A DSCP codepoint, now and then one out of range. */
static int pick_tag(struct bytes *b)
{
	unsigned int v = next(b);

	return v >= 0xf0 ? (int)v : (int)(v % RULES_NTAGS);
}

/* Mostly a tag of the set (a lossless one or the lossy one), else any. */
static int pick_known(struct bytes *b, const struct rules *r)
{
	unsigned int v = next(b);

	if (v >= 0xc0 || !r->ntags)
		return pick_tag(b);
	v %= (unsigned int)r->ntags + 1;
	return v == (unsigned int)r->ntags ? r->lossy_tag : r->tags[v].tag;
}

static int pick_prio(struct bytes *b)
{
	return (int)(next(b) % (RULES_NPRIOS + 1));
}

/* A port index of a switch of n ports: one of them, "*" or one past. */
static uint16_t pick_port(struct bytes *b, int n)
{
	unsigned int v = next(b) % (unsigned int)(n + 2);

	return v == (unsigned int)n ? RULES_ANY : (uint16_t)v;
}

static void raw_tags(struct bytes *b, struct rules *r)
{
	int k, n;

	r->lossy_tag = pick_tag(b);
	r->lossy_prio = pick_prio(b);
	n = (int)(next(b) % 6);
	r->tags = xcalloc(n + 1, sizeof(*r->tags));
	for (k = 0; k < n; k++) {
		r->tags[k].tag = pick_tag(b);
		r->tags[k].prio = pick_prio(b);
		r->ntags++;
	}
	n = (int)(next(b) % 4);
	r->class_ids = xcalloc(n + 1, sizeof(int));
	r->class_tags = xcalloc(n + 1, sizeof(int));
	for (k = 0; k < n; k++) {
		unsigned int id = next(b);

		r->class_ids[k] = id == 0xff ? -1 : (int)(id % 4);
		r->class_tags[k] = pick_known(b, r);
		r->nclasses++;
	}
}

static void raw_hosts(struct bytes *b, struct rules *r)
{
	int k, i, n = (int)(next(b) % 4);

	r->hosts = xcalloc(n + 1, sizeof(*r->hosts));
	for (k = 0; k < n; k++) {
		struct rules_host *h = &r->hosts[r->nhosts++];
		unsigned int v = next(b);

		h->name = pick_name(b);
		h->tag = v & 1 ? -1 : pick_known(b, r);
		h->nclasses = v & 2 ? r->nclasses : (int)(v >> 6);
		h->classes = xcalloc(h->nclasses + 1, sizeof(int));
		for (i = 0; i < h->nclasses; i++)
			h->classes[i] = pick_known(b, r);
	}
}

static void raw_switch(struct bytes *b, const struct rules *r,
		       struct rules_switch *s)
{
	int k;

	s->name = pick_name(b);
	s->nports = (int)(next(b) % 5);
	s->ports = xcalloc(s->nports + 1, sizeof(*s->ports));
	for (k = 0; k < s->nports; k++)
		s->ports[k] = pick_name(b);
	s->nclassify = (int)(next(b) % 5);
	s->classify = xcalloc(s->nclassify + 1, sizeof(*s->classify));
	for (k = 0; k < s->nclassify; k++) {
		struct rules_classify *c = &s->classify[k];

		c->in = pick_port(b, s->nports);
		c->tag = (uint8_t)pick_known(b, r);
		c->prio = (uint8_t)pick_prio(b);
	}
	s->nrewrite = (int)(next(b) % 6);
	s->rewrite = xcalloc(s->nrewrite + 1, sizeof(*s->rewrite));
	for (k = 0; k < s->nrewrite; k++) {
		struct rules_rewrite *w = &s->rewrite[k];

		w->in = pick_port(b, s->nports);
		w->out = pick_port(b, s->nports);
		w->tag = (uint8_t)pick_known(b, r);
		w->new_tag = (uint8_t)pick_known(b, r);
	}
}

/* A rule set as the input describes it, unchecked (arrays only). */
static struct rules *raw_rules(const uint8_t *data, size_t size)
{
	struct bytes b = { data, data + size };
	struct rules *r = rules_new("fuzz");
	int k, n;

	raw_tags(&b, r);
	raw_hosts(&b, r);
	n = (int)(next(&b) % 4);
	r->sw = xcalloc(n + 1, sizeof(*r->sw));
	for (k = 0; k < n; k++)
		raw_switch(&b, r, &r->sw[r->nsw++]);
	return r;
}

/* A port as the document names it; an index out of range as no port's. */
static json_t *port_json(const struct rules_switch *s, int p)
{
	char buf[16];

	if (p == RULES_ANY)
		return json_string("*");
	if (p < s->nports)
		return json_string(s->ports[p]);
	snprintf(buf, sizeof(buf), "#%d", p);
	return json_string(buf);
}

static json_t *switch_json(const struct rules_switch *s)
{
	json_t *ports = json_array(), *cl = json_array(), *rw = json_array();
	int k;

	for (k = 0; k < s->nports; k++)
		json_array_append_new(ports, json_string(s->ports[k]));
	for (k = 0; k < s->nclassify; k++)
		json_array_append_new(
			cl, json_pack("{s:o,s:i,s:i}", "in",
				      port_json(s, s->classify[k].in), "tag",
				      s->classify[k].tag, "priority",
				      s->classify[k].prio));
	for (k = 0; k < s->nrewrite; k++)
		json_array_append_new(
			rw,
			json_pack("{s:i,s:o,s:o,s:i}", "tag", s->rewrite[k].tag,
				  "in", port_json(s, s->rewrite[k].in), "out",
				  port_json(s, s->rewrite[k].out), "new_tag",
				  s->rewrite[k].new_tag));
	return json_pack("{s:o,s:o,s:o}", "ports", ports, "classify", cl,
			 "rewrite", rw);
}

static json_t *host_json(const struct rules_host *h)
{
	json_t *o = json_object(), *cl;
	int i;

	if (h->tag != -1)
		json_object_set_new(o, "tag", json_integer(h->tag));
	if (h->nclasses) {
		cl = json_array();
		for (i = 0; i < h->nclasses; i++)
			json_array_append_new(cl, json_integer(h->classes[i]));
		json_object_set_new(o, "classes", cl);
	}
	return o;
}

/*
 * The document of r; *twice when a name is given twice, which a document
 * cannot hold (the reader refuses duplicate keys).
 */
static json_t *doc_json(const struct rules *r, bool *twice)
{
	json_t *tags = json_array(), *cls = json_array(), *hosts, *sws;
	int k;

	for (k = 0; k < r->ntags; k++)
		json_array_append_new(
			tags, json_pack("{s:i,s:i}", "tag", r->tags[k].tag,
					"priority", r->tags[k].prio));
	for (k = 0; k < r->nclasses; k++)
		json_array_append_new(cls, json_pack("{s:i,s:i}", "class",
						     r->class_ids[k], "tag",
						     r->class_tags[k]));
	hosts = json_object();
	for (k = 0; k < r->nhosts; k++) {
		*twice |= json_object_get(hosts, r->hosts[k].name) != NULL;
		json_object_set_new(hosts, r->hosts[k].name,
				    host_json(&r->hosts[k]));
	}
	sws = json_object();
	for (k = 0; k < r->nsw; k++) {
		*twice |= json_object_get(sws, r->sw[k].name) != NULL;
		json_object_set_new(sws, r->sw[k].name, switch_json(&r->sw[k]));
	}
	return json_pack("{s:s,s:{s:i,s:i},s:o,s:o,s:o,s:o}", "format",
			 RULES_FORMAT, "lossy", "tag", r->lossy_tag, "priority",
			 r->lossy_prio, "tags", tags, "classes", cls, "hosts",
			 hosts, "switches", sws);
}

static void same_or_trap(bool same)
{
	if (!same)
		__builtin_trap();
}

static void same_switch(const struct rules_switch *x,
			const struct rules_switch *y)
{
	int k;

	same_or_trap(!strcmp(x->name, y->name) && x->nports == y->nports &&
		     x->nclassify == y->nclassify &&
		     x->nrewrite == y->nrewrite);
	for (k = 0; k < x->nports; k++)
		same_or_trap(!strcmp(x->ports[k], y->ports[k]));
	same_or_trap(!memcmp(x->classify, y->classify,
			     x->nclassify * sizeof(*x->classify)) &&
		     !memcmp(x->rewrite, y->rewrite,
			     x->nrewrite * sizeof(*x->rewrite)));
}

/* Two rule sets hold the same tags, classes, hosts and rules. */
static void same_rules(const struct rules *x, const struct rules *y)
{
	int k, i;

	same_or_trap(x->lossy_tag == y->lossy_tag &&
		     x->lossy_prio == y->lossy_prio && x->ntags == y->ntags &&
		     x->nclasses == y->nclasses && x->nhosts == y->nhosts &&
		     x->nsw == y->nsw);
	same_or_trap(!memcmp(x->tags, y->tags, x->ntags * sizeof(*x->tags)) &&
		     !memcmp(x->class_ids, y->class_ids,
			     x->nclasses * sizeof(int)) &&
		     !memcmp(x->class_tags, y->class_tags,
			     x->nclasses * sizeof(int)));
	for (k = 0; k < x->nhosts; k++) {
		const struct rules_host *a = &x->hosts[k], *b = &y->hosts[k];

		same_or_trap(!strcmp(a->name, b->name) && a->tag == b->tag &&
			     a->nclasses == b->nclasses);
		for (i = 0; i < a->nclasses; i++)
			same_or_trap(a->classes[i] == b->classes[i]);
	}
	for (k = 0; k < x->nsw; k++)
		same_switch(&x->sw[k], &y->sw[k]);
}

/* Checked rule sets answer every lookup alike, however they are indexed. */
static void same_answers(const struct rules *x, const struct rules *y)
{
	int sw, in, out, tag, rx, ry;

	for (tag = 0; tag < RULES_NTAGS; tag++)
		same_or_trap(rules_tag_rank(x, tag) == rules_tag_rank(y, tag) &&
			     rules_tag_prio(x, tag) == rules_tag_prio(y, tag));
	for (sw = 0; sw < x->nsw; sw++)
		for (tag = 0; tag < RULES_NTAGS; tag++)
			for (in = 0; in < x->sw[sw].nports; in++) {
				same_or_trap(
					rules_classify(x, sw, in, tag, &rx) ==
						rules_classify(y, sw, in, tag,
							       &ry) &&
					rx == ry);
				for (out = 0; out < x->sw[sw].nports; out++)
					same_or_trap(
						rules_rewrite(x, sw, tag, in,
							      out, &rx) ==
							rules_rewrite(
								y, sw, tag, in,
								out, &ry) &&
						rx == ry);
			}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rules *raw, *from_doc, *from_blob;
	bool twice = false;
	json_t *doc;
	size_t len;
	void *blob;

	log_quiet = true;
	memset(long_name, 'n', sizeof(long_name) - 1);
	raw = raw_rules(data, size);
	blob = rules_to_blob(raw, &len);
	from_blob = rules_from_blob(blob, len, "fuzz");
	doc = doc_json(raw, &twice);
	from_doc = twice ? NULL : rules_from_json(doc, "fuzz");
	same_or_trap(!from_doc == !from_blob);
	if (from_doc) {
		same_rules(raw, from_doc);
		same_rules(raw, from_blob);
		same_answers(from_doc, from_blob);
	}
	rules_free(from_doc);
	rules_free(from_blob);
	rules_free(raw);
	json_decref(doc);
	free(blob);
	return 0;
}
