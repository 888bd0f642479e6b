// SPDX-License-Identifier: GPL-2.0
/*
 * The per-port maps on the eBPF data plane: the Clos of the clos-bounce
 * scenario with its compiled (tag, in-port, out-port) rules, and the
 * rules of the same rules' maps (tagger maps --rules), each loaded into
 * the port programs of every switch and run under BPF_PROG_TEST_RUN on
 * every in-port, out-port and DSCP: both give the same ingress priority
 * and lossless mark, the same DSCP leaving, the same egress priority and
 * the same lossy reason counted. Then every path of the ELP the rules
 * were compiled from (up-down and 1-bounce), from each host's initial
 * tag, is followed hop by hop through what the programs answered: it
 * keeps the same lossless fate and lossless priority at every hop under
 * both, and stays lossless. Skips without root.
 */
#include <check.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "compile/maps_rules.h"
#include "compile/rules_maps.h"
#include "dataplane/dp_table.h"
#include "dp_load.h"
#include "dp_pkt.h"
#include "dp_run.h"
#include "gen/gen.h"
#include "tagger_port.skel.h"
#include "tagger_skb.h"

#define IF_BASE 100 /* ifindex of port i: IF_BASE + i */
#define FIXTURES "tests/bpf/fixtures/"
#define CLOS_TOPO "vmlab/scenarios/clos.topo"

/* What a switch's programs did with one packet from in to out. */
struct hop {
	uint8_t lossless, prio, dscp, eprio, reason_in, reason_out;
};

/* The answers of one rule set: [sw][in][out][dscp], nports^2 * 64 a switch. */
struct answers {
	const struct rules *r;
	struct hop **sw;
};

static struct hop *at(const struct answers *a, int sw, int in, int out,
		      int dscp)
{
	int n = a->r->sw[sw].nports;

	return &a->sw[sw][((size_t)in * n + out) * RULES_NTAGS + dscp];
}

static void run_as(struct tagger_port_bpf *skel, int slot)
{
	uint32_t ifindex = IF_LO, s = slot;

	ck_assert_int_eq(
		bpf_map_update_elem(bpf_map__fd(skel->maps.tagger_ifslot),
				    &ifindex, &s, BPF_ANY),
		0);
}

/* The lossy reason counted at slot since *before (one at most), or 0xff. */
static uint8_t reason(struct tagger_port_bpf *skel, int slot, uint64_t *before)
{
	int ncpu = libbpf_num_possible_cpus(), c, k;
	struct tagger_port_stats *v = calloc(ncpu, sizeof(*v));
	uint32_t idx = slot;
	uint8_t found = 0xff;
	uint64_t sum;

	ck_assert_int_eq(
		bpf_map_lookup_elem(bpf_map__fd(skel->maps.tagger_port_stats),
				    &idx, v),
		0);
	for (k = 0; k < TAGGER_LOSSY_REASONS; k++) {
		for (sum = 0, c = 0; c < ncpu; c++)
			sum += v[c].lossy[k];
		if (sum != before[k]) {
			ck_assert_uint_eq(sum - before[k], 1);
			ck_assert_uint_eq(found, 0xff);
			found = (uint8_t)k;
		}
		before[k] = sum;
	}
	free(v);
	return found;
}

