// SPDX-License-Identifier: GPL-2.0
/*
 * Rules -> per-port maps: the maps reproduce every rule on compiled rules
 * (a Clos with bounces, compressed, a ring) and on random rules with
 * wildcards; the class count is the minimum, proved on small random
 * switches by a brute-force search over all class assignments; refusals
 * name a witness; the SONiC export's structure against the patterns of
 * SONiC's YANG models.
 */
#include <check.h>
#include <regex.h>

#include "analyze/maps_verify.h"
#include "compile/compile.h"
#include "compile/maps_sonic.h"
#include "compile/rules_maps.h"
#include "lib/rng.h"
#include "testlib.h"

static const char *clos_bounce_paths =
	"h1 T1 L1 S1 L2 T2 h2\nh2 T2 L2 S2 L1 T1 h1\n"
	"h1 T1 L1 S1 L3 T3 h3\nh3 T3 L3 S1 L1 T1 h1\n"
	"h1 T1 L1 S1 L2 S2 L1 T2 h2\n" /* a bounce at L2 */
	"h3 T3 L4 S2 L3 S1 L4 T4 h4\n" /* a bounce at L3 */
	"h2 T2 L2 S1 L4 T4 h4\nh4 T4 L3 S2 L2 T2 h2\n";
static const char *ring4 =
	"switch A\nswitch B\nswitch C\nswitch D\n"
	"link A:1 B:1\nlink B:2 C:1\nlink C:2 D:1\nlink D:2 A:2\n";
static const char *ring4_ecmp =
	"A B\nA B C\nA D C\nA D\nB C\nB C D\nB A D\nB A\n"
	"C D\nC D A\nC B A\nC B\nD A\nD A B\nD C B\nD C\n";

/* What the rules do with (in, dscp) at out, as the data plane does. */
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

/* The maps give every triple the rules' answer. */
static void assert_reproduces(const struct rules *r, const struct maps *m)
{
	int s, in, d, out, prio, nt, c;

	for (s = 0; s < r->nsw; s++) {
		const struct maps_switch *ms = maps_find(m, s);

		if (ms->refused)
			continue;
		for (in = 0; in < ms->nports; in++)
			for (d = 0; d < RULES_NTAGS; d++)
				for (out = 0; out < ms->nports; out++) {
					fate(r, s, in, d, out, &prio, &nt);
					c = maps_class(ms, in, d);
					ck_assert_int_eq(ms->prio[c], prio);
					ck_assert_int_eq(
						maps_new_tag(ms, c, out), nt);
				}
	}
}

/* Distinct behaviours of (in, dscp) pairs, counted the slow way. */
static int count_behaviours(const struct rules *r, int s)
{
	int n = r->sw[s].nports, w = n + 1, cnt = 0, in, d, out, i, prio, nt;
	int *all = xmalloc(sizeof(int) * w * (n * RULES_NTAGS + 1));
	int *v = xmalloc(sizeof(int) * w);

	/* the lossy behaviour is always a class */
	all[0] = r->lossy_prio;
	for (out = 0; out < n; out++)
		all[1 + out] = r->lossy_tag;
	cnt = 1;
	for (in = 0; in < n; in++)
		for (d = 0; d < RULES_NTAGS; d++) {
			for (out = 0; out < n; out++) {
				fate(r, s, in, d, out, &prio, &nt);
				v[0] = prio;
				v[1 + out] = nt;
			}
			if (!n)
				v[0] = r->lossy_prio;
			for (i = 0; i < cnt; i++)
				if (!memcmp(all + i * w, v, sizeof(int) * w))
					break;
			if (i == cnt)
				memcpy(all + cnt++ * w, v, sizeof(int) * w);
		}
	free(all);
	free(v);
	return cnt;
}

