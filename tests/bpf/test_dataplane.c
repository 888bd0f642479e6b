// SPDX-License-Identifier: GPL-2.0
/*
 * The switch port and host programs under BPF_PROG_TEST_RUN: crafted
 * packets in, rewritten packets, skb priority and mark, counters out.
 * Rule tables come from a rules JSON through the loader's own code
 * (rules_from_json + dp_table_build/create/install). Skips without root.
 *
 * Ports: "a" is ifindex 1 (lo: test runs need a real device for the port
 * the program runs on), "b" is ifindex 7 (only ever the ingress port seen
 * from egress, which needs no device).
 */
#include <check.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "dp_pkt.h"
#include "dp_run.h"
#include "dataplane/dp_table.h"
#include "tagger_host.skel.h"
#include "tagger_port.skel.h"
#include "tagger_skb.h"

#define IF_A 1
#define IF_B 7
#define SLOT_A 1
#define SLOT_B 2
#define NEXT 0xffffffffu

static const char *rules_json =
	"{\"format\":\"tagger-rules/1\",\"lossy\":{\"tag\":0,\"priority\":0},"
	"\"tags\":[{\"tag\":10,\"priority\":3},{\"tag\":20,\"priority\":4},"
	"{\"tag\":30,\"priority\":5}],"
	"\"hosts\":{\"h1\":{\"tag\":10}},"
	"\"switches\":{\"S\":{\"ports\":[\"a\",\"b\"],"
	"\"classify\":[{\"in\":\"a\",\"tag\":10,\"priority\":3},"
	"{\"in\":\"*\",\"tag\":20,\"priority\":4}],"
	"\"rewrite\":[{\"tag\":10,\"in\":\"b\",\"out\":\"a\",\"new_tag\":20},"
	"{\"tag\":20,\"in\":\"*\",\"out\":\"*\",\"new_tag\":30},"
	"{\"tag\":20,\"in\":\"b\",\"out\":\"a\",\"new_tag\":0},"
	"{\"tag\":30,\"in\":\"b\",\"out\":\"*\",\"new_tag\":30}]}}}";

/* The same switch with tag 10 rewritten to 30 instead of 20. */
static const char *rules2_json =
	"{\"format\":\"tagger-rules/1\",\"lossy\":{\"tag\":0,\"priority\":0},"
	"\"tags\":[{\"tag\":10,\"priority\":3},{\"tag\":20,\"priority\":4},"
	"{\"tag\":30,\"priority\":5}],"
	"\"switches\":{\"S\":{\"ports\":[\"a\",\"b\"],"
	"\"classify\":[{\"in\":\"a\",\"tag\":10,\"priority\":3}],"
	"\"rewrite\":[{\"tag\":10,\"in\":\"b\",\"out\":\"a\",\"new_tag\":30}]}}}";

static struct tagger_port_bpf *skel;

static struct rules *rules_str(const char *s)
{
	json_error_t e;
	json_t *root = json_loads(s, 0, &e);
	struct rules *r;

	ck_assert_ptr_nonnull(root);
	r = rules_from_json(root, "t.json");
	json_decref(root);
	ck_assert_ptr_nonnull(r);
	return r;
}

static struct dp_port ports[2] = {
	{ .name = "a", .ifindex = IF_A, .slot = SLOT_A },
	{ .name = "b", .ifindex = IF_B, .slot = SLOT_B },
};

static int table_from(const char *json, struct dp_table *tab)
{
	struct rules *r = rules_str(json);
	int sw = rules_find_switch(r, "S");

	ck_assert_int_ge(sw, 0);
	ck_assert_int_eq(rules_find_port(r, sw, "a"), 0);
	dp_table_build(r, sw, ports, tab);
	rules_free(r);
	return 0;
}

static void install(const char *json, int first)
{
	struct dp_table tab;
	int fd;

	table_from(json, &tab);
	fd = dp_table_create(&tab);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_ge(dp_table_install(bpf_map__fd(skel->maps.tagger_rules),
					  bpf_map__fd(skel->maps.tagger_gen),
					  fd, first),
			 0);
	close(fd); /* the outer map holds it */
	dp_table_free(&tab);
}

static void setup(void)
{
	struct bpf_map *m;
	int tmpl;

	if (geteuid())
		return;
	skel = tagger_port_bpf__open();
	ck_assert_ptr_nonnull(skel);
	bpf_object__for_each_map(m, skel->obj) bpf_map__set_pin_path(m, NULL);
	tmpl = dp_prepare(skel, 2);
	ck_assert_int_ge(tmpl, 0);
	ck_assert_int_eq(tagger_port_bpf__load(skel), 0);
	close(tmpl);
	ck_assert_int_eq(
		dp_ifslots_set(bpf_map__fd(skel->maps.tagger_ifslot), ports, 2),
		0);
	install(rules_json, 1);
}

static void teardown(void)
{
	tagger_port_bpf__destroy(skel);
	skel = NULL;
}

static struct run ingress(const struct pkt *p)
{
	return pkt_run(skel->progs.tagger_ingress, p, IF_A, IF_A, 0, 7);
}

static struct run egress(const struct pkt *p, uint32_t mark)
{
	return pkt_run(skel->progs.tagger_egress, p, IF_A, IF_B, mark, 7);
}

