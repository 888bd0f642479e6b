// SPDX-License-Identifier: GPL-2.0
/*
 * The union check of a small change (dp_union_delta.c) against the full
 * one (dp_union.c): on random networks and rules whose old set alone is
 * acyclic, changing a few rules, both must give the same verdict, and a
 * cycle the delta check reports must be a cycle. A fixed case where the
 * change closes a cycle three switches long fails if the delta search
 * misses it.
 */
#include <check.h>
#include <stdlib.h>

#include "dataplane/dp_union.h"
#include "lib/log.h"
#include "testlib.h"

#define NSW 5
#define NP 3 /* ports a switch */
#define NT 4 /* lossless tags 1..NT */

static const char *port(int p)
{
	static const char *const names[] = { "a", "b", "c" };

	return names[p];
}

static json_t *port_str(int p)
{
	return json_string(p == NP ? "*" : port(p));
}

static json_t *port_json(unsigned *seed, bool wild)
{
	return port_str(rand_r(seed) % (NP + (wild ? 1 : 0)));
}

/* A random rule document over a random 3-regular-ish multigraph. */
static json_t *random_doc(unsigned *seed)
{
	json_t *doc = json_pack("{s:s,s:{s:i,s:i},s:[],s:{},s:[]}", "format",
				"tagger-rules/1", "lossy", "tag", 0, "priority",
				0, "tags", "switches", "links");
	json_t *sws = json_object_get(doc, "switches");
	char a[32], b[32], name[8];
	int s, k, t, used[NSW][NP] = { { 0 } }, x, y, p, q;

	for (t = 1; t <= NT; t++)
		json_array_append_new(json_object_get(doc, "tags"),
				      json_pack("{s:i,s:i}", "tag", t,
						"priority", 1 + t % 3));
	for (s = 0; s < NSW; s++) {
		json_t *cl = json_array(), *rw = json_array();
		bool cu[NP + 1][NT + 1] = { { 0 } };
		bool wu[NT + 1][NP + 1][NP + 1] = { { { 0 } } };
		int i, o;

		/* Distinct keys: a rules document answers each once. */
		for (k = 0; k < 6; k++) {
			do {
				i = rand_r(seed) % (NP + 1);
				t = 1 + rand_r(seed) % NT;
			} while (cu[i][t]);
			cu[i][t] = true;
			json_array_append_new(
				cl, json_pack("{s:o,s:i,s:i}", "in",
					      port_str(i), "tag", t, "priority",
					      1 + rand_r(seed) % 3));
		}
		for (k = 0; k < 8; k++) {
			do {
				t = 1 + rand_r(seed) % NT;
				i = rand_r(seed) % (NP + 1);
				o = rand_r(seed) % (NP + 1);
			} while (wu[t][i][o]);
			wu[t][i][o] = true;
			json_array_append_new(
				rw,
				json_pack("{s:i,s:o,s:o,s:i}", "tag", t, "in",
					  port_str(i), "out", port_str(o),
					  "new_tag", rand_r(seed) % (NT + 1)));
		}
		snprintf(name, sizeof(name), "S%d", s);
		json_object_set_new(sws, name,
				    json_pack("{s:[s,s,s],s:o,s:o}", "ports",
					      "a", "b", "c", "classify", cl,
					      "rewrite", rw));
	}
	for (k = 0; k < NSW * NP; k++) {
		x = rand_r(seed) % NSW;
		y = rand_r(seed) % NSW;
		p = rand_r(seed) % NP;
		q = rand_r(seed) % NP;
		if (x == y || used[x][p] || used[y][q])
			continue;
		used[x][p] = used[y][q] = 1;
		snprintf(a, sizeof(a), "S%d:%s", x, port(p));
		snprintf(b, sizeof(b), "S%d:%s", y, port(q));
		json_array_append_new(json_object_get(doc, "links"),
				      json_pack("[s,s]", a, b));
	}
	return doc;
}

/* Change n rules in place (counts kept: the delta check applies). */
static void change_rules(json_t *doc, unsigned *seed, int n)
{
	json_t *sws = json_object_get(doc, "switches"), *sw, *r;
	char name[8];

	while (n--) {
		snprintf(name, sizeof(name), "S%d", rand_r(seed) % NSW);
		sw = json_object_get(sws, name);
		if (rand_r(seed) % 3 == 0) {
			r = json_array_get(json_object_get(sw, "classify"),
					   rand_r(seed) % 6);
			json_object_set_new(r, "priority",
					    json_integer(1 + rand_r(seed) % 3));
			json_object_set_new(r, "in", port_json(seed, true));
		} else {
			r = json_array_get(json_object_get(sw, "rewrite"),
					   rand_r(seed) % 8);
			json_object_set_new(
				r, "new_tag",
				json_integer(rand_r(seed) % (NT + 1)));
			json_object_set_new(r, "out", port_json(seed, true));
		}
	}
}

static void assert_is_cycle(const struct dp_union_result *res)
{
	int k;

	ck_assert_int_gt(res->len, 0);
	for (k = 0; k < res->len; k++)
		ck_assert_int_eq(res->cycle[k].to,
				 res->cycle[(k + 1) % res->len].from);
}

