// SPDX-License-Identifier: GPL-2.0
/*
 * The pause programs (bpf/pfc.bpf.c) under BPF_PROG_TEST_RUN: PFC frames
 * in, the XOFF crossing, classification by DSCP (VLAN-tagged too), the
 * PAUSE frame made from a clone, the egress log. (pfc_classify's class is
 * not among what a test run returns: tests/shell/test_pfc_prio.sh sees
 * each priority in its own HTB class instead.)
 *
 * Each test runs in a network namespace of its own with a veth pair
 * (pfct0, pfct1) and forwarding on, so that the programs' route lookup
 * ("will this packet be forwarded?") has something to find: packets
 * arrive on pfct1 and are routed out of pfct0 (10.0.0.0/24).
 */
#include <check.h>
#include <math.h>
#include <stdbool.h>
#include <fcntl.h>
#include <net/if.h>
#include <sched.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/epoll.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "dp_pkt.h"
#include "dp_run.h"
#include "pfc_maps.h"
#include "pfc.skel.h"
#include "tagger_skb.h"

#define XOFF 100 /* bytes: two of dp_pkt.h's 58-byte packets cross it */
#define XON 50
#define QUANTA 0x1234
#define SHOT 2 /* TC_ACT_SHOT */

static struct pfc_bpf *skel;
static int old_ns = -1;
static int if_in, if_out; /* pfct1 (slot 0), pfct0 (slot 1) */

static void sh(const char *cmd)
{
	ck_assert_msg(system(cmd) == 0, "%s", cmd);
}

static void netns_enter(void)
{
	old_ns = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
	ck_assert_int_ge(old_ns, 0);
	ck_assert_int_eq(unshare(CLONE_NEWNET), 0);
	sh("ip link set lo up && ip link add pfct0 type veth peer name pfct1 &&"
	   " ip link set pfct0 up && ip link set pfct1 up &&"
	   " ip addr add 10.0.0.254/24 dev pfct0 &&"
	   " sysctl -qw net.ipv4.ip_forward=1");
	if_out = if_nametoindex("pfct0");
	if_in = if_nametoindex("pfct1");
	ck_assert(if_in > 0 && if_out > 0);
}

/*
 * ECN (the "ecn" case): marking on for lossless 3 (Pmax 50 %) and 4
 * (Pmax 100 %), and for lossy 1 (which must not mark all the same), with
 * XOFF out of the way.
 */
#define KMIN 10000
#define KMAX 20000
#define ECN_XOFF (1u << 30)

static void setup_with(bool ecn)
{
	struct stat sb;
	uint32_t slot;
	int p;

	if (geteuid())
		return;
	netns_enter();
	skel = pfc_bpf__open();
	ck_assert_ptr_nonnull(skel);
	ck_assert_int_eq(stat("/proc/self/ns/net", &sb), 0);
	skel->rodata->netns_ino = sb.st_ino;
	skel->rodata->lossless_mask = 1u << 3 | 1u << 4;
	for (p = 0; p < PFC_PRIOS; p++) {
		skel->rodata->xoff_bytes[p] = ecn ? ECN_XOFF : XOFF;
		skel->rodata->xon_bytes[p] = XON;
		skel->rodata->ecn_kmin[p] = KMIN;
		skel->rodata->ecn_kmax[p] = KMAX;
		skel->rodata->ecn_pmax[p] =
			p == 4 ? PFC_ECN_ONE : PFC_ECN_ONE / 2;
	}
	if (ecn) {
		skel->rodata->ecn_mask = 1u << 1 | 1u << 3 | 1u << 4;
		sh("ip addr add fd00::fe/64 dev pfct0 nodad &&"
		   " sysctl -qw net.ipv6.conf.all.forwarding=1");
	}
	skel->rodata->dscp_prio[24] = 3;
	skel->rodata->dscp_prio[32] = 4;
	skel->rodata->dscp_prio[8] = 1;
	skel->rodata->pause_quanta = QUANTA;
	ck_assert_int_eq(pfc_bpf__load(skel), 0);
	slot = 0;
	ck_assert_int_eq(bpf_map__update_elem(skel->maps.ports, &if_in, 4,
					      &slot, 4, BPF_ANY),
			 0);
	slot = 1;
	ck_assert_int_eq(bpf_map__update_elem(skel->maps.ports, &if_out, 4,
					      &slot, 4, BPF_ANY),
			 0);
}