static uint64_t percpu_sum(struct bpf_map *m, uint32_t idx, size_t off)
{
	int ncpu = libbpf_num_possible_cpus();
	size_t vs = bpf_map__value_size(m);
	uint8_t *v = calloc(ncpu, (vs + 7) & ~7ul);
	uint64_t sum = 0;

	ck_assert_int_eq(bpf_map_lookup_elem(bpf_map__fd(m), &idx, v), 0);
	for (int c = 0; c < ncpu; c++)
		sum += *(uint64_t *)(v + c * ((vs + 7) & ~7ul) + off);
	free(v);
	return sum;
}

static uint64_t counter(uint32_t slot, uint32_t dir, uint32_t dscp,
			int lossless)
{
	return percpu_sum(skel->maps.tagger_counters,
			  tagger_counter_index(slot, dir, dscp, lossless), 0);
}

static uint64_t lossy(uint32_t slot, int reason)
{
	return percpu_sum(skel->maps.tagger_port_stats, slot,
			  offsetof(struct tagger_port_stats, lossy[reason]));
}

static uint64_t port_stat(uint32_t slot, size_t off)
{
	return percpu_sum(skel->maps.tagger_port_stats, slot, off);
}

#define TOS(dscp, ecn) ((uint8_t)((dscp) << 2 | (ecn)))

START_TEST(ipv4_tag_is_classified_into_its_priority)
{
	struct pkt p;
	struct run r;

	NEED_ROOT();
	pkt_build(&p, PKT_V4, 0, TOS(10, 1), 0, 9);
	r = ingress(&p);
	ck_assert_uint_eq(r.ret, NEXT);
	ck_assert_uint_eq(r.ctx.priority, 3);
	ck_assert_uint_eq(r.ctx.mark, TAGGER_MARK(1, 3));
	ck_assert_mem_eq(r.out.b, p.b, p.len); /* ingress never rewrites */
	ck_assert_uint_eq(counter(SLOT_A, TAGGER_DIR_IN, 10, 1), 1);
}
END_TEST

START_TEST(vlan_and_ipv6_are_classified_too)
{
	struct pkt p;
	struct run r;

	NEED_ROOT();
	pkt_build(&p, PKT_V4, 1, TOS(20, 3), 0, 9);
	r = ingress(&p);
	ck_assert_uint_eq(r.ctx.priority, 4); /* wildcard in "*" */
	ck_assert_uint_eq(r.ctx.mark, TAGGER_MARK(1, 4));
	pkt_build(&p, PKT_V6, 0, TOS(10, 0), 0, 9);
	r = ingress(&p);
	ck_assert_uint_eq(r.ctx.priority, 3);
	pkt_build(&p, PKT_V6, 1, TOS(20, 2), 0, 9);
	r = ingress(&p);
	ck_assert_uint_eq(r.ctx.priority, 4);
	ck_assert_uint_eq(counter(SLOT_A, TAGGER_DIR_IN, 20, 1), 2);
	ck_assert_uint_eq(counter(SLOT_A, TAGGER_DIR_IN, 10, 1), 1);
}
END_TEST

START_TEST(unknown_tag_is_lossy_and_counted_as_demotion)
{
	struct pkt p;
	struct run r;

	NEED_ROOT();
	pkt_build(&p, PKT_V4, 0, TOS(11, 0), 0, 9);
	r = ingress(&p);
	ck_assert_uint_eq(r.ret, NEXT);
	ck_assert_uint_eq(r.ctx.priority, 0);
	ck_assert_uint_eq(r.ctx.mark, TAGGER_MARK(0, 0));
	ck_assert_uint_eq(lossy(SLOT_A, TAGGER_LOSSY_NO_CLASSIFY), 1);
	ck_assert_uint_eq(counter(SLOT_A, TAGGER_DIR_IN, 11, 0), 1);
	/* Already lossy on arrival: lossy, but no demotion here. */
	pkt_build(&p, PKT_V4, 0, TOS(0, 0), 0, 9);
	r = ingress(&p);
	ck_assert_uint_eq(r.ctx.mark, TAGGER_MARK(0, 0));
	ck_assert_uint_eq(lossy(SLOT_A, TAGGER_LOSSY_NO_CLASSIFY), 1);
}
END_TEST

/*
 * Safety rule 2 of the Flattened Clos paper: broadcast and multicast are
 * never lossless, whatever their tag; a unicast with the same tag is.
 */
