// SPDX-License-Identifier: GPL-2.0
/*
 * The flower filter lists (userspace/model/flower_table.c) against the
 * eBPF switch programs they stand in for: every switch of compiled rule
 * sets (a Clos with 1-bounce paths, the same compressed to wildcards, a
 * ring with two classes, the hand-written wildcard set), every in-port,
 * out-port and DSCP, IPv4 and IPv6, untagged and behind a VLAN tag,
 * unicast and group addressed, from a port of the switch or from
 * elsewhere. The programs run under BPF_PROG_TEST_RUN; the lists are
 * evaluated by flower_eval. Both must give the same ingress priority and
 * lossless mark, the same DSCP and ECN leaving, the same egress priority
 * and the same lossy reason counted. Skips without root.
 */
#include <check.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "dp_load.h"
#include "dp_pkt.h"
#include "dp_run.h"
#include "dataplane/dp_table.h"
#include "model/flower_table.h"
#include "tagger_port.skel.h"
#include "tagger_skb.h"

#define IF_RUN IF_LO /* the port a program runs on needs a device */
#define IF_BASE 100 /* ifindex of port i: IF_BASE + i */
#define IF_ELSEWHERE 99 /* an interface that is no port of the switch */
#define FIXTURES "tests/bpf/fixtures/"

struct world {
	struct rules *r;
	int sw;
	struct tagger_port_bpf *skel;
	struct dp_port *ports;
	struct flower_port *fl;
	long runs;
};

struct side {
	int lossless, prio, reason;
	uint8_t tos; /* DSCP and ECN leaving (egress), or arriving */
};

static void load(struct world *w)
{
	struct dp_table tab;
	int n = w->r->sw[w->sw].nports, i;

	w->skel = port_load(n);
	w->ports = calloc(n, sizeof(*w->ports));
	w->fl = calloc(n, sizeof(*w->fl));
	for (i = 0; i < n; i++) {
		w->ports[i].name = w->r->sw[w->sw].ports[i];
		w->ports[i].ifindex = IF_BASE + i;
		w->ports[i].slot = i + 1;
		ck_assert_int_eq(flower_port_build(w->r, w->sw, i, &w->fl[i]),
				 0);
	}
	ck_assert_int_eq(
		dp_ifslots_set(bpf_map__fd(w->skel->maps.tagger_ifslot),
			       w->ports, n),
		0);
	dp_table_build(w->r, w->sw, w->ports, &tab);
	port_install(w->skel, &tab, 1);
	dp_table_free(&tab);
}

static void unload(struct world *w)
{
	for (int i = 0; i < w->r->sw[w->sw].nports; i++)
		flower_port_free(&w->fl[i]);
	free(w->fl);
	free(w->ports);
	tagger_port_bpf__destroy(w->skel);
}

/* The program on IF_RUN acts for port slot. */
static void run_as(struct world *w, int slot)
{
	uint32_t ifindex = IF_RUN, s = slot;

	ck_assert_int_eq(
		bpf_map_update_elem(bpf_map__fd(w->skel->maps.tagger_ifslot),
				    &ifindex, &s, BPF_ANY),
		0);
}

static void stats(struct world *w, int slot, uint64_t *lossy)
{
	int ncpu = libbpf_num_possible_cpus(), c, k;
	struct tagger_port_stats *v = calloc(ncpu, sizeof(*v));
	uint32_t idx = slot;

	ck_assert_int_eq(
		bpf_map_lookup_elem(
			bpf_map__fd(w->skel->maps.tagger_port_stats), &idx, v),
		0);
	for (k = 0; k < TAGGER_LOSSY_REASONS; k++)
		for (lossy[k] = 0, c = 0; c < ncpu; c++)
			lossy[k] += v[c].lossy[k];
	free(v);
}

/* The one reason counted at slot while fn ran, or FLOWER_NO_REASON. */
static int reason_of(const uint64_t *before, const uint64_t *after)
{
	int k, found = FLOWER_NO_REASON;

	for (k = 0; k < TAGGER_LOSSY_REASONS; k++) {
		ck_assert_uint_le(after[k] - before[k], 1);
		if (after[k] != before[k]) {
			ck_assert_int_eq(found, FLOWER_NO_REASON);
			found = k;
		}
	}
	return found;
}

