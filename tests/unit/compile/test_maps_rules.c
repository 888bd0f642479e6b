// SPDX-License-Identifier: GPL-2.0
/*
 * Maps as rules, and the maps reader: compiled rules (a Clos with
 * bounces, plain and compressed; a ring with two classes) go to maps, to
 * the maps document, back through the reader (the same maps) and to the
 * rules of the maps, which answer every (in-port, DSCP, out-port) as the
 * compiled rules do and verify deadlock-free with every ELP path
 * lossless; hand-written maps keep their coarser behaviour (every DSCP of
 * a class leaves with the class's DSCP); the reader refuses each kind of
 * bad document at its JSON path; too many classes are refused.
 */
#include <check.h>

#include "analyze/maps_verify.h"
#include "analyze/verify.h"
#include "compile/compile.h"
#include "compile/maps_rules.h"
#include "compile/rules_maps.h"
#include "lib/log.h"
#include "testlib.h"

static const char *clos_bounce_paths =
	"h1 T1 L1 S1 L2 T2 h2\nh2 T2 L2 S2 L1 T1 h1\n"
	"h1 T1 L1 S1 L3 T3 h3\nh3 T3 L3 S1 L1 T1 h1\n"
	"h1 T1 L1 S1 L2 S2 L1 T2 h2\n" /* a bounce at L2 */
	"h3 T3 L4 S2 L3 S1 L4 T4 h4\n" /* a bounce at L3 */
	"h2 T2 L2 S1 L4 T4 h4\nh4 T4 L3 S2 L2 T2 h2\n";
static const char *ring4 =
	"switch A\nswitch B\nswitch C\nswitch D\n"
	"host a\nhost c\nlink a:0 A:0\nlink c:0 C:0\n"
	"link A:1 B:1\nlink B:2 C:1\nlink C:2 D:1\nlink D:2 A:2\n";
static const char *ring4_paths = "a A B C c\na A D C c\nc C B A a\nc C D A a\n";

/* What rules do with (in, dscp) out of out, as the data plane does. */
static void fate(const struct rules *r, int sw, int in, int d, int out,
		 int *prio, int *nt)
{
	int p = rules_classify(r, sw, in, d, NULL), t;

	if (p < 0 || p == r->lossy_prio) {
		*prio = r->lossy_prio;
		*nt = r->lossy_tag;
		return;
	}
	*prio = p;
	t = rules_rewrite(r, sw, d, in, out, NULL);
	*nt = t >= 0 ? t : r->lossy_tag;
}

static void assert_same_fates(const struct rules *a, const struct rules *b)
{
	int s, in, d, out, pa, pb, ta, tb;

	ck_assert_int_eq(a->nsw, b->nsw);
	for (s = 0; s < a->nsw; s++) {
		ck_assert_str_eq(a->sw[s].name, b->sw[s].name);
		ck_assert_int_eq(a->sw[s].nports, b->sw[s].nports);
		for (in = 0; in < a->sw[s].nports; in++)
			for (d = 0; d < RULES_NTAGS; d++)
				for (out = 0; out < a->sw[s].nports; out++) {
					fate(a, s, in, d, out, &pa, &ta);
					fate(b, s, in, d, out, &pb, &tb);
					ck_assert_msg(
						pa == pb && ta == tb,
						"%s (%d, %d) -> %d: prio %d/%d, tag %d/%d",
						a->sw[s].name, in, d, out, pa,
						pb, ta, tb);
				}
	}
}

static void assert_same_maps(const struct maps *a, const struct maps *b)
{
	int s, c;

	ck_assert_int_eq(a->nsw, b->nsw);
	for (s = 0; s < a->nsw; s++) {
		const struct maps_switch *x = &a->sw[s], *y = &b->sw[s];
		size_t pairs = (size_t)x->nports * RULES_NTAGS;

		ck_assert_int_eq(x->nclasses, y->nclasses);
		ck_assert_int_eq(x->nports, y->nports);
		ck_assert_uint_eq(x->prio_mask, y->prio_mask);
		ck_assert_mem_eq(x->cls, y->cls, pairs * sizeof(*x->cls));
		ck_assert_mem_eq(x->rw, y->rw, (size_t)x->nclasses * x->nports);
		ck_assert_mem_eq(x->prio, y->prio, x->nclasses);
		for (c = 0; c < x->nclasses; c++)
			ck_assert_uint_eq(x->rep[c], y->rep[c]);
	}
}

/* The rules a document holds. */
static long rules_in(const json_t *doc)
{
	const char *name;
	json_t *v;
	long n = 0;

	json_object_foreach(json_object_get(doc, "switches"), name, v)
		n += (long)(json_array_size(json_object_get(v, "classify")) +
			    json_array_size(json_object_get(v, "rewrite")));
	return n;
}