static void check_rules(struct rules *r, json_t *links, int expect_max)
{
	struct maps m;
	json_t *rep;
	int s, maxc = 0;

	ck_assert_int_eq(maps_build(r, MAPS_MAX_CLASSES, RULES_NPRIOS, &m), 0);
	assert_reproduces(r, &m);
	for (s = 0; s < r->nsw; s++) {
		ck_assert_int_eq(m.sw[s].nclasses, count_behaviours(r, s));
		if (m.sw[s].nclasses > maxc)
			maxc = m.sw[s].nclasses;
	}
	if (expect_max)
		ck_assert_int_eq(maxc, expect_max);
	rep = maps_verify(&m, links, 10);
	ck_assert_ptr_nonnull(rep);
	ck_assert_msg(json_is_true(json_object_get(rep, "ok")), "%s",
		      json_dumps(rep, 0));
	if (links)
		ck_assert(json_is_true(json_object_get(
			json_object_get(rep, "cbd"), "acyclic")));
	json_decref(rep);
	maps_free(&m);
}

static void compiled(const char *topo, const char *paths, const char *algo,
		     bool compress, int expect_max)
{
	struct topo *t = topo_from_str(topo);
	struct elp *e = elp_from_str(t, paths);
	struct compile_opts o;
	struct compile_result res;
	struct rules *r;
	json_t *doc;

	ck_assert_ptr_nonnull(e);
	compile_opts_init(&o);
	o.algo = compile_find_algo(algo);
	o.compress = compress;
	ck_assert_int_eq(compile_run(t, e, &o, &res), 0);
	doc = compile_rules_json(t, &res, &o);
	r = rules_from_json(doc, "compiled");
	ck_assert_ptr_nonnull(r);
	ck_assert_ptr_nonnull(json_object_get(doc, "links"));
	check_rules(r, json_object_get(doc, "links"), expect_max);
	rules_free(r);
	json_decref(doc);
	compile_result_free(&res);
	elp_free(e);
	topo_free(t);
}

START_TEST(clos_bounce_maps_reproduce_the_rules)
{
	compiled(SEED_CLOS_TOPO, clos_bounce_paths, "clos", false, 0);
	compiled(SEED_CLOS_TOPO, clos_bounce_paths, "best", false, 0);
}
END_TEST

START_TEST(compressed_rules_give_the_same_maps)
{
	compiled(SEED_CLOS_TOPO, clos_bounce_paths, "clos", true, 0);
}
END_TEST

START_TEST(ring_maps_reproduce_the_rules)
{
	compiled(ring4, ring4_ecmp, "best", false, 0);
}
END_TEST

/* A random switch: nports ports, ntags lossless tags 1.., lossy tag 0. */
static char *random_rules(struct rng *g, int nports, int ntags)
{
	char *buf = xmalloc(1 << 16);
	size_t n = 0;
	int t, in, out, first;

#define OUT(...) (n += snprintf(buf + n, (1 << 16) - n, __VA_ARGS__))
	OUT("{\"format\":\"tagger-rules/1\",\"lossy\":{\"tag\":0,\"priority\":0},\"tags\":[");
	for (t = 1; t <= ntags; t++)
		OUT("%s{\"tag\":%d,\"priority\":%d}", t > 1 ? "," : "", t,
		    1 + (int)rng_below(g, 3));
	OUT("],\"switches\":{\"S\":{\"ports\":[");
	for (in = 0; in < nports; in++)
		OUT("%s\"p%d\"", in ? "," : "", in);
	OUT("],\"classify\":[");
	first = 1;
	if (rng_below(g, 2)) {
		OUT("{\"in\":\"*\",\"tag\":1,\"priority\":%d}",
		    1 + (int)rng_below(g, 3));
		first = 0;
	}
	for (in = 0; in < nports; in++)
		for (t = 1; t <= ntags; t++)
			if (rng_below(g, 4)) {
				OUT("%s{\"in\":\"p%d\",\"tag\":%d,\"priority\":%d}",
				    first ? "" : ",", in, t,
				    rng_below(g, 6) ? 1 + (int)rng_below(g, 3) :
						      0);
				first = 0;
			}
	OUT("],\"rewrite\":[");
	first = 1;
	for (t = 1; t <= ntags; t++) {
		if (rng_below(g, 3) == 0) {
			OUT("%s{\"tag\":%d,\"in\":\"*\",\"out\":\"*\",\"new_tag\":%d}",
			    first ? "" : ",", t, t);
			first = 0;
		}
		for (in = 0; in < nports; in++)
			for (out = 0; out < nports; out++) {
				int nt;

				if (rng_below(g, 3) == 0)
					continue;
				nt = t + (int)rng_below(g, ntags - t + 2);
				if (nt > ntags)
					nt = 0; /* the lossy tag */
				OUT("%s{\"tag\":%d,\"in\":\"p%d\",\"out\":\"p%d\",\"new_tag\":%d}",
				    first ? "" : ",", t, in, out, nt);
				first = 0;
			}
	}
	OUT("]}}}");
#undef OUT
	return buf;
}