static void setup(void)
{
	setup_with(false);
}

static void setup_ecn(void)
{
	setup_with(true);
}

static void teardown(void)
{
	pfc_bpf__destroy(skel);
	skel = NULL;
	if (old_ns >= 0) {
		setns(old_ns, CLONE_NEWNET); /* the veths go with the netns */
		close(old_ns);
		old_ns = -1;
	}
}

static struct run ingress(const struct pkt *p, uint32_t mark)
{
	return pkt_run(skel->progs.pfc_ingress, p, if_in, if_in, mark, 0);
}

static struct pfc_pp pp(uint32_t slot, uint32_t prio)
{
	struct pfc_pp v;
	uint32_t k = PFC_SLOT(slot, prio);

	ck_assert_int_eq(
		bpf_map__lookup_elem(skel->maps.pp, &k, 4, &v, sizeof(v), 0),
		0);
	return v;
}

/* The ring buffer's records, in order. */
static struct pfc_event evs[16];
static int nevs;

static int on_event(void *ctx, void *data, size_t size)
{
	if (nevs < 16 && size >= sizeof(evs[0]))
		memcpy(&evs[nevs++], data, sizeof(evs[0]));
	return 0;
}

static int drain(void)
{
	struct ring_buffer *rb = ring_buffer__new(
		bpf_map__fd(skel->maps.events), on_event, NULL, NULL);

	ck_assert_ptr_nonnull(rb);
	nevs = 0;
	ring_buffer__consume(rb);
	ring_buffer__free(rb);
	return nevs;
}

START_TEST(pfc_frame_is_consumed_and_counted_per_priority)
{
	struct pkt f;
	struct run r;

	NEED_ROOT();
	pkt_pfc(&f, 1u << 3 | 1u << 4); /* class-enable vector: 3 and 4 */
	f.b[18 + 2 * 3] = f.b[19 + 2 * 3] = 0xff; /* 3: 65535, 4: 0 quanta */
	r = ingress(&f, 0);
	ck_assert_uint_eq(r.ret, SHOT);
	ck_assert_uint_eq(pp(0, 3).pfc_rx, 1);
	ck_assert_uint_eq(pp(0, 3).pfc_rx_resume, 0);
	ck_assert_uint_eq(pp(0, 4).pfc_rx, 1);
	ck_assert_uint_eq(pp(0, 4).pfc_rx_resume, 1);
	ck_assert_uint_eq(pp(0, 5).pfc_rx, 0);
	ck_assert_uint_eq(pp(1, 3).pfc_rx, 0);
	ck_assert_int_eq(drain(), 1);
	ck_assert_uint_eq(evs[0].type, PFC_EV_RX);
	ck_assert_uint_eq(evs[0].slot, 0);
	ck_assert_uint_eq(evs[0].vector, 0x18);
	ck_assert_uint_eq(evs[0].quanta[3], 0xffff);
	ck_assert_uint_eq(evs[0].quanta[4], 0);
}
END_TEST

/*
 * While the agent polls (agent_polling), a record is committed without a
 * wake-up (its irq_work is a self-IPI in the softirq); otherwise it wakes
 * the agent's epoll as before. The epoll is set up on the empty ring
 * first: adding it to a ring that holds data reports it at once.
 */
START_TEST(a_record_wakes_the_agent_only_when_it_does_not_poll)
{
	struct ring_buffer *rb;
	struct epoll_event ev;
	struct pkt f;
	int ep;

	NEED_ROOT();
	pkt_pfc(&f, 1u << 3); /* a resume of priority 3 */
	nevs = 0;
	rb = ring_buffer__new(bpf_map__fd(skel->maps.events), on_event, NULL,
			      NULL);
	ck_assert_ptr_nonnull(rb);
	ep = ring_buffer__epoll_fd(rb);
	skel->bss->agent_polling = 1;
	ck_assert_uint_eq(ingress(&f, 0).ret, SHOT);
	ck_assert_int_eq(epoll_wait(ep, &ev, 1, 200), 0); /* no wake-up */
	ck_assert_int_eq(ring_buffer__consume(rb), 1); /* but it is there */
	/* It stops polling, reads the ring once more (empty), sleeps: */
	skel->bss->agent_polling = 0;
	ck_assert_uint_eq(ingress(&f, 0).ret, SHOT);
	ck_assert_int_eq(epoll_wait(ep, &ev, 1, 2000), 1); /* woken */
	ck_assert_int_eq(ring_buffer__consume(rb), 1);
	ck_assert_int_eq(nevs, 2);
	ck_assert_uint_eq(evs[0].type, PFC_EV_RX);
	ck_assert_uint_eq(evs[1].type, PFC_EV_RX);
	ring_buffer__free(rb);
}
END_TEST