/* Compiled rules -> maps -> document -> maps -> rules, all the same. */
static void round_trip(const char *topo, const char *paths, const char *algo,
		       bool compress, int nclasses)
{
	struct topo *t = topo_from_str(topo);
	struct elp *e = elp_from_str(t, paths);
	struct verify_opts vo = { .threads = 1 };
	struct compile_result res;
	struct verify_result vr;
	struct compile_opts o;
	struct rules *r, *back, *run;
	struct maps m, m2;
	json_t *doc, *mdoc, *rdoc, *rep;

	ck_assert_ptr_nonnull(e);
	compile_opts_init(&o);
	o.algo = compile_find_algo(algo);
	o.compress = compress;
	o.nclasses = nclasses;
	ck_assert_int_eq(compile_run(t, e, &o, &res), 0);
	doc = compile_rules_json(t, &res, &o);
	r = rules_from_json(doc, "compiled");
	ck_assert_ptr_nonnull(r);
	ck_assert_int_eq(maps_build(r, MAPS_MAX_CLASSES, RULES_NPRIOS, &m), 0);

	mdoc = maps_json(&m, "compiled");
	back = maps_from_json(mdoc, "maps", &m2);
	ck_assert_ptr_nonnull(back);
	maps_set_limits(&m2, MAPS_MAX_CLASSES, RULES_NPRIOS);
	assert_same_maps(&m, &m2);
	ck_assert_int_eq(back->nhosts, r->nhosts);
	ck_assert_int_eq(back->nclasses, r->nclasses);

	rdoc = maps_rules_json(&m2, json_object_get(doc, "links"));
	run = rules_from_json(rdoc, "run");
	ck_assert_ptr_nonnull(run);
	assert_same_fates(r, run);
	ck_assert_int_eq(maps_rules_count(&m2), rules_in(rdoc));

	/* the check, on the rules of the maps, with the links */
	m2.r = run;
	rep = maps_verify(&m2, json_object_get(doc, "links"), 10);
	ck_assert_msg(json_is_true(json_object_get(rep, "ok")), "%s",
		      json_dumps(rep, 0));
	json_decref(rep);

	/* the verifier: what a switch with the maps does is deadlock-free */
	ck_assert_int_eq(verify_rules(t, e, run, &vo, &vr), EXIT_OK);
	ck_assert(vr.deadlock_free && vr.monotonic);
	ck_assert_int_eq(vr.lossless_paths, e->npaths);
	verify_result_free(&vr);

	rules_free(run);
	json_decref(rdoc);
	maps_free(&m2);
	rules_free(back);
	json_decref(mdoc);
	maps_free(&m);
	rules_free(r);
	json_decref(doc);
	compile_result_free(&res);
	elp_free(e);
	topo_free(t);
}

START_TEST(clos_bounce_rules_run_as_their_maps)
{
	round_trip(SEED_CLOS_TOPO, clos_bounce_paths, "clos", false, 1);
	round_trip(SEED_CLOS_TOPO, clos_bounce_paths, "best", true, 1);
}
END_TEST

START_TEST(ring_with_two_classes_runs_as_its_maps)
{
	round_trip(ring4, ring4_paths, "greedy", false, 2);
}
END_TEST

/* A switch A with a coarse class 1 (two DSCPs) and a class 2. */
static const char *base =
	"{\"format\": \"tagger-maps/1\", \"rules\": \"r.json\", \"max_classes\": 8,\n"
	" \"lossy\": {\"tag\": 0, \"priority\": 0},\n"
	" \"tags\": [{\"tag\": 1, \"priority\": 1}, {\"tag\": 2, \"priority\": 2}],\n"
	" \"hosts\": {\"h1\": {\"tag\": 1}},\n"
	" \"switches\": {\"A\": {\"ports\": [\"p1\", \"p2\", \"p3\"],\n"
	"  \"classes\": [{\"class\": 0, \"priority\": 0}, {\"class\": 1, \"priority\": 1},"
	" {\"class\": 2, \"priority\": 2}],\n"
	"  \"classify\": [{\"in\": \"p1\", \"tag\": 1, \"class\": 1},"
	" {\"in\": \"p2\", \"tag\": 1, \"class\": 1}, {\"in\": \"p3\", \"tag\": 2, \"class\": 2},"
	" {\"in\": \"p3\", \"tag\": 1, \"class\": 2}],\n"
	"  \"rewrite\": [{\"class\": 1, \"out\": \"p3\", \"new_tag\": 2},"
	" {\"class\": 1, \"out\": \"p2\", \"new_tag\": 1}, {\"class\": 2, \"out\": \"p1\", \"new_tag\": 2}]}}}";

