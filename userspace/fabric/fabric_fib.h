/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The forwarding tables of every switch of an inventory, through its
 * transport (fabric_run.h), for tagger paths from-fib:
 *
 *   netlink  ip -j route show table main, ip -j -6 route show table main
 *            (fib_iproute.h): the kernel's FIB
 *   frr      vtysh [--vty_socket DIR] -c 'show ip route json', the same
 *            for ipv6, and on switches cabled to hosts 'show interface
 *            json' for their own addresses (fib_frr.h): zebra's FIB
 *
 * The commands run FABRIC_FIB_JOBS at a time (threads, each waiting on
 * its command), their outputs are read in inventory order: the messages
 * and the first error are those of a run one switch after the other.
 *
 * An inventory switch (its tagger_switch name) must be a switch of the
 * topology; a switch of the topology not in the inventory has no FIB
 * (the walk names it where it gets there).
 *
 * API:
 *   fabric_fib_read(inv, t, source, &fibs)
 *       EXIT_OK with fibs[node] per topology node (NULL: not read);
 *       EXIT_USAGE after "INVENTORY: switch X is not in TOPO" or a
 *       reader's "X: ip -j route: ..." message; EXIT_RUNTIME after
 *       p_err when a command could not run or failed on a switch
 *   fabric_fib_free(fibs, n)
 */
#ifndef __TAGGER_FABRIC_FIB_H
#define __TAGGER_FABRIC_FIB_H

#include "fabric/fabric_inv.h"
#include "fabric/fib.h"
#include "model/topo.h"

#define FABRIC_FIB_JOBS 16

enum fib_source {
	FIB_SOURCE_NETLINK,
	FIB_SOURCE_FRR,
};

int fabric_fib_read(const struct fabric_inv *inv, const struct topo *t,
		    enum fib_source source, struct fib ***fibs);
void fabric_fib_free(struct fib **fibs, int n);

#endif /* __TAGGER_FABRIC_FIB_H */