START_TEST(pause_and_kick_frames_without_a_class_are_consumed_silently)
{
	struct pkt f;

	NEED_ROOT();
	pkt_build(&f, PKT_PFC, 0, 0, 0, 0);
	f.b[17] = 0; /* no class enabled: the agent's gate kick */
	ck_assert_uint_eq(ingress(&f, 0).ret, SHOT);
	f.b[17] = 0x08;
	f.b[14] = 0x00; /* opcode 0x0001: 802.3x PAUSE, not ours */
	ck_assert_uint_eq(ingress(&f, 0).ret, SHOT);
	ck_assert_uint_eq(pp(0, 3).pfc_rx, 0);
	ck_assert_int_eq(drain(), 0);
}
END_TEST

START_TEST(crossing_xoff_raises_xoff_and_tells_the_agent_once)
{
	uint32_t mark = TAGGER_MARK(1, 3);
	struct pkt p;

	NEED_ROOT();
	pkt_build(&p, PKT_V4, 0, 24 << 2, 0, 4791);
	ingress(&p, mark);
	ck_assert_uint_eq(pp(0, 3).xoff, 0);
	ck_assert_uint_eq(pp(0, 3).bytes, (uint64_t)p.len);
	ingress(&p, mark);
	ingress(&p, mark);
	ck_assert_uint_eq(pp(0, 3).xoff, 1);
	ck_assert_uint_eq(pp(0, 3).xoff_crossings, 1);
	ck_assert_uint_eq(pp(0, 3).pkts, 3);
	ck_assert_uint_eq(pp(0, 3).bytes, 3ull * p.len);
	ck_assert_int_eq(drain(), 1);
	ck_assert_uint_eq(evs[0].type, PFC_EV_XOFF);
	ck_assert_uint_eq(evs[0].slot, 0);
	ck_assert_uint_eq(evs[0].prio, 3);
	ck_assert_uint_eq(evs[0].vector, 0); /* fast_pause off: agent sends */
}
END_TEST

/*
 * Above XOFF, and later still above XON, a packet whose (in-port, prio)
 * last sent its PAUSE longer ago than refresh_after_ns sends another from
 * BPF (pfc_standby.h: no agent needed); a fresher one does not; 0 never.
 */
START_TEST(a_buffer_above_xon_refreshes_its_pause_without_the_agent)
{
	uint32_t mark = TAGGER_MARK(1, 3), i;
	__u64 *at = &skel->bss->xoff_sent_at[PFC_SLOT(0, 3)], t;
	struct pkt p;

	NEED_ROOT();
	skel->bss->fast_pause = 1;
	pkt_build(&p, PKT_V4, 0, 24 << 2, 0, 4791);
	for (i = 0; i < 3; i++)
		ingress(&p, mark);
	ck_assert_uint_eq(pp(0, 3).xoff, 1);
	ck_assert_uint_ne(*at, 0); /* the crossing's PAUSE went out */
	t = *at;
	ingress(&p, mark); /* refresh off (0): nothing */
	ck_assert_uint_eq(skel->bss->bpf_refreshes, 0);
	ck_assert_uint_eq(*at, t);
	skel->bss->refresh_after_ns[0] = 1000000000ull;
	ingress(&p, mark); /* the last PAUSE is fresh: nothing */
	ck_assert_uint_eq(skel->bss->bpf_refreshes, 0);
	ck_assert_uint_eq(*at, t);
	*at = t - 2000000000ull; /* 2 s old: refreshed, once */
	ingress(&p, mark);
	ingress(&p, mark);
	ck_assert_uint_eq(skel->bss->bpf_refreshes, 1);
	ck_assert_uint_ge(*at, t);
	ck_assert_uint_eq(pp(0, 3).xoff_crossings, 1);
	/* The agent hears of the crossing once, not of the refresh. */
	ck_assert_int_eq(drain(), 1);
	ck_assert_uint_eq(evs[0].type, PFC_EV_XOFF);
	ck_assert_uint_eq(evs[0].vector, 1); /* sent by BPF */
}
END_TEST

