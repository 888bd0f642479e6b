// SPDX-License-Identifier: GPL-2.0
/* The check of per-port maps against their rules (maps_verify.h). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/maps_verify.h"
#include "lib/log.h"
#include "lib/util.h"

struct mv {
	const struct maps *m;
	const struct rules *r;
	json_t *problems;
	int max_problems, nproblems;
	long long triples;
};

static void __attribute__((format(printf, 2, 3)))
problem(struct mv *v, const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	if (v->nproblems++ >= v->max_problems)
		return;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	json_array_append_new(v->problems, json_string(buf));
}

/* What the rules do with (in, dscp) out of out: priority and new DSCP. */
static void rules_fate(const struct rules *r, int sw, int in, int dscp, int out,
		       int *prio, int *nt)
{
	int p = rules_classify(r, sw, in, dscp, NULL), t;

	if (!maps_prio_lossless(r, p)) {
		*prio = r->lossy_prio;
		*nt = r->lossy_tag;
		return;
	}
	*prio = p;
	t = rules_rewrite(r, sw, dscp, in, out, NULL);
	*nt = t >= 0 ? t : r->lossy_tag;
}

static void check_switch(struct mv *v, const struct maps_switch *ms)
{
	const struct rules *r = v->r;
	const struct rules_switch *rs = &r->sw[ms->sw];
	int in, d, out, c, prio, nt, q, want_q;

	if (ms->nclasses > v->m->max_classes || ms->nclasses > MAPS_MAX_CLASSES)
		problem(v, "switch %s: %d classes, at most %d", rs->name,
			ms->nclasses, v->m->max_classes);
	if (__builtin_popcount(ms->prio_mask) > v->m->max_prios)
		problem(v, "switch %s: %d lossless priorities, at most %d",
			rs->name, __builtin_popcount(ms->prio_mask),
			v->m->max_prios);
	for (in = 0; in < ms->nports; in++) {
		for (d = 0; d < RULES_NTAGS; d++) {
			c = maps_class(ms, in, d);
			if (c < 0 || c >= ms->nclasses) {
				problem(v,
					"switch %s: (%s, %d): class %d of %d",
					rs->name, rs->ports[in], d, c,
					ms->nclasses);
				continue;
			}
			for (out = 0; out < ms->nports; out++) {
				v->triples++;
				rules_fate(r, ms->sw, in, d, out, &prio, &nt);
				if (ms->prio[c] != prio)
					problem(v,
						"switch %s: (%s, %d) -> %s: priority %d, the rules say %d",
						rs->name, rs->ports[in], d,
						rs->ports[out], ms->prio[c],
						prio);
				if (maps_new_tag(ms, c, out) != nt)
					problem(v,
						"switch %s: (%s, %d) -> %s: new DSCP %d, the rules say %d",
						rs->name, rs->ports[in], d,
						rs->ports[out],
						maps_new_tag(ms, c, out), nt);
				q = maps_queue(v->m, ms, c, out);
				want_q = rules_tag_prio(r, nt);
				if (want_q < 0)
					want_q = r->lossy_prio;
				if (q != want_q)
					problem(v,
						"switch %s: class %d -> %s: queue %d, not the new DSCP's priority %d",
						rs->name, c, rs->ports[out], q,
						want_q);
				if (maps_prio_lossless(r, ms->prio[c]) &&
				    rules_tag_lossless(r, nt) &&
				    rules_tag_lossless(r, d) &&
				    rules_tag_rank(r, nt) <
					    rules_tag_rank(r, d))
					problem(v,
						"switch %s: (%s, %d) -> %s: DSCP %d ranks below %d",
						rs->name, rs->ports[in], d,
						rs->ports[out], nt, d);
			}
		}
	}
}

/* "sw:port" of a link end: the switch and port, or sw -1 (not a switch). */
static int link_end(const struct rules *r, const char *s, int *sw, int *port)
{
	const char *colon = s ? strchr(s, ':') : NULL;
	char name[256];

	*sw = -1;
	if (!colon || colon - s >= (long)sizeof(name))
		return -1;
	memcpy(name, s, colon - s);
	name[colon - s] = 0;
	*sw = rules_find_switch(r, name);
	if (*sw < 0)
		return 0;
	*port = rules_find_port(r, *sw, colon + 1);
	return *port < 0 ? -1 : 0;
}

struct cbd {
	int *base; /* first node of each switch: (base + port) * 8 + prio */
	int nnodes;
	int *src, *dst;
	int nedges, cap;
};

static void add_edge(struct cbd *g, int a, int b)
{
	if (g->nedges == g->cap) {
		g->cap = g->cap ? 2 * g->cap : 256;
		g->src = xrealloc(g->src, sizeof(*g->src) * g->cap);
		g->dst = xrealloc(g->dst, sizeof(*g->dst) * g->cap);
	}
	g->src[g->nedges] = a;
	g->dst[g->nedges++] = b;
}

static int node_of(const struct cbd *g, int sw, int port, int prio)
{
	return (g->base[sw] + port) * RULES_NPRIOS + prio;
}

