// SPDX-License-Identifier: GPL-2.0
/* Deadlock check of the union of two rule sets; see dp_union.h. */
#include <stdlib.h>
#include <string.h>

#include "graph/digraph.h"
#include "dataplane/dp_union.h"
#include "lib/hmap.h"
#include "lib/log.h"
#include "lib/strmap.h"
#include "lib/util.h"

static void links_add(struct dp_links *l, const char *a, const char *b)
{
	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 64;
		l->a = xrealloc(l->a, l->cap * sizeof(char *));
		l->b = xrealloc(l->b, l->cap * sizeof(char *));
	}
	l->a[l->n] = xstrdup(a);
	l->b[l->n++] = xstrdup(b);
}

static bool endpoint_ok(json_t *v)
{
	const char *s = json_string_value(v), *c;

	return s && (c = strchr(s, ':')) && c > s && c[1];
}

int dp_links_from_json(json_t *doc, const char *file, struct dp_links *l)
{
	json_t *links = json_object_get(doc, "links"), *v;
	size_t i;

	memset(l, 0, sizeof(*l));
	if (!links)
		return 0;
	if (!json_is_array(links)) {
		input_err(
			file, 0,
			"links: expected an array of [\"node:port\", \"node:port\"]");
		return -1;
	}
	json_array_foreach(links, i, v) {
		if (!json_is_array(v) || json_array_size(v) != 2 ||
		    !endpoint_ok(json_array_get(v, 0)) ||
		    !endpoint_ok(json_array_get(v, 1))) {
			input_err(
				file, 0,
				"links[%zu]: expected [\"node:port\", \"node:port\"]",
				i);
			dp_links_free(l);
			return -1;
		}
		links_add(l, json_string_value(json_array_get(v, 0)),
			  json_string_value(json_array_get(v, 1)));
	}
	return 1;
}

void dp_links_from_topo(const struct topo *t, struct dp_links *l)
{
	char a[256], b[256];
	int p, q;

	memset(l, 0, sizeof(*l));
	for (p = 0; p < t->nports; p++) {
		q = t->ports[p].peer;
		if (q < p) /* each link once */
			continue;
		snprintf(a, sizeof(a), "%s:%s", t->nodes[t->ports[p].node].name,
			 t->ports[p].name);
		snprintf(b, sizeof(b), "%s:%s", t->nodes[t->ports[q].node].name,
			 t->ports[q].name);
		links_add(l, a, b);
	}
}

void dp_links_free(struct dp_links *l)
{
	int i;

	for (i = 0; i < l->n; i++) {
		free(l->a[i]);
		free(l->b[i]);
	}
	free(l->a);
	free(l->b);
	memset(l, 0, sizeof(*l));
}

/* Every switch port of either rule set gets an id; ids name buffers. */
struct ctx {
	const struct rules *rs[DP_UNION_MAX_SETS];
	int nrs;
	struct strmap ids;
	char **names;
	int nids, cap;
	int *peer;
	int *at_sw[DP_UNION_MAX_SETS],
		*at_port[DP_UNION_MAX_SETS]; /* in rs[k] */
	struct hmap seen;
	int *src, *dst;
	struct dp_union_edge *edges;
	int64_t m, mcap;
};

static int port_id(struct ctx *c, const char *sw, const char *port, bool add)
{
	char key[512];
	int id;

	snprintf(key, sizeof(key), "%s:%s", sw, port);
	id = strmap_get(&c->ids, key);
	if (id >= 0 || !add)
		return id;
	id = c->nids;
	strmap_add(&c->ids, key, id);
	VEC_PUSH(c->names, c->nids, c->cap, xstrdup(key));
	return id;
}

static void add_edge(struct ctx *c, int u, int v, int t, int nt, int rs)
{
	bool inserted;

	hmap_slot(&c->seen, key2(u, v), &inserted);
	if (!inserted)
		return;
	if (c->m == c->mcap) {
		c->mcap = c->mcap ? 2 * c->mcap : 1024;
		c->src = xrealloc(c->src, c->mcap * sizeof(int));
		c->dst = xrealloc(c->dst, c->mcap * sizeof(int));
		c->edges = xrealloc(c->edges, c->mcap * sizeof(*c->edges));
	}
	c->src[c->m] = u;
	c->dst[c->m] = v;
	c->edges[c->m++] = (struct dp_union_edge){ u, v, t, nt, rs };
}

/* Packets of tag nt entering port id q: the priorities either set gives. */
/* Where each port id is in each rule set (-1: not there), once. */
static void locate_ids(struct ctx *c)
{
	const char *name, *colon;
	char sw[256];
	int k, id, b;

	for (k = 0; k < c->nrs; k++) {
		c->at_sw[k] = xmalloc((c->nids + 1) * sizeof(int));
		c->at_port[k] = xmalloc((c->nids + 1) * sizeof(int));
	}
	for (id = 0; id < c->nids; id++) {
		name = c->names[id];
		colon = strrchr(name, ':');
		snprintf(sw, sizeof(sw), "%.*s", (int)(colon - name), name);
		for (k = 0; k < c->nrs; k++) {
			b = rules_find_switch(c->rs[k], sw);
			c->at_sw[k][id] = b;
			c->at_port[k][id] =
				b < 0 ? -1 :
					rules_find_port(c->rs[k], b, colon + 1);
		}
	}
}