START_TEST(a_lossy_priority_is_counted_but_never_pauses)
{
	uint32_t mark = TAGGER_MARK(0, 1);
	struct pkt p;
	int i;

	NEED_ROOT();
	pkt_build(&p, PKT_V4, 0, 8 << 2, 0, 4791);
	for (i = 0; i < 4; i++)
		ingress(&p, mark);
	ck_assert_uint_eq(pp(0, 1).bytes, 4ull * p.len);
	ck_assert_uint_eq(pp(0, 1).xoff, 0);
	ck_assert_int_eq(drain(), 0);
}
END_TEST

START_TEST(an_unclassified_packet_gets_its_dscp_priority)
{
	struct pkt p;
	struct run r;

	NEED_ROOT();
	pkt_build(&p, PKT_V4, 0, 24 << 2, 0, 4791);
	r = ingress(&p, 0);
	ck_assert_uint_eq(r.ret, NEXT);
	ck_assert_uint_eq(r.ctx.priority, 3);
	ck_assert_uint_eq(r.ctx.mark & ~TAGGER_MARK_ACCT, TAGGER_MARK(1, 3));
	ck_assert(r.ctx.mark & TAGGER_MARK_ACCT); /* forwarded: counted */
	pkt_build(&p, PKT_V6, 0, 8 << 2, 0, 4791);
	r = ingress(&p, 0);
	ck_assert_uint_eq(r.ctx.priority, 1);
	ck_assert_uint_eq(r.ctx.mark & ~TAGGER_MARK_ACCT, TAGGER_MARK(0, 1));
}
END_TEST

/* The data plane reads DSCP behind a VLAN tag: so must the pause. */
START_TEST(a_vlan_tagged_packet_gets_its_dscp_priority_too)
{
	struct pkt p;
	struct run r;

	NEED_ROOT();
	pkt_build(&p, PKT_V4, 1, 32 << 2, 0, 4791);
	r = ingress(&p, 0);
	ck_assert_uint_eq(r.ctx.priority, 4);
	ck_assert_uint_eq(r.ctx.mark & TAGGER_MARK_PRIO_MASK, 4);
	ck_assert(r.ctx.mark & TAGGER_MARK_LOSSLESS);
	pkt_build(&p, PKT_V6, 1, 24 << 2, 0, 4791);
	ck_assert_uint_eq(ingress(&p, 0).ctx.priority, 3);
}
END_TEST

/* 802.1Qbb: 01:80:c2:00:00:01, 0x8808, opcode 0x0101, vector, 8 quanta. */
START_TEST(a_marked_clone_becomes_a_pfc_frame_byte_by_byte)
{
	static const uint8_t want_head[] = {
		0x01, 0x80, 0xc2,
		0x00, 0x00, 0x01, /* to the PFC group */
		0x02, 0x00, 0x00,
		0x00, 0x00, 0x02, /* from our port */
		0x88, 0x08, 0x01,
		0x01, 0x00, 0x20, /* MAC control, PFC, prio 5 */
	};
	struct pkt p;
	struct run r;
	int i;

	NEED_ROOT();
	pkt_build(&p, PKT_V4, 0, 24 << 2, 0, 4791);
	r = pkt_run(skel->progs.pfc_egress, &p, if_in, if_in,
		    TAGGER_MARK_PFC_FRAME | 5, 0);
	ck_assert_uint_eq(r.ret, NEXT);
	ck_assert_int_eq(r.out.len, 60);
	ck_assert_mem_eq(r.out.b, want_head, sizeof(want_head));
	for (i = 0; i < PFC_PRIOS; i++) {
		uint16_t q = r.out.b[18 + 2 * i] << 8 | r.out.b[19 + 2 * i];

		ck_assert_uint_eq(q, i == 5 ? QUANTA : 0);
	}
	for (i = 34; i < 60; i++)
		ck_assert_uint_eq(r.out.b[i], 0);
	ck_assert_uint_eq(r.ctx.priority, 0x10000); /* HTB's direct queue */
	ck_assert_uint_eq(r.ctx.mark, 0);
}
END_TEST

