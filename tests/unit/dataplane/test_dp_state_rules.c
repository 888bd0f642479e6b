// SPDX-License-Identifier: GPL-2.0
/*
 * The rules a switch's state keeps in compact form (model/rules_blob.c):
 * read back, they answer every lookup as the document they came from, the
 * switch's own section reads as the document gives it, and a blob cut
 * short or with an index out of range anywhere is refused, never read
 * past its end.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "model/rules_blob.h"
#include "testlib.h"

static const char *doc_json =
	"{\"format\":\"tagger-rules/1\",\"lossy\":{\"tag\":0,\"priority\":0},"
	"\"tags\":[{\"tag\":5,\"priority\":1},{\"tag\":9,\"priority\":2}],"
	"\"classes\":[{\"class\":1,\"tag\":5},{\"class\":2,\"tag\":9}],"
	"\"hosts\":{\"h1\":{\"tag\":5},\"h2\":{\"classes\":[5,9]}},"
	"\"switches\":{"
	"\"A\":{\"ports\":[\"x\",\"y\",\"z\"],"
	"\"classify\":[{\"in\":\"*\",\"tag\":5,\"priority\":1},"
	"{\"in\":\"y\",\"tag\":5,\"priority\":0},"
	"{\"in\":\"x\",\"tag\":9,\"priority\":2}],"
	"\"rewrite\":[{\"tag\":5,\"in\":\"*\",\"out\":\"*\",\"new_tag\":9},"
	"{\"tag\":5,\"in\":\"x\",\"out\":\"*\",\"new_tag\":0},"
	"{\"tag\":9,\"in\":\"y\",\"out\":\"z\",\"new_tag\":5}]},"
	"\"B\":{\"ports\":[\"a\"],\"classify\":[],\"rewrite\":[]}}}";

START_TEST(a_blob_answers_as_its_document)
{
	json_t *doc, *sec;
	struct rules *a = rules_from_str(doc_json, &doc), *b;
	int sw, in, out, tag, ra, rb;
	size_t len;
	void *blob = rules_to_blob(a, &len);

	b = rules_from_blob(blob, len, "state");
	ck_assert_ptr_nonnull(b);
	ck_assert_int_eq(b->nsw, a->nsw);
	ck_assert_int_eq(b->nhosts, 2);
	ck_assert_int_eq(b->hosts[rules_find_host(b, "h2")].classes[1], 9);
	ck_assert_int_eq(b->hosts[rules_find_host(b, "h2")].tag, -1);
	ck_assert_int_eq(b->nclasses, 2);
	for (tag = 0; tag < RULES_NTAGS; tag++) {
		ck_assert_int_eq(rules_tag_prio(b, tag),
				 rules_tag_prio(a, tag));
		ck_assert_int_eq(rules_tag_rank(b, tag),
				 rules_tag_rank(a, tag));
	}
	for (sw = 0; sw < a->nsw; sw++) {
		ck_assert_int_eq(rules_find_switch(b, a->sw[sw].name), sw);
		for (in = 0; in < a->sw[sw].nports; in++) {
			ck_assert_int_eq(
				rules_find_port(b, sw, a->sw[sw].ports[in]),
				in);
			for (tag = 0; tag < RULES_NTAGS; tag++) {
				ck_assert_int_eq(
					rules_classify(b, sw, in, tag, &rb),
					rules_classify(a, sw, in, tag, &ra));
				ck_assert_int_eq(ra, rb);
				for (out = 0; out < a->sw[sw].nports; out++)
					ck_assert_int_eq(
						rules_rewrite(b, sw, tag, in,
							      out, NULL),
						rules_rewrite(a, sw, tag, in,
							      out, NULL));
			}
		}
	}
	sec = rules_switch_json(b, 0);
	ck_assert(json_equal(
		sec, json_object_get(json_object_get(doc, "switches"), "A")));
	json_decref(sec);
	rules_free(a);
	rules_free(b);
	free(blob);
	json_decref(doc);
}
END_TEST

START_TEST(a_blob_cut_short_or_grown_is_refused)
{
	json_t *doc;
	struct rules *a = rules_from_str(doc_json, &doc), *b;
	size_t len, k;
	uint8_t *blob = rules_to_blob(a, &len), *copy;

	for (k = 0; k < len; k++) {
		copy = malloc(k + 1); /* exactly k bytes readable */
		memcpy(copy, blob, k);
		b = rules_from_blob(copy, k, "state");
		ck_assert_msg(b == NULL, "a blob of %zu of %zu bytes read", k,
			      len);
		free(copy);
	}
	copy = calloc(1, len + 1);
	memcpy(copy, blob, len);
	ck_assert_ptr_null(rules_from_blob(copy, len + 1, "state"));
	free(copy);
	rules_free(a);
	free(blob);
	json_decref(doc);
}
END_TEST

