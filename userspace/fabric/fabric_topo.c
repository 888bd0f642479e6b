// SPDX-License-Identifier: GPL-2.0
/* The cabling as LLDP sees it, and against a topology; see fabric_topo.h. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabric/fabric_lldp.h"
#include "fabric/fabric_run.h"
#include "fabric/fabric_topo.h"
#include "lib/log.h"
#include "lib/util.h"

static void warn(json_t *warnings, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void warn(json_t *warnings, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	pr_warn("Warning: %s\n", buf);
	if (json_is_array(warnings))
		json_array_append_new(warnings, json_string(buf));
}

/* The neighbours of switch h, from its lldpd. */
static int ask(const struct fabric_host *h, struct lldp_nb **nb, int *n)
{
	const char *words[8];
	struct fabric_run res;
	char file[300];
	int k = 0, rc;

	if (h->lldp_socket) {
		words[k++] = "-u";
		words[k++] = h->lldp_socket;
	}
	words[k++] = "-f";
	words[k++] = "json";
	words[k++] = "show";
	words[k++] = "neighbors";
	words[k] = NULL;
	if (fabric_run_prog(h, h->lldpcli ?: "lldpcli", words, &res)) {
		p_err("%s: %s", h->name, res.err);
		return EXIT_RUNTIME;
	}
	if (res.status) {
		p_err("%s: lldpcli exited with %d%s%s", h->name, res.status,
		      res.err[0] ? ": " : "", res.err);
		fabric_run_free(&res);
		return EXIT_RUNTIME;
	}
	snprintf(file, sizeof(file), "%s: lldpcli", h->name);
	rc = lldp_parse(file, res.out, res.len, nb, n);
	fabric_run_free(&res);
	return rc;
}

struct build {
	struct topo *t;
	const struct fabric_inv *inv;
	bool *heard; /* per port: its own switch heard the cable */
	int heard_cap;
	json_t *warnings;
};

static void heard(struct build *b, int port)
{
	while (port >= b->heard_cap) {
		int cap = b->heard_cap ? 2 * b->heard_cap : 64;

		b->heard = xrealloc(b->heard, cap * sizeof(*b->heard));
		memset(b->heard + b->heard_cap, 0,
		       (cap - b->heard_cap) * sizeof(*b->heard));
		b->heard_cap = cap;
	}
	b->heard[port] = true;
}

/* One neighbour heard on port nb->port of switch node a. */
static void add_heard(struct build *b, int a, const struct lldp_nb *nb)
{
	struct topo *t = b->t;
	int k = fabric_inv_find(b->inv, nb->sys), far, pa, pf, x;
	const char *name = k >= 0 ? b->inv->h[k].sw : nb->sys;

	far = topo_find_node(t, name);
	if (far < 0)
		far = topo_add_node(t, name, NODE_HOST, LAYER_NONE);
	pa = topo_find_port(t, a, nb->port);
	pf = topo_find_port(t, far, nb->rport);
	if (pa >= 0 && pf >= 0 && t->ports[pa].peer == pf) {
		heard(b, pa); /* the other end heard it first */
		return;
	}
	if (a == far && !strcmp(nb->port, nb->rport)) {
		warn(b->warnings, "%s:%s hears itself: left out",
		     t->nodes[a].name, nb->port);
		return;
	}
	if (pa >= 0 || pf >= 0) {
		x = pa >= 0 ? pa : pf;
		warn(b->warnings,
		     "%s:%s hears %s:%s, but %s:%s is cabled to %s:%s (heard "
		     "first): left out",
		     t->nodes[a].name, nb->port, name, nb->rport,
		     t->nodes[port_node(t, x)].name, t->ports[x].name,
		     t->nodes[port_peer_node(t, x)].name,
		     t->ports[t->ports[x].peer].name);
		return;
	}
	x = topo_add_link(t, a, nb->port, far, nb->rport);
	if (x >= 0)
		heard(b, x);
}

