// SPDX-License-Identifier: GPL-2.0
/*
 * The DCB form of a switch's rules: the app, rewr and PFC tables of small
 * hand-written switches, each kind of rule DCB cannot express named with
 * its (in, tag, out), the off-ELP count; and on compiled rules of the
 * generators' topologies: a Clos with up-down paths runs on DCB at every
 * switch, its bounce switches with 1-bounce paths are refused for the
 * priority change, a ring's tag-raising switch too. Every table the form
 * gives is checked against the rules, pair by pair.
 */
#include <check.h>

#include "compile/compile.h"
#include "gen/gen.h"
#include "model/dcb_map.h"
#include "testlib.h"

#define HEAD                                                                   \
	"{\"format\":\"tagger-rules/1\",\"lossy\":{\"tag\":0,\"priority\":0}," \
	"\"tags\":[{\"tag\":10,\"priority\":3},{\"tag\":12,\"priority\":3},"   \
	"{\"tag\":20,\"priority\":4}],"

/* Two switches A - B: A's port b faces B's port a. */
#define LINKS "\"links\":[[\"A:b\",\"B:a\"],[\"A:h\",\"h1:eth0\"]],"

static struct rules *load(const char *body, json_t **doc)
{
	char buf[4096];
	struct rules *r;

	snprintf(buf, sizeof(buf), "%s%s}", HEAD, body);
	r = rules_from_str(buf, doc);
	ck_assert_msg(r != NULL, "%s", buf);
	return r;
}

/* Peers of switch sw from the document's links. */
static void peers_of(const struct rules *r, json_t *doc, int sw,
		     struct dcb_peer *peers)
{
	json_t *links = json_object_get(doc, "links"), *l;
	char *a[64], *b[64];
	size_t i;

	json_array_foreach(links, i, l) {
		a[i] = (char *)json_string_value(json_array_get(l, 0));
		b[i] = (char *)json_string_value(json_array_get(l, 1));
	}
	dcb_peers(r, sw, a, b, (int)json_array_size(links), peers);
}

static int count_kind(const struct dcb_map *m, int kind)
{
	int i, n = 0;

	for (i = 0; i < m->nproblems; i++)
		n += m->problems[i].kind == kind;
	return n;
}

static const struct dcb_problem *find(const struct dcb_map *m, int kind, int in,
				      int tag, int out)
{
	int i;

	for (i = 0; i < m->nproblems; i++) {
		const struct dcb_problem *p = &m->problems[i];

		if (p->kind == kind && p->in == in && p->tag == tag &&
		    p->out == out)
			return p;
	}
	return NULL;
}

/*
 * A switch without problems: every lossless pair at every out-port leaves
 * with the rules' tag in the queue of its priority, a demoted one with the
 * lossy tag, and PFC runs on the priorities it classifies and keeps.
 */
static void assert_faithful(const struct rules *r, int sw,
			    const struct dcb_peer *peers,
			    const struct dcb_map *m)
{
	int n = r->sw[sw].nports, in, d, out, p, nt, rule;

	for (in = 0; in < n; in++)
		for (d = 0; d < RULES_NTAGS; d++) {
			p = rules_classify(r, sw, in, d, NULL);
			if (p < 0 || p == r->lossy_prio) {
				ck_assert_int_eq(m->app[in * RULES_NTAGS + d],
						 d == r->cnp_tag ?
							 r->cnp_prio :
							 r->lossy_prio);
				continue;
			}
			ck_assert_int_eq(m->app[in * RULES_NTAGS + d], p);
			ck_assert(m->pfc[in] & (1u << p));
			for (out = 0; out < n; out++) {
				nt = rules_rewrite(r, sw, d, in, out, &rule);
				ck_assert(m->rewr_set[out] & (1u << p));
				if (rule >= 0 && rules_tag_lossless(r, nt) &&
				    (!peers || peers[out].sw < 0 ||
				     rules_classify(r, peers[out].sw,
						    peers[out].port, nt,
						    NULL) == p))
					ck_assert_int_eq(
						m->rewr[out * RULES_NPRIOS + p],
						nt);
			}
		}
	for (out = 0; out < n; out++) {
		ck_assert(m->rewr_set[out] & (1u << r->lossy_prio));
		ck_assert_int_eq(m->rewr[out * RULES_NPRIOS + r->lossy_prio],
				 r->lossy_tag);
	}
}

