/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The programs of the suites of tests/bpf loaded without pins (a test's
 * maps are its own, whatever tagger has pinned on the machine), and the
 * maps a test fills: the port programs sized for a number of ports with
 * a rule table installed, the host program with its tags and its
 * configuration. Every step is asserted.
 *
 * API:
 *   IF_LO                          ifindex 1 (lo): a test run needs a real
 *                                  device for the port a program runs on
 *   port_load(nports)              tagger_port loaded for nports ports
 *   port_install(skel, &tab, first)  tab made a map and installed in
 *                                  skel (first: its first table)
 *   host_open()                    tagger_host loaded, its maps empty
 *   host_set_tag(h, idx, &t)       tagger_host_tags[idx] = t
 *   host_set_cfg(h, &cfg)          tagger_host_cfg[0] = cfg
 *   host_load()                    host_open() with the suites' class:
 *                                  UDP 4791 leaves with tag 10, prio 3
 *   host_egress(h, &p)             p through the host's egress on IF_LO
 *                                  (priority 7 on the way in)
 */
#ifndef __TAGGER_TESTS_DP_LOAD_H
#define __TAGGER_TESTS_DP_LOAD_H

#include <check.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "dp_pkt.h"
#include "dp_run.h"
#include "dataplane/dp_table.h"
#include "tagger_host.skel.h"
#include "tagger_maps.h"
#include "tagger_port.skel.h"

#define IF_LO 1

static inline struct tagger_port_bpf *port_load(int nports)
{
	struct tagger_port_bpf *skel = tagger_port_bpf__open();
	struct bpf_map *m;
	int tmpl;

	ck_assert_ptr_nonnull(skel);
	bpf_object__for_each_map(m, skel->obj) bpf_map__set_pin_path(m, NULL);
	tmpl = dp_prepare(skel, nports);
	ck_assert_int_ge(tmpl, 0);
	ck_assert_int_eq(tagger_port_bpf__load(skel), 0);
	close(tmpl);
	return skel;
}

static inline void port_install(struct tagger_port_bpf *skel,
				const struct dp_table *tab, int first)
{
	int fd = dp_table_create(tab);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_ge(dp_table_install(bpf_map__fd(skel->maps.tagger_rules),
					  bpf_map__fd(skel->maps.tagger_gen),
					  fd, first),
			 0);
	close(fd); /* the outer map holds it */
}

static inline struct tagger_host_bpf *host_open(void)
{
	struct tagger_host_bpf *h = tagger_host_bpf__open();
	struct bpf_map *m;

	ck_assert_ptr_nonnull(h);
	bpf_object__for_each_map(m, h->obj) bpf_map__set_pin_path(m, NULL);
	ck_assert_int_eq(tagger_host_bpf__load(h), 0);
	return h;
}

static inline void host_set_tag(struct tagger_host_bpf *h, uint32_t idx,
				const struct tagger_host_tag *t)
{
	ck_assert_int_eq(
		bpf_map_update_elem(bpf_map__fd(h->maps.tagger_host_tags), &idx,
				    t, 0),
		0);
}

static inline void host_set_cfg(struct tagger_host_bpf *h,
				const struct tagger_host_cfg *cfg)
{
	uint32_t zero = 0;

	ck_assert_int_eq(
		bpf_map_update_elem(bpf_map__fd(h->maps.tagger_host_cfg), &zero,
				    cfg, 0),
		0);
}

static inline struct tagger_host_bpf *host_load(void)
{
	static const struct tagger_host_tag t = { .set = 1,
						  .dscp = 10,
						  .prio = 3 };
	static const struct tagger_host_cfg cfg = { .udp_lo = 4791,
						    .udp_hi = 4791 };
	struct tagger_host_bpf *h = host_open();

	host_set_tag(h, TAGGER_HOST_UDP_ENTRY, &t);
	host_set_cfg(h, &cfg);
	return h;
}

static inline struct run host_egress(struct tagger_host_bpf *h,
				     const struct pkt *p)
{
	return pkt_run(h->progs.tagger_host_egress, p, IF_LO, 0, 0, 7);
}

#endif /* __TAGGER_TESTS_DP_LOAD_H */