/* Kahn's algorithm over the edge list: true if every node drains. */
static bool acyclic(const struct cbd *g)
{
	int *deg = xcalloc(g->nnodes + 1, sizeof(int)),
	    *off = xcalloc(g->nnodes + 1, sizeof(int)),
	    *adj = xmalloc(sizeof(int) * (g->nedges ? g->nedges : 1)),
	    *fill = xcalloc(g->nnodes + 1, sizeof(int)),
	    *queue = xmalloc(sizeof(int) * (g->nnodes ? g->nnodes : 1));
	int i, head = 0, tail = 0, done = 0;

	for (i = 0; i < g->nedges; i++) {
		off[g->src[i] + 1]++;
		deg[g->dst[i]]++;
	}
	for (i = 0; i < g->nnodes; i++)
		off[i + 1] += off[i];
	for (i = 0; i < g->nedges; i++)
		adj[off[g->src[i]] + fill[g->src[i]]++] = g->dst[i];
	for (i = 0; i < g->nnodes; i++)
		if (!deg[i])
			queue[tail++] = i;
	while (head < tail) {
		int n = queue[head++];

		done++;
		for (i = off[n]; i < off[n + 1]; i++)
			if (!--deg[adj[i]])
				queue[tail++] = adj[i];
	}
	free(deg);
	free(off);
	free(adj);
	free(fill);
	free(queue);
	return done == g->nnodes;
}

/* peer[base[sw] + port]: the far end's (base + port), or -1. */
static int *peers(const struct rules *r, const json_t *links,
		  const struct cbd *g)
{
	int *peer = xmalloc(sizeof(int) * (g->nnodes / RULES_NPRIOS + 1));
	size_t i;
	int k, sw[2], port[2];

	memset(peer, 0xff, sizeof(int) * (g->nnodes / RULES_NPRIOS + 1));
	for (i = 0; i < json_array_size(links); i++) {
		const json_t *l = json_array_get(links, i);

		for (k = 0; k < 2; k++)
			if (!json_is_array(l) || json_array_size(l) != 2 ||
			    link_end(r, json_string_value(json_array_get(l, k)),
				     &sw[k], &port[k])) {
				p_err("%s: links[%zu]: not \"switch:port\" pairs of the rules' ports",
				      r->file, i);
				free(peer);
				return NULL;
			}
		if (sw[0] < 0 || sw[1] < 0)
			continue; /* a host's link */
		peer[g->base[sw[0]] + port[0]] = g->base[sw[1]] + port[1];
		peer[g->base[sw[1]] + port[1]] = g->base[sw[0]] + port[0];
	}
	return peer;
}

/* The buffer dependency graph of the maps; NULL after p_err(). */
static json_t *check_cbd(struct mv *v, const json_t *links)
{
	const struct rules *r = v->r;
	struct cbd g = { 0 };
	int s, in, d, c, out, *peer, *owner, n = 0, far, s2, c2, nt;
	bool *seen;
	json_t *o;

	g.base = xcalloc(r->nsw + 1, sizeof(int));
	for (s = 0; s < r->nsw; s++) {
		g.base[s] = n;
		n += r->sw[s].nports;
	}
	g.nnodes = n * RULES_NPRIOS;
	peer = peers(r, links, &g);
	if (!peer) {
		free(g.base);
		return NULL;
	}
	owner = xmalloc(sizeof(int) * (n + 1));
	for (s = 0; s < r->nsw; s++)
		for (in = 0; in < r->sw[s].nports; in++)
			owner[g.base[s] + in] = s;
	seen = xcalloc(MAPS_COUNT_CAP + 1, sizeof(bool));
	for (s = 0; s < v->m->nsw; s++) {
		const struct maps_switch *ms = &v->m->sw[s];

		if (ms->refused)
			continue;
		for (in = 0; in < ms->nports; in++) {
			memset(seen, 0, MAPS_COUNT_CAP + 1);
			for (d = 0; d < RULES_NTAGS; d++) {
				c = maps_class(ms, in, d);
				if (seen[c] ||
				    !maps_prio_lossless(r, ms->prio[c]))
					continue;
				seen[c] = true;
				for (out = 0; out < ms->nports; out++) {
					nt = maps_new_tag(ms, c, out);
					far = peer[g.base[s] + out];
					if (!rules_tag_lossless(r, nt) ||
					    far < 0)
						continue;
					s2 = owner[far];
					if (v->m->sw[s2].refused)
						continue;
					c2 = maps_class(&v->m->sw[s2],
							far - g.base[s2], nt);
					if (!maps_prio_lossless(
						    r, v->m->sw[s2].prio[c2]))
						continue;
					add_edge(
						&g,
						node_of(&g, s, in, ms->prio[c]),
						far * RULES_NPRIOS +
							v->m->sw[s2].prio[c2]);
				}
			}
		}
	}
	o = json_pack("{s:i,s:i,s:b}", "nodes", g.nnodes, "edges", g.nedges,
		      "acyclic", acyclic(&g));
	if (!json_is_true(json_object_get(o, "acyclic")))
		problem(v,
			"the buffer dependency graph of the maps has a cycle");
	free(seen);
	free(owner);
	free(peer);
	free(g.base);
	free(g.src);
	free(g.dst);
	return o;
}

json_t *maps_verify(const struct maps *m, const json_t *links, int max_problems)
{
	struct mv v = { .m = m,
			.r = m->r,
			.problems = json_array(),
			.max_problems = max_problems };
	json_t *cbd = json_null();
	int s, nsw = 0;

	for (s = 0; s < m->nsw; s++) {
		if (m->sw[s].refused)
			continue;
		nsw++;
		check_switch(&v, &m->sw[s]);
	}
	if (links) {
		cbd = check_cbd(&v, links);
		if (!cbd) {
			json_decref(v.problems);
			return NULL;
		}
	}
	return json_pack("{s:b,s:i,s:I,s:o,s:i,s:o}", "ok", !v.nproblems,
			 "switches", nsw, "triples", (json_int_t)v.triples,
			 "cbd", cbd, "problem_count", v.nproblems, "problems",
			 v.problems);
}
