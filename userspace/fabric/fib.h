/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A switch's forwarding table (FIB) as tagger paths from-fib walks it: the
 * IPv4 and IPv6 routes of its main table, each a prefix and either next
 * hops (an interface each, several for ECMP) or a reject type, and the
 * switch's own addresses on its interfaces. Filled by the readers of
 * "ip -j route" (fib_iproute.h) and of FRR's JSON (fib_frr.h); the
 * gateway of a next hop is not kept: on a point-to-point link of the
 * topology the interface alone names the next switch.
 *
 * Lookups are longest-prefix matches, the lowest metric among routes of
 * one prefix (the kernel's order), by a linear scan: a walk looks up each
 * (switch, destination host) pair once (fib_walk.h), so the scan costs
 * routes x hosts per switch.
 *
 * API:
 *   fib_new() / fib_free(f)
 *   fib_add_route(f, &route)     takes the route's next hops
 *   fib_add_own(f, family, addr, plen, dev)  an address of the switch
 *   fib_truncate(f, n, nown)     back to its first n routes and nown
 *                                addresses (a reader's rollback)
 *   fib_lookup(f, family, addr)  the route that forwards addr, or NULL
 *   fib_prefix_parse(s, family, addr, &plen)  "10.0.0.0/31", "10.0.0.1"
 *                                (a host prefix), "default" (family's
 *                                0/0; family 0 guesses from the text);
 *                                the family, or 0 if s is none
 *   fib_addr_parse(s, family, addr, &plen)  the same, host bits kept
 *                                ("10.0.0.1/31": an interface's address)
 *   fib_addr_str(family, addr, buf)  the address as text (buf of
 *                                FIB_ADDR_STRLEN)
 *   fib_prefix_has(family, pfx, plen, addr)  is addr in pfx/plen
 *   fib_type_name(type)
 */
#ifndef __TAGGER_FIB_H
#define __TAGGER_FIB_H

#include <stdbool.h>
#include <stdint.h>

#define FIB_ADDR_STRLEN 48
#define FIB_MAX_ROUTES (4 << 20) /* per switch and reader */
#define FIB_MAX_NEXTHOPS 512 /* per route */

enum fib_type {
	FIB_UNICAST,
	FIB_BLACKHOLE, /* dropped silently */
	FIB_UNREACHABLE, /* dropped with an ICMP unreachable */
	FIB_PROHIBIT, /* dropped with an ICMP prohibited */
};

struct fib_nh {
	char *dev; /* the egress interface */
	bool linkdown; /* the kernel still uses it, but its link is down */
};

struct fib_route {
	int family; /* 4 or 6 */
	int plen;
	uint8_t addr[16]; /* the prefix, host bits clear */
	enum fib_type type;
	bool connected; /* a subnet on the interface itself, no gateway */
	unsigned int metric;
	struct fib_nh *nh; /* FIB_UNICAST: at least one */
	int nnh;
};

struct fib_own {
	int family;
	int plen; /* of its subnet */
	uint8_t addr[16];
	char *dev;
};

struct fib {
	struct fib_route *r;
	int n, cap;
	struct fib_own *own;
	int nown, owncap;
};

struct fib *fib_new(void);
void fib_free(struct fib *f);
void fib_add_route(struct fib *f, const struct fib_route *route);
void fib_truncate(struct fib *f, int n, int nown);
void fib_add_own(struct fib *f, int family, const uint8_t *addr, int plen,
		 const char *dev);
const struct fib_route *fib_lookup(const struct fib *f, int family,
				   const uint8_t *addr);
int fib_prefix_parse(const char *s, int family, uint8_t *addr, int *plen);
int fib_addr_parse(const char *s, int family, uint8_t *addr, int *plen);
const char *fib_addr_str(int family, const uint8_t *addr, char *buf);
bool fib_prefix_has(int family, const uint8_t *pfx, int plen,
		    const uint8_t *addr);
const char *fib_type_name(enum fib_type type);

#endif /* __TAGGER_FIB_H */