START_TEST(one_priority_switch_is_expressible)
{
	json_t *doc;
	struct rules *r = load(
		LINKS
		"\"switches\":{\"A\":{\"ports\":[\"h\",\"b\"],"
		"\"classify\":[{\"in\":\"h\",\"tag\":10,\"priority\":3},"
		"{\"in\":\"b\",\"tag\":12,\"priority\":3}],"
		"\"rewrite\":[{\"tag\":10,\"in\":\"h\",\"out\":\"b\",\"new_tag\":12},"
		"{\"tag\":12,\"in\":\"b\",\"out\":\"h\",\"new_tag\":10}]},"
		"\"B\":{\"ports\":[\"a\"],\"classify\":[{\"in\":\"a\",\"tag\":12,"
		"\"priority\":3}],\"rewrite\":[]}}",
		&doc);
	struct dcb_peer peers[2];
	struct dcb_map m;

	peers_of(r, doc, 0, peers);
	ck_assert_int_eq(peers[1].sw, 1);
	ck_assert_int_eq(peers[1].port, 0);
	ck_assert_int_eq(peers[0].sw, -1); /* a host */
	ck_assert_int_eq(dcb_map_build(r, 0, peers, &m), 0);
	ck_assert_int_eq(m.nproblems, 0);
	assert_faithful(r, 0, peers, &m);
	ck_assert_int_eq(m.app[0 * RULES_NTAGS + 10], 3);
	ck_assert_int_eq(m.app[0 * RULES_NTAGS + 12], 0); /* lossy at h */
	ck_assert_int_eq(m.rewr[1 * RULES_NPRIOS + 3], 12);
	ck_assert_int_eq(m.rewr[0 * RULES_NPRIOS + 3], 10);
	/* priorities 0 (lossy) and 3 at each out-port */
	ck_assert_int_eq(dcb_rewr_entries(&m, 0), 2);
	ck_assert_int_eq(dcb_app_entries(&m, 0), 64);
	ck_assert_int_eq(m.pfc[0], 1u << 3);
	ck_assert_int_eq(m.pfc_any, 1u << 3);
	/* sent back out their in-port (a micro-loop): kept lossless */
	ck_assert_int_eq(m.off_elp_total, 2);
	ck_assert_int_eq(m.off_elp[0], 1);
	dcb_map_free(&m);
	rules_free(r);
	json_decref(doc);
}
END_TEST

/* Tag 10 from h leaves b as 12 (priority 3 at B), tag 20 as 20 (4). */
START_TEST(a_priority_change_is_refused_naming_the_rule)
{
	json_t *doc;
	struct rules *r = load(
		LINKS
		"\"switches\":{\"A\":{\"ports\":[\"h\",\"b\"],"
		"\"classify\":[{\"in\":\"h\",\"tag\":10,\"priority\":3}],"
		"\"rewrite\":[{\"tag\":10,\"in\":\"h\",\"out\":\"b\",\"new_tag\":20}]},"
		"\"B\":{\"ports\":[\"a\"],\"classify\":[{\"in\":\"a\",\"tag\":20,"
		"\"priority\":4}],\"rewrite\":[]}}",
		&doc);
	struct dcb_peer peers[2];
	const struct dcb_problem *p;
	struct dcb_map m;

	peers_of(r, doc, 0, peers);
	ck_assert_int_eq(dcb_map_build(r, 0, peers, &m), 1);
	ck_assert_int_eq(m.nproblems, 1);
	p = find(&m, DCB_QUEUE, 0, 10, 1);
	ck_assert_ptr_nonnull(p);
	ck_assert_ptr_nonnull(strstr(p->msg, "switch A"));
	ck_assert_ptr_nonnull(strstr(p->msg, "tag 10 in h out b -> tag 20"));
	ck_assert_ptr_nonnull(strstr(p->msg, "next hop B (port a)"));
	ck_assert_str_eq(dcb_problem_kind_name(p->kind), "queue");
	ck_assert_ptr_nonnull(strstr(dcb_problem_remedy(p->kind),
				     "compiling as maps does not help"));
	dcb_map_free(&m);
	/* Without links, tag 20's priority in "tags" (4) says the same. */
	ck_assert_int_eq(dcb_map_build(r, 0, NULL, &m), 1);
	ck_assert_ptr_nonnull(find(&m, DCB_QUEUE, 0, 10, 1));
	dcb_map_free(&m);
	rules_free(r);
	json_decref(doc);
}
END_TEST