START_TEST(random_rules_maps_reproduce_the_rules)
{
	struct rng g;
	int i;

	rng_seed(&g, 32);
	for (i = 0; i < 200; i++) {
		char *s = random_rules(&g, 1 + (int)rng_below(&g, 4),
				       1 + (int)rng_below(&g, 4));
		json_t *doc;
		struct rules *r = rules_from_str(s, &doc);

		check_rules(r, NULL, 0);
		rules_free(r);
		json_decref(doc);
		free(s);
	}
}
END_TEST

/*
 * Brute force: is there an assignment of the pairs to k classes with a
 * priority and a rewrite per class? Pairs are (in, dscp) with dscp among
 * 0..ntags + 1 (tag ntags + 1 stands for every DSCP outside "tags").
 */
struct bf {
	const struct rules *r;
	int n, npairs, k;
	int *pair_in, *pair_d;
	int *cls; /* per pair */
	int prio[16], rw[16][8]; /* per class; -2: unset */
};

static bool bf_place(struct bf *b, int p, int used)
{
	int c, out, prio, nt, saved_prio, saved_rw[8];

	if (p == b->npairs)
		return true;
	for (c = 0; c < b->k && c <= used; c++) {
		bool ok = true;

		saved_prio = b->prio[c];
		memcpy(saved_rw, b->rw[c], sizeof(saved_rw));
		for (out = 0; out < b->n && ok; out++) {
			fate(b->r, 0, b->pair_in[p], b->pair_d[p], out, &prio,
			     &nt);
			if (b->prio[c] == -2)
				b->prio[c] = prio;
			if (b->prio[c] != prio)
				ok = false;
			if (b->rw[c][out] == -2)
				b->rw[c][out] = nt;
			if (b->rw[c][out] != nt)
				ok = false;
		}
		if (ok && bf_place(b, p + 1, c == used ? used + 1 : used))
			return true;
		b->prio[c] = saved_prio;
		memcpy(b->rw[c], saved_rw, sizeof(saved_rw));
	}
	return false;
}

static int brute_min_classes(const struct rules *r, int ntags)
{
	struct bf b = { .r = r, .n = r->sw[0].nports };
	int in, d, c, out;

	b.pair_in = xmalloc(sizeof(int) * b.n * (ntags + 2));
	b.pair_d = xmalloc(sizeof(int) * b.n * (ntags + 2));
	for (in = 0; in < b.n; in++)
		for (d = 0; d <= ntags + 1; d++) {
			b.pair_in[b.npairs] = in;
			b.pair_d[b.npairs++] = d;
		}
	for (b.k = 1; b.k <= 16; b.k++) {
		for (c = 0; c < 16; c++) {
			b.prio[c] = -2;
			for (out = 0; out < 8; out++)
				b.rw[c][out] = -2;
		}
		if (bf_place(&b, 0, 0))
			break;
	}
	free(b.pair_in);
	free(b.pair_d);
	return b.k;
}