/* Every (in, out, dscp) of switch sw through the programs with r's rules. */
static void answer_switch(struct answers *a, int sw)
{
	int n = a->r->sw[sw].nports, in, out, d, i;
	uint64_t(*before)[TAGGER_LOSSY_REASONS] =
		calloc(n + 1, sizeof(*before));
	struct tagger_port_bpf *skel = port_load(n);
	struct dp_port *ports = calloc(n, sizeof(*ports));
	struct dp_table tab;
	struct pkt p;
	struct run r;
	struct hop *h;

	for (i = 0; i < n; i++) {
		ports[i].name = a->r->sw[sw].ports[i];
		ports[i].ifindex = IF_BASE + i;
		ports[i].slot = i + 1;
	}
	ck_assert_int_eq(
		dp_ifslots_set(bpf_map__fd(skel->maps.tagger_ifslot), ports, n),
		0);
	dp_table_build(a->r, sw, ports, &tab);
	port_install(skel, &tab, 1);
	dp_table_free(&tab);
	a->sw[sw] = calloc((size_t)n * n * RULES_NTAGS, sizeof(struct hop));
	for (i = 1; i <= n; i++)
		reason(skel, i, before[i]);
	for (in = 0; in < n; in++)
		for (out = 0; out < n; out++)
			for (d = 0; d < RULES_NTAGS; d++) {
				h = at(a, sw, in, out, d);
				pkt_build(&p, d & 1 ? PKT_V6 : PKT_V4, 0,
					  TOS(d, 0), 0, 4791);
				run_as(skel, in + 1);
				r = pkt_run(skel->progs.tagger_ingress, &p,
					    IF_LO, IF_LO, 0, 7);
				h->reason_in =
					reason(skel, in + 1, before[in + 1]);
				h->lossless =
					!!(r.ctx.mark & TAGGER_MARK_LOSSLESS);
				h->prio = (uint8_t)r.ctx.priority;
				run_as(skel, out + 1);
				r = pkt_run(skel->progs.tagger_egress, &p,
					    IF_LO, IF_BASE + in,
					    TAGGER_MARK(h->lossless, h->prio),
					    7);
				h->reason_out =
					reason(skel, out + 1, before[out + 1]);
				h->eprio = (uint8_t)r.ctx.priority;
				h->dscp = d & 1 ? (uint8_t)((r.out.b[r.out.l3] &
							     15) << 2 |
							    r.out.b[r.out.l3 +
								    1] >>
								    6) :
						  r.out.b[r.out.l3 + 1] >> 2;
			}
	free(before);
	free(ports);
	tagger_port_bpf__destroy(skel);
}

static void answer_all(struct answers *a, const struct rules *r)
{
	int sw;

	a->r = r;
	a->sw = calloc(r->nsw, sizeof(*a->sw));
	for (sw = 0; sw < r->nsw; sw++)
		answer_switch(a, sw);
}

static void answers_free(struct answers *a)
{
	for (int sw = 0; sw < a->r->nsw; sw++)
		free(a->sw[sw]);
	free(a->sw);
}

#define SAME(field)                                                            \
	ck_assert_msg(x->field == y->field,                                    \
		      "%s: switch %s in %s out %s DSCP %d: rules %d, maps %d", \
		      #field, r->sw[sw].name, r->sw[sw].ports[in],             \
		      r->sw[sw].ports[out], d, x->field, y->field)

static long same_everywhere(const struct answers *a, const struct answers *b)
{
	const struct rules *r = a->r;
	int sw, in, out, d, n;
	long runs = 0;

	for (sw = 0; sw < r->nsw; sw++) {
		n = r->sw[sw].nports;
		for (in = 0; in < n; in++)
			for (out = 0; out < n; out++)
				for (d = 0; d < RULES_NTAGS; d++) {
					const struct hop *x = at(a, sw, in, out,
								 d),
							 *y = at(b, sw, in, out,
								 d);

					SAME(lossless);
					SAME(prio);
					SAME(dscp);
					SAME(eprio);
					SAME(reason_in);
					SAME(reason_out);
					runs++;
				}
	}
	return runs;
}

static int initial_tag(const struct rules *r, const char *host, int cls)
{
	int h = rules_find_host(r, host);

	if (r->nclasses)
		return h >= 0 && r->hosts[h].nclasses ?
			       r->hosts[h].classes[cls] :
			       r->class_tags[cls];
	return h >= 0 && r->hosts[h].tag >= 0 ? r->hosts[h].tag :
						r->tags[0].tag;
}

