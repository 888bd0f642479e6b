// SPDX-License-Identifier: GPL-2.0
/*
 * The compiled rules without a document (compile/rules_model.c) against
 * the document's own path (compile_rules_json, then the rules reader):
 * the same rules (their compact form byte for byte), the same answer of
 * every lookup, and the document written from them (compile_rules_write)
 * the same bytes as jansson's dump of compile_rules_json, compact and
 * indented; with hosts, two classes, compression (wildcards, explicit
 * lossy answers), too few priorities (lossy tags) and a CNP class. A CNP
 * DSCP that is a tag the compile used is refused by the rules check, as
 * the document's reader refuses it.
 */
#include <check.h>
#include <jansson.h>

#include "compile/compile.h"
#include "model/rules_blob.h"
#include "testlib.h"

/* A ring of 4 switches, a host on A and one on C, both ways round. */
static const char *ring4h = "switch A\nswitch B\nswitch C\nswitch D\n"
			    "host h1\nhost h2\n"
			    "link A:1 B:1\nlink B:2 C:1\nlink C:2 D:1\n"
			    "link D:2 A:2\nlink h1:0 A:3\nlink h2:0 C:3\n";
static const char *ring4h_paths =
	"h1 A B C h2\nh1 A D C h2\nh2 C B A h1\nh2 C D A h1\n"
	"A B C\nA D C\nB C D\nB A D\nC D A\nC B A\nD A B\nD C B\n"
	"A B\nB C\nC D\nD A\n";

struct variant {
	int classes;
	int nprios; /* 0: the default */
	bool compress;
	int cnp_dscp; /* -1: none */
};

static const struct variant variants[] = {
	{ 1, 0, false, -1 }, { 2, 0, false, -1 }, { 1, 0, true, -1 },
	{ 2, 0, true, 48 },  { 1, 1, false, -1 }, { 1, 1, true, -1 },
};

struct run {
	struct topo *t;
	struct elp *e;
	struct compile_opts o;
	struct compile_result r;
};

static void run_variant(struct run *x, const struct variant *v)
{
	x->t = topo_from_str(ring4h);
	ck_assert_ptr_nonnull(x->t);
	x->e = elp_from_str(x->t, ring4h_paths);
	ck_assert_ptr_nonnull(x->e);
	compile_opts_init(&x->o);
	x->o.algo = compile_find_algo("greedy");
	x->o.nclasses = v->classes;
	if (v->nprios)
		x->o.nprios = v->nprios;
	x->o.compress = v->compress;
	if (v->cnp_dscp >= 0) {
		x->o.cnp_dscp = v->cnp_dscp;
		x->o.cnp_prio = 0;
	}
	ck_assert_int_eq(compile_run(x->t, x->e, &x->o, &x->r), 0);
}

static void run_free(struct run *x)
{
	compile_result_free(&x->r);
	elp_free(x->e);
	topo_free(x->t);
}

static char *blob_text(const struct rules *r, size_t *len)
{
	return rules_to_blob(r, len);
}

/* Every lookup a packet can make, the same answer and rule on both. */
static void same_lookups(const struct rules *a, const struct rules *b)
{
	int sw, in, out, tag, ra, rb;

	for (sw = 0; sw < a->nsw; sw++)
		for (tag = 0; tag < RULES_NTAGS; tag++)
			for (in = 0; in < a->sw[sw].nports; in++) {
				ck_assert_int_eq(
					rules_classify(a, sw, in, tag, &ra),
					rules_classify(b, sw, in, tag, &rb));
				ck_assert_int_eq(ra, rb);
				for (out = 0; out < a->sw[sw].nports; out++) {
					ck_assert_int_eq(
						rules_rewrite(a, sw, tag, in,
							      out, &ra),
						rules_rewrite(b, sw, tag, in,
							      out, &rb));
					ck_assert_int_eq(ra, rb);
				}
			}
}

START_TEST(same_rules_as_the_document)
{
	const struct variant *v = &variants[_i];
	struct run x;
	json_t *doc;
	struct rules *direct, *parsed;
	char *a, *b;
	size_t alen, blen;
	int rc = -2;

	run_variant(&x, v);
	doc = compile_rules_json(x.t, &x.r, &x.o);
	parsed = rules_from_json(doc, "compiled");
	ck_assert_ptr_nonnull(parsed);
	direct = compile_rules(x.t, &x.r, &x.o, "compiled");
	ck_assert_ptr_nonnull(direct);
	a = blob_text(direct, &alen);
	b = blob_text(parsed, &blen);
	ck_assert_uint_eq(alen, blen);
	ck_assert(!memcmp(a, b, alen));
	free(a);
	free(b);
	same_lookups(direct, parsed);

	a = CAPTURE(f, json_dumpf(doc, f, JSON_COMPACT));
	b = CAPTURE(f,
		    rc = compile_rules_write(f, x.t, &x.r, &x.o, direct, true));
	ck_assert_int_eq(rc, 0);
	ck_assert_str_eq(b, a);
	free(a);
	free(b);
	a = CAPTURE(f, json_dumpf(doc, f, JSON_INDENT(1)));
	b = CAPTURE(
		f, rc = compile_rules_write(f, x.t, &x.r, &x.o, direct, false));
	ck_assert_int_eq(rc, 0);
	ck_assert_str_eq(b, a);
	free(a);
	free(b);

	rules_free(direct);
	rules_free(parsed);
	json_decref(doc);
	run_free(&x);
}
END_TEST

/* The tagging's maps can go once the rules are out: same document. */
START_TEST(rules_outlive_the_tagging)
{
	struct run x;
	struct rules *direct;
	json_t *doc;
	char *a, *b;
	int rc = -2;

	run_variant(&x, &variants[1]);
	doc = compile_rules_json(x.t, &x.r, &x.o);
	direct = compile_rules(x.t, &x.r, &x.o, "compiled");
	ck_assert_ptr_nonnull(direct);
	compile_result_drop_tagging(&x.r);
	ck_assert_uint_eq(x.r.tg.rules.n, 0);
	a = CAPTURE(f, json_dumpf(doc, f, JSON_COMPACT));
	b = CAPTURE(f,
		    rc = compile_rules_write(f, x.t, &x.r, &x.o, direct, true));
	ck_assert_int_eq(rc, 0);
	ck_assert_str_eq(b, a);
	free(a);
	free(b);
	rules_free(direct);
	json_decref(doc);
	run_free(&x);
}
END_TEST

START_TEST(cnp_on_a_used_tag_is_refused)
{
	const struct variant v = { 1, 0, false, 48 };
	struct run x;
	struct rules *direct;
	const char *err;

	run_variant(&x, &v);
	x.o.cnp_dscp = x.o.dscp[0];
	capture_begin();
	direct = compile_rules(x.t, &x.r, &x.o, "--cnp-dscp/--cnp-priority");
	err = capture_end();
	ck_assert_ptr_null(direct);
	ck_assert_msg(strstr(err, "--cnp-dscp/--cnp-priority: cnp") != NULL,
		      "%s", err);
	run_free(&x);
}
END_TEST

Suite *rules_model_suite(void)
{
	Suite *s = suite_create("rules_model");
	TCase *tc = tcase_create("core");

	tcase_add_loop_test(tc, same_rules_as_the_document, 0,
			    (int)(sizeof(variants) / sizeof(variants[0])));
	tcase_add_test(tc, rules_outlive_the_tagging);
	tcase_add_test(tc, cnp_on_a_used_tag_is_refused);
	suite_add_tcase(s, tc);
	return s;
}
