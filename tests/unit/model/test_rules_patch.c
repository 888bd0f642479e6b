// SPDX-License-Identifier: GPL-2.0
/*
 * The attached rules as a patch of the new ones (model/rules_patch.h):
 * for random changes of a few rules of a wildcard switch and of a switch
 * with dense lookups, the patch must answer every lookup as the old
 * rules decoded whole do and give back their very bytes; a change of a
 * rule's key, of anything but rules, or of too many rules is not
 * patched, and neither is an old rule that is not sound.
 */
#include <check.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "lib/rng.h"
#include "model/rules_blob.h"
#include "model/rules_patch.h"
#include "testlib.h"

#define NPORTS 12
#define NTAGS 6 /* lossless tags 1..NTAGS; 0 is lossy */

/* A switch of NPORTS ports, every (in, out, tag) rewritten; a wildcard one. */
static json_t *doc_new(void)
{
	json_t *ports = json_array(), *cl = json_array(), *rw = json_array();
	json_t *tags = json_array(), *links = json_array();
	char p[16], q[16];
	int i, o, t;

	for (t = 1; t <= NTAGS; t++)
		json_array_append_new(tags, json_pack("{s:i,s:i}", "tag", t,
						      "priority", 1 + t % 5));
	for (i = 0; i < NPORTS; i++) {
		snprintf(p, sizeof(p), "port%d", i);
		json_array_append_new(ports, json_string(p));
		json_array_append_new(links,
				      json_pack("[s+,s+]", "D:", p, "W:", "w"));
		for (t = 1; t <= NTAGS; t++)
			json_array_append_new(
				cl, json_pack("{s:s,s:i,s:i}", "in", p, "tag",
					      t, "priority", 1 + t % 5));
		for (o = 0; o < NPORTS; o++) {
			if (o == i)
				continue;
			snprintf(q, sizeof(q), "port%d", o);
			for (t = 1; t <= NTAGS; t++)
				json_array_append_new(
					rw,
					json_pack("{s:i,s:s,s:s,s:i}", "tag", t,
						  "in", p, "out", q, "new_tag",
						  t < NTAGS ? t + 1 : t));
		}
	}
	return json_pack(
		"{s:s,s:{s:i,s:i},s:o,s:o,s:{s:{s:o,s:o,s:o},s:{s:[s,s],"
		"s:[{s:s,s:i,s:i}],s:[{s:i,s:s,s:s,s:i},{s:i,s:s,s:s,s:i}]}}}",
		"format", "tagger-rules/1", "lossy", "tag", 0, "priority", 0,
		"tags", tags, "links", links, "switches", "D", "ports", ports,
		"classify", cl, "rewrite", rw, "W", "ports", "w", "v",
		"classify", "in", "*", "tag", 1, "priority", 2, "rewrite",
		"tag", 1, "in", "*", "out", "v", "new_tag", 2, "tag", 2, "in",
		"w", "out", "*", "new_tag", 3);
}

static json_t *rule_at(json_t *doc, const char *sw, const char *table, int k)
{
	return json_array_get(
		json_object_get(
			json_object_get(json_object_get(doc, "switches"), sw),
			table),
		k);
}

static struct rules *from(json_t *doc)
{
	struct rules *r = rules_from_json(doc, "t.json");

	ck_assert_ptr_nonnull(r);
	return r;
}

/* Every lookup of a and b answers alike. */
static void same_answers(const struct rules *a, const struct rules *b)
{
	int s, i, o, t;

	for (s = 0; s < a->nsw; s++)
		for (i = 0; i < a->sw[s].nports; i++)
			for (t = 0; t < RULES_NTAGS; t++) {
				ck_assert_int_eq(
					rules_classify(a, s, i, t, NULL),
					rules_classify(b, s, i, t, NULL));
				for (o = 0; o < a->sw[s].nports; o++)
					ck_assert_int_eq(
						rules_rewrite(a, s, t, i, o,
							      NULL),
						rules_rewrite(b, s, t, i, o,
							      NULL));
			}
}

/*
 * new = old with some rules' answers changed; patch(new, old blob) must
 * be old: its lookups and its bytes.
 */
