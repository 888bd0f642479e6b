// SPDX-License-Identifier: GPL-2.0
/* FRR's routes and interface addresses into a FIB; see fib_frr.h. */
#include <stdlib.h>
#include <string.h>
#include <jansson.h>

#include "fabric/fib_frr.h"
#include "lib/json_path.h"
#include "lib/log.h"
#include "lib/util.h"

/* A boolean member: absent is false; -1 after a message if not a boolean. */
static int flag(struct jpath *jp, json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);
	size_t old;

	if (!v)
		return 0;
	if (json_is_boolean(v))
		return json_is_true(v);
	old = jp_enter_key(jp, key);
	jp_err(jp, "expected true or false");
	jp_leave(jp, old);
	return -1;
}

/* The reject type of an unreachable next hop. */
static enum fib_type reject_type(json_t *nh)
{
	if (json_is_true(json_object_get(nh, "blackhole")))
		return FIB_BLACKHOLE;
	if (json_is_true(json_object_get(nh, "admin-prohibited")))
		return FIB_PROHIBIT;
	return FIB_UNREACHABLE;
}

/* One installed next hop into r; -1 after a message. */
static int one_nh(struct jpath *jp, json_t *nh, struct fib_route *r, int *cap)
{
	json_t *ifn;
	int fib, unr;
	size_t old;

	if (!jp_want_type(jp, nh, JSON_OBJECT, "an object"))
		return -1;
	fib = flag(jp, nh, "fib");
	unr = flag(jp, nh, "unreachable");
	if (fib < 0 || unr < 0)
		return -1;
	if (!fib)
		return 0;
	if (unr) {
		r->type = reject_type(nh);
		return 0;
	}
	ifn = json_object_get(nh, "interfaceName");
	if (!ifn)
		return 0; /* a recursive next hop: its resolvers follow */
	old = jp_enter_key(jp, "interfaceName");
	if (!json_is_string(ifn) || !json_string_length(ifn) ||
	    json_string_length(ifn) > NAME_MAX_LEN)
		return jp_err(jp, "expected an interface name") - 1;
	jp_leave(jp, old);
	if (r->nnh == FIB_MAX_NEXTHOPS)
		return jp_err(jp, "more than %d next hops", FIB_MAX_NEXTHOPS) -
		       1;
	VEC_PUSH(r->nh, r->nnh, *cap,
		 ((struct fib_nh){ .dev = xstrdup(json_string_value(ifn)) }));
	return 0;
}

static void drop_nh(struct fib_route *r)
{
	int k;

	for (k = 0; k < r->nnh; k++)
		free(r->nh[k].dev);
	free(r->nh);
}

/* The FIB's entry of one prefix's list, if any; -1 after a message. */
static int one_entry(struct jpath *jp, json_t *e, const struct fib_route *pfx,
		     struct fib *f)
{
	struct fib_route r = *pfx;
	json_t *nhs, *v, *proto;
	int sel, inst, cap = 0;
	size_t k, old;

	if (!jp_want_type(jp, e, JSON_OBJECT, "an object"))
		return -1;
	sel = flag(jp, e, "selected");
	inst = flag(jp, e, "installed");
	if (sel < 0 || inst < 0)
		return -1;
	if (!sel || !inst)
		return 0;
	v = json_object_get(e, "metric");
	if (v) {
		old = jp_enter_key(jp, "metric");
		if (!json_is_integer(v) || json_integer_value(v) < 0 ||
		    json_integer_value(v) > 0xffffffffLL)
			return jp_err(jp, "expected an integer 0 to "
					  "4294967295") -
			       1;
		r.metric = (unsigned int)json_integer_value(v);
		jp_leave(jp, old);
	}
	nhs = json_object_get(e, "nexthops");
	old = jp_enter_key(jp, "nexthops");
	if (!nhs)
		return jp_err(jp, "missing") - 1;
	if (!jp_want_type(jp, nhs, JSON_ARRAY, "an array"))
		return -1;
	json_array_foreach(nhs, k, v) {
		jp_enter_index(jp, k);
		if (one_nh(jp, v, &r, &cap)) {
			drop_nh(&r);
			return -1;
		}
		jp_leave(jp, old + 1);
	}
	jp_leave(jp, old);
	if (r.type != FIB_UNICAST) {
		drop_nh(&r);
		r.nh = NULL;
		r.nnh = 0;
	} else if (!r.nnh) {
		return 0; /* nothing installed after all */
	}
	proto = json_object_get(e, "protocol");
	r.connected = r.type == FIB_UNICAST && r.nnh == 1 &&
		      json_is_string(proto) &&
		      !strcmp(json_string_value(proto), "connected");
	fib_add_route(f, &r);
	return 1;
}