START_TEST(group_addressed_packets_are_demoted_at_ingress)
{
	static const char v6_mcast[16] =
		"\xff\x02\0\0\0\0\0\0\0\0\0\0\0\0\0\x01";
	struct pkt p;
	struct run r;
	int k;

	NEED_ROOT();
	for (k = 0; k < 5; k++) {
		pkt_build(&p, k < 3 ? PKT_V4 : PKT_V6, k == 4, TOS(10, 1), 0,
			  9);
		if (k == 0)
			pkt_dst4(&p, "\xe0\x00\x00\xfb"); /* 224.0.0.251 */
		else if (k == 1)
			pkt_dst4(&p, "\xef\xff\xff\xfa"); /* 239.255.255.250 */
		else if (k == 2)
			pkt_dst4(&p, "\xff\xff\xff\xff");
		else
			pkt_dst6(&p, v6_mcast);
		r = ingress(&p);
		ck_assert_uint_eq(r.ret, NEXT);
		ck_assert_uint_eq(r.ctx.priority, 0);
		ck_assert_uint_eq(r.ctx.mark, TAGGER_MARK(0, 0));
		ck_assert_uint_eq(lossy(SLOT_A, TAGGER_LOSSY_MULTICAST), k + 1);
	}
	/* Broadcast and multicast MACs, unicast IP: the frame is still copied. */
	pkt_build(&p, PKT_V4, 0, TOS(10, 0), 0, 9);
	pkt_dmac(&p, "\xff\xff\xff\xff\xff\xff");
	ck_assert_uint_eq(ingress(&p).ctx.priority, 0);
	pkt_build(&p, PKT_V6, 0, TOS(10, 0), 0, 9);
	pkt_dmac(&p, "\x33\x33\x00\x00\x00\x01");
	ck_assert_uint_eq(ingress(&p).ctx.priority, 0);
	ck_assert_uint_eq(lossy(SLOT_A, TAGGER_LOSSY_MULTICAST), 7);
	ck_assert_uint_eq(counter(SLOT_A, TAGGER_DIR_IN, 10, 0), 7);
	ck_assert_uint_eq(lossy(SLOT_A, TAGGER_LOSSY_NO_CLASSIFY), 0);
	/* Egress then rewrites it to the lossy tag, as any lossy packet. */
	r = egress(&p, TAGGER_MARK(0, 0));
	ck_assert_uint_eq(pkt_tos(&r.out), TOS(0, 0));
	/* The same tag to a unicast address stays lossless. */
	pkt_build(&p, PKT_V4, 0, TOS(10, 1), 0, 9);
	pkt_dst4(&p, "\xdf\xff\xff\xfe"); /* 223.255.255.254 */
	r = ingress(&p);
	ck_assert_uint_eq(r.ctx.priority, 3);
	ck_assert_uint_eq(r.ctx.mark, TAGGER_MARK(1, 3));
	pkt_build(&p, PKT_V6, 0, TOS(10, 1), 0, 9);
	r = ingress(&p);
	ck_assert_uint_eq(r.ctx.priority, 3);
	ck_assert_uint_eq(lossy(SLOT_A, TAGGER_LOSSY_MULTICAST), 7);
	ck_assert_uint_eq(counter(SLOT_A, TAGGER_DIR_IN, 10, 1), 2);
	/* A multicast that arrived lossy is no demotion. */
	pkt_build(&p, PKT_V4, 0, TOS(0, 0), 0, 9);
	pkt_dst4(&p, "\xe0\x00\x00\x01");
	ck_assert_uint_eq(ingress(&p).ctx.priority, 0);
	ck_assert_uint_eq(lossy(SLOT_A, TAGGER_LOSSY_MULTICAST), 7);
}
END_TEST

START_TEST(egress_rewrites_dscp_keeps_ecn_and_checksum)
{
	uint8_t ecn;
	struct pkt p;
	struct run r;

	NEED_ROOT();
	for (ecn = 0; ecn < 4; ecn++) {
		pkt_build(&p, PKT_V4, 0, TOS(10, ecn), 0, 9);
		r = egress(&p, TAGGER_MARK(1, 3));
		ck_assert_uint_eq(r.ret, NEXT);
		ck_assert_uint_eq(pkt_tos(&r.out), TOS(20, ecn));
		ck_assert(ip_csum_ok(&r.out));
		ck_assert_uint_eq(r.ctx.priority, 4); /* tag 20's priority */
		ck_assert_uint_eq(r.ctx.mark, TAGGER_MARK(1, 3));
		/* Nothing but the TOS byte and the checksum changed. */
		r.out.b[p.l3 + 1] = p.b[p.l3 + 1];
		r.out.b[p.l3 + 10] = p.b[p.l3 + 10];
		r.out.b[p.l3 + 11] = p.b[p.l3 + 11];
		ck_assert_mem_eq(r.out.b, p.b, p.len);
	}
	ck_assert_uint_eq(counter(SLOT_A, TAGGER_DIR_OUT, 20, 1), 4);
}
END_TEST

START_TEST(ip_options_and_vlan_keep_a_valid_checksum)
{
	struct pkt p;
	struct run r;
	int opts;

	NEED_ROOT();
	for (opts = 1; opts <= 10; opts += 3) {
		pkt_build(&p, PKT_V4, opts & 1, TOS(10, 2), opts, 9);
		r = egress(&p, TAGGER_MARK(1, 3));
		ck_assert_uint_eq(pkt_tos(&r.out), TOS(20, 2));
		ck_assert(ip_csum_ok(&r.out));
	}
}
END_TEST

START_TEST(ipv6_rewrite_keeps_ecn_and_flow_label)
{
	struct pkt p;
	struct run r;

	NEED_ROOT();
	pkt_build(&p, PKT_V6, 1, TOS(10, 3), 0, 9);
	r = egress(&p, TAGGER_MARK(1, 3));
	ck_assert_uint_eq(pkt_tos(&r.out), TOS(20, 3));
	ck_assert_uint_eq(r.out.b[r.out.l3] >> 4, 6);
	ck_assert_uint_eq(r.out.b[r.out.l3 + 1] & 15, 0x0a);
	ck_assert_uint_eq(r.out.b[r.out.l3 + 2], 0xbc);
	ck_assert_uint_eq(r.ctx.priority, 4);
}
END_TEST