static uint8_t tos_of(const struct pkt *p, int v6)
{
	const uint8_t *ip = p->b + p->l3;

	return v6 ? (uint8_t)((ip[0] & 15) << 4 | ip[1] >> 4) : ip[1];
}

/* group: 0 unicast, 1 Ethernet group address, 2 IP multicast */
static void build(struct pkt *p, int v6, int vlan, int group, uint8_t tos)
{
	uint8_t *ip;

	pkt_build(p, v6 ? PKT_V6 : PKT_V4, vlan, tos, 0, 4791);
	ip = p->b + p->l3;
	if (group == 1)
		p->b[0] |= 1;
	if (group == 2 && v6)
		ip[24] = 0xff;
	if (group == 2 && !v6) {
		ip[16] = 239;
		ip[10] = ip[11] = 0;
		ip[10] = ip_csum(ip, 20) >> 8;
		ip[11] = ip_csum(ip, 20) & 255;
	}
}

static struct side bpf_ingress(struct world *w, int in, struct pkt *p)
{
	uint64_t b[TAGGER_LOSSY_REASONS], a[TAGGER_LOSSY_REASONS];
	struct side s;
	struct run r;

	run_as(w, in + 1);
	stats(w, in + 1, b);
	r = pkt_run(w->skel->progs.tagger_ingress, p, IF_RUN, IF_RUN, 0, 7);
	stats(w, in + 1, a);
	s.reason = reason_of(b, a);
	s.lossless = !!(r.ctx.mark & TAGGER_MARK_LOSSLESS);
	s.prio = r.ctx.priority;
	ck_assert_uint_eq(r.ctx.mark & TAGGER_MARK_VALID, TAGGER_MARK_VALID);
	ck_assert_uint_eq(r.ctx.mark & TAGGER_MARK_PRIO_MASK, s.prio);
	s.tos = 0;
	return s;
}

static struct side bpf_egress(struct world *w, int in, int out,
			      const struct pkt *p, uint32_t mark, int v6)
{
	uint64_t b[TAGGER_LOSSY_REASONS], a[TAGGER_LOSSY_REASONS];
	uint32_t iif = in < 0 ? IF_ELSEWHERE : IF_BASE + in;
	struct side s = { 0 };
	struct run r;

	run_as(w, out + 1);
	stats(w, out + 1, b);
	r = pkt_run(w->skel->progs.tagger_egress, p, IF_RUN, iif, mark, 7);
	stats(w, out + 1, a);
	s.reason = reason_of(b, a);
	s.prio = r.ctx.priority;
	s.tos = tos_of(&r.out, v6);
	if (!v6)
		ck_assert(ip_csum_ok(&r.out));
	return s;
}

static struct side model(const struct flower_list *l, int indev, int group,
			 uint8_t tos, int *dscp_out)
{
	struct flower_pkt pkt = { .ip = true,
				  .group = group != 0,
				  .dscp = tos >> 2,
				  .indev = indev };
	struct flower_verdict v;
	struct side s;

	ck_assert_int_ge(flower_eval(l, &pkt, &v), 0);
	s.lossless = v.act == FLOWER_LOSSLESS;
	s.prio = v.prio;
	s.reason = v.reason;
	s.tos = (uint8_t)(v.dscp << 2 | (tos & 3));
	*dscp_out = v.dscp;
	return s;
}

#define SAME(what, bpf, fl)                                                    \
	ck_assert_msg((bpf) == (fl),                                           \
		      "%s: switch %s, in %d, out %d, tos 0x%02x, v6 %d, vlan " \
		      "%d, group %d: bpf %d, flower %d",                       \
		      what, w->r->sw[w->sw].name, in, out, tos, v6, vlan,      \
		      group, (int)(bpf), (int)(fl))