START_TEST(delta_and_full_checks_agree_on_random_changes)
{
	unsigned seed = 17;
	int trial, same = 0, cyclic = 0, full, delta;

	for (trial = 0; trial < 3000; trial++) {
		json_t *d0 = random_doc(&seed), *d1 = json_deep_copy(d0);
		struct rules *a = rules_from_json(d0, "old"), *b;
		struct dp_union_result r1, r2;
		struct dp_links l;

		change_rules(d1, &seed, 1 + rand_r(&seed) % 3);
		log_quiet = true;
		b = rules_from_json(d1, "new");
		log_quiet = false;
		ck_assert_ptr_nonnull(a);
		if (!b) { /* a changed port made two rules of one key */
			rules_free(a);
			json_decref(d0);
			json_decref(d1);
			continue;
		}
		ck_assert_int_eq(dp_links_from_json(d0, "t", &l), 1);
		/* The precondition: the old rules alone are acyclic. */
		if (dp_union_check(a, a, &l, &r1)) {
			dp_union_free(&r1);
			full = dp_union_check(a, b, &l, &r1);
			delta = dp_union_check_delta(a, b, &l, &r2);
			ck_assert_msg(delta == full,
				      "trial %d: full check %d, delta check %d",
				      trial, full, delta);
			if (!delta)
				assert_is_cycle(&r2);
			same++;
			cyclic += !full;
			dp_union_free(&r2);
		}
		dp_union_free(&r1);
		dp_links_free(&l);
		rules_free(a);
		rules_free(b);
		json_decref(d0);
		json_decref(d1);
	}
	/* Both verdicts occur often enough to mean something. */
	ck_assert_int_gt(same, 300);
	ck_assert_int_gt(cyclic, 30);
	ck_assert_int_gt(same - cyclic, 30);
}
END_TEST

#define HEAD                                                                   \
	"{\"format\":\"tagger-rules/1\",\"lossy\":{\"tag\":0,\"priority\":0}," \
	"\"tags\":[{\"tag\":5,\"priority\":1}],"                               \
	"\"links\":[[\"A:b\",\"B:a\"],[\"B:c\",\"C:b\"],[\"C:a\",\"A:c\"]],"
#define SW(n, x, y, cl, rw)                                            \
	"\"" n "\":{\"ports\":[\"" x "\",\"" y "\"],\"classify\":[" cl \
	"],\"rewrite\":[" rw "]}"
#define CL(in) "{\"in\":\"" in "\",\"tag\":5,\"priority\":1}"
#define RW(in, out, nt) \
	"{\"tag\":5,\"in\":\"" in "\",\"out\":\"" out "\",\"new_tag\":" nt "}"

/* A -> B -> C; the change at C sends tag 5 back to A: a cycle of three. */
START_TEST(delta_finds_the_cycle_a_change_closes)
{
	const char *old_json = HEAD "\"switches\":{" SW(
		"A", "b", "c", CL("c"),
		RW("c", "b",
		   "5")) "," SW("B", "a", "c", CL("a"),
				RW("a", "c",
				   "5")) "," SW("C", "a", "b", CL("b"),
						RW("b", "a", "0")) "}}";
	const char *new_json = HEAD "\"switches\":{" SW(
		"A", "b", "c", CL("c"),
		RW("c", "b",
		   "5")) "," SW("B", "a", "c", CL("a"),
				RW("a", "c",
				   "5")) "," SW("C", "a", "b", CL("b"),
						RW("b", "a", "5")) "}}";
	json_t *d1, *d2;
	struct rules *a = rules_from_str(old_json, &d1),
		     *b = rules_from_str(new_json, &d2);
	struct dp_union_result res;
	struct dp_links l;

	ck_assert_int_eq(dp_links_from_json(d1, "t", &l), 1);
	ck_assert_int_eq(dp_union_check(a, a, &l, &res), 1);
	dp_union_free(&res);
	ck_assert_int_eq(dp_union_check_delta(a, b, &l, &res), 0);
	ck_assert_int_eq(res.len, 3);
	assert_is_cycle(&res);
	ck_assert_str_eq(res.port_names[res.cycle[0].from / 8], "A:c");
	dp_union_free(&res);
	/* Unchanged rules: nothing to search, acyclic. */
	ck_assert_int_eq(dp_union_check_delta(a, a, &l, &res), 1);
	ck_assert_int_eq(res.deps, 0);
	dp_union_free(&res);
	dp_links_free(&l);
	rules_free(a);
	rules_free(b);
	json_decref(d1);
	json_decref(d2);
}
END_TEST

/* Other switches, or more rules than a small change: the full check. */
START_TEST(big_or_other_changes_are_left_to_the_full_check)
{
	unsigned seed = 5;
	json_t *d0 = random_doc(&seed), *d1 = json_deep_copy(d0);
	json_t *d2 = json_deep_copy(d0);
	struct rules *a = rules_from_json(d0, "old"), *b, *c;
	struct dp_union_result res;
	struct dp_links l;

	json_array_remove(
		json_object_get(
			json_object_get(json_object_get(d1, "switches"), "S0"),
			"classify"),
		0);
	json_object_del(json_object_get(d2, "switches"), "S4");
	b = rules_from_json(d1, "new");
	c = rules_from_json(d2, "new");
	ck_assert_int_eq(dp_links_from_json(d0, "t", &l), 1);
	ck_assert_int_eq(dp_union_check_delta(a, b, &l, &res), -1);
	ck_assert_int_eq(dp_union_check_delta(a, c, &l, &res), -1);
	dp_links_free(&l);
	rules_free(a);
	rules_free(b);
	rules_free(c);
	json_decref(d0);
	json_decref(d1);
	json_decref(d2);
}
END_TEST

Suite *dp_union_delta_suite(void)
{
	Suite *s = suite_create("dp_union_delta");
	TCase *tc = tcase_create("delta");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, delta_and_full_checks_agree_on_random_changes);
	tcase_add_test(tc, delta_finds_the_cycle_a_change_closes);
	tcase_add_test(tc, big_or_other_changes_are_left_to_the_full_check);
	suite_add_tcase(s, tc);
	return s;
}