START_TEST(egress_miss_and_lossy_rule_demote_to_the_lossy_tag)
{
	struct pkt p;
	struct run r;

	NEED_ROOT();
	/* Tag 30 has no rule from b to a... it does: (30, b, *) -> 30. */
	pkt_build(&p, PKT_V4, 0, TOS(30, 1), 0, 9);
	r = egress(&p, TAGGER_MARK(1, 5));
	ck_assert_uint_eq(pkt_tos(&r.out), TOS(30, 1));
	ck_assert_uint_eq(r.ctx.priority, 5);
	/* Tag 12: no rule at all -> lossy tag 0, lossy priority 0. */
	pkt_build(&p, PKT_V4, 0, TOS(12, 1), 0, 9);
	r = egress(&p, TAGGER_MARK(1, 3));
	ck_assert_uint_eq(pkt_tos(&r.out), TOS(0, 1));
	ck_assert(ip_csum_ok(&r.out));
	ck_assert_uint_eq(r.ctx.priority, 0);
	ck_assert_uint_eq(lossy(SLOT_A, TAGGER_LOSSY_NO_REWRITE), 1);
	/* (20, b, a) is an explicit lossy exception under (20, *, *). */
	pkt_build(&p, PKT_V4, 0, TOS(20, 0), 0, 9);
	r = egress(&p, TAGGER_MARK(1, 4));
	ck_assert_uint_eq(pkt_tos(&r.out), TOS(0, 0));
	ck_assert_uint_eq(lossy(SLOT_A, TAGGER_LOSSY_REWRITE), 1);
	/* Lossy since ingress: lossy tag, not another demotion. */
	pkt_build(&p, PKT_V4, 0, TOS(10, 0), 0, 9);
	r = egress(&p, TAGGER_MARK(0, 0));
	ck_assert_uint_eq(pkt_tos(&r.out), TOS(0, 0));
	ck_assert_uint_eq(lossy(SLOT_A, TAGGER_LOSSY_NO_REWRITE), 1);
	/* Never classified by a tagger ingress (local traffic): lossy. */
	r = egress(&p, 0);
	ck_assert_uint_eq(pkt_tos(&r.out), TOS(0, 0));
	ck_assert_uint_eq(lossy(SLOT_A, TAGGER_LOSSY_UNCLASSIFIED), 1);
	ck_assert_uint_eq(counter(SLOT_A, TAGGER_DIR_OUT, 0, 0), 4);
}
END_TEST

/*
 * Every cut of a VLAN-tagged IPv4 and IPv6 packet: short of the VLAN tag it
 * is not IP (untouched), short of the IP header it is lossy, else it is
 * classified. (Untagged IP shorter than its header cannot be test-run: the
 * kernel refuses it; behind a VLAN tag it can.)
 */
START_TEST(truncated_headers_never_read_past_the_end)
{
	static const int kinds[] = { PKT_V4, PKT_V6 };
	struct pkt p, q;
	struct run r;
	unsigned k;
	int cut, hdr;

	NEED_ROOT();
	for (k = 0; k < 2; k++) {
		pkt_build(&p, kinds[k], 1, TOS(10, 0), 0, 9);
		hdr = p.l3 + (kinds[k] == PKT_V4 ? 20 : 40);
		for (cut = 14; cut < p.len; cut++) {
			q = p;
			q.len = cut;
			r = ingress(&q);
			ck_assert_uint_eq(r.ret, NEXT);
			if (cut < p.l3) {
				ck_assert_uint_eq(r.ctx.priority, 7);
				ck_assert_uint_eq(r.ctx.mark, 0);
			} else if (cut < hdr) {
				ck_assert_uint_eq(r.ctx.priority, 0);
				ck_assert_uint_eq(r.ctx.mark,
						  TAGGER_MARK(0, 0));
			} else {
				ck_assert_uint_eq(r.ctx.mark,
						  TAGGER_MARK(1, 3));
			}
			r = egress(&q, TAGGER_MARK(1, 3));
			ck_assert_uint_eq(r.ret, NEXT);
			ck_assert_int_eq(r.out.len, cut);
			if (cut < hdr)
				ck_assert_mem_eq(r.out.b, q.b, q.len);
			else
				ck_assert_uint_eq(pkt_tos(&r.out), TOS(20, 0));
		}
	}
	ck_assert_uint_eq(lossy(SLOT_A, TAGGER_LOSSY_BAD_HEADER), 20 + 40);
	/* An IHL that claims more than the packet holds, and one below 5. */
	pkt_build(&p, PKT_V4, 0, TOS(10, 0), 0, 9);
	p.b[p.l3] = 0x4f;
	r = ingress(&p);
	ck_assert_uint_eq(r.ctx.mark, TAGGER_MARK(0, 0));
	p.b[p.l3] = 0x44;
	r = ingress(&p);
	ck_assert_uint_eq(r.ctx.mark, TAGGER_MARK(0, 0));
	ck_assert_uint_eq(lossy(SLOT_A, TAGGER_LOSSY_BAD_HEADER), 62);
}
END_TEST

START_TEST(non_ip_passes_untouched_and_pfc_is_counted)
{
	struct pkt p;
	struct run r;

	NEED_ROOT();
	pkt_build(&p, PKT_ARP, 0, 0, 0, 0);
	r = ingress(&p);
	ck_assert_uint_eq(r.ret, NEXT);
	ck_assert_uint_eq(r.ctx.priority, 7);
	ck_assert_uint_eq(r.ctx.mark, 0);
	ck_assert_mem_eq(r.out.b, p.b, p.len);
	ck_assert_uint_eq(
		port_stat(SLOT_A, offsetof(struct tagger_port_stats, non_ip)),
		1);
	pkt_build(&p, PKT_PFC, 0, 0, 0, 0);
	r = ingress(&p);
	ck_assert_uint_eq(r.ret, NEXT); /* handed on to the pause machinery */
	ck_assert_uint_eq(r.ctx.mark, 0);
	ck_assert_mem_eq(r.out.b, p.b, p.len);
	ck_assert_uint_eq(port_stat(SLOT_A, offsetof(struct tagger_port_stats,
						     pfc_frames)),
			  1);
	p.b[14] = 0x00; /* opcode 0x0001: 802.3x PAUSE */
	ingress(&p);
	ck_assert_uint_eq(port_stat(SLOT_A, offsetof(struct tagger_port_stats,
						     pause_frames)),
			  1);
	r = egress(&p, 0);
	ck_assert_mem_eq(r.out.b, p.b, p.len);
}
END_TEST