START_TEST(class_count_is_the_brute_force_minimum)
{
	struct rng g;
	int i, nt;

	rng_seed(&g, 7);
	for (i = 0; i < 60; i++) {
		struct maps m;
		json_t *doc;
		struct rules *r;
		char *s;

		nt = 1 + (int)rng_below(&g, 3);
		s = random_rules(&g, 1 + (int)rng_below(&g, 3), nt);
		r = rules_from_str(s, &doc);
		maps_build(r, MAPS_MAX_CLASSES, RULES_NPRIOS, &m);
		ck_assert_int_eq(m.sw[0].nclasses, brute_min_classes(r, nt));
		maps_free(&m);
		rules_free(r);
		json_decref(doc);
		free(s);
	}
}
END_TEST

/* Two pairs behave alike: the same priority and new tag at every out. */
static bool alike(const struct rules *r, int a, int b)
{
	int out, p1, p2, t1, t2;

	for (out = 0; out < r->sw[0].nports; out++) {
		fate(r, 0, a / RULES_NTAGS, a % RULES_NTAGS, out, &p1, &t1);
		fate(r, 0, b / RULES_NTAGS, b % RULES_NTAGS, out, &p2, &t2);
		if (p1 != p2 || t1 != t2)
			return false;
	}
	return true;
}

START_TEST(too_many_classes_are_refused_with_a_witness)
{
	struct rng g;
	int i, j, k, w;

	rng_seed(&g, 11);
	for (i = 0; i < 100; i++) {
		struct maps m, full;
		json_t *doc, *ref, *wit;
		struct rules *r;
		char *s = random_rules(&g, 2 + (int)rng_below(&g, 3), 3);

		r = rules_from_str(s, &doc);
		maps_build(r, MAPS_MAX_CLASSES, RULES_NPRIOS, &full);
		if (full.sw[0].nclasses < 2) {
			maps_free(&full);
			rules_free(r);
			json_decref(doc);
			free(s);
			continue;
		}
		ck_assert_int_eq(maps_build(r, full.sw[0].nclasses - 1, 8, &m),
				 1);
		ck_assert(m.sw[0].refused);
		ref = maps_refusal_json(&m, &m.sw[0]);
		ck_assert_str_eq(
			json_string_value(json_object_get(ref, "switch")), "S");
		wit = json_object_get(ref, "witness");
		w = (int)json_array_size(wit);
		ck_assert_int_eq(w, full.sw[0].nclasses);
		/* pairwise different behaviours: no k - 1 classes hold them */
		for (j = 0; j < w; j++)
			for (k = j + 1; k < w; k++) {
				json_t *a = json_array_get(wit, j),
				       *b = json_array_get(wit, k);
				int pa = rules_find_port(
						 r, 0,
						 json_string_value(
							 json_object_get(
								 a, "in"))) *
						 RULES_NTAGS +
					 json_integer_value(
						 json_object_get(a, "tag"));
				int pb = rules_find_port(
						 r, 0,
						 json_string_value(
							 json_object_get(
								 b, "in"))) *
						 RULES_NTAGS +
					 json_integer_value(
						 json_object_get(b, "tag"));

				ck_assert(!alike(r, pa, pb));
			}
		json_decref(ref);
		maps_free(&m);
		maps_free(&full);
		rules_free(r);
		json_decref(doc);
		free(s);
	}
}
END_TEST

static bool matches(const char *re, const char *s)
{
	regex_t x;
	char full[256];
	bool ok;

	snprintf(full, sizeof(full), "^(%s)$", re);
	ck_assert_int_eq(regcomp(&x, full, REG_EXTENDED | REG_NOSUB), 0);
	ok = !regexec(&x, s, 0, NULL, 0);
	regfree(&x);
	return ok;
}

#define MAP_NAME "[a-zA-Z0-9][-a-zA-Z0-9_]{0,31}"
#define DSCP "6[0-3]|[1-5][0-9]?|[0-9]?"

