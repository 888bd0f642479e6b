// SPDX-License-Identifier: GPL-2.0
/* A switch's forwarding table and its longest-prefix match; see fib.h. */
#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabric/fib.h"
#include "lib/util.h"

struct fib *fib_new(void)
{
	return xcalloc(1, sizeof(struct fib));
}

void fib_free(struct fib *f)
{
	if (!f)
		return;
	fib_truncate(f, 0, 0);
	free(f->r);
	free(f->own);
	free(f);
}

void fib_truncate(struct fib *f, int n, int nown)
{
	int i, k;

	for (i = n; i < f->n; i++) {
		for (k = 0; k < f->r[i].nnh; k++)
			free(f->r[i].nh[k].dev);
		free(f->r[i].nh);
	}
	for (i = nown; i < f->nown; i++)
		free(f->own[i].dev);
	f->n = n;
	f->nown = nown;
}

void fib_add_route(struct fib *f, const struct fib_route *route)
{
	VEC_PUSH(f->r, f->n, f->cap, *route);
}

void fib_add_own(struct fib *f, int family, const uint8_t *addr, int plen,
		 const char *dev)
{
	struct fib_own o = { .family = family, .plen = plen };

	memcpy(o.addr, addr, 16);
	o.dev = xstrdup(dev);
	VEC_PUSH(f->own, f->nown, f->owncap, o);
}

bool fib_prefix_has(int family, const uint8_t *pfx, int plen,
		    const uint8_t *addr)
{
	int full = plen / 8, rest = plen % 8;

	(void)family;
	if (memcmp(pfx, addr, full))
		return false;
	return !rest || !((pfx[full] ^ addr[full]) & (0xff00 >> rest));
}

const struct fib_route *fib_lookup(const struct fib *f, int family,
				   const uint8_t *addr)
{
	const struct fib_route *best = NULL, *r;
	int i;

	for (i = 0; i < f->n; i++) {
		r = &f->r[i];
		if (r->family != family ||
		    !fib_prefix_has(family, r->addr, r->plen, addr))
			continue;
		if (!best || r->plen > best->plen ||
		    (r->plen == best->plen && r->metric < best->metric))
			best = r;
	}
	return best;
}

/* Clear the host bits of a prefix. */
static void mask(uint8_t *addr, int plen, int bytes)
{
	int k;

	for (k = plen / 8; k < bytes; k++)
		addr[k] &= k == plen / 8 ? (uint8_t)(0xff00 >> (plen % 8)) : 0;
}

int fib_addr_parse(const char *s, int family, uint8_t *addr, int *plen)
{
	char buf[FIB_ADDR_STRLEN];
	const char *slash = strchr(s, '/');
	size_t n = slash ? (size_t)(slash - s) : strlen(s);
	unsigned long p;
	int max;

	memset(addr, 0, 16);
	if (!strcmp(s, "default")) {
		*plen = 0;
		return family;
	}
	if (!n || n >= sizeof(buf))
		return 0;
	memcpy(buf, s, n);
	buf[n] = '\0';
	if ((!family || family == 4) && inet_pton(AF_INET, buf, addr) == 1)
		family = 4;
	else if ((!family || family == 6) &&
		 inet_pton(AF_INET6, buf, addr) == 1)
		family = 6;
	else
		return 0;
	max = family == 4 ? 32 : 128;
	if (!slash) {
		*plen = max;
		return family;
	}
	if (!parse_uint(slash + 1, max, &p))
		return 0;
	*plen = (int)p;
	return family;
}

int fib_prefix_parse(const char *s, int family, uint8_t *addr, int *plen)
{
	family = fib_addr_parse(s, family, addr, plen);
	if (family)
		mask(addr, *plen, family == 4 ? 4 : 16);
	return family;
}

const char *fib_addr_str(int family, const uint8_t *addr, char *buf)
{
	if (!inet_ntop(family == 4 ? AF_INET : AF_INET6, addr, buf,
		       FIB_ADDR_STRLEN))
		snprintf(buf, FIB_ADDR_STRLEN, "?");
	return buf;
}

const char *fib_type_name(enum fib_type type)
{
	switch (type) {
	case FIB_UNICAST:
		return "unicast";
	case FIB_BLACKHOLE:
		return "blackhole";
	case FIB_UNREACHABLE:
		return "unreachable";
	case FIB_PROHIBIT:
		return "prohibit";
	}
	return "?";
}