/* B classifies 20 into 3 on its port a: the priority holds, no problem. */
START_TEST(the_next_hops_classify_decides_not_tags)
{
	json_t *doc;
	struct rules *r = load(
		LINKS
		"\"switches\":{\"A\":{\"ports\":[\"h\",\"b\"],"
		"\"classify\":[{\"in\":\"h\",\"tag\":10,\"priority\":3}],"
		"\"rewrite\":[{\"tag\":10,\"in\":\"h\",\"out\":\"b\",\"new_tag\":20}]},"
		"\"B\":{\"ports\":[\"a\"],\"classify\":[{\"in\":\"a\",\"tag\":20,"
		"\"priority\":3}],\"rewrite\":[]}}",
		&doc);
	struct dcb_peer peers[2];
	struct dcb_map m;

	peers_of(r, doc, 0, peers);
	ck_assert_int_eq(dcb_map_build(r, 0, peers, &m), 0);
	ck_assert_int_eq(m.rewr[1 * RULES_NPRIOS + 3], 20);
	dcb_map_free(&m);
	rules_free(r);
	json_decref(doc);
}
END_TEST

/*
 * Port x and y both send priority 3 out of z: x as 12, y as 10 (both 3 by
 * "tags"): two tags for one (priority, out-port). From w, tag 10 is
 * demoted at z by a rule, and tag 12 has no rule at z at all (off the
 * ELP): a refusal and a count.
 */
START_TEST(two_tags_for_one_priority_and_a_demotion_are_refused)
{
	json_t *doc;
	struct rules *r = load(
		"\"switches\":{\"S\":{\"ports\":[\"x\",\"y\",\"w\",\"z\"],"
		"\"classify\":[{\"in\":\"*\",\"tag\":10,\"priority\":3},"
		"{\"in\":\"*\",\"tag\":12,\"priority\":3}],"
		"\"rewrite\":[{\"tag\":10,\"in\":\"x\",\"out\":\"z\",\"new_tag\":12},"
		"{\"tag\":12,\"in\":\"x\",\"out\":\"z\",\"new_tag\":12},"
		"{\"tag\":10,\"in\":\"y\",\"out\":\"z\",\"new_tag\":10},"
		"{\"tag\":10,\"in\":\"w\",\"out\":\"z\",\"new_tag\":0}]}}",
		&doc);
	const struct dcb_problem *p;
	struct dcb_map m;

	ck_assert_int_eq(dcb_map_build(r, 0, NULL, &m), 1);
	/* 12 is kept by two pairs, 10 by one: 12 is z's entry */
	ck_assert_int_eq(m.rewr[3 * RULES_NPRIOS + 3], 12);
	p = find(&m, DCB_REWRITE, 1, 10, 3);
	ck_assert_ptr_nonnull(p);
	ck_assert_ptr_nonnull(
		strstr(p->msg, "in x tag 10 of the same priority 3"));
	ck_assert_ptr_nonnull(find(&m, DCB_DEMOTE, 2, 10, 3));
	ck_assert_int_eq(m.nproblems, 2);
	/* off the ELP at z: y 12, w 12, z 10, z 12 */
	ck_assert_int_eq(m.off_elp[3], 4);
	ck_assert_int_eq(m.off_elp_total, 4);
	ck_assert_int_eq(m.off_in, 1);
	ck_assert_int_eq(m.off_tag, 12);
	ck_assert_int_eq(m.off_out, 3);
	/* no pair keeps a tag at x: priority 3 leaves it with the lossy tag */
	ck_assert_int_eq(m.rewr[0 * RULES_NPRIOS + 3], 0);
	ck_assert(!(m.pfc[0] & ~(1u << 3)));
	dcb_map_free(&m);
	rules_free(r);
	json_decref(doc);
}
END_TEST

