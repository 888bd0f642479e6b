// SPDX-License-Identifier: GPL-2.0
/* lldpcli's JSON of the neighbours; see fabric_lldp.h. */
#include <stdlib.h>
#include <string.h>
#include <jansson.h>

#include "fabric/fabric_lldp.h"
#include "lib/json_path.h"
#include "lib/log.h"
#include "lib/util.h"

struct nbs {
	struct lldp_nb *v;
	int n, cap;
};

/* s is a topology name, else false after jp_err. */
static bool name_ok(struct jpath *jp, const char *s, const char *what)
{
	if (!s)
		return jp_err(jp, "%s: expected a string", what);
	if (!valid_name(s))
		return jp_err(jp,
			      "%s \"%.64s%s\" is not a topology name "
			      "([A-Za-z0-9_.-], 1 to %d bytes)",
			      what, s, strlen(s) > 64 ? "..." : "",
			      NAME_MAX_LEN);
	return true;
}

/* The chassis's name: its one key, by lldpcli's folding of "name". */
static const char *chassis_name(struct jpath *jp, json_t *ch)
{
	size_t old = jp_enter_key(jp, "chassis");
	const char *key = NULL;
	void *it;

	if (!ch) {
		jp_err(jp, "missing");
	} else if (!jp_want_type(jp, ch, JSON_OBJECT, "an object")) {
		;
	} else if (json_object_size(ch) != 1 || json_object_get(ch, "id") ||
		   !json_is_object(
			   json_object_iter_value(it = json_object_iter(ch)))) {
		jp_err(jp, "the neighbour sends no system name (SysName)");
	} else {
		key = json_object_iter_key(it);
		if (!name_ok(jp, key, "system name"))
			key = NULL;
	}
	jp_leave(jp, old);
	return key;
}

/* The neighbour's port: the id if it is an interface name, else descr. */
static const char *port_name(struct jpath *jp, json_t *port)
{
	size_t old = jp_enter_key(jp, "port"), o2;
	json_t *id, *descr;
	const char *type, *s = NULL;

	if (!port) {
		jp_err(jp, "missing");
		goto out;
	}
	if (!jp_want_type(jp, port, JSON_OBJECT, "an object"))
		goto out;
	id = json_object_get(port, "id");
	descr = json_object_get(port, "descr");
	o2 = jp_enter_key(jp, "id");
	if (!id || !json_is_object(id) ||
	    !json_is_string(json_object_get(id, "type")) ||
	    !json_is_string(json_object_get(id, "value"))) {
		jp_err(jp, "expected {\"type\": \"...\", \"value\": \"...\"}");
		goto out;
	}
	type = json_string_value(json_object_get(id, "type"));
	if (!strcmp(type, "ifname") || !strcmp(type, "local")) {
		jp_enter_key(jp, "value");
		s = json_string_value(json_object_get(id, "value"));
		if (!name_ok(jp, s, "port id"))
			s = NULL;
		goto out;
	}
	jp_leave(jp, o2);
	jp_enter_key(jp, "descr");
	if (!descr) {
		jp_err(jp,
		       "missing: a port id of type \"%.32s\" does not name "
		       "the port, its description must",
		       type);
		goto out;
	}
	s = json_string_value(descr);
	if (!name_ok(jp, s, "port description"))
		s = NULL;
out:
	jp_leave(jp, old);
	return s;
}

/* One {"IFNAME": {neighbour}} of the interface list. */
static int one_interface(struct jpath *jp, json_t *entry, struct nbs *out)
{
	const char *ifname, *sys, *rport;
	json_t *nb;
	size_t old;
	void *it;

	if (!jp_want_type(jp, entry, JSON_OBJECT, "an object"))
		return -1;
	it = json_object_iter(entry);
	if (json_object_size(entry) != 1 ||
	    !json_is_object(json_object_iter_value(it)))
		return jp_err(jp, "expected {\"IFNAME\": {...}}") - 1;
	ifname = json_object_iter_key(it);
	nb = json_object_iter_value(it);
	if (!name_ok(jp, ifname, "interface name"))
		return -1;
	old = jp_enter_key(jp, ifname);
	sys = chassis_name(jp, json_object_get(nb, "chassis"));
	rport = sys ? port_name(jp, json_object_get(nb, "port")) : NULL;
	jp_leave(jp, old);
	if (!rport)
		return -1;
	if (out->n == LLDP_MAX_NEIGHBOURS)
		return jp_err(jp, "more than %d neighbours",
			      LLDP_MAX_NEIGHBOURS) -
		       1;
	VEC_PUSH(out->v, out->n, out->cap,
		 ((struct lldp_nb){ xstrdup(ifname), xstrdup(sys),
				    xstrdup(rport) }));
	return 0;
}

static int walk(struct jpath *jp, json_t *root, struct nbs *out)
{
	json_t *lldp, *ifs;
	size_t k, old;

	if (!jp_want_type(jp, root, JSON_OBJECT, "an object"))
		return -1;
	lldp = json_object_get(root, "lldp");
	if (!lldp)
		return jp_err(jp, "no \"lldp\" object: not the output of "
				  "lldpcli -f json show neighbors") -
		       1;
	jp_enter_key(jp, "lldp");
	if (!jp_want_type(jp, lldp, JSON_OBJECT, "an object"))
		return -1;
	ifs = json_object_get(lldp, "interface");
	if (!ifs)
		return 0;
	jp_enter_key(jp, "interface");
	if (json_is_object(ifs))
		return one_interface(jp, ifs, out);
	if (!jp_want_type(jp, ifs, JSON_ARRAY, "an object or an array"))
		return -1;
	for (k = 0; k < json_array_size(ifs); k++) {
		old = jp_enter_index(jp, k);
		if (one_interface(jp, json_array_get(ifs, k), out))
			return -1;
		jp_leave(jp, old);
	}
	return 0;
}

int lldp_parse(const char *file, const char *buf, size_t len,
	       struct lldp_nb **nb, int *n)
{
	struct jpath jp = { .file = file };
	struct nbs out = { 0 };
	json_error_t e;
	json_t *root;
	int rc;

	*nb = NULL;
	*n = 0;
	if (len > LLDP_MAX_BYTES) {
		input_err(file, 0, "more than %lu bytes", LLDP_MAX_BYTES);
		return EXIT_USAGE;
	}
	root = json_loadb(buf, len, JSON_REJECT_DUPLICATES, &e);
	if (!root) {
		input_err(file, e.line, "%s", e.text);
		return EXIT_USAGE;
	}
	rc = walk(&jp, root, &out);
	json_decref(root);
	if (rc) {
		lldp_free(out.v, out.n);
		return EXIT_USAGE;
	}
	*nb = out.v;
	*n = out.n;
	return 0;
}

void lldp_free(struct lldp_nb *nb, int n)
{
	int k;

	for (k = 0; k < n; k++) {
		free(nb[k].port);
		free(nb[k].sys);
		free(nb[k].rport);
	}
	free(nb);
}