int fabric_discover(const struct fabric_inv *inv, struct topo **out,
		    json_t *warnings)
{
	struct build b = { .inv = inv, .warnings = warnings };
	struct lldp_nb *nb;
	int k, i, n, rc;

	*out = NULL;
	b.t = topo_new("lldp");
	for (k = 0; k < inv->n; k++)
		topo_add_node(b.t, inv->h[k].sw, NODE_SWITCH, LAYER_NONE);
	for (k = 0; k < inv->n; k++) {
		rc = ask(&inv->h[k], &nb, &n);
		if (rc) {
			topo_free(b.t);
			free(b.heard);
			return rc;
		}
		for (i = 0; i < n; i++)
			add_heard(&b, k, &nb[i]);
		lldp_free(nb, n);
	}
	heard(&b, b.t->nports); /* sized for every port */
	for (i = 0; i < b.t->nports; i++) {
		int j = b.t->ports[i].peer;
		const struct topo_port *p = &b.t->ports[i];

		if (j < i || !topo_is_switch(b.t, port_peer_node(b.t, i)) ||
		    (b.heard[i] && b.heard[j]))
			continue;
		warn(warnings,
		     "link %s:%s %s:%s is heard by %s only (lldpd on %s?)",
		     b.t->nodes[p->node].name, p->name,
		     b.t->nodes[port_peer_node(b.t, i)].name,
		     b.t->ports[j].name,
		     b.t->nodes[b.heard[i] ? p->node : port_peer_node(b.t, i)]
			     .name,
		     b.t->nodes[b.heard[i] ? port_peer_node(b.t, i) : p->node]
			     .name);
	}
	free(b.heard);
	*out = b.t;
	return EXIT_OK;
}

static json_t *link_str(const struct topo *t, int p)
{
	int q = t->ports[p].peer;

	return json_sprintf("%s:%s %s:%s", t->nodes[t->ports[p].node].name,
			    t->ports[p].name, t->nodes[t->ports[q].node].name,
			    t->ports[q].name);
}

/* The port of other that is (node name of p, port name of p) in t. */
static int same_port(const struct topo *t, int p, const struct topo *other)
{
	int n = topo_find_node(other, t->nodes[t->ports[p].node].name);

	return n < 0 ? -1 : topo_find_port(other, n, t->ports[p].name);
}

/* Does other know a switch of t's link p (the inventory's view)? */
static bool visible(const struct topo *t, int p, const struct topo *other)
{
	int ends[2] = { t->ports[p].node, port_node(t, t->ports[p].peer) }, k,
	    n;

	for (k = 0; k < 2; k++) {
		n = topo_find_node(other, t->nodes[ends[k]].name);
		if (n >= 0 && topo_is_switch(other, n))
			return true;
	}
	return false;
}

json_t *fabric_topo_diff(const struct topo *want, const struct topo *got)
{
	json_t *diff = json_array(), *found, *d;
	int p, q, gp, gq;

	for (p = 0; p < want->nports; p++) {
		q = want->ports[p].peer;
		if (q < p || !visible(want, p, got))
			continue;
		gp = same_port(want, p, got);
		gq = same_port(want, q, got);
		if (gp >= 0 && got->ports[gp].peer == gq)
			continue;
		d = json_pack("{s:s,s:o}", "kind",
			      gp >= 0 || gq >= 0 ? "differs" : "missing",
			      "link", link_str(want, p));
		found = json_array();
		if (gp >= 0)
			json_array_append_new(found, link_str(got, gp));
		if (gq >= 0)
			json_array_append_new(found, link_str(got, gq));
		json_object_set_new(d, "found", found);
		json_array_append_new(diff, d);
	}
	for (p = 0; p < got->nports; p++) {
		q = got->ports[p].peer;
		if (q < p || same_port(got, p, want) >= 0 ||
		    same_port(got, q, want) >= 0)
			continue;
		json_array_append_new(
			diff, json_pack("{s:s,s:o,s:[]}", "kind", "extra",
					"link", link_str(got, p), "found"));
	}
	return diff;
}