static int routes(struct jpath *jp, json_t *root, int family, struct fib *f)
{
	struct fib_route pfx = { .family = family };
	const char *key;
	json_t *list, *e;
	size_t k;
	int rc;

	json_object_foreach(root, key, list) {
		jp_enter_key(jp, key);
		if (fib_prefix_parse(key, family, pfx.addr, &pfx.plen) !=
		    family)
			return jp_err(jp, "expected an IPv%d prefix", family) -
			       1;
		if (!jp_want_type(jp, list, JSON_ARRAY, "an array"))
			return -1;
		json_array_foreach(list, k, e) {
			jp_enter_index(jp, k);
			rc = one_entry(jp, e, &pfx, f);
			if (rc < 0)
				return -1;
			jp_leave(jp, 1);
			if (rc)
				break; /* one FIB entry a prefix */
		}
		jp_leave(jp, 0);
		if (f->n > FIB_MAX_ROUTES)
			return jp_err(jp, "more than %d routes",
				      FIB_MAX_ROUTES) -
			       1;
	}
	return 0;
}

static int ifaces(struct jpath *jp, json_t *root, struct fib *f)
{
	const char *name;
	json_t *ifc, *addrs, *a, *s;
	uint8_t addr[16];
	int fam, plen;
	size_t k;

	json_object_foreach(root, name, ifc) {
		jp_enter_key(jp, name);
		if (!jp_want_type(jp, ifc, JSON_OBJECT, "an object"))
			return -1;
		addrs = json_object_get(ifc, "ipAddresses");
		if (!addrs) {
			jp_leave(jp, 0);
			continue;
		}
		jp_enter_key(jp, "ipAddresses");
		if (!jp_want_type(jp, addrs, JSON_ARRAY, "an array"))
			return -1;
		json_array_foreach(addrs, k, a) {
			jp_enter_index(jp, k);
			if (!jp_want_type(jp, a, JSON_OBJECT, "an object"))
				return -1;
			s = json_object_get(a, "address");
			jp_enter_key(jp, "address");
			fam = json_is_string(s) ?
				      fib_addr_parse(json_string_value(s), 0,
						     addr, &plen) :
				      0;
			if (!fam || !strchr(json_string_value(s), '/'))
				return jp_err(jp,
					      "expected ADDRESS/PREFIXLEN") -
				       1;
			if (f->nown == FIB_MAX_ROUTES)
				return jp_err(jp, "more than %d addresses",
					      FIB_MAX_ROUTES) -
				       1;
			fib_add_own(f, fam, addr, plen, name);
			jp_leave(jp, 2);
		}
		jp_leave(jp, 0);
	}
	return 0;
}

/* Parse, check the top is an object, run fn; f rolled back on an error. */
static int parse(const char *file, const char *buf, size_t len, int family,
		 struct fib *f, bool routes_doc)
{
	struct jpath jp = { .file = file };
	int n0 = f->n, own0 = f->nown, rc;
	json_error_t e;
	json_t *root;

	if (len > FIB_FRR_MAX_BYTES) {
		input_err(file, 0, "more than %lu bytes", FIB_FRR_MAX_BYTES);
		return EXIT_USAGE;
	}
	root = json_loadb(buf, len, 0, &e);
	if (!root) {
		input_err(file, e.line, "%s", e.text);
		return EXIT_USAGE;
	}
	if (!json_is_object(root)) {
		json_decref(root);
		input_err(file, 0,
			  "expected an object: not the output of "
			  "vtysh's show ... json");
		return EXIT_USAGE;
	}
	rc = routes_doc ? routes(&jp, root, family, f) : ifaces(&jp, root, f);
	json_decref(root);
	if (!rc)
		return 0;
	fib_truncate(f, n0, own0);
	return EXIT_USAGE;
}

int fib_frr_routes_parse(const char *file, const char *buf, size_t len,
			 int family, struct fib *f)
{
	return parse(file, buf, len, family, f, true);
}

int fib_frr_ifaces_parse(const char *file, const char *buf, size_t len,
			 struct fib *f)
{
	return parse(file, buf, len, 0, f, false);
}