/* base with the first from replaced by to, parsed. */
static json_t *edited(const char *from, const char *to)
{
	const char *at = from ? strstr(base, from) : NULL;
	char buf[4096];
	json_error_t e;
	json_t *doc;

	ck_assert_msg(!from || at, "base lacks %s", from);
	if (from)
		snprintf(buf, sizeof(buf), "%.*s%s%s", (int)(at - base), base,
			 to, at + strlen(from));
	else
		snprintf(buf, sizeof(buf), "%s", base);
	doc = json_loads(buf, JSON_REJECT_DUPLICATES, &e);
	ck_assert_msg(doc, "%s", e.text);
	return doc;
}

START_TEST(coarse_maps_run_with_the_class_dscp)
{
	json_t *doc = edited(NULL, NULL), *rdoc;
	struct rules *skel, *run;
	struct maps m;
	int p, t;

	skel = maps_from_json(doc, "m.json", &m);
	ck_assert_ptr_nonnull(skel);
	ck_assert_int_eq(m.refused, 0);
	ck_assert_int_eq(m.max_classes, 8);
	ck_assert_int_eq(m.sw[0].nclasses, 3);
	ck_assert_int_eq(m.sw[0].nprios, 2);
	ck_assert_int_eq(skel->nhosts, 1);
	rdoc = maps_rules_json(&m, NULL);
	run = rules_from_json(rdoc, "run");
	ck_assert_ptr_nonnull(run);
	ck_assert_int_eq(run->nhosts, 1);
	ck_assert_int_eq(run->hosts[0].tag, 1);
	/* class 1: DSCP 1 from p1 and p2 leaves p3 with 2, p2 with 1 */
	fate(run, 0, 0, 1, 2, &p, &t);
	ck_assert(p == 1 && t == 2);
	fate(run, 0, 1, 1, 2, &p, &t);
	ck_assert(p == 1 && t == 2);
	fate(run, 0, 1, 1, 1, &p, &t);
	ck_assert(p == 1 && t == 1);
	/* ... and lossy where the class has no DSCP */
	fate(run, 0, 0, 1, 0, &p, &t);
	ck_assert(p == 1 && t == 0);
	/* class 2 holds DSCPs 2 and 1 from p3: both leave p1 with 2 */
	fate(run, 0, 2, 1, 0, &p, &t);
	ck_assert(p == 2 && t == 2);
	fate(run, 0, 2, 2, 0, &p, &t);
	ck_assert(p == 2 && t == 2);
	/* a pair in no class is lossy */
	fate(run, 0, 0, 2, 2, &p, &t);
	ck_assert(p == 0 && t == 0);
	/* 4 pairs; class 1's two leave two ports lossless, class 2's one */
	ck_assert_int_eq(maps_rules_count(&m), 4 + 2 * 2 + 2 * 1);
	/* two classes allowed: refused, the witness three pairs */
	ck_assert_int_eq(maps_set_limits(&m, 2, RULES_NPRIOS), 1);
	ck_assert(m.sw[0].refused);
	ck_assert_int_eq(maps_set_limits(&m, 3, 1), 1);
	ck_assert_int_eq(maps_set_limits(&m, 3, 2), 0);
	rules_free(run);
	json_decref(rdoc);
	maps_free(&m);
	rules_free(skel);
	json_decref(doc);
}
END_TEST