/* Every entry of a map table: keys and values of the given patterns. */
static void check_map_table(json_t *tab, const char *key_re, const char *val_re)
{
	const char *name, *k;
	json_t *map, *v;

	json_object_foreach(tab, name, map) {
		ck_assert_msg(matches(MAP_NAME, name), "%s", name);
		json_object_foreach(map, k, v) {
			ck_assert_msg(matches(key_re, k), "%s: %s", name, k);
			ck_assert_msg(matches(val_re, json_string_value(v)),
				      "%s: %s", name, json_string_value(v));
		}
	}
}

START_TEST(sonic_export_is_consistent)
{
	struct topo *t = topo_from_str(SEED_CLOS_TOPO);
	struct elp *e = elp_from_str(t, clos_bounce_paths);
	struct sonic_buffer b = { .rate_bps = 100000000000ull,
				  .cable_m = 5,
				  .xon = 3840,
				  .headroom = 22828,
				  .pool = "ingress_lossless_pool",
				  .wd_action = "drop",
				  .wd_detect_ms = 200,
				  .wd_restore_ms = 150 };
	struct compile_opts o;
	struct compile_result res;
	struct maps m;
	struct rules *r;
	json_t *doc, *cfg, *pqm, *v, *pg, *prof;
	const char *port;
	char why[256];
	int s, p, d;

	compile_opts_init(&o);
	o.algo = compile_find_algo("clos");
	ck_assert_int_eq(compile_run(t, e, &o, &res), 0);
	doc = compile_rules_json(t, &res, &o);
	r = rules_from_json(doc, "compiled");
	ck_assert_int_eq(maps_build(r, 8, 8, &m), 0);
	for (s = 0; s < r->nsw; s++) {
		const struct maps_switch *ms = &m.sw[s];

		ck_assert(!maps_sonic_refusal(&m, ms, why, sizeof(why)));
		cfg = maps_sonic_json(&m, ms, &b);
		check_map_table(json_object_get(cfg, "DSCP_TO_TC_MAP"), DSCP,
				"[0-9]|1[0-5]");
		check_map_table(json_object_get(cfg, "TC_TO_DSCP_MAP"),
				"[0-9]|1[0-5]", DSCP);
		check_map_table(json_object_get(cfg, "TC_TO_QUEUE_MAP"),
				"[0-9]|1[0-5]", "[0-9]?");
		check_map_table(
			json_object_get(cfg, "TC_TO_PRIORITY_GROUP_MAP"),
			"[0-9]|1[0-5]", "[0-7]?");
		pqm = json_object_get(cfg, "PORT_QOS_MAP");
		ck_assert_int_eq(json_object_size(pqm), ms->nports);
		for (p = 0; p < ms->nports; p++) {
			char list[32] = "", key[64];
			size_t n = 0;
			int pr;

			port = r->sw[s].ports[p];
			v = json_object_get(pqm, port);
			ck_assert_ptr_nonnull(v);
			/* every map it names exists, and says what the maps do */
			ck_assert_ptr_nonnull(json_object_get(
				json_object_get(cfg, "DSCP_TO_TC_MAP"),
				json_string_value(
					json_object_get(v, "dscp_to_tc_map"))));
			for (d = 0; d < RULES_NTAGS; d++) {
				char dk[4];

				snprintf(dk, sizeof(dk), "%d", d);
				ck_assert_int_eq(
					atoi(json_string_value(json_object_get(
						json_object_get(
							json_object_get(
								cfg,
								"DSCP_TO_TC_MAP"),
							json_string_value(json_object_get(
								v,
								"dscp_to_tc_map"))),
						dk))),
					maps_class(ms, p, d));
			}
			ck_assert_ptr_nonnull(json_object_get(
				json_object_get(cfg, "TC_TO_DSCP_MAP"),
				json_string_value(
					json_object_get(v, "tc_to_dscp_map"))));
			ck_assert_ptr_nonnull(json_object_get(
				json_object_get(cfg, "TC_TO_QUEUE_MAP"),
				json_string_value(json_object_get(
					v, "tc_to_queue_map"))));
			/* pfc_enable: the port's lossless priorities */
			for (pr = 0; pr < 8; pr++)
				if (maps_prio_mask(&m, ms, p) & (1u << pr))
					n += snprintf(list + n,
						      sizeof(list) - n, "%s%d",
						      n ? "," : "", pr);
			ck_assert_str_eq(json_string_value(json_object_get(
						 v, "pfc_enable")),
					 list);
			ck_assert(matches("([0-7](,[0-7])*)?", list));
			/* a BUFFER_PG per lossless ingress priority */
			for (pr = 0; pr < 8; pr++) {
				bool in = false;

				for (d = 0; d < RULES_NTAGS; d++)
					in |= ms->prio[maps_class(ms, p, d)] ==
						      pr &&
					      pr != r->lossy_prio;
				snprintf(key, sizeof(key), "%s|%d", port, pr);
				pg = json_object_get(
					json_object_get(cfg, "BUFFER_PG"), key);
				ck_assert_int_eq(pg != NULL, in);
			}
			ck_assert_str_eq(
				json_string_value(json_object_get(
					json_object_get(
						json_object_get(cfg,
								"CABLE_LENGTH"),
						"AZURE"),
					port)),
				"5m");
		}
		prof = json_object_get(json_object_get(cfg, "BUFFER_PROFILE"),
				       "tagger_pg_lossless_100000_5m");
		ck_assert_ptr_nonnull(prof);
		ck_assert_str_eq(
			json_string_value(json_object_get(prof, "xoff")),
			"22828");
		ck_assert_str_eq(
			json_string_value(json_object_get(prof, "size")),
			"26668");
		ck_assert_str_eq(
			json_string_value(json_object_get(
				json_object_get(json_object_get(cfg, "PFC_WD"),
						"GLOBAL"),
				"POLL_INTERVAL")),
			"150");
		json_decref(cfg);
	}
	maps_free(&m);
	rules_free(r);
	json_decref(doc);
	compile_result_free(&res);
	elp_free(e);
	topo_free(t);
}
END_TEST