START_TEST(egress_queues_a_local_packet_by_dscp_and_logs_it)
{
	struct pkt p;
	struct run r;

	NEED_ROOT();
	pkt_build(&p, PKT_V4, 1, 24 << 2, 0, 4791);
	r = pkt_run(skel->progs.pfc_egress, &p, if_out, 0, 0, 0);
	ck_assert_uint_eq(r.ret, NEXT);
	ck_assert_uint_eq(r.ctx.priority, 3);
	ck_assert_uint_eq(pp(1, 3).ring_head, 1);
	/* An HTB class priority is logged in that class's queue. */
	r = pkt_run(skel->progs.pfc_egress, &p, if_out, 0, 0, 0x10014);
	ck_assert_uint_eq(r.ctx.priority, 0x10014);
	ck_assert_uint_eq(pp(1, 4).ring_head, 1);
}
END_TEST

/*
 * One packet of priority prio (lossless unless 1) that finds q bytes in
 * its buffer once counted: marked CE? The output's traffic class in *out.
 */
static bool ecn_run(struct pkt *p, uint32_t prio, uint64_t q, struct pkt *out)
{
	uint32_t k = PFC_SLOT(0, prio);
	struct pfc_pp v = pp(0, prio);
	struct run r;

	v.bytes = q - p->len;
	ck_assert_int_eq(bpf_map__update_elem(skel->maps.pp, &k, 4, &v,
					      sizeof(v), BPF_ANY),
			 0);
	r = ingress(p, TAGGER_MARK(prio != 1, prio));
	ck_assert_uint_eq(r.ret, NEXT);
	ck_assert_uint_eq(pp(0, prio).bytes, q);
	if (out)
		*out = r.out;
	return (pkt_tos(&r.out) & 3) == 3;
}

static int ecn_marks(struct pkt *p, uint32_t prio, uint64_t q, int n)
{
	int k, m = 0;

	for (k = 0; k < n; k++)
		m += ecn_run(p, prio, q, NULL);
	return m;
}

/*
 * No mark at or below Kmin; always above Kmax; with Pmax 100 % always at
 * Kmax too; in between with a probability linear from 0 to Pmax (checked
 * at a quarter, half and three quarters of the way, 4000 packets each,
 * within 5 standard deviations); every mark counted.
 */
START_TEST(ecn_marks_only_between_kmin_and_kmax_linearly_and_above)
{
	static const double at[] = { 0.25, 0.5, 0.75 };
	const int n = 4000;
	uint64_t marks = 0;
	struct pkt p;
	int k, m;

	NEED_ROOT();
	pkt_build(&p, PKT_V4, 0, 24 << 2 | 2, 0, 4791); /* ECT(0) */
	ck_assert_int_eq(ecn_marks(&p, 3, 2 * p.len, 500), 0);
	ck_assert_int_eq(ecn_marks(&p, 3, KMIN, 500), 0);
	ck_assert_int_eq(ecn_marks(&p, 3, KMAX + 1, 500), 500);
	ck_assert_int_eq(ecn_marks(&p, 3, 2 * KMAX, 500), 500);
	ck_assert_int_eq(ecn_marks(&p, 4, KMIN, 500), 0);
	ck_assert_int_eq(ecn_marks(&p, 4, KMAX, 500), 500);
	marks = 1500;
	for (k = 0; k < 3; k++) {
		double want = 0.5 * at[k], sd = sqrt(want * (1 - want) / n);

		m = ecn_marks(&p, 3, KMIN + (uint64_t)(at[k] * (KMAX - KMIN)),
			      n);
		marks += m;
		ck_assert_msg(
			fabs((double)m / n - want) < 5 * sd,
			"at %.2f of Kmin..Kmax: %d of %d marked, want %.3f",
			at[k], m, n, want);
	}
	ck_assert_uint_eq(pp(0, 3).ecn_marked + pp(0, 4).ecn_marked, marks);
	/* The same linear rule as a function, as the program runs it. */
	ck_assert_uint_eq(pfc_ecn_p(KMIN, KMIN, KMAX, PFC_ECN_ONE / 2), 0);
	ck_assert_uint_eq(pfc_ecn_p(15000, KMIN, KMAX, PFC_ECN_ONE / 2),
			  PFC_ECN_ONE / 4);
	ck_assert_uint_eq(pfc_ecn_p(KMAX, KMIN, KMAX, PFC_ECN_ONE / 2),
			  PFC_ECN_ONE / 2);
	ck_assert_uint_eq(pfc_ecn_p(KMAX + 1, KMIN, KMAX, 0), PFC_ECN_ONE);
	ck_assert_uint_eq(pfc_ecn_p(KMIN, KMIN, KMIN, PFC_ECN_ONE), 0);
}
END_TEST