static void patch_case(json_t *old_doc, json_t *new_doc, int want)
{
	struct rules *old = from(old_doc), *nu = from(new_doc), *p;
	struct rules_change ch[64];
	size_t ol, nl, pl;
	void *ob = rules_to_blob(old, &ol), *nb = rules_to_blob(nu, &nl), *pb;
	char *mem;
	int n;

	ck_assert_uint_eq(rules_blob_layout(nu, NULL, NULL), nl);
	ck_assert_uint_eq(rules_blob_layout(old, NULL, NULL), ol);
	ck_assert_uint_eq(ol, nl);
	n = rules_blob_diff(nu, nb, ob, nl, ch, 64);
	ck_assert_int_eq(n, want);
	/* Both alignments of the old bytes. */
	for (int shift = 0; shift < 2; shift++) {
		mem = xmalloc(ol + 1);
		memcpy(mem + shift, ob, ol);
		p = rules_patch(nu, mem + shift, mem, ol, ch, n);
		ck_assert_ptr_nonnull(p);
		same_answers(p, old);
		pb = rules_to_blob(p, &pl);
		ck_assert_uint_eq(pl, ol);
		ck_assert(!memcmp(pb, ob, ol));
		free(pb);
		rules_free(p);
	}
	rules_free(old);
	rules_free(nu);
	free(ob);
	free(nb);
}

START_TEST(random_answers_patch_back)
{
	struct rng g;
	json_t *a, *b, *w;
	int k, n, i, changed;

	rng_seed(&g, 1000 + _i);
	a = doc_new();
	b = json_deep_copy(a);
	n = 1 + (int)rng_below(&g, 20);
	changed = 0;
	for (i = 0; i < n; i++) {
		/* mostly the dense switch's rewrites, some classify, some W */
		k = (int)rng_below(&g, 10);
		if (k < 6) {
			w = rule_at(b, "D", "rewrite",
				    (int)rng_below(&g, NPORTS * (NPORTS - 1) *
							       NTAGS));
			json_object_set_new(
				w, "new_tag",
				json_integer(rng_below(&g, NTAGS + 1)));
		} else if (k < 8) {
			w = rule_at(b, "D", "classify",
				    (int)rng_below(&g, NPORTS * NTAGS));
			json_object_set_new(w, "priority",
					    json_integer(rng_below(&g, 5) + 1));
		} else {
			w = rule_at(b, "W", "rewrite", (int)rng_below(&g, 2));
			json_object_set_new(
				w, "new_tag",
				json_integer(rng_below(&g, NTAGS + 1)));
		}
	}
	/* Count what differs, as the diff must find it. */
	{
		struct rules *x = from(a), *y = from(b);

		for (int s = 0; s < x->nsw; s++) {
			for (k = 0; k < x->sw[s].nclassify; k++)
				changed +=
					!!memcmp(&x->sw[s].classify[k],
						 &y->sw[s].classify[k],
						 sizeof(x->sw[s].classify[k]));
			for (k = 0; k < x->sw[s].nrewrite; k++)
				changed +=
					!!memcmp(&x->sw[s].rewrite[k],
						 &y->sw[s].rewrite[k],
						 sizeof(x->sw[s].rewrite[k]));
		}
		rules_free(x);
		rules_free(y);
	}
	patch_case(a, b, changed);
	patch_case(b, a, changed);
	json_decref(a);
	json_decref(b);
}
END_TEST

/* The diff of old against new: -1, or n changes that rules_patch refuses. */
static int diff_of(json_t *old_doc, json_t *new_doc, int max, bool *patched)
{
	struct rules *old = from(old_doc), *nu = from(new_doc), *p;
	struct rules_change ch[64];
	size_t ol, nl;
	void *ob = rules_to_blob(old, &ol), *nb = rules_to_blob(nu, &nl);
	char *mem;
	int n = -1, shift;

	*patched = false;
	if (ol == nl)
		n = rules_blob_diff(nu, nb, ob, nl, ch, max);
	/* Both alignments (in place or copied); a refused patch frees none. */
	for (shift = 0; n >= 0 && shift < 2; shift++) {
		mem = xmalloc(ol + 1);
		memcpy(mem + shift, ob, ol);
		p = rules_patch(nu, mem + shift, mem, ol, ch, n);
		*patched = p != NULL;
		if (p)
			rules_free(p); /* and mem */
		else
			free(mem);
	}
	rules_free(old);
	rules_free(nu);
	free(ob);
	free(nb);
	return n;
}

