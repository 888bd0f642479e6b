// SPDX-License-Identifier: GPL-2.0
/* Paths between hosts from the switches' FIBs; see fib_walk.h. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabric/fib_walk.h"
#include "lib/hmap.h"
#include "lib/strmap.h"
#include "lib/util.h"

/* A destination: one address of one host. */
struct dst {
	int host;
	int family;
	uint8_t addr[16];
	char text[FIB_ADDR_STRLEN];
};

/* What a switch does with a destination, looked up once. */
struct step {
	bool done;
	int *ports; /* egress ports, each once, in next hop order */
	int nports, pcap;
	json_t **holes; /* black holes among its next hops (problem objects) */
	int nholes, hcap;
};

struct walk {
	const struct fib_walk_in *in;
	const struct topo *t;
	struct fib_walk_out *out;
	struct dst *d;
	int nd, dcap;
	/*
	 * node x the destinations of the host walked to (k - k0): a host's
	 * walks are all done before the next host's, so its lookups are
	 * kept only meanwhile (memory: nodes x a host's addresses)
	 */
	struct step *steps;
	int k0, nk;
	int *onpath; /* per node: 1 + its position on the path, or 0 */
	int32_t *hops;
	int depth;
	int k; /* the destination walked to */
	int max;
	/* the pair walked */
	struct hmap seen; /* hash of a path -> its index in out->e */
	int pair_paths;
	bool stop;
	struct strmap probs; /* problem text -> index in out->problems */
};

static const char *node_name(const struct walk *w, int n)
{
	return w->t->nodes[n].name;
}