/* 802.1ad outer + 802.1Q inner, and two 802.1Q tags: the IP inside counts. */
START_TEST(qinq_is_classified_and_rewritten)
{
	static const uint16_t outer[] = { 0x88a8, 0x8100 };
	struct pkt p;
	struct run r;
	unsigned k;

	NEED_ROOT();
	for (k = 0; k < 2; k++) {
		pkt_build(&p, PKT_V4, 1, TOS(10, 1), 0, 9);
		pkt_push_vlan(&p, outer[k]);
		ck_assert_int_eq(p.l3, 22);
		r = ingress(&p);
		ck_assert_uint_eq(r.ret, NEXT);
		ck_assert_uint_eq(r.ctx.priority, 3);
		ck_assert_uint_eq(r.ctx.mark, TAGGER_MARK(1, 3));
		r = egress(&p, TAGGER_MARK(1, 3));
		ck_assert_uint_eq(pkt_tos(&r.out), TOS(20, 1));
		ck_assert(ip_csum_ok(&r.out));
		ck_assert_uint_eq(r.ctx.priority, 4);
		pkt_build(&p, PKT_V6, 1, TOS(10, 2), 0, 9);
		pkt_push_vlan(&p, outer[k]);
		r = ingress(&p);
		ck_assert_uint_eq(r.ctx.mark, TAGGER_MARK(1, 3));
		r = egress(&p, r.ctx.mark);
		ck_assert_uint_eq(pkt_tos(&r.out), TOS(20, 2));
	}
	ck_assert_uint_eq(counter(SLOT_A, TAGGER_DIR_IN, 10, 1), 4);
	ck_assert_uint_eq(
		port_stat(SLOT_A, offsetof(struct tagger_port_stats, non_ip)),
		0);
	/* A third tag is beyond the parser: passed untouched as non-IP. */
	pkt_build(&p, PKT_V4, 1, TOS(10, 1), 0, 9);
	pkt_push_vlan(&p, 0x8100);
	pkt_push_vlan(&p, 0x88a8);
	r = ingress(&p);
	ck_assert_uint_eq(r.ctx.mark, 0);
	ck_assert_uint_eq(
		port_stat(SLOT_A, offsetof(struct tagger_port_stats, non_ip)),
		1);
}
END_TEST

/*
 * A switch classifies and rewrites by the IP header alone: every fragment
 * of a datagram (first, middle, last) gets the same priority and tag.
 */
START_TEST(ipv4_fragments_are_classified_alike)
{
	static const struct {
		int mf;
		uint16_t off;
	} f[] = {
		{ 1, 0 },
		{ 1, 185 },
		{ 0, 370 },
	};
	struct pkt p;
	struct run r;
	unsigned k;

	NEED_ROOT();
	for (k = 0; k < 3; k++) {
		pkt_build(&p, PKT_V4, 0, TOS(10, 0), 0, 9);
		pkt_frag4(&p, f[k].mf, f[k].off);
		r = ingress(&p);
		ck_assert_uint_eq(r.ctx.priority, 3);
		ck_assert_uint_eq(r.ctx.mark, TAGGER_MARK(1, 3));
		r = egress(&p, r.ctx.mark);
		ck_assert_uint_eq(pkt_tos(&r.out), TOS(20, 0));
		ck_assert(ip_csum_ok(&r.out));
		ck_assert_uint_eq(r.out.b[p.l3 + 6],
				  p.b[p.l3 + 6]); /* flags kept */
		ck_assert_uint_eq(r.out.b[p.l3 + 7], p.b[p.l3 + 7]);
	}
	ck_assert_uint_eq(counter(SLOT_A, TAGGER_DIR_IN, 10, 1), 3);
}
END_TEST

/* IPv6 extension headers do not move the traffic class: same verdicts. */
START_TEST(ipv6_extension_headers_are_classified_alike)
{
	static const struct {
		uint8_t nh;
		int mf;
		uint16_t off;
	} e[] = {
		{ 0, 0, 0 },  { 43, 0, 0 },   { 60, 0, 0 },
		{ 44, 1, 0 }, { 44, 0, 100 },
	};
	struct pkt p;
	struct run r;
	unsigned k;

	NEED_ROOT();
	for (k = 0; k < 5; k++) {
		pkt_build(&p, PKT_V6, k & 1, TOS(10, 3), 0, 9);
		pkt_ext6(&p, e[k].nh, e[k].mf, e[k].off);
		r = ingress(&p);
		ck_assert_uint_eq(r.ctx.priority, 3);
		ck_assert_uint_eq(r.ctx.mark, TAGGER_MARK(1, 3));
		r = egress(&p, r.ctx.mark);
		ck_assert_uint_eq(pkt_tos(&r.out), TOS(20, 3));
		ck_assert_uint_eq(r.ctx.priority, 4);
		ck_assert_mem_eq(r.out.b + p.l3 + 2, p.b + p.l3 + 2,
				 p.len - p.l3 - 2);
	}
	/* Hop-by-hop, then routing, then a fragment header. */
	pkt_build(&p, PKT_V6, 0, TOS(20, 0), 0, 9);
	pkt_ext6(&p, 44, 0, 7);
	pkt_ext6(&p, 43, 0, 0);
	pkt_ext6(&p, 0, 0, 0);
	r = ingress(&p);
	ck_assert_uint_eq(r.ctx.mark, TAGGER_MARK(1, 4));
}
END_TEST