static const struct {
	const char *from, *to, *msg;
} bad[] = {
	{ "tagger-maps/1", "tagger-rules/1",
	  "m.json: format: must be \"tagger-maps/1\"" },
	{ "\"rules\": \"r.json\"", "\"rules\": 3",
	  "m.json: rules: expected a string, found an integer" },
	{ "\"max_classes\": 8", "\"max_classes\": 17",
	  "m.json: max_classes: 17 is not a number of classes (1..16)" },
	{ "{\"tag\": 2, \"priority\": 2}", "{\"tag\": 1, \"priority\": 2}",
	  "m.json: tags[1]: tag 1 is listed twice" },
	{ "\"ports\": [\"p1\", \"p2\", \"p3\"],", "",
	  "m.json: switches.A.ports: missing" },
	{ "\"p3\"],", "\"p3\", \"p3\"],",
	  "m.json: switches.A.ports[3]: port \"p3\" is listed twice" },
	{ "\"rewrite\": [", "\"rewrites\": [",
	  "m.json: switches.A: unknown key \"rewrites\"" },
	{ "{\"class\": 0, \"priority\": 0}, ", "",
	  "m.json: switches.A.classes[1].class: 2 is not a class of this "
	  "switch's \"classes\" (0..1)" },
	{ "{\"class\": 0, \"priority\": 0}", "{\"class\": 0, \"priority\": 3}",
	  "m.json: switches.A.classes[0]: class 0 is the lossy class: its "
	  "priority is the lossy priority 0, not 3" },
	{ "{\"class\": 2, \"priority\": 2}", "{\"class\": 1, \"priority\": 2}",
	  "m.json: switches.A.classes[2]: class 1 is listed twice" },
	{ "\"classes\": [", "\"classes\": [], \"x\": [",
	  "m.json: switches.A: unknown key \"x\"" },
	{ "{\"in\": \"p1\", \"tag\": 1, \"class\": 1}",
	  "{\"in\": \"*\", \"tag\": 1, \"class\": 1}",
	  "m.json: switches.A.classify[0].in: port \"*\" is not in "
	  "switches.A.ports" },
	{ "{\"in\": \"p2\", \"tag\": 1, \"class\": 1}",
	  "{\"in\": \"p1\", \"tag\": 1, \"class\": 2}",
	  "m.json: switches.A.classify[1]: in p1 tag 1 is already answered "
	  "by classify[0]" },
	{ "{\"in\": \"p1\", \"tag\": 1, \"class\": 1}",
	  "{\"in\": \"p1\", \"tag\": 0, \"class\": 1}",
	  "m.json: switches.A.classify[0]: the lossy tag 0 must stay in the "
	  "lossy priority 0, not class 1's 1" },
	{ "{\"in\": \"p1\", \"tag\": 1, \"class\": 1}",
	  "{\"in\": \"p1\", \"tag\": 5, \"class\": 1}",
	  "m.json: switches.A.classify[0]: tag 5 is neither in \"tags\" nor "
	  "the lossy tag" },
	{ "{\"in\": \"p1\", \"tag\": 1, \"class\": 1}",
	  "{\"in\": \"p1\", \"tag\": 64, \"class\": 1}",
	  "m.json: switches.A.classify[0].tag: 64 is not a DSCP codepoint" },
	{ "{\"in\": \"p1\", \"tag\": 1, \"class\": 1}",
	  "{\"in\": \"p1\", \"tag\": 1, \"class\": 7}",
	  "m.json: switches.A.classify[0].class: 7 is not a class" },
	{ "\"new_tag\": 2}, {\"class\": 1, \"out\": \"p2\"",
	  "\"new_tag\": 9}, {\"class\": 1, \"out\": \"p2\"",
	  "m.json: switches.A.rewrite[0].new_tag: tag 9 is neither in \"tags\" "
	  "nor the lossy tag" },
	{ "{\"class\": 2, \"out\": \"p1\", \"new_tag\": 2}",
	  "{\"class\": 0, \"out\": \"p1\", \"new_tag\": 2}",
	  "m.json: switches.A.rewrite[2].new_tag: class 0 has the lossy "
	  "priority 0: it leaves with the lossy tag, not 2" },
	{ "{\"class\": 2, \"out\": \"p1\", \"new_tag\": 2}",
	  "{\"class\": 2, \"out\": \"p1\", \"new_tag\": 1}",
	  "m.json: switches.A.rewrite[2].new_tag: tag 1 ranks below tag 2, "
	  "which classify[2] puts in class 2 (tags only grow)" },
	{ "{\"class\": 1, \"out\": \"p2\", \"new_tag\": 1}",
	  "{\"class\": 1, \"out\": \"p3\", \"new_tag\": 2}",
	  "m.json: switches.A.rewrite[1]: class 1 out p3 is already answered "
	  "by rewrite[0]" },
	{ "{\"class\": 1, \"out\": \"p2\", \"new_tag\": 1}",
	  "{\"class\": 1, \"out\": \"p9\", \"new_tag\": 1}",
	  "m.json: switches.A.rewrite[1].out: port \"p9\" is not in "
	  "switches.A.ports" },
	{ "\"switches\": {\"A\": {", "\"switches\": {\"A\": 3, \"B\": {",
	  "m.json: switches.A: expected an object, found an integer" },
};

START_TEST(bad_maps_are_refused_at_their_path)
{
	json_t *doc = edited(bad[_i].from, bad[_i].to);
	struct rules *r;
	struct maps m;
	const char *err;

	capture_begin();
	r = maps_from_json(doc, "m.json", &m);
	err = capture_end();
	ck_assert_msg(!r, "accepted: %s -> %s", bad[_i].from, bad[_i].to);
	ck_assert_msg(strstr(err, bad[_i].msg), "got \"%s\", want \"%s\"", err,
		      bad[_i].msg);
	maps_free(&m);
	json_decref(doc);
}
END_TEST

Suite *maps_rules_suite(void)
{
	Suite *s = suite_create("maps_rules");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, clos_bounce_rules_run_as_their_maps);
	tcase_add_test(tc, ring_with_two_classes_runs_as_its_maps);
	tcase_add_test(tc, coarse_maps_run_with_the_class_dscp);
	tcase_add_loop_test(tc, bad_maps_are_refused_at_their_path, 0,
			    sizeof(bad) / sizeof(bad[0]));
	suite_add_tcase(s, tc);
	return s;
}