START_TEST(the_cnps_priority_is_no_lossless_one)
{
	json_t *doc;
	struct rules *r = rules_from_str(
		"{\"format\":\"tagger-rules/1\",\"lossy\":{\"tag\":0,\"priority\":0},"
		"\"cnp\":{\"tag\":48,\"priority\":6},"
		"\"tags\":[{\"tag\":10,\"priority\":3}],\"switches\":{\"S\":{"
		"\"ports\":[\"x\",\"y\"],\"classify\":[{\"in\":\"x\",\"tag\":10,"
		"\"priority\":6},{\"in\":\"y\",\"tag\":10,\"priority\":3}],"
		"\"rewrite\":[]}}}",
		&doc);
	struct dcb_map m;

	ck_assert_ptr_nonnull(r);
	ck_assert_int_eq(dcb_map_build(r, 0, NULL, &m), 1);
	ck_assert_int_eq(m.nproblems, 1);
	ck_assert_ptr_nonnull(find(&m, DCB_PRIORITY, 0, 10, -1));
	/* CNPs keep their priority and DSCP: no rewr entry for 6 */
	ck_assert_int_eq(m.app[1 * RULES_NTAGS + 48], 6);
	ck_assert(!(m.rewr_set[0] & (1u << 6)));
	dcb_map_free(&m);
	rules_free(r);
	json_decref(doc);
	r = rules_from_str(
		"{\"format\":\"tagger-rules/1\",\"lossy\":{\"tag\":0,\"priority\":0},"
		"\"cnp\":{\"tag\":48,\"priority\":0},"
		"\"tags\":[{\"tag\":10,\"priority\":3}],\"switches\":{\"S\":{"
		"\"ports\":[\"x\"],\"classify\":[],\"rewrite\":[]}}}",
		&doc);
	ck_assert_ptr_nonnull(r);
	ck_assert_int_eq(dcb_map_build(r, 0, NULL, &m), 1);
	ck_assert_ptr_nonnull(find(&m, DCB_PRIORITY, -1, 48, -1));
	dcb_map_free(&m);
	rules_free(r);
	json_decref(doc);
}
END_TEST

/* Compiled rules of a generated topology and paths, with their links. */
struct compiled {
	struct rules *r;
	json_t *doc;
};

static struct compiled compile_gen(struct topo *t, int bounces)
{
	struct gen_ends ends;
	struct elp *e = elp_new("gen");
	struct compile_opts o;
	struct compile_result res;
	struct path_sink s;
	struct compiled c;

	ck_assert_int_eq(gen_ends(t, BETWEEN_AUTO, false, &ends), 0);
	sink_elp(&s, e);
	if (bounces < 0)
		ck_assert_int_eq(paths_updown(t, &ends, &s), 0);
	else if (bounces > 0)
		ck_assert_int_eq(paths_bounce(t, &ends, bounces, true, &s), 0);
	else
		ck_assert_int_eq(paths_shortest(t, &ends,
						&(struct shortest_opts){ 0 },
						&s),
				 0);
	compile_opts_init(&o);
	ck_assert_int_eq(compile_run(t, e, &o, &res), 0);
	c.doc = compile_rules_json(t, &res, &o);
	c.r = rules_from_json(c.doc, "compiled");
	ck_assert_ptr_nonnull(c.r);
	compile_result_free(&res);
	gen_ends_free(&ends);
	elp_free(e);
	topo_free(t);
	return c;
}