START_TEST(sonic_refuses_a_port_named_global)
{
	json_t *doc;
	struct rules *r = rules_from_str(
		"{\"format\":\"tagger-rules/1\",\"lossy\":{\"tag\":0,\"priority\":0},"
		"\"tags\":[{\"tag\":1,\"priority\":3}],\"switches\":{\"S\":{"
		"\"ports\":[\"global\",\"e1\"],\"classify\":[],\"rewrite\":[]}}}",
		&doc);
	struct maps m;
	char why[256];

	ck_assert_int_eq(maps_build(r, 8, 8, &m), 0);
	ck_assert(maps_sonic_refusal(&m, &m.sw[0], why, sizeof(why)));
	ck_assert_ptr_nonnull(strstr(why, "\"global\""));
	maps_free(&m);
	rules_free(r);
	json_decref(doc);
}
END_TEST

Suite *rules_maps_suite(void)
{
	Suite *s = suite_create("rules_maps");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, clos_bounce_maps_reproduce_the_rules);
	tcase_add_test(tc, compressed_rules_give_the_same_maps);
	tcase_add_test(tc, ring_maps_reproduce_the_rules);
	tcase_add_test(tc, random_rules_maps_reproduce_the_rules);
	tcase_add_test(tc, class_count_is_the_brute_force_minimum);
	tcase_add_test(tc, too_many_classes_are_refused_with_a_witness);
	tcase_add_test(tc, sonic_export_is_consistent);
	tcase_add_test(tc, sonic_refuses_a_port_named_global);
	tcase_set_timeout(tc, 60);
	suite_add_tcase(s, tc);
	return s;
}