/* Packets of tag nt entering port id q: the priorities either set gives. */
static void downstream(struct ctx *c, int u, int t, int nt, int rs, int q)
{
	int k, j, pb;

	for (k = 0; k < c->nrs; k++) {
		j = c->at_port[k][q];
		if (j < 0)
			continue;
		pb = rules_classify(c->rs[k], c->at_sw[k][q], j, nt, NULL);
		if (pb != RULES_LOSSY)
			add_edge(c, u, q * 8 + pb, t, nt, rs);
	}
}

static void switch_edges(struct ctx *c, int rs, int s)
{
	const struct rules *r = c->rs[rs];
	const struct rules_switch *sw = &r->sw[s];
	int i, o, t, pa, nt, id, q, *peer;

	/* Each out port's peer once, not per (in port, tag): names hash slowly. */
	peer = xmalloc((sw->nports + 1) * sizeof(int));
	for (o = 0; o < sw->nports; o++)
		peer[o] = c->peer[port_id(c, sw->name, sw->ports[o], false)];
	for (i = 0; i < sw->nports; i++) {
		id = port_id(c, sw->name, sw->ports[i], false);
		for (t = 0; t < RULES_NTAGS; t++) {
			pa = rules_classify(r, s, i, t, NULL);
			if (pa == RULES_LOSSY)
				continue;
			for (o = 0; o < sw->nports; o++) {
				q = peer[o];
				if (q < 0)
					continue;
				nt = rules_rewrite(r, s, t, i, o, NULL);
				if (nt != RULES_LOSSY &&
				    rules_tag_lossless(r, nt))
					downstream(c, id * 8 + pa, t, nt, rs,
						   q);
			}
		}
	}
	free(peer);
}

int dp_union_check(const struct rules *old, const struct rules *new,
		   const struct dp_links *l, struct dp_union_result *res)
{
	const struct rules *rs[2] = { old, new };

	return dp_union_check_sets(rs, old == new ? 1 : 2, l, res);
}

int dp_union_check_sets(const struct rules *const *rs, int n,
			const struct dp_links *l, struct dp_union_result *res)
{
	struct ctx c = { .nrs = n };
	struct digraph g;
	int64_t *cyc = NULL;
	int k, s, p, a, b;

	memset(res, 0, sizeof(*res));
	if (n < 1 || n > DP_UNION_MAX_SETS)
		return -1;
	for (k = 0; k < n; k++)
		c.rs[k] = rs[k];
	strmap_init(&c.ids);
	hmap_init(&c.seen, 1024);
	for (k = 0; k < c.nrs; k++)
		for (s = 0; s < c.rs[k]->nsw; s++)
			for (p = 0; p < c.rs[k]->sw[s].nports; p++)
				port_id(&c, c.rs[k]->sw[s].name,
					c.rs[k]->sw[s].ports[p], true);
	c.peer = xmalloc((c.nids + 1) * sizeof(int));
	memset(c.peer, -1, (c.nids + 1) * sizeof(int));
	for (k = 0; k < l->n; k++) {
		a = strmap_get(&c.ids, l->a[k]);
		b = strmap_get(&c.ids, l->b[k]);
		if (a >= 0 && b >= 0) { /* host links make no dependency */
			c.peer[a] = b;
			c.peer[b] = a;
		}
	}
	locate_ids(&c);
	for (k = 0; k < c.nrs; k++)
		for (s = 0; s < c.rs[k]->nsw; s++)
			switch_edges(&c, k, s);
	for (k = 0; k < c.nrs; k++) {
		free(c.at_sw[k]);
		free(c.at_port[k]);
	}

	digraph_build(&g, c.nids * 8, c.src, c.dst, c.m);
	res->len = digraph_find_cycle(&g, &cyc);
	res->deps = c.m;
	for (k = 0; k < g.n; k++)
		if (g.start[k + 1] > g.start[k])
			res->buffers++;
	if (res->len) {
		res->cycle = xmalloc(res->len * sizeof(*res->cycle));
		for (k = 0; k < res->len; k++)
			res->cycle[k] = c.edges[cyc[k]];
	}
	res->port_names = c.names;
	res->nports = c.nids;
	free(cyc);
	digraph_free(&g);
	free(c.src);
	free(c.dst);
	free(c.edges);
	free(c.peer);
	hmap_free(&c.seen);
	strmap_free(&c.ids);
	return res->len == 0;
}

json_t *dp_union_cycle_json(const struct dp_union_result *res)
{
	json_t *arr = json_array();
	int k;

	for (k = 0; k < res->len; k++) {
		const struct dp_union_edge *e = &res->cycle[k];

		json_array_append_new(
			arr,
			json_pack("{s:s,s:i,s:s,s:i,s:i,s:i,s:s}", "from",
				  res->port_names[e->from / 8], "from_priority",
				  e->from % 8, "to", res->port_names[e->to / 8],
				  "to_priority", e->to % 8, "tag", e->tag,
				  "new_tag", e->new_tag, "rules",
				  e->rules ? "new" : "old"));
	}
	return arr;
}

void dp_union_free(struct dp_union_result *res)
{
	int k;

	for (k = 0; k < res->nports; k++)
		free(res->port_names[k]);
	free(res->port_names);
	free(res->cycle);
	memset(res, 0, sizeof(*res));
}
