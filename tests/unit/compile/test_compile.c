// SPDX-License-Identifier: GPL-2.0
/*
 * The tag compiler: priorities per algorithm on the papers' examples, the
 * rules document it writes (read back through the rules parser), and a
 * packet walk over those rules for every path and class.
 */
#include <check.h>

#include "compile/compile.h"
#include "model/rules.h"
#include "testlib.h"

/* Flattened Clos section 2: a ring of 4 with all shortest paths has CBD. */
static const char *ring4 =
	"switch A\nswitch B\nswitch C\nswitch D\n"
	"link A:1 B:1\nlink B:2 C:1\nlink C:2 D:1\nlink D:2 A:2\n";
static const char *ring4_ecmp =
	"A B\nA B C\nA D C\nA D\nB C\nB C D\nB A D\nB A\n"
	"C D\nC D A\nC B A\nC B\nD A\nD A B\nD C B\nD C\n";

struct run {
	struct topo *t;
	struct elp *e;
	struct compile_opts o;
	struct compile_result r;
	json_t *json;
	struct rules *rules;
};

/* Options beyond the algorithm and classes; 0 keeps the default. */
struct extra {
	int nprios;
	bool compress;
};

static void compile_opt(struct run *x, const char *topo, const char *paths,
			const char *algo, int classes, const struct extra *ex)
{
	x->t = topo_from_str(topo);
	ck_assert_ptr_nonnull(x->t);
	x->e = elp_from_str(x->t, paths);
	ck_assert_ptr_nonnull(x->e);
	compile_opts_init(&x->o);
	x->o.algo = compile_find_algo(algo);
	x->o.nclasses = classes;
	if (ex && ex->nprios)
		x->o.nprios = ex->nprios;
	if (ex)
		x->o.compress = ex->compress;
	ck_assert_int_eq(compile_run(x->t, x->e, &x->o, &x->r), 0);
	x->json = compile_rules_json(x->t, &x->r, &x->o);
	x->rules = rules_from_json(x->json, "compiled");
	ck_assert_ptr_nonnull(x->rules);
}

static void compile_str(struct run *x, const char *topo, const char *paths,
			const char *algo, int classes)
{
	compile_opt(x, topo, paths, algo, classes, NULL);
}

static void run_free(struct run *x)
{
	rules_free(x->rules);
	json_decref(x->json);
	compile_result_free(&x->r);
	elp_free(x->e);
	topo_free(x->t);
}

/*
 * Walk every path through the written rules, as a switch would: every
 * hop lossless, tags never lower in rank. Returns the lossless count.
 */
static int walk_rules(const struct run *x, int cls)
{
	const struct topo *t = x->t;
	int i, j, ok = 0;

	for (i = 0; i < x->e->npaths; i++) {
		const int32_t *h = elp_hops(x->e, i);
		int m = elp_len(x->e, i), tag = x->rules->class_tags[cls],
		    good = 1;

		for (j = 1; j <= m && good; j++) {
			int in = t->ports[h[j - 1]].peer,
			    node = port_node(t, in);
			int sw = rules_find_switch(x->rules,
						   t->nodes[node].name);
			int pin, next;

			if (sw < 0)
				break; /* a sink */
			pin = rules_find_port(x->rules, sw, t->ports[in].name);
			good = rules_classify(x->rules, sw, pin, tag, NULL) !=
			       RULES_LOSSY;
			if (!good || j == m)
				break;
			next = rules_rewrite(
				x->rules, sw, tag, pin,
				rules_find_port(x->rules, sw,
						t->ports[h[j]].name),
				NULL);
			good = next != RULES_LOSSY &&
			       rules_tag_rank(x->rules, next) >=
				       rules_tag_rank(x->rules, tag);
			tag = next;
		}
		ok += good;
	}
	return ok;
}

START_TEST(ring4_ecmp_needs_two_priorities)
{
	struct run x;

	compile_str(&x, ring4, ring4_ecmp, "greedy", 1);
	ck_assert_int_eq(x.r.nlossless, 2);
	ck_assert_int_eq(x.r.lossy, 0);
	ck_assert_int_eq(walk_rules(&x, 0), 16);
	run_free(&x);
}
END_TEST

START_TEST(brute_force_tags_by_hop)
{
	struct run x;

	/* Paths start at a switch: the next switch is the first to tag (tag 0). */
	compile_str(&x, ring4, ring4_ecmp, "brute", 1);
	ck_assert_int_eq(x.r.nlossless, 2);
	ck_assert_int_eq(walk_rules(&x, 0), 16);
	run_free(&x);
}
END_TEST

START_TEST(classes_start_one_tag_apart)
{
	struct run x;

	compile_str(&x, ring4, ring4_ecmp, "greedy", 2);
	/* M + N: class 1 starts at tag 1 and grows like class 0. */
	ck_assert_int_eq(x.r.nlossless, 3);
	ck_assert_int_eq(x.rules->nclasses, 2);
	ck_assert_int_eq(walk_rules(&x, 0), 16);
	ck_assert_int_eq(walk_rules(&x, 1), 16);
	run_free(&x);
}
END_TEST