/* Switches refused, in rules order, as a bit mask; problems into *n. */
static uint64_t refused(const struct compiled *c, int *nqueue, long *off)
{
	struct dcb_peer peers[64];
	uint64_t mask = 0;
	struct dcb_map m;
	int s;

	*nqueue = 0;
	*off = 0;
	ck_assert_int_le(c->r->nsw, 64);
	for (s = 0; s < c->r->nsw; s++) {
		ck_assert_int_le(c->r->sw[s].nports, 64);
		peers_of(c->r, c->doc, s, peers);
		if (dcb_map_build(c->r, s, peers, &m)) {
			mask |= 1ull << s;
			*nqueue += count_kind(&m, DCB_QUEUE);
		} else {
			assert_faithful(c->r, s, peers, &m);
		}
		*off += m.off_elp_total;
		dcb_map_free(&m);
	}
	return mask;
}

static struct topo *clos(void)
{
	struct clos_opts o;

	clos_defaults(&o);
	return topo_gen_clos(&o);
}

START_TEST(clos_updown_runs_on_dcb_everywhere)
{
	struct compiled c = compile_gen(clos(), -1);
	int nq;
	long off;

	ck_assert_int_eq(c.r->ntags, 1);
	ck_assert_int_eq(refused(&c, &nq, &off), 0);
	/* a leaf's spine-to-spine turn: kept lossless off the ELP */
	ck_assert_int_gt(off, 0);
	rules_free(c.r);
	json_decref(c.doc);
}
END_TEST

/*
 * With 1-bounce paths a bounced packet changes priority at the leaf it
 * bounces at: those switches are refused for the queue, naming the rule.
 */
START_TEST(clos_bounce_switches_are_refused)
{
	struct compiled c = compile_gen(clos(), 1);
	struct dcb_peer peers[64];
	const struct dcb_problem *p = NULL;
	struct dcb_map m;
	uint64_t mask;
	int nq, s, i;
	long off;

	ck_assert_int_eq(c.r->ntags, 2);
	mask = refused(&c, &nq, &off);
	ck_assert_uint_ne(mask, 0);
	ck_assert_int_gt(nq, 0);
	/* some switch still runs: the refusal is per switch */
	ck_assert_uint_ne(mask, (1ull << c.r->nsw) - 1);
	s = __builtin_ctzll(mask);
	peers_of(c.r, c.doc, s, peers);
	ck_assert_int_eq(dcb_map_build(c.r, s, peers, &m), 1);
	for (i = 0; i < m.nproblems && !p; i++)
		if (m.problems[i].kind == DCB_QUEUE)
			p = &m.problems[i];
	ck_assert_ptr_nonnull(p);
	ck_assert_int_ge(p->in, 0);
	ck_assert_int_ge(p->out, 0);
	ck_assert_int_eq(rules_classify(c.r, s, p->in, p->tag, NULL),
			 c.r->tags[0].prio);
	ck_assert_ptr_nonnull(strstr(p->msg, c.r->sw[s].name));
	ck_assert_ptr_nonnull(strstr(p->msg, "into priority"));
	dcb_map_free(&m);
	rules_free(c.r);
	json_decref(c.doc);
}
END_TEST

/* A ring's shortest paths need two priorities: the switch raising the tag. */
START_TEST(ring_tag_raising_switch_is_refused)
{
	struct compiled c = compile_gen(topo_gen_ring(6, 1), 0);
	uint64_t mask;
	int nq;
	long off;

	ck_assert_int_ge(c.r->ntags, 2);
	mask = refused(&c, &nq, &off);
	ck_assert_uint_ne(mask, 0);
	ck_assert_int_gt(nq, 0);
	rules_free(c.r);
	json_decref(c.doc);
}
END_TEST

Suite *dcb_map_suite(void)
{
	Suite *s = suite_create("dcb_map");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, one_priority_switch_is_expressible);
	tcase_add_test(tc, a_priority_change_is_refused_naming_the_rule);
	tcase_add_test(tc, the_next_hops_classify_decides_not_tags);
	tcase_add_test(tc,
		       two_tags_for_one_priority_and_a_demotion_are_refused);
	tcase_add_test(tc, the_cnps_priority_is_no_lossless_one);
	tcase_add_test(tc, clos_updown_runs_on_dcb_everywhere);
	tcase_add_test(tc, clos_bounce_switches_are_refused);
	tcase_add_test(tc, ring_tag_raising_switch_is_refused);
	tcase_set_timeout(tc, 60);
	suite_add_tcase(s, tc);
	return s;
}