/* One packet from in (or, in < 0, from elsewhere) to out, both ways. */
static void one(struct world *w, int in, int out, int v6, int vlan, int group,
		uint8_t tos)
{
	struct side bi = { 0 }, fi = { 0 }, be, fe;
	const uint8_t arrived = tos;
	uint32_t mark = 0;
	int dscp = tos >> 2;
	struct pkt p;

	build(&p, v6, vlan, group, tos);
	if (in >= 0) {
		bi = bpf_ingress(w, in, &p);
		fi = model(&w->fl[in].in, FLOWER_ANY, group, tos, &dscp);
		SAME("ingress lossless", bi.lossless, fi.lossless);
		SAME("ingress priority", bi.prio, fi.prio);
		SAME("ingress reason", bi.reason, fi.reason);
		mark = TAGGER_MARK(bi.lossless, bi.prio);
	}
	be = bpf_egress(w, in, out, &p, mark, v6);
	fe = model(&w->fl[out].out, in < 0 ? FLOWER_ANY : in, group,
		   (uint8_t)(dscp << 2 | (tos & 3)), &dscp);
	SAME("leaving tos", be.tos, fe.tos);
	SAME("egress priority", be.prio, fe.prio);
	SAME("egress reason", be.reason, fe.reason);
	/* An egress stage that sees the DSCP as it arrived, not as rewritten. */
	fe = model(&w->fl[out].out, in < 0 ? FLOWER_ANY : in, group, arrived,
		   &dscp);
	/* (Its only filter that keeps the DSCP matches the lossy tag, which
	 * ingress never changes, so what it answers is what leaves.) */
	SAME("leaving tos (egress sees the arriving DSCP)", be.tos, fe.tos);
	SAME("egress priority (egress sees the arriving DSCP)", be.prio,
	     fe.prio);
	w->runs++;
}

static void every_packet(struct world *w)
{
	int n = w->r->sw[w->sw].nports, in, out, v6, vlan, group, d;

	for (out = 0; out < n; out++)
		for (in = -1; in < n; in++)
			for (d = 0; d < RULES_NTAGS; d++)
				for (v6 = 0; v6 < 2; v6++)
					for (group = 0; group < 3; group++) {
						vlan = (d + group) & 1;
						one(w, in, out, v6, vlan, group,
						    (uint8_t)(d << 2 |
							      (d & 3)));
					}
}

static struct rules *rules_of(const char *file)
{
	json_error_t e;
	json_t *root = json_load_file(file, 0, &e);
	struct rules *r;

	ck_assert_msg(root, "%s: %s", file, e.text);
	r = rules_from_json(root, file);
	json_decref(root);
	ck_assert_ptr_nonnull(r);
	return r;
}

static void every_switch(const char *file)
{
	struct world w = { .r = rules_of(file) };
	long total = 0;

	for (w.sw = 0; w.sw < w.r->nsw; w.sw++) {
		load(&w);
		every_packet(&w);
		unload(&w);
		total += w.runs;
		w.runs = 0;
	}
	ck_assert_int_gt(total, 0);
	rules_free(w.r);
}

START_TEST(flower_lists_answer_as_bpf_on_wildcard_rules)
{
	NEED_ROOT();
	every_switch(FIXTURES "wildcards.rules.json");
}
END_TEST

START_TEST(flower_lists_answer_as_bpf_on_a_clos_with_bounces)
{
	NEED_ROOT();
	every_switch(FIXTURES "clos_bounce.rules.json");
}
END_TEST

START_TEST(flower_lists_answer_as_bpf_on_compressed_rules)
{
	NEED_ROOT();
	every_switch(FIXTURES "clos_bounce_compressed.rules.json");
}
END_TEST

START_TEST(flower_lists_answer_as_bpf_on_a_ring_with_two_classes)
{
	NEED_ROOT();
	every_switch(FIXTURES "ring_2classes.rules.json");
}
END_TEST

Suite *flower_model_suite(void)
{
	Suite *s = suite_create("flower_model");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, flower_lists_answer_as_bpf_on_wildcard_rules);
	tcase_add_test(tc, flower_lists_answer_as_bpf_on_a_clos_with_bounces);
	tcase_add_test(tc, flower_lists_answer_as_bpf_on_compressed_rules);
	tcase_add_test(tc,
		       flower_lists_answer_as_bpf_on_a_ring_with_two_classes);
	suite_add_tcase(s, tc);
	return s;
}