/*
 * Every 32-bit field, set to huge counts or indexes, is caught: at any
 * offset the value lands in a count the rest cannot hold, an index or tag
 * out of range, a name's bytes or a class number out of range.
 */
START_TEST(a_blob_with_any_field_out_of_range_is_refused)
{
	json_t *doc;
	struct rules *a = rules_from_str(doc_json, &doc), *b;
	size_t len, k;
	uint8_t *blob = rules_to_blob(a, &len);
	uint32_t huge = 0xfffffff0u, keep;

	for (k = 4; k + 4 <= len; k++) {
		memcpy(&keep, blob + k, 4);
		memcpy(blob + k, &huge, 4);
		capture_begin();
		b = rules_from_blob(blob, len, "state");
		capture_end();
		ck_assert_msg(b == NULL, "%#x at byte %zu of %zu is accepted",
			      huge, k, len);
		memcpy(blob + k, &keep, 4);
	}
	b = rules_from_blob(blob, len, "state");
	ck_assert_ptr_nonnull(b);
	rules_free(b);
	rules_free(a);
	free(blob);
	json_decref(doc);
}
END_TEST

START_TEST(a_blob_of_another_version_is_refused)
{
	json_t *doc;
	struct rules *a = rules_from_str(doc_json, &doc);
	size_t len;
	uint8_t *blob = rules_to_blob(a, &len);

	blob[0] ^= 1;
	ck_assert_ptr_null(rules_from_blob(blob, len, "state"));
	rules_free(a);
	free(blob);
	json_decref(doc);
}
END_TEST

/* Random rules without wildcards: nports ports, tags 1..20 (1..7 lossless). */
static json_t *exact_doc(unsigned int seed, int nports)
{
	json_t *doc =
		json_pack("{s:s,s:{s:i,s:i},s:[]}", "format", "tagger-rules/1",
			  "lossy", "tag", 0, "priority", 0, "tags");
	json_t *ports = json_array(), *cls = json_array(), *rw = json_array();
	char name[16];
	int i, o, t;

	srand(seed);
	for (t = 1; t <= 20; t++)
		json_array_append_new(json_object_get(doc, "tags"),
				      json_pack("{s:i,s:i}", "tag", t,
						"priority", 1 + t % 7));
	for (i = 0; i < nports; i++) {
		snprintf(name, sizeof(name), "p%d", i);
		json_array_append_new(ports, json_string(name));
	}
	for (i = 0; i < nports; i++)
		for (t = 1; t <= 20; t++) {
			if (rand() % 3 == 0)
				json_array_append_new(
					cls,
					json_pack("{s:s,s:i,s:i}", "in",
						  json_string_value(
							  json_array_get(ports,
									 i)),
						  "tag", t, "priority",
						  rand() % 8));
			for (o = 0; o < nports; o++)
				if (rand() % 2 == 0)
					json_array_append_new(
						rw,
						json_pack(
							"{s:i,s:s,s:s,s:i}",
							"tag", t, "in",
							json_string_value(
								json_array_get(
									ports,
									i)),
							"out",
							json_string_value(
								json_array_get(
									ports,
									o)),
							"new_tag",
							rand() % 21));
		}
	json_object_set_new(doc, "switches",
			    json_pack("{s:{s:o,s:o,s:o}}", "S", "ports", ports,
				      "classify", cls, "rewrite", rw));
	return doc;
}

