/* SPDX-License-Identifier: GPL-2.0 */
/*
 * FRR's view of a switch's forwarding (FRR 7.5 to 10.x, zebra's JSON),
 * into a FIB (fib.h):
 *
 *   vtysh -c 'show ip route json' (or 'show ipv6 route json'): an object
 *   keyed by prefix, each a list of the RIB's entries for it:
 *
 *     {"10.0.0.2/31": [{"prefix": "10.0.0.2/31", "protocol": "bgp",
 *        "selected": true, "installed": true, "metric": 0,
 *        "nexthops": [{"fib": true, "ip": "10.0.0.9",
 *                      "interfaceName": "eth2", "active": true}, ...]}]}
 *
 *   Only the entry that is "selected" and "installed" is the FIB's, and of
 *   its next hops those with "fib": true (a recursive next hop is listed
 *   with its resolution: the resolving ones carry the interface). A next
 *   hop with "unreachable": true makes the route a reject route
 *   ("blackhole", "reject", "admin-prohibited": blackhole, unreachable,
 *   prohibit). A "connected" entry is the switch's subnet.
 *
 *   vtysh -c 'show interface json': an object keyed by interface name,
 *   each with "ipAddresses": [{"address": "10.0.0.1/31"}, ...]: the
 *   switch's own addresses (zebra's routes do not carry them).
 *
 * Other keys are ignored.
 *
 * API:
 *   fib_frr_routes_parse(file, buf, len, family, f)
 *   fib_frr_ifaces_parse(file, buf, len, f)
 *       0, or EXIT_USAGE after "file: 10.0.0.2/31[0].nexthops[1].
 *       interfaceName: message" (file names the switch: "S1: vtysh");
 *       at most FIB_FRR_MAX_BYTES; f is left as it was on an error
 */
#ifndef __TAGGER_FIB_FRR_H
#define __TAGGER_FIB_FRR_H

#include <stddef.h>

#include "fabric/fib.h"

#define FIB_FRR_MAX_BYTES (1UL << 30)

int fib_frr_routes_parse(const char *file, const char *buf, size_t len,
			 int family, struct fib *f);
int fib_frr_ifaces_parse(const char *file, const char *buf, size_t len,
			 struct fib *f);

#endif /* __TAGGER_FIB_FRR_H */
