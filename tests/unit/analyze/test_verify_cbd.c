// SPDX-License-Identifier: GPL-2.0
/*
 * Two independent implementations must agree: with one tag and one
 * priority, rules that allow exactly the hops of a path set make a buffer
 * dependency graph isomorphic to the set's link dependency graph (a link
 * X->A is A's in-port). So verify finds a cycle iff cbd does, on random
 * graphs and random walks (hairpins and repeated nodes included).
 */
#include <check.h>
#include <jansson.h>

#include "analyze/cbd.h"
#include "lib/hmap.h"
#include "lib/log.h"
#include "model/rules.h"
#include "testlib.h"
#include "analyze/verify.h"

/* xorshift: the same instances on every run and machine */
static uint64_t rng = 0x9e3779b97f4a7c15ULL;

static unsigned int draw(unsigned int n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (unsigned int)(rng % n);
}

static struct topo *random_topo(void)
{
	struct topo *t = topo_new("rand.topo");
	int n = 3 + draw(6), extra = draw(n + 1), i;
	char name[16];

	for (i = 0; i < n; i++) {
		snprintf(name, sizeof(name), "s%d", i);
		topo_add_node(t, name, NODE_SWITCH, LAYER_NONE);
	}
	for (i = 1; i < n; i++) /* a random tree keeps it connected */
		topo_link_auto(t, i, draw(i));
	for (i = 0; i < extra; i++) {
		int a = draw(n), b = draw(n);

		if (a != b && topo_port_toward(t, a, b) == PORT_NONE)
			topo_link_auto(t, a, b);
	}
	return t;
}

static struct elp *random_walks(const struct topo *t)
{
	struct elp *e = elp_new("rand.elp");
	int npaths = 1 + draw(6), i, k;
	int32_t hops[8];

	for (i = 0; i < npaths; i++) {
		int node = draw(t->nnodes), len = 1 + draw(6);

		for (k = 0; k < len; k++) {
			const struct topo_node *nd = &t->nodes[node];

			hops[k] = nd->ports[draw(nd->nports)];
			node = port_peer_node(t, hops[k]);
		}
		elp_add(e, hops, len, i + 1);
	}
	return e;
}

/* Tag 1 on priority 3 for exactly the hops of the paths. */
static struct rules *one_tag_rules(const struct topo *t, const struct elp *e)
{
	json_t *root =
		json_pack("{s:s,s:{s:i,s:i},s:[{s:i,s:i}],s:{}}", "format",
			  RULES_FORMAT, "lossy", "tag", 0, "priority", 0,
			  "tags", "tag", 1, "priority", 3, "switches");
	json_t *sws = json_object_get(root, "switches");
	struct hmap seen;
	struct rules *r;
	int i, k;

	hmap_init(&seen, 64);
	for (i = 0; i < t->nnodes; i++) {
		json_t *ports = json_array();

		for (k = 0; k < t->nodes[i].nports; k++)
			json_array_append_new(
				ports,
				json_string(
					t->ports[t->nodes[i].ports[k]].name));
		json_object_set_new(sws, t->nodes[i].name,
				    json_pack("{s:o,s:[],s:[]}", "ports", ports,
					      "classify", "rewrite"));
	}
	for (i = 0; i < e->npaths; i++) {
		const int32_t *h = elp_hops(e, i);
		int n = elp_len(e, i);

		for (k = 1; k <= n; k++) {
			int in = t->ports[h[k - 1]].peer;
			json_t *sw = json_object_get(
				sws, t->nodes[port_node(t, in)].name);
			bool fresh;

			hmap_slot(&seen, key2(in, 0x7fffffff), &fresh);
			if (fresh)
				json_array_append_new(
					json_object_get(sw, "classify"),
					json_pack("{s:s,s:i,s:i}", "in",
						  t->ports[in].name, "tag", 1,
						  "priority", 3));
			if (k == n)
				break;
			hmap_slot(&seen, key2(in, h[k]), &fresh);
			if (fresh)
				json_array_append_new(
					json_object_get(sw, "rewrite"),
					json_pack("{s:i,s:s,s:s,s:i}", "tag", 1,
						  "in", t->ports[in].name,
						  "out", t->ports[h[k]].name,
						  "new_tag", 1));
		}
	}
	hmap_free(&seen);
	r = rules_from_json(root, "rand.json");
	json_decref(root);
	return r;
}

START_TEST(verify_finds_a_cycle_iff_cbd_does)
{
	int round, cyclic = 0;

	for (round = 0; round < 400; round++) {
		struct topo *t = random_topo();
		struct elp *e = random_walks(t);
		struct rules *r = one_tag_rules(t, e);
		struct verify_result res;
		struct cbd_witness w;
		int cbd;

		ck_assert_ptr_nonnull(r);
		cbd = cbd_check(t, e, &w);
		ck_assert_int_ne(verify_rules(t, e, r, NULL, &res), EXIT_USAGE);
		ck_assert_msg(res.deadlock_free == !cbd,
			      "round %d: cbd %d, verify cycle %d", round, cbd,
			      res.cycle_len);
		ck_assert_int_eq(res.lossless_paths, e->npaths);
		ck_assert(res.monotonic);
		/* the same graph: as many edges as link dependencies */
		ck_assert_int_eq(res.bdg_edges, w.deps);
		cyclic += cbd;
		verify_result_free(&res);
		cbd_witness_free(&w);
		rules_free(r);
		elp_free(e);
		topo_free(t);
	}
	/* both outcomes must have been exercised */
	ck_assert_int_gt(cyclic, 20);
	ck_assert_int_lt(cyclic, 380);
}
END_TEST

Suite *verify_cbd_suite(void)
{
	Suite *s = suite_create("verify_cbd");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, verify_finds_a_cycle_iff_cbd_does);
	suite_add_tcase(s, tc);
	return s;
}