/*
 * Rules without wildcards are looked up through arrays by key
 * (rules_blob.c), not the hash maps: they answer every (in, out, tag) as
 * the document, ports out of range included.
 */
START_TEST(exact_rules_answer_as_their_document)
{
	int nports, in, out, tag, ra, rb;
	struct rules *a, *b;
	json_t *doc;
	size_t len;
	void *blob;

	for (nports = 1; nports <= 9; nports += 4) {
		doc = exact_doc(17 + nports, nports);
		a = rules_from_json(doc, "doc");
		ck_assert_ptr_nonnull(a);
		blob = rules_to_blob(a, &len);
		b = rules_from_blob(blob, len, "state");
		ck_assert_ptr_nonnull(b);
		ck_assert_ptr_nonnull(b->sw[0].dense_rewrite);
		for (in = 0; in <= nports + 1; in++)
			for (tag = 0; tag < RULES_NTAGS; tag++) {
				ck_assert_int_eq(
					rules_classify(b, 0, in, tag, &rb),
					rules_classify(a, 0, in, tag, &ra));
				ck_assert_int_eq(ra, rb);
				for (out = 0; out <= nports + 1; out++) {
					ck_assert_int_eq(
						rules_rewrite(b, 0, tag, in,
							      out, &rb),
						rules_rewrite(a, 0, tag, in,
							      out, &ra));
					ck_assert_int_eq(ra, rb);
				}
			}
		rules_free(a);
		rules_free(b);
		free(blob);
		json_decref(doc);
	}
}
END_TEST

/* Two rules of one key in a blob: refused, by the arrays as by the maps. */
START_TEST(exact_rules_with_one_key_twice_are_refused)
{
	json_t *doc = exact_doc(5, 4);
	struct rules *a = rules_from_json(doc, "doc");
	struct rules_switch *s = &a->sw[0];
	struct rules_classify c = s->classify[1];
	struct rules_rewrite w = s->rewrite[1];
	size_t len;
	void *blob;

	s->rewrite[1].in = s->rewrite[0].in;
	s->rewrite[1].out = s->rewrite[0].out;
	s->rewrite[1].tag = s->rewrite[0].tag;
	blob = rules_to_blob(a, &len);
	ck_assert_ptr_null(rules_from_blob(blob, len, "state"));
	free(blob);
	s->rewrite[1] = w;
	s->classify[1].in = s->classify[0].in;
	s->classify[1].tag = s->classify[0].tag;
	blob = rules_to_blob(a, &len);
	ck_assert_ptr_null(rules_from_blob(blob, len, "state"));
	free(blob);
	s->classify[1] = c;
	blob = rules_to_blob(a, &len);
	rules_free(rules_from_blob(blob, len, "state"));
	free(blob);
	rules_free(a);
	json_decref(doc);
}
END_TEST

Suite *dp_state_rules_suite(void)
{
	Suite *s = suite_create("dp_state_rules");
	TCase *tc = tcase_create("blob");

	tcase_add_test(tc, a_blob_answers_as_its_document);
	tcase_add_test(tc, a_blob_cut_short_or_grown_is_refused);
	tcase_add_test(tc, a_blob_with_any_field_out_of_range_is_refused);
	tcase_add_test(tc, a_blob_of_another_version_is_refused);
	tcase_add_test(tc, exact_rules_answer_as_their_document);
	tcase_add_test(tc, exact_rules_with_one_key_twice_are_refused);
	suite_add_tcase(s, tc);
	return s;
}
