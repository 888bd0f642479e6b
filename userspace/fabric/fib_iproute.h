/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The routes of "ip -j route show table main" (and "ip -j -6 route show
 * table main"), iproute2 5.x and 6.x, into a FIB (fib.h). The output is
 * an array of routes:
 *
 *   [{"dst": "10.0.0.0/31", "dev": "eth1", "protocol": "kernel",
 *     "scope": "link", "prefsrc": "10.0.0.1", "flags": []},
 *    {"dst": "10.0.0.2/31", "nhid": 12, "protocol": "bgp", "metric": 20,
 *     "nexthops": [{"gateway": "10.0.0.9", "dev": "eth2", "flags": []},
 *                  {"gateway": "10.0.0.11", "dev": "eth3",
 *                   "flags": ["linkdown"]}]},
 *    {"type": "blackhole", "dst": "10.9.0.0/16", "flags": []}]
 *
 * "dst" is a prefix, an address (a host route) or "default". "type" is
 * unicast when absent; blackhole, unreachable and prohibit drop, throw
 * counts as unreachable (the main table is the last), local, broadcast,
 * anycast and multicast are not forwarding and skipped. A next hop is
 * "dev" (with "gateway" or not) or each of "nexthops"; one flagged "dead"
 * is not used (the kernel skips it), and a route whose every next hop is
 * dead is skipped; "linkdown" is kept and marked. A route with "nhid" and
 * no next hop shown is refused: net.ipv4.nexthop_compat_mode=0 hides the
 * members of nexthop objects from route dumps. A connected route (one
 * next hop, no gateway) with "prefsrc" gives the switch's own address on
 * that interface. Other keys are ignored.
 *
 * API:
 *   fib_iproute_parse(file, buf, len, family, f)
 *       0, or EXIT_USAGE after "file: [3].nexthops[1].dev: message" (file
 *       names the switch: "S1: ip -j route"); family 4 or 6, the family
 *       every "dst" must have; at most FIB_IPROUTE_MAX_BYTES of input.
 *       Routes go into f, which is left as it was on an error.
 */
#ifndef __TAGGER_FIB_IPROUTE_H
#define __TAGGER_FIB_IPROUTE_H

#include <stddef.h>

#include "fabric/fib.h"

#define FIB_IPROUTE_MAX_BYTES (512UL << 20)

int fib_iproute_parse(const char *file, const char *buf, size_t len, int family,
		      struct fib *f);

#endif /* __TAGGER_FIB_IPROUTE_H */