START_TEST(a_packet_is_rewritten_by_the_rules_that_classified_it)
{
	struct pkt p;
	struct run in_old, in_new, r;

	NEED_ROOT();
	pkt_build(&p, PKT_V4, 0, TOS(10, 0), 0, 9);
	in_old = ingress(&p);
	ck_assert_uint_eq(in_old.ctx.mark & TAGGER_MARK_GEN, 0);
	install(rules2_json, 0); /* generation 1, slot 1 */
	in_new = ingress(&p);
	ck_assert_uint_eq(in_new.ctx.mark, TAGGER_MARK(1, 3) | TAGGER_MARK_GEN);
	/* Classified before the swap: the old rewrite (10 -> 20). */
	r = egress(&p, in_old.ctx.mark);
	ck_assert_uint_eq(pkt_tos(&r.out), TOS(20, 0));
	/* After: the new one (10 -> 30). */
	r = egress(&p, in_new.ctx.mark);
	ck_assert_uint_eq(pkt_tos(&r.out), TOS(30, 0));
	ck_assert_uint_eq(r.ctx.priority, 5);
	install(rules_json, 0); /* generation 2, slot 0 again */
	r = egress(&p, ingress(&p).ctx.mark);
	ck_assert_uint_eq(pkt_tos(&r.out), TOS(20, 0));
}
END_TEST

START_TEST(other_mark_bits_survive_classification)
{
	struct pkt p;
	struct run r;

	NEED_ROOT();
	pkt_build(&p, PKT_V4, 0, TOS(10, 0), 0, 9);
	r = pkt_run(skel->progs.tagger_ingress, &p, IF_A, IF_A, 0x1234500 | 7,
		    7);
	ck_assert_uint_eq(r.ctx.mark, 0x1234500 | TAGGER_MARK(1, 3));
}
END_TEST

START_TEST(wildcards_expand_most_specific_first)
{
	struct dp_table tab;
	size_t k;
	int seen = 0;
	uint32_t in, out, rest;

	table_from(rules_json, &tab);
	ck_assert_uint_eq(tab.nslots, 3);
	ck_assert_uint_eq(tab.size, tagger_table_size(3));
	/* lossy entry + classify (a,10), (a,20), (b,20) + rewrite 10:(b,a),
	 * 20:(*,*) over 4 pairs, 30:(b,a),(b,b). */
	ck_assert_uint_eq(tab.n, 1 + 3 + 1 + 4 + 2);
	ck_assert_uint_eq(tab.nclassify, 3);
	ck_assert_uint_eq(tab.idx[0], 0);
	for (k = 0; k < tab.n; k++) {
		const struct tagger_rule_val *v = &tab.vals[k];

		ck_assert_uint_lt(tab.idx[k], tab.size);
		if (tab.idx[k] < tab.nslots * TAGGER_DSCP_MAX)
			continue; /* classify */
		rest = tab.idx[k] / TAGGER_DSCP_MAX - tab.nslots;
		in = rest / tab.nslots;
		out = rest % tab.nslots;
		ck_assert_uint_eq(
			tab.idx[k],
			tagger_rewrite_index(3, in, out, tab.idx[k] % 64));
		if (tab.idx[k] % 64 != 20)
			continue;
		seen++;
		if (in == SLOT_B && out == SLOT_A) {
			ck_assert_uint_eq(
				v->flags,
				TAGGER_F_RULE); /* exact lossy beats (*,*) */
			ck_assert_uint_eq(v->dscp, 0);
		} else {
			ck_assert_uint_eq(v->flags,
					  TAGGER_F_LOSSLESS | TAGGER_F_RULE);
			ck_assert_uint_eq(v->dscp, 30);
			ck_assert_uint_eq(v->prio, 5);
		}
	}
	ck_assert_int_eq(seen, 4);
	dp_table_free(&tab);
}
END_TEST

static struct tagger_host_bpf *host_load(void)
{
	struct tagger_host_tag t = { .set = 1, .dscp = 10, .prio = 3 };
	struct tagger_host_cfg cfg = { .udp_lo = 4791, .udp_hi = 4791 };
	struct tagger_host_bpf *h;
	struct bpf_map *m;
	uint32_t idx;

	h = tagger_host_bpf__open();
	ck_assert_ptr_nonnull(h);
	bpf_object__for_each_map(m, h->obj) bpf_map__set_pin_path(m, NULL);
	ck_assert_int_eq(tagger_host_bpf__load(h), 0);
	idx = TAGGER_HOST_UDP_ENTRY;
	ck_assert_int_eq(
		bpf_map_update_elem(bpf_map__fd(h->maps.tagger_host_tags), &idx,
				    &t, 0),
		0);
	idx = 0;
	ck_assert_int_eq(
		bpf_map_update_elem(bpf_map__fd(h->maps.tagger_host_cfg), &idx,
				    &cfg, 0),
		0);
	return h;
}