START_TEST(too_few_priorities_name_the_lossy_paths)
{
	struct extra one_prio = { .nprios = 1 };
	struct run x;

	compile_opt(&x, ring4, ring4_ecmp, "best", 1, &one_prio);
	ck_assert_int_eq(x.r.ntags, 2);
	ck_assert_int_eq(x.r.nlossless, 1);
	ck_assert_int_gt(x.r.lossy, 0);
	ck_assert_int_eq(x.r.lossy, x.r.nlossy_list);
	ck_assert_int_eq(walk_rules(&x, 0), 16 - x.r.lossy);
	run_free(&x);
}
END_TEST

START_TEST(clos_algorithm_needs_layers)
{
	struct topo *t = topo_from_str(ring4);
	struct elp *e = elp_from_str(t, ring4_ecmp);
	struct compile_result r;
	struct compile_opts o;
	const char *out;

	compile_opts_init(&o);
	o.algo = compile_find_algo("clos");
	capture_begin();
	ck_assert_int_eq(compile_run(t, e, &o, &r), -1);
	out = capture_end();
	ck_assert_msg(strstr(out, "t.topo:1: the clos algorithm needs layer="),
		      "%s", out);
	tagging_free(&r.tg);
	elp_free(e);
	topo_free(t);
}
END_TEST

/* One switch, n hosts on ports p0..p(n-1), one path h0 sw h1. */
static struct topo *star(int n, struct elp **e)
{
	struct topo *t = topo_new("star");
	int sw = topo_add_node(t, "sw", NODE_SWITCH, LAYER_NONE), i;
	char name[32];

	for (i = 0; i < n; i++) {
		int h;

		snprintf(name, sizeof(name), "h%d", i);
		h = topo_add_node(t, name, NODE_HOST, LAYER_NONE);
		snprintf(name, sizeof(name), "p%d", i);
		ck_assert_int_ge(topo_add_link(t, sw, name, h, "eth0"), 0);
	}
	*e = elp_from_str(t, "h0 sw h1\n");
	return t;
}

/* The rules' 16-bit port index: refused on input, naming the switch. */
START_TEST(switch_port_limit_is_checked_on_input)
{
	struct compile_result r = { 0 };
	struct compile_opts o;
	const char *out;
	struct elp *e;
	struct topo *t;

	compile_opts_init(&o);
	o.algo = compile_find_algo("greedy");
	t = star(RULES_MAX_PORTS + 1, &e);
	capture_begin();
	ck_assert_int_eq(compile_run(t, e, &o, &r), -1);
	out = capture_end();
	ck_assert_msg(
		strstr(out,
		       "star: switch \"sw\" has 65521 ports; rules allow at most 65520"),
		"%s", out);
	elp_free(e);
	topo_free(t);
	t = star(RULES_MAX_PORTS, &e);
	ck_assert_int_eq(compile_run(t, e, &o, &r), 0);
	compile_result_free(&r);
	elp_free(e);
	topo_free(t);
}
END_TEST

START_TEST(compression_changes_no_answer)
{
	struct extra compress = { .compress = true };
	struct run x, y;
	int i;

	compile_str(&x, ring4, ring4_ecmp, "greedy", 2);
	compile_opt(&y, ring4, ring4_ecmp, "greedy", 2, &compress);
	/* Every (switch, tag, in, out) and (switch, in, tag) answers alike. */
	for (i = 0; i < x.rules->nsw; i++) {
		int sy = rules_find_switch(y.rules, x.rules->sw[i].name), in,
		    out, tag;

		for (tag = 0; tag < RULES_NTAGS; tag++)
			for (in = 0; in < x.rules->sw[i].nports; in++) {
				ck_assert_int_eq(rules_classify(x.rules, i, in,
								tag, NULL),
						 rules_classify(y.rules, sy, in,
								tag, NULL));
				for (out = 0; out < x.rules->sw[i].nports;
				     out++)
					ck_assert_int_eq(
						rules_rewrite(x.rules, i, tag,
							      in, out, NULL),
						rules_rewrite(y.rules, sy, tag,
							      in, out, NULL));
			}
	}
	run_free(&x);
	run_free(&y);
}
END_TEST

Suite *compile_suite(void)
{
	Suite *s = suite_create("compile");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, ring4_ecmp_needs_two_priorities);
	tcase_add_test(tc, brute_force_tags_by_hop);
	tcase_add_test(tc, classes_start_one_tag_apart);
	tcase_add_test(tc, too_few_priorities_name_the_lossy_paths);
	tcase_add_test(tc, clos_algorithm_needs_layers);
	tcase_add_test(tc, compression_changes_no_answer);
	tcase_add_test(tc, switch_port_limit_is_checked_on_input);
	/* Two compiles of a 65,520-port star: about 1.3 s alone, far more on
	 * a busy machine than Check's default of 4 s allows. */
	tcase_set_timeout(tc, 60);
	suite_add_tcase(s, tc);
	return s;
}
