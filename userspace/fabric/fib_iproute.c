// SPDX-License-Identifier: GPL-2.0
/* The JSON of "ip -j route" into a FIB; see fib_iproute.h. */
#include <stdlib.h>
#include <string.h>
#include <jansson.h>

#include "fabric/fib_iproute.h"
#include "lib/json_path.h"
#include "lib/log.h"
#include "lib/util.h"

/* Does the flags array at key of o have flag? false if absent. */
static bool has_flag(struct jpath *jp, json_t *o, const char *flag, bool *bad)
{
	json_t *fl = json_object_get(o, "flags"), *v;
	size_t i, old;

	if (!fl)
		return false;
	old = jp_enter_key(jp, "flags");
	if (!jp_want_type(jp, fl, JSON_ARRAY, "an array")) {
		*bad = true;
		return false;
	}
	json_array_foreach(fl, i, v) {
		if (!json_is_string(v)) {
			jp_enter_index(jp, i);
			jp_err(jp, "expected a string");
			*bad = true;
			return false;
		}
		if (!strcmp(json_string_value(v), flag)) {
			jp_leave(jp, old);
			return true;
		}
	}
	jp_leave(jp, old);
	return false;
}

/*
 * One next hop ({"dev", "gateway", "flags"}) into nh; 1 if it is dead
 * (left out), 0 if taken, -1 after a message.
 */
static int one_nh(struct jpath *jp, json_t *o, struct fib_nh *nh, bool *gw)
{
	json_t *dev = json_object_get(o, "dev");
	bool bad = false, dead, down;
	size_t old;

	dead = has_flag(jp, o, "dead", &bad);
	down = has_flag(jp, o, "linkdown", &bad);
	if (bad)
		return -1;
	old = jp_enter_key(jp, "dev");
	if (!dev)
		return jp_err(jp, "missing") - 1;
	if (!jp_want_type(jp, dev, JSON_STRING, "a string"))
		return -1;
	if (!json_string_length(dev) || json_string_length(dev) > NAME_MAX_LEN)
		return jp_err(jp, "expected an interface name") - 1;
	jp_leave(jp, old);
	*gw = json_object_get(o, "gateway") != NULL;
	if (dead)
		return 1;
	nh->dev = xstrdup(json_string_value(dev));
	nh->linkdown = down;
	return 0;
}

static void free_nh(struct fib_route *r)
{
	int k;

	for (k = 0; k < r->nnh; k++)
		free(r->nh[k].dev);
	free(r->nh);
	r->nh = NULL;
	r->nnh = 0;
}

/* The next hops of a unicast route; -1 after a message. */
static int nexthops(struct jpath *jp, json_t *o, struct fib_route *r, bool *gw)
{
	json_t *nhs = json_object_get(o, "nexthops"), *v;
	size_t i, old;
	int rc, cap = 0;
	struct fib_nh nh;

	if (!nhs) {
		if (!json_object_get(o, "dev")) {
			if (json_object_get(o, "nhid"))
				return jp_err(jp,
					      "a route by nexthop object with "
					      "no next hop shown "
					      "(net.ipv4.nexthop_compat_mode "
					      "is 0)") -
				       1;
			return jp_err(jp, "no \"dev\" and no \"nexthops\"") - 1;
		}
		rc = one_nh(jp, o, &nh, gw);
		if (rc < 0)
			return -1;
		if (!rc)
			VEC_PUSH(r->nh, r->nnh, cap, nh);
		return 0;
	}
	old = jp_enter_key(jp, "nexthops");
	if (!jp_want_type(jp, nhs, JSON_ARRAY, "an array"))
		return -1;
	if (!json_array_size(nhs))
		return jp_err(jp, "empty") - 1;
	if (json_array_size(nhs) > FIB_MAX_NEXTHOPS)
		return jp_err(jp, "more than %d next hops", FIB_MAX_NEXTHOPS) -
		       1;
	*gw = true; /* a multipath route is never a connected subnet */
	json_array_foreach(nhs, i, v) {
		bool g;

		jp_enter_index(jp, i);
		if (!jp_want_type(jp, v, JSON_OBJECT, "an object"))
			return -1;
		rc = one_nh(jp, v, &nh, &g);
		if (rc < 0)
			return -1;
		if (!rc)
			VEC_PUSH(r->nh, r->nnh, cap, nh);
		jp_leave(jp, old + 1);
	}
	jp_leave(jp, old);
	return 0;
}