static uint8_t host_tos(struct tagger_host_bpf *h, const struct pkt *p)
{
	struct run r = pkt_run(h->progs.tagger_host_egress, p, IF_A, 0, 0, 7);

	return pkt_tos(&r.out);
}

/*
 * --udp-dport: only a later fragment's first bytes would be read as the
 * port, so no fragment of a datagram can be matched by port, and a
 * fragmented datagram is never lossless: the first fragment stays as sent
 * too (MF set or offset != 0: not matched). IPv6 extension headers are
 * walked to the UDP header; a fragment header is a fragment unless atomic.
 */
START_TEST(host_udp_selector_never_matches_a_fragment)
{
	struct tagger_host_bpf *h;
	struct pkt p;

	NEED_ROOT();
	h = host_load();
	pkt_build(&p, PKT_V4, 0, TOS(0, 1), 0, 4791);
	ck_assert_uint_eq(host_tos(h, &p), TOS(10, 1)); /* whole: matched */
	pkt_frag4(&p, 1, 0);
	ck_assert_uint_eq(host_tos(h, &p), TOS(0, 1)); /* first fragment */
	pkt_frag4(&p, 0, 3); /* last fragment whose data looks like 4791 */
	ck_assert_uint_eq(host_tos(h, &p), TOS(0, 1));
	pkt_frag4(&p, 1, 3);
	ck_assert_uint_eq(host_tos(h, &p), TOS(0, 1));
	pkt_build(&p, PKT_V4, 1, TOS(0, 1), 0, 4791);
	p.b[p.l3 + 6] = 0x40; /* DF only: not a fragment */
	pkt_frag4(&p, 0, 0);
	ck_assert_uint_eq(host_tos(h, &p), TOS(10, 1));

	pkt_build(&p, PKT_V6, 0, TOS(0, 2), 0, 4791);
	pkt_ext6(&p, 43, 0, 0);
	pkt_ext6(&p, 0, 0, 0);
	ck_assert_uint_eq(host_tos(h, &p), TOS(10, 2)); /* HBH, routing, UDP */
	pkt_build(&p, PKT_V6, 0, TOS(0, 2), 0, 4791);
	pkt_ext6(&p, 60, 0, 0);
	ck_assert_uint_eq(host_tos(h, &p), TOS(10, 2));
	pkt_build(&p, PKT_V6, 0, TOS(0, 2), 0, 4791);
	pkt_ext6(&p, 44, 0, 0); /* atomic fragment: the whole datagram */
	ck_assert_uint_eq(host_tos(h, &p), TOS(10, 2));
	pkt_build(&p, PKT_V6, 0, TOS(0, 2), 0, 4791);
	pkt_ext6(&p, 44, 1, 0); /* first fragment */
	ck_assert_uint_eq(host_tos(h, &p), TOS(0, 2));
	pkt_build(&p, PKT_V6, 0, TOS(0, 2), 0, 4791);
	pkt_ext6(&p, 44, 0, 9); /* last fragment */
	pkt_ext6(&p, 0, 0, 0);
	ck_assert_uint_eq(host_tos(h, &p), TOS(0, 2));
	pkt_build(&p, PKT_V6, 0, TOS(0, 2), 0, 4790); /* other port */
	pkt_ext6(&p, 0, 0, 0);
	ck_assert_uint_eq(host_tos(h, &p), TOS(0, 2));
	tagger_host_bpf__destroy(h);
}
END_TEST

/* Host egress: the lossless class leaves with the host's initial tag. */
START_TEST(host_sets_the_initial_tag_by_dscp_or_udp_port)
{
	struct tagger_host_bpf *h;
	struct tagger_host_tag t = { .set = 1, .dscp = 10, .prio = 3 };
	struct tagger_host_cfg cfg = { .udp_lo = 4791, .udp_hi = 4791 };
	struct bpf_map *m;
	struct pkt p;
	struct run r;
	uint32_t idx;

	NEED_ROOT();
	h = tagger_host_bpf__open();
	ck_assert_ptr_nonnull(h);
	bpf_object__for_each_map(m, h->obj) bpf_map__set_pin_path(m, NULL);
	ck_assert_int_eq(tagger_host_bpf__load(h), 0);
	idx = 26; /* the application's class DSCP */
	ck_assert_int_eq(
		bpf_map_update_elem(bpf_map__fd(h->maps.tagger_host_tags), &idx,
				    &t, 0),
		0);
	idx = TAGGER_HOST_UDP_ENTRY;
	ck_assert_int_eq(
		bpf_map_update_elem(bpf_map__fd(h->maps.tagger_host_tags), &idx,
				    &t, 0),
		0);
	idx = 0;
	ck_assert_int_eq(
		bpf_map_update_elem(bpf_map__fd(h->maps.tagger_host_cfg), &idx,
				    &cfg, 0),
		0);

	pkt_build(&p, PKT_V4, 0, TOS(26, 2), 0, 9);
	r = pkt_run(h->progs.tagger_host_egress, &p, IF_A, 0, 0, 7);
	ck_assert_uint_eq(r.ret, NEXT);
	ck_assert_uint_eq(pkt_tos(&r.out), TOS(10, 2));
	ck_assert(ip_csum_ok(&r.out));
	ck_assert_uint_eq(r.ctx.priority, 3);
	pkt_build(&p, PKT_V6, 0, TOS(0, 1), 0, 4791);
	r = pkt_run(h->progs.tagger_host_egress, &p, IF_A, 0, 0, 7);
	ck_assert_uint_eq(pkt_tos(&r.out), TOS(10, 1));
	pkt_build(&p, PKT_V4, 0, TOS(0, 1), 0, 4790); /* not the class */
	r = pkt_run(h->progs.tagger_host_egress, &p, IF_A, 0, 0, 7);
	ck_assert_uint_eq(pkt_tos(&r.out), TOS(0, 1));
	ck_assert_uint_eq(r.ctx.priority, 7);
	tagger_host_bpf__destroy(h);
}
END_TEST