/* Path i of e for class cls, hop by hop through both; the hops walked. */
static long walk(const struct topo *t, const struct elp *e, int i, int cls,
		 const struct answers *a, const struct answers *b)
{
	const struct rules *r = a->r;
	const int32_t *hops = elp_hops(e, i);
	const struct hop *x, *y;
	int k, node, sw, in, out, tag, d;
	long walked = 0;

	tag = initial_tag(r, t->nodes[port_node(t, hops[0])].name, cls);
	for (k = 1; k < elp_len(e, i); k++) {
		node = port_node(t, hops[k]);
		sw = rules_find_switch(r, t->nodes[node].name);
		ck_assert_int_ge(sw, 0);
		in = rules_find_port(r, sw,
				     t->ports[t->ports[hops[k - 1]].peer].name);
		out = rules_find_port(r, sw, t->ports[hops[k]].name);
		ck_assert(in >= 0 && out >= 0);
		x = at(a, sw, in, out, tag);
		y = at(b, sw, in, out, tag);
		d = tag;

		SAME(lossless);
		SAME(prio);
		SAME(dscp);
		ck_assert_msg(x->lossless && x->prio != r->lossy_prio,
			      "path %d class %d turns lossy at %s", i, cls,
			      r->sw[sw].name);
		tag = x->dscp;
		walked++;
	}
	return walked;
}

START_TEST(maps_rules_run_as_the_rules_on_the_port_programs)
{
	struct rules *r, *run;
	struct answers a, b;
	struct path_sink sink;
	struct gen_ends ends;
	struct topo *t;
	struct elp *e;
	struct maps m;
	json_t *doc;
	long runs, hops = 0;
	int i, c;

	NEED_ROOT();
	doc = json_load_file(FIXTURES "clos_bounce.rules.json", 0, NULL);
	ck_assert_ptr_nonnull(doc);
	r = rules_from_json(doc, "clos_bounce.rules.json");
	ck_assert_ptr_nonnull(r);
	json_decref(doc);
	ck_assert_int_eq(maps_build(r, MAPS_DEFAULT_CLASSES, RULES_NPRIOS, &m),
			 0);
	doc = maps_rules_json(&m, NULL);
	run = rules_from_json(doc, "maps");
	ck_assert_ptr_nonnull(run);
	json_decref(doc);

	answer_all(&a, r);
	answer_all(&b, run);
	runs = same_everywhere(&a, &b);
	ck_assert_int_gt(runs, 0);

	/* the ELP of the rules: tagger paths bounce=1 clos.topo */
	t = topo_parse(CLOS_TOPO);
	ck_assert_ptr_nonnull(t);
	e = elp_new("bounce=1");
	ck_assert_int_eq(gen_ends(t, BETWEEN_AUTO, false, &ends), 0);
	sink_elp(&sink, e);
	ck_assert_int_eq(paths_bounce(t, &ends, 1, false, &sink), 0);
	gen_ends_free(&ends);
	ck_assert_int_eq(e->npaths, 888);
	for (i = 0; i < e->npaths; i++)
		for (c = 0; c < (r->nclasses ? r->nclasses : 1); c++)
			hops += walk(t, e, i, c, &a, &b);
	ck_assert_int_gt(hops, 3 * e->npaths);
	fprintf(stderr,
		"maps_dataplane: %ld packets the same on both rule sets, "
		"%d ELP paths lossless over %ld hops\n",
		runs, e->npaths, hops);

	elp_free(e);
	topo_free(t);
	answers_free(&a);
	answers_free(&b);
	maps_free(&m);
	rules_free(run);
	rules_free(r);
}
END_TEST

Suite *maps_dataplane_suite(void)
{
	Suite *s = suite_create("maps_dataplane");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, maps_rules_run_as_the_rules_on_the_port_programs);
	suite_add_tcase(s, tc);
	return s;
}