START_TEST(other_changes_are_not_patched)
{
	json_t *a = doc_new(), *b;
	bool patched;
	int k;

	/* two rules' keys swapped: the lookups would differ */
	b = json_deep_copy(a);
	json_object_set_new(rule_at(b, "D", "rewrite", 7), "tag",
			    json_integer(3));
	json_object_set_new(rule_at(b, "D", "rewrite", 8), "tag",
			    json_integer(2));
	ck_assert_int_ge(diff_of(a, b, 64, &patched), 0);
	ck_assert(!patched);
	json_decref(b);
	/* a port renamed (same length): not a rule */
	b = json_deep_copy(a);
	json_array_set_new(
		json_object_get(
			json_object_get(json_object_get(b, "switches"), "W"),
			"ports"),
		1, json_string("u"));
	json_object_set_new(rule_at(b, "W", "rewrite", 0), "out",
			    json_string("u"));
	ck_assert_int_eq(diff_of(a, b, 64, &patched), -1);
	json_decref(b);
	/* a tag's priority: not a rule */
	b = json_deep_copy(a);
	json_object_set_new(json_array_get(json_object_get(b, "tags"), 2),
			    "priority", json_integer(6));
	for (k = 0; k < NPORTS; k++)
		json_object_set_new(rule_at(b, "D", "classify", k * NTAGS + 2),
				    "priority", json_integer(6));
	ck_assert_int_eq(diff_of(a, b, 64, &patched), -1);
	json_decref(b);
	/* more rules than max */
	b = json_deep_copy(a);
	for (k = 0; k < 10; k++)
		json_object_set_new(rule_at(b, "D", "rewrite", k * 3),
				    "new_tag", json_integer(0));
	ck_assert_int_eq(diff_of(a, b, 9, &patched), -1);
	ck_assert_int_eq(diff_of(a, b, 10, &patched), 10);
	ck_assert(patched);
	json_decref(b);
	json_decref(a);
}
END_TEST

/* An old rule rules_check would refuse is not taken as the attached one. */
START_TEST(an_unsound_old_rule_is_not_patched)
{
	json_t *a = doc_new();
	struct rules *nu = from(a);
	struct rules_change ch[4];
	size_t len, at;
	uint8_t *ob = rules_to_blob(nu, &len);
	void *nb = rules_to_blob(nu, &len);
	struct rules *p;

	/* rewrite 3 of D answers tag 40, which is not in "tags" */
	at = rules_change_at(nu, &(struct rules_change){ 0, true, 0 });
	ob[at + 3 * sizeof(struct rules_rewrite) + 5] = 40;
	ck_assert_int_eq(rules_blob_diff(nu, nb, ob, len, ch, 4), 1);
	ck_assert_int_eq(ch[0].k, 3);
	ck_assert(ch[0].rewrite);
	for (int shift = 0; shift < 2; shift++) {
		uint8_t *mem = xmalloc(len + 1);

		memcpy(mem + shift, ob, len);
		p = rules_patch(nu, mem + shift, mem, len, ch, 1);
		ck_assert_ptr_null(p);
		free(mem);
	}
	free(ob);
	free(nb);
	rules_free(nu);
	json_decref(a);
}
END_TEST

/*
 * Tables read where they lie in the blob: the lookups of the rules read
 * whole, and none freed with the rules (an empty table of the last
 * switch points at the blob's very end).
 */
START_TEST(tables_read_in_place)
{
	json_t *a = doc_new();
	struct rules *r, *in, *whole;
	size_t len;
	void *b;

	json_object_set_new(json_object_get(a, "switches"), "Z",
			    json_pack("{s:[s],s:[],s:[]}", "ports", "q",
				      "classify", "rewrite"));
	r = from(a);
	b = rules_to_blob(r, &len);
	in = rules_blob_decode_in(b, len, "t");
	ck_assert_ptr_nonnull(in);
	ck_assert(rules_check(in));
	whole = rules_from_blob(b, len, "t");
	ck_assert_ptr_nonnull(whole);
	same_answers(in, whole);
	ck_assert_ptr_eq((char *)in->sw[in->nsw - 1].rewrite, (char *)b + len);
	rules_free(in); /* frees no table: glibc would abort */
	rules_free(whole);
	rules_free(r);
	free(b);
	json_decref(a);
}
END_TEST

Suite *rules_patch_suite(void)
{
	Suite *s = suite_create("rules_patch");
	TCase *tc = tcase_create("core");

	tcase_add_loop_test(tc, random_answers_patch_back, 0, 40);
	tcase_add_test(tc, other_changes_are_not_patched);
	tcase_add_test(tc, an_unsound_old_rule_is_not_patched);
	tcase_add_test(tc, tables_read_in_place);
	suite_add_tcase(s, tc);
	return s;
}