/* Route types: what the kernel does with a packet that matches. */
static int route_type(struct jpath *jp, json_t *o, enum fib_type *type)
{
	static const struct {
		const char *name;
		int type; /* -1: not forwarding, skipped */
	} types[] = {
		{ "unicast", FIB_UNICAST },
		{ "blackhole", FIB_BLACKHOLE },
		{ "unreachable", FIB_UNREACHABLE },
		{ "prohibit", FIB_PROHIBIT },
		{ "throw", FIB_UNREACHABLE },
		{ "local", -1 },
		{ "broadcast", -1 },
		{ "anycast", -1 },
		{ "multicast", -1 },
	};
	json_t *v = json_object_get(o, "type");
	size_t old, k;

	*type = FIB_UNICAST;
	if (!v)
		return 0;
	old = jp_enter_key(jp, "type");
	if (!jp_want_type(jp, v, JSON_STRING, "a string"))
		return -2;
	for (k = 0; k < ARRAY_SIZE(types); k++)
		if (!strcmp(json_string_value(v), types[k].name)) {
			jp_leave(jp, old);
			if (types[k].type < 0)
				return -1;
			*type = types[k].type;
			return 0;
		}
	jp_err(jp, "unknown route type \"%.32s\"", json_string_value(v));
	return -2;
}

/* The switch's own address on a connected route's interface. */
static int own_addr(struct jpath *jp, json_t *o, struct fib *f,
		    const struct fib_route *r)
{
	json_t *src = json_object_get(o, "prefsrc");
	uint8_t a[16];
	size_t old;
	int plen;

	if (!src)
		return 0;
	old = jp_enter_key(jp, "prefsrc");
	if (!json_is_string(src) ||
	    fib_prefix_parse(json_string_value(src), r->family, a, &plen) !=
		    r->family ||
	    plen != (r->family == 4 ? 32 : 128))
		return jp_err(jp, "expected an IPv%d address", r->family) - 1;
	jp_leave(jp, old);
	fib_add_own(f, r->family, a, r->plen, r->nh[0].dev);
	return 0;
}

/* One route of the array into f; -1 after a message. */
static int one_route(struct jpath *jp, json_t *o, int family, struct fib *f)
{
	struct fib_route r = { .family = family };
	json_t *dst = json_object_get(o, "dst"), *m;
	bool bad = false, gw = false;
	size_t old;
	int rc;

	if (!jp_want_type(jp, o, JSON_OBJECT, "an object"))
		return -1;
	rc = route_type(jp, o, &r.type);
	if (rc == -2)
		return -1;
	old = jp_enter_key(jp, "dst");
	if (!dst)
		return jp_err(jp, "missing") - 1;
	if (!json_is_string(dst) ||
	    fib_prefix_parse(json_string_value(dst), family, r.addr, &r.plen) !=
		    family)
		return jp_err(jp,
			      "expected an IPv%d prefix, an address or "
			      "\"default\"",
			      family) -
		       1;
	jp_leave(jp, old);
	if (rc == -1)
		return 0;
	m = json_object_get(o, "metric");
	if (m) {
		old = jp_enter_key(jp, "metric");
		if (!json_is_integer(m) || json_integer_value(m) < 0 ||
		    json_integer_value(m) > 0xffffffffLL)
			return jp_err(jp, "expected an integer 0 to "
					  "4294967295") -
			       1;
		r.metric = (unsigned int)json_integer_value(m);
		jp_leave(jp, old);
	}
	if (r.type != FIB_UNICAST) {
		fib_add_route(f, &r);
		return 0;
	}
	if (nexthops(jp, o, &r, &gw)) {
		free_nh(&r);
		return -1;
	}
	if (!r.nnh || has_flag(jp, o, "dead", &bad)) {
		free_nh(&r);
		return bad ? -1 : 0; /* every next hop dead: not used */
	}
	r.connected = !gw && r.nnh == 1;
	if (r.connected && own_addr(jp, o, f, &r)) {
		free_nh(&r);
		return -1;
	}
	fib_add_route(f, &r);
	return 0;
}

int fib_iproute_parse(const char *file, const char *buf, size_t len, int family,
		      struct fib *f)
{
	struct jpath jp = { .file = file };
	int n0 = f->n, own0 = f->nown;
	json_error_t e;
	json_t *root, *v;
	bool bad = false;
	size_t k;

	if (len > FIB_IPROUTE_MAX_BYTES) {
		input_err(file, 0, "more than %lu bytes",
			  FIB_IPROUTE_MAX_BYTES);
		return EXIT_USAGE;
	}
	root = json_loadb(buf, len, 0, &e);
	if (!root) {
		input_err(file, e.line, "%s", e.text);
		return EXIT_USAGE;
	}
	if (!json_is_array(root)) {
		json_decref(root);
		input_err(file, 0,
			  "expected an array of routes: not the "
			  "output of ip -j route");
		return EXIT_USAGE;
	}
	if (json_array_size(root) > FIB_MAX_ROUTES) {
		json_decref(root);
		input_err(file, 0, "more than %d routes", FIB_MAX_ROUTES);
		return EXIT_USAGE;
	}
	json_array_foreach(root, k, v) {
		jp_enter_index(&jp, k);
		if (one_route(&jp, v, family, f)) {
			bad = true;
			break;
		}
		jp_leave(&jp, 0);
	}
	json_decref(root);
	if (!bad)
		return 0;
	fib_truncate(f, n0, own0);
	return EXIT_USAGE;
}