/* A problem object with its text (printf-style) and kind. */
static json_t *problem_new(const char *kind, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static json_t *problem_new(const char *kind, const char *fmt, ...)
{
	char *text;
	va_list ap;
	json_t *p;
	int rc;

	va_start(ap, fmt);
	rc = vasprintf(&text, fmt, ap);
	va_end(ap);
	if (rc < 0)
		abort();
	p = json_pack("{s:s,s:s}", "kind", kind, "text", text);
	free(text);
	return p;
}

/* Count a walk that ended at problem p (a new reference is taken). */
static void problem(struct walk *w, json_t *p)
{
	const char *text = json_string_value(json_object_get(p, "text"));
	int i = strmap_get(&w->probs, text);
	json_t *old;

	if (i >= 0) {
		old = json_array_get(w->out->problems, i);
		json_object_set_new(
			old, "walks",
			json_integer(json_integer_value(
					     json_object_get(old, "walks")) +
				     1));
		return;
	}
	strmap_add(&w->probs, text, (int)json_array_size(w->out->problems));
	json_object_set_new(p, "walks", json_integer(1));
	json_array_append(w->out->problems, p);
	if (!strcmp(json_string_value(json_object_get(p, "kind")), "loop"))
		w->out->loops++;
	else if (!strcmp(json_string_value(json_object_get(p, "kind")),
			 "black_hole"))
		w->out->holes++;
}

static void problem_once(struct walk *w, json_t *p)
{
	problem(w, p);
	json_decref(p);
}

/* The destination's host and address, for messages. */
static json_t *toward(const struct walk *w, json_t *p, int k)
{
	json_object_set_new(p, "toward",
			    json_string(node_name(w, w->d[k].host)));
	json_object_set_new(p, "address", json_string(w->d[k].text));
	return p;
}

static void add_dst(struct walk *w, int host, int family, const uint8_t *a)
{
	struct dst d = { .host = host, .family = family };
	int i;

	for (i = 0; i < w->nd; i++)
		if (w->d[i].host == host && w->d[i].family == family &&
		    !memcmp(w->d[i].addr, a, 16))
			return;
	memcpy(d.addr, a, 16);
	fib_addr_str(family, a, d.text);
	VEC_PUSH(w->d, w->nd, w->dcap, d);
}

static void addr_add(uint8_t *a, int bytes, unsigned int v)
{
	int k;

	for (k = bytes - 1; k >= 0 && v; k--) {
		v += a[k];
		a[k] = (uint8_t)v;
		v >>= 8;
	}
}

/* The switch's own address in connected route r, or NULL. */
static const uint8_t *own_in(const struct fib *f, const struct fib_route *r)
{
	int i;

	for (i = 0; i < f->nown; i++)
		if (f->own[i].family == r->family &&
		    !strcmp(f->own[i].dev, r->nh[0].dev) &&
		    fib_prefix_has(r->family, r->addr, r->plen, f->own[i].addr))
			return f->own[i].addr;
	return NULL;
}

/*
 * Host h's address of one family behind port (of switch sw, toward h):
 * a host route out of the port, else from the connected subnet there.
 */
static void host_addr(struct walk *w, int h, int sw, const char *port,
		      int family)
{
	const struct fib *f = w->in->fib[sw];
	int max = family == 4 ? 32 : 128, bytes = family == 4 ? 4 : 16, i, k;
	const struct fib_route *r;
	const uint8_t *own;
	uint8_t a[16];
	char pfx[FIB_ADDR_STRLEN];

	for (i = 0; i < f->n; i++) {
		r = &f->r[i];
		if (r->family != family || r->plen != max ||
		    r->type != FIB_UNICAST)
			continue;
		for (k = 0; k < r->nnh && !strcmp(r->nh[k].dev, port); k++)
			;
		if (k == r->nnh) {
			add_dst(w, h, family, r->addr);
			return;
		}
	}
	for (i = 0; i < f->n; i++) {
		r = &f->r[i];
		if (r->family != family || !r->connected ||
		    strcmp(r->nh[0].dev, port))
			continue;
		own = own_in(f, r);
		memcpy(a, r->addr, 16);
		if (r->plen == max - 1) {
			if (!own) {
				problem_once(
					w,
					problem_new(
						"no_address",
						"%s: %s's subnet %s/%d on %s has "
						"two addresses and %s's own is "
						"not known",
						node_name(w, h),
						node_name(w, sw),
						fib_addr_str(family, r->addr,
							     pfx),
						r->plen, port,
						node_name(w, sw)));
				return;
			}
			a[bytes - 1] ^= 1;
			if (!memcmp(a, own, 16))
				a[bytes - 1] ^= 1;
		} else if (r->plen < max - 1) {
			addr_add(a, bytes, 1);
			if (own && !memcmp(a, own, 16))
				addr_add(a, bytes, 1);
		}
		add_dst(w, h, family, a);
		return;
	}
}

static void host_addrs(struct walk *w, int h)
{
	const struct topo *t = w->t;
	int i, p, sw, n0 = w->nd;

	for (i = 0; i < t->nodes[h].nports; i++) {
		p = t->nodes[h].ports[i];
		sw = port_peer_node(t, p);
		if (!topo_is_switch(t, sw) || !w->in->fib[sw])
			continue;
		host_addr(w, h, sw, t->ports[t->ports[p].peer].name, 4);
		host_addr(w, h, sw, t->ports[t->ports[p].peer].name, 6);
	}
	if (w->nd == n0)
		problem_once(w, problem_new("no_address",
					    "%s: no switch it is cabled to "
					    "routes an address to it",
					    node_name(w, h)));
}

static void hole(struct step *s, json_t *p)
{
	VEC_PUSH(s->holes, s->nholes, s->hcap, p);
}

static json_t *hole_at(const struct walk *w, json_t *p, int sw, int k)
{
	json_object_set_new(p, "switch", json_string(node_name(w, sw)));
	return toward(w, p, k);
}

/* Switch sw's forwarding of destination k. */
static struct step *decide(struct walk *w, int sw, int k)
{
	struct step *s = &w->steps[(size_t)sw * w->nk + (k - w->k0)];
	const struct dst *d = &w->d[k];
	const struct fib_route *r;
	const char *sn = node_name(w, sw), *hn = node_name(w, d->host);
	char pfx[FIB_ADDR_STRLEN];
	int i, j, port;

	if (s->done)
		return s;
	s->done = true;
	r = fib_lookup(w->in->fib[sw], d->family, d->addr);
	if (!r) {
		hole(s, hole_at(w,
				problem_new("black_hole",
					    "%s has no route to %s (%s)", sn,
					    d->text, hn),
				sw, k));
		return s;
	}
	if (r->type != FIB_UNICAST) {
		hole(s,
		     hole_at(w,
			     problem_new("black_hole",
					 "%s drops %s (%s): %s/%d is a %s "
					 "route",
					 sn, d->text, hn,
					 fib_addr_str(d->family, r->addr, pfx),
					 r->plen, fib_type_name(r->type)),
			     sw, k));
		return s;
	}
	for (i = 0; i < r->nnh; i++) {
		port = topo_find_port(w->t, sw, r->nh[i].dev);
		if (port < 0) {
			hole(s, hole_at(w,
					problem_new("black_hole",
						    "%s routes %s (%s) out of "
						    "%s, which is no port of "
						    "%s in the topology",
						    sn, d->text, hn,
						    r->nh[i].dev, sn),
					sw, k));
			continue;
		}
		if (r->nh[i].linkdown) {
			hole(s,
			     hole_at(w,
				     problem_new("black_hole",
						 "%s routes %s (%s) out of "
						 "%s, whose link is down",
						 sn, d->text, hn, r->nh[i].dev),
				     sw, k));
			continue;
		}
		for (j = 0; j < s->nports && s->ports[j] != port; j++)
			;
		if (j == s->nports)
			VEC_PUSH(s->ports, s->nports, s->pcap, port);
	}
	return s;
}

static uint64_t path_hash(const int32_t *hops, int n)
{
	uint64_t h = 1469598103934665603ULL;
	int i;

	for (i = 0; i < n; i++)
		h = (h ^ (uint32_t)hops[i]) * 1099511628211ULL;
	return h == HMAP_EMPTY ? 0 : h;
}

/* A complete path hops[0..n): once per pair. */
static void emit(struct walk *w, int n)
{
	struct elp *e = w->out->e;
	uint64_t key = path_hash(w->hops, n), v;

	if (w->pair_paths == w->max) {
		w->stop = true; /* one more than the bound: truncated */
		return;
	}
	while (hmap_get(&w->seen, key, &v)) {
		if (elp_len(e, (int)v) == n &&
		    !memcmp(elp_hops(e, (int)v), w->hops, n * sizeof(int32_t)))
			return;
		key = key + 1 == HMAP_EMPTY ? 0 : key + 1;
	}
	hmap_put(&w->seen, key, (uint64_t)e->npaths);
	elp_add(e, w->hops, n, 0);
	w->pair_paths++;
}

/* The cycle from node z (on the path) around to z again, least id first. */
static void loop(struct walk *w, int z)
{
	int from = w->onpath[z] - 1, n = w->depth - from + 1, i, lo = 0, node;
	size_t len = 0, cap = 64;
	char *text = xmalloc(cap);
	int *cyc = xmalloc(n * sizeof(int));
	json_t *p, *nodes = json_array();

	/* the node at position j >= 1 is the one hop j - 1 enters */
	for (i = 0; i < n; i++) {
		cyc[i] = port_peer_node(w->t, w->hops[from + i - 1]);
		if (cyc[i] < cyc[lo])
			lo = i;
	}
	text[0] = '\0';
	for (i = 0; i <= n; i++) {
		const char *nm;

		node = cyc[(lo + i) % n];
		nm = node_name(w, node);
		json_array_append_new(nodes, json_string(nm));
		while (len + strlen(nm) + 2 > cap)
			text = xrealloc(text, cap *= 2);
		len += sprintf(text + len, "%s%s", i ? " " : "", nm);
	}
	p = toward(w,
		   problem_new("loop", "loop toward %s (%s): %s",
			       node_name(w, w->d[w->k].host), w->d[w->k].text,
			       text),
		   w->k);
	json_object_set_new(p, "cycle", nodes);
	problem_once(w, p);
	free(text);
	free(cyc);
}

/*
 * The walk has entered switch sw by hops[depth - 1]. Node positions: the
 * source host is 0, the node entered by hops[j] is j + 1.
 */
static void walk_from(struct walk *w, int sw)
{
	const struct topo *t = w->t;
	int dsth = w->d[w->k].host, i, o, z;
	struct step *s = decide(w, sw, w->k);

	for (i = 0; i < s->nholes; i++)
		problem(w, s->holes[i]);
	for (i = 0; i < s->nports && !w->stop; i++) {
		o = s->ports[i];
		z = port_peer_node(t, o);
		w->hops[w->depth] = o;
		if (z == dsth) {
			emit(w, w->depth + 1);
			continue;
		}
		if (!topo_is_switch(t, z)) {
			problem_once(
				w,
				hole_at(w,
					problem_new(
						"black_hole",
						"%s forwards %s (%s) to host "
						"%s",
						node_name(w, sw),
						w->d[w->k].text,
						node_name(w, dsth),
						node_name(w, z)),
					sw, w->k));
			continue;
		}
		if (w->onpath[z]) {
			loop(w, z);
			continue;
		}
		if (!w->in->fib[z]) {
			problem_once(w, problem_new("black_hole",
						    "%s: its FIB was not read "
						    "(not in the inventory)",
						    node_name(w, z)));
			continue;
		}
		w->depth++;
		w->onpath[z] = w->depth + 1;
		walk_from(w, z);
		w->onpath[z] = 0;
		w->depth--;
	}
}

/* Every path from host src to destination k. */
static void walk_pair(struct walk *w, int src, int k)
{
	const struct topo *t = w->t;
	int i, p, z;

	for (i = 0; i < t->nodes[src].nports && !w->stop; i++) {
		p = t->nodes[src].ports[i];
		z = port_peer_node(t, p);
		w->hops[0] = p;
		if (z == w->d[k].host) {
			emit(w, 1);
			continue;
		}
		if (!topo_is_switch(t, z))
			continue;
		if (!w->in->fib[z]) {
			problem_once(w, problem_new("black_hole",
						    "%s: its FIB was not read "
						    "(not in the inventory)",
						    node_name(w, z)));
			continue;
		}
		w->depth = 1;
		w->onpath[src] = 1;
		w->onpath[z] = 2;
		walk_from(w, z);
		w->onpath[z] = 0;
		w->onpath[src] = 0;
	}
}

static void steps_free(struct walk *w)
{
	size_t i;
	int k;

	for (i = 0; i < (size_t)w->t->nnodes * w->nk; i++) {
		for (k = 0; k < w->steps[i].nholes; k++)
			json_decref(w->steps[i].holes[k]);
		free(w->steps[i].holes);
		free(w->steps[i].ports);
	}
	free(w->steps);
	w->steps = NULL;
}

static bool walked(const struct fib_walk_in *in, int n)
{
	return in->t->nodes[n].kind == NODE_HOST && (!in->host || in->host[n]);
}

int fib_walk(const struct fib_walk_in *in, struct fib_walk_out *out)
{
	const struct topo *t = in->t;
	struct walk w = { .in = in, .t = t, .out = out };
	int h, s, k, k0;

	memset(out, 0, sizeof(*out));
	out->e = elp_new("fib");
	out->problems = json_array();
	w.max = in->max_per_pair > 0 ? in->max_per_pair : FIB_WALK_MAX_PER_PAIR;
	strmap_init(&w.probs);
	for (h = 0; h < t->nnodes; h++)
		if (walked(in, h))
			host_addrs(&w, h);
	w.onpath = xcalloc(t->nnodes, sizeof(int));
	w.hops = xmalloc((t->nnodes + 1) * sizeof(int32_t));
	for (h = 0, k0 = 0; h < t->nnodes; h++) {
		if (!walked(in, h))
			continue;
		while (k0 < w.nd && w.d[k0].host < h)
			k0++;
		for (w.nk = 0; k0 + w.nk < w.nd && w.d[k0 + w.nk].host == h;
		     w.nk++)
			;
		w.k0 = k0;
		w.steps = xcalloc((size_t)t->nnodes * (w.nk ? w.nk : 1),
				  sizeof(*w.steps));
		for (s = 0; s < t->nnodes; s++) {
			if (s == h || !walked(in, s))
				continue;
			hmap_init(&w.seen, 16);
			w.pair_paths = 0;
			w.stop = false;
			for (k = k0; k < w.nd && w.d[k].host == h && !w.stop;
			     k++) {
				w.k = k;
				walk_pair(&w, s, k);
			}
			hmap_free(&w.seen);
			out->pairs++;
			out->unreachable += !w.pair_paths;
			out->truncated += w.stop;
		}
		steps_free(&w);
	}
	free(w.onpath);
	free(w.hops);
	free(w.d);
	strmap_free(&w.probs);
	return 0;
}

void fib_walk_free(struct fib_walk_out *out)
{
	elp_free(out->e);
	json_decref(out->problems);
	memset(out, 0, sizeof(*out));
}
