/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A port's flower filters (flower_tc.h) installed over rtnetlink, without
 * tc: the RTM_NEWTFILTER messages iproute2 6.1 sends for the batch lines
 * of flower_tc_write, byte for byte but the sequence number and port id
 * (tests/shell/test_flower_vm.sh compares them), each request answered
 * before the next goes, so a caller that dies leaves every filter either
 * whole or absent.
 *
 * Messages (into buf, MNL_SOCKET_BUFFER_SIZE bytes; tc only numbers them):
 *   flower_nl_filter_msg(tc, buf, t, ifindex, ifnames)
 *        the tc filter t of the port on ifindex (ifnames: every port's
 *        interface, by port index, for an indev key)
 *   flower_nl_entry_msg(tc, buf, ifindex, gen, egress, replace)
 *        the chain-0 filter (pref 1, handle 1) going to generation gen
 *   flower_nl_chain_del_msg(tc, buf, ifindex, egress, chain)
 *   flower_nl_clsact_msg(tc, buf, ifindex)   clsact, an existing one kept
 *
 * Where: ifindex is a device, or FLOWER_NL_BLOCK(index) for a shared tc
 * block (flower_block.h): the filters of the block every device bound to
 * it runs, in the direction of its binding (egress then says nothing).
 * A device whose hook is bound to a shared block refuses filter requests
 * of its own; its dump shows the block's filters.
 *
 * Requests (0 or -errno, tc->err the kernel's extack text):
 *   flower_nl_clsact(tc, ifindex)
 *   flower_nl_install(tc, fp, ifnames, ifindex, gen, hw)
 *        every tc filter of generation gen's chains, in walk order
 *   flower_nl_install_dirs(tc, fp, ifnames, ifindex, gen, hw, dirs)
 *        the same for the directions of dirs only (FLOWER_NL_INGRESS,
 *        FLOWER_NL_EGRESS)
 *   flower_nl_entry(tc, ifindex, gen, egress, replace)
 *   flower_nl_chains_del(tc, ifindex, gen)
 *        the chains of generation gen each direction uses
 *        (flower_tc_chain_used); a chain that is not there: -ENOENT
 *   flower_nl_gen_remove(tc, ifindex, gen)
 *        the chains of generation gen a dump shows (none there: 0)
 *   flower_nl_gen_remove_dirs(tc, ifindex, gen, dirs)
 *   flower_nl_remove(tc, ifindex)
 *        everything tagger puts on a port: both entry filters and both
 *        generations' chains, those absent skipped; clsact stays (others
 *        may have filters on it)
 *   flower_nl_remove_dirs(tc, ifindex, dirs)
 *   flower_nl_dump(tc, ifindex, egress, cb, arg)
 *        cb(f, arg) for every filter of a direction, every chain
 *
 * A dumped filter's counters belong to the logical filter
 * flower_tc_origin(fp, flower_nl_gen(f->chain), f->egress, f->chain,
 * f->pref) of the port's lists (-1: the entry filter, or none of
 * tagger's): summed by its reason, port and tag, they are the counters
 * the eBPF data plane keeps per port, tag and reason.
 *   flower_nl_gen(chain)                 the generation a chain is of
 */
#ifndef __TAGGER_FLOWER_NL_H
#define __TAGGER_FLOWER_NL_H

#include <stdbool.h>
#include <stdint.h>

#include "dataplane/flower_tc.h"
#include "lib/tc_nl.h"

#define FLOWER_NL_INGRESS 1
#define FLOWER_NL_EGRESS 2
#define FLOWER_NL_BOTH 3
/* A shared block as flower_nl's ifindex (indices below 2^31) */
#define FLOWER_NL_BLOCK(index) (-(int)(index))

/* One filter of a dump. */
struct flower_nl_filter {
	bool egress;
	int chain, pref;
	int proto; /* ETH_P_* */
	uint32_t handle;
	uint32_t flags; /* TCA_CLS_FLAGS_*: SKIP_HW/SW, IN_HW, NOT_IN_HW */
	char kind[16];
	int nact;
	uint64_t packets, bytes; /* its first action's */
	int goto_chain; /* its first action's goto target, or -1 */
	bool gact; /* parsing: the first action is a gact */
};

typedef void (*flower_nl_cb)(const struct flower_nl_filter *f, void *arg);

struct nlmsghdr *flower_nl_filter_msg(struct tc *tc, char *buf,
				      const struct flower_tc_filter *t,
				      int ifindex, char *const *ifnames);
struct nlmsghdr *flower_nl_entry_msg(struct tc *tc, char *buf, int ifindex,
				     int gen, bool egress, bool replace);
struct nlmsghdr *flower_nl_chain_del_msg(struct tc *tc, char *buf, int ifindex,
					 bool egress, int chain);
struct nlmsghdr *flower_nl_clsact_msg(struct tc *tc, char *buf, int ifindex);

int flower_nl_clsact(struct tc *tc, int ifindex);
int flower_nl_install(struct tc *tc, const struct flower_port *fp,
		      char *const *ifnames, int ifindex, int gen, bool hw);
int flower_nl_install_dirs(struct tc *tc, const struct flower_port *fp,
			   char *const *ifnames, int ifindex, int gen, bool hw,
			   int dirs);
int flower_nl_entry(struct tc *tc, int ifindex, int gen, bool egress,
		    bool replace);
int flower_nl_chains_del(struct tc *tc, int ifindex, int gen);
int flower_nl_gen_remove(struct tc *tc, int ifindex, int gen);
int flower_nl_gen_remove_dirs(struct tc *tc, int ifindex, int gen, int dirs);
int flower_nl_remove(struct tc *tc, int ifindex);
int flower_nl_remove_dirs(struct tc *tc, int ifindex, int dirs);
int flower_nl_dump(struct tc *tc, int ifindex, bool egress, flower_nl_cb cb,
		   void *arg);
int flower_nl_gen(int chain);

#endif /* __TAGGER_FLOWER_NL_H */