/*
 * Never Not-ECT; CE stays CE (and is no new mark); never a lossy
 * priority, marking on or not. IPv4: ECT(1) -> CE with only the TOS and
 * the checksum changed, and the checksum valid; IPv6: CE in the traffic
 * class, its DSCP and the flow label as they were.
 */
START_TEST(ecn_marks_only_ect_and_keeps_headers_valid)
{
	struct pkt p, out;

	NEED_ROOT();
	pkt_build(&p, PKT_V4, 0, 24 << 2, 0, 4791); /* Not-ECT */
	ck_assert_int_eq(ecn_marks(&p, 3, 2 * KMAX, 200), 0);
	ck_assert_int_eq(ecn_marks(&p, 4, 2 * KMAX, 200), 0);
	pkt_build(&p, PKT_V4, 0, 24 << 2 | 3, 0, 4791); /* CE */
	ck_assert_int_eq(ecn_marks(&p, 3, 2 * KMAX, 200), 200);
	ck_assert_uint_eq(pp(0, 3).ecn_marked, 0);
	pkt_build(&p, PKT_V4, 0, 8 << 2 | 2, 0, 4791); /* lossy */
	ck_assert_int_eq(ecn_marks(&p, 1, 2 * KMAX, 200), 0);
	ck_assert_uint_eq(pp(0, 1).ecn_marked, 0);
	pkt_build(&p, PKT_V4, 1, 24 << 2 | 1, 2, 4791); /* ECT(1), options */
	ck_assert(ecn_run(&p, 3, 2 * KMAX, &out));
	ck_assert_uint_eq(pkt_tos(&out), 24 << 2 | 3);
	ck_assert(ip_csum_ok(&out));
	assert_only_tos_changed(&out, &p);
	pkt_build(&p, PKT_V6, 0, 32 << 2 | 2, 0, 4791);
	ck_assert(ecn_run(&p, 4, KMAX, &out));
	ck_assert_uint_eq(pkt_tos(&out), 32 << 2 | 3);
	assert_only_tos_changed(&out, &p);
	ck_assert_uint_eq(p.b[p.l3 + 1] & 15, 0x0a); /* the flow label */
	ck_assert_uint_eq(pp(0, 3).ecn_marked, 1);
	ck_assert_uint_eq(pp(0, 4).ecn_marked, 1);
}
END_TEST

Suite *pfc_bpf_suite(void)
{
	Suite *s = suite_create("pfc_bpf");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, pfc_frame_is_consumed_and_counted_per_priority);
	tcase_add_test(tc, a_record_wakes_the_agent_only_when_it_does_not_poll);
	tcase_add_test(
		tc,
		pause_and_kick_frames_without_a_class_are_consumed_silently);
	tcase_add_test(tc, crossing_xoff_raises_xoff_and_tells_the_agent_once);
	tcase_add_test(
		tc, a_buffer_above_xon_refreshes_its_pause_without_the_agent);
	tcase_add_test(tc, a_lossy_priority_is_counted_but_never_pauses);
	tcase_add_test(tc, an_unclassified_packet_gets_its_dscp_priority);
	tcase_add_test(tc, a_vlan_tagged_packet_gets_its_dscp_priority_too);
	tcase_add_test(tc, a_marked_clone_becomes_a_pfc_frame_byte_by_byte);
	tcase_add_test(tc, egress_queues_a_local_packet_by_dscp_and_logs_it);
	/* Each case loads and verifies the pause programs in its fixture: under
	 * a second alone, but over Check's 4 s default on a busy machine. */
	tcase_set_timeout(tc, 30);
	suite_add_tcase(s, tc);
	tc = tcase_create("ecn");
	tcase_add_checked_fixture(tc, setup_ecn, teardown);
	tcase_add_test(tc,
		       ecn_marks_only_between_kmin_and_kmax_linearly_and_above);
	tcase_add_test(tc, ecn_marks_only_ect_and_keeps_headers_valid);
	tcase_set_timeout(tc, 60);
	suite_add_tcase(s, tc);
	return s;
}