/* Host egress: a group-addressed packet of the class leaves lossy. */
START_TEST(host_keeps_group_addressed_packets_lossy)
{
	static const char v6_mcast[16] =
		"\xff\x05\0\0\0\0\0\0\0\0\0\0\0\x01\0\x03";
	struct tagger_host_cfg cfg = { .udp_lo = 4791,
				       .udp_hi = 4791,
				       .lossy_set = 1,
				       .lossy_dscp = 0,
				       .lossy_prio = 1 };
	struct tagger_host_bpf *h;
	struct pkt p;
	struct run r;
	uint32_t zero = 0;

	NEED_ROOT();
	h = host_load();
	ck_assert_int_eq(
		bpf_map_update_elem(bpf_map__fd(h->maps.tagger_host_cfg), &zero,
				    &cfg, 0),
		0);
	pkt_build(&p, PKT_V4, 0, TOS(10, 1), 0, 4791);
	pkt_dst4(&p, "\xe0\x00\x00\x05");
	r = pkt_run(h->progs.tagger_host_egress, &p, IF_A, 0, 0, 7);
	ck_assert_uint_eq(pkt_tos(&r.out), TOS(0, 1));
	ck_assert(ip_csum_ok(&r.out));
	ck_assert_uint_eq(r.ctx.priority, 1);
	pkt_build(&p, PKT_V4, 1, TOS(26, 0), 0, 4791);
	pkt_dmac(&p, "\xff\xff\xff\xff\xff\xff");
	r = pkt_run(h->progs.tagger_host_egress, &p, IF_A, 0, 0, 7);
	ck_assert_uint_eq(pkt_tos(&r.out), TOS(0, 0));
	ck_assert_uint_eq(r.ctx.priority, 1);
	pkt_build(&p, PKT_V6, 0, TOS(10, 2), 0, 4791);
	pkt_dst6(&p, v6_mcast);
	r = pkt_run(h->progs.tagger_host_egress, &p, IF_A, 0, 0, 7);
	ck_assert_uint_eq(pkt_tos(&r.out), TOS(0, 2));
	ck_assert_uint_eq(r.ctx.priority, 1);
	/* Unicast of the class: the initial tag. */
	pkt_build(&p, PKT_V4, 0, TOS(26, 1), 0, 4791);
	r = pkt_run(h->progs.tagger_host_egress, &p, IF_A, 0, 0, 7);
	ck_assert_uint_eq(pkt_tos(&r.out), TOS(10, 1));
	ck_assert_uint_eq(r.ctx.priority, 3);
	/* Not the class: as sent, group addressed or not. */
	pkt_build(&p, PKT_V4, 0, TOS(26, 1), 0, 53);
	pkt_dst4(&p, "\xe0\x00\x00\x05");
	r = pkt_run(h->progs.tagger_host_egress, &p, IF_A, 0, 0, 7);
	ck_assert_uint_eq(pkt_tos(&r.out), TOS(26, 1));
	ck_assert_uint_eq(r.ctx.priority, 7);
	tagger_host_bpf__destroy(h);
}
END_TEST

Suite *dataplane_suite(void)
{
	Suite *s = suite_create("dataplane");
	TCase *tc = tcase_create("port");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, ipv4_tag_is_classified_into_its_priority);
	tcase_add_test(tc, vlan_and_ipv6_are_classified_too);
	tcase_add_test(tc, unknown_tag_is_lossy_and_counted_as_demotion);
	tcase_add_test(tc, group_addressed_packets_are_demoted_at_ingress);
	tcase_add_test(tc, egress_rewrites_dscp_keeps_ecn_and_checksum);
	tcase_add_test(tc, ip_options_and_vlan_keep_a_valid_checksum);
	tcase_add_test(tc, ipv6_rewrite_keeps_ecn_and_flow_label);
	tcase_add_test(tc, egress_miss_and_lossy_rule_demote_to_the_lossy_tag);
	tcase_add_test(tc, truncated_headers_never_read_past_the_end);
	tcase_add_test(tc, non_ip_passes_untouched_and_pfc_is_counted);
	tcase_add_test(tc, qinq_is_classified_and_rewritten);
	tcase_add_test(tc, ipv4_fragments_are_classified_alike);
	tcase_add_test(tc, ipv6_extension_headers_are_classified_alike);
	tcase_add_test(tc,
		       a_packet_is_rewritten_by_the_rules_that_classified_it);
	tcase_add_test(tc, other_mark_bits_survive_classification);
	tcase_add_test(tc, host_sets_the_initial_tag_by_dscp_or_udp_port);
	tcase_add_test(tc, host_udp_selector_never_matches_a_fragment);
	tcase_add_test(tc, host_keeps_group_addressed_packets_lossy);
	suite_add_tcase(s, tc);
	tc = tcase_create("table");
	tcase_add_test(tc, wildcards_expand_most_specific_first);
	suite_add_tcase(s, tc);
	return s;
}
