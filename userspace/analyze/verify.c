// SPDX-License-Identifier: GPL-2.0
/*
 * The verifier: buffer dependency graph from the rules, ELP walks, cycle
 * search; see verify.h. Witnesses are collected as raw records while the
 * graph is built and turned into text and JSON once at the end
 * (verify_witness.c), so the hot loops only touch integers.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "graph/digraph.h"
#include "lib/log.h"
#include "lib/util.h"
#include "analyze/verify.h"
#include "analyze/verify_ctx.h"

/*
 * The walks of one range of paths. Walks are independent, so ranges run
 * in threads; each keeps what it found in walk order (its first lossy
 * walks, the first hop that takes each decreasing rule) and the ranges are
 * merged in path order, which gives what one thread walking them all gives.
 */
struct walker {
	struct vctx *c;
	int lo, hi; /* paths [lo, hi) */
	int ncls;
	int64_t lossy_walks;
	int64_t lossless_paths;
	struct lossy_rec *lossy; /* the first c->max lossy walks */
	int nlossy, lossy_cap;
	struct dec_rec *dec; /* first use of each decreasing rule */
	int ndec, dec_cap;
	struct hmap dec_seen; /* key2(sw, rule) of dec */
};

static inline uint32_t bdg_node(int port, int prio)
{
	return (uint32_t)port * RULES_NPRIOS + (uint32_t)prio;
}

/* Map the rules' switches, ports and hosts onto the topology, or say why not. */
static bool bind(struct vctx *c)
{
	const struct topo *t = c->t;
	const struct rules *r = c->r;
	int s, k, n;

	c->node_sw = xmalloc((t->nnodes + 1) * sizeof(int));
	c->node_host = xmalloc((t->nnodes + 1) * sizeof(int));
	c->port_local = xmalloc((t->nports + 1) * sizeof(int));
	memset(c->node_sw, -1, (t->nnodes + 1) * sizeof(int));
	memset(c->node_host, -1, (t->nnodes + 1) * sizeof(int));
	memset(c->port_local, -1, (t->nports + 1) * sizeof(int));
	c->sw_ports = xcalloc(r->nsw + 1, sizeof(int *));
	for (s = 0; s < r->nsw; s++) {
		const struct rules_switch *rs = &r->sw[s];

		n = topo_find_node(t, rs->name);
		if (n < 0) {
			input_err(r->file, 0,
				  "switches.%s: no node \"%s\" in %s", rs->name,
				  rs->name, t->file);
			return false;
		}
		c->node_sw[n] = s;
		c->sw_ports[s] = xmalloc((rs->nports + 1) * sizeof(int));
		for (k = 0; k < rs->nports; k++) {
			int p = topo_find_port(t, n, rs->ports[k]);

			if (p < 0) {
				input_err(
					r->file, 0,
					"switches.%s.ports[%d]: %s has no port \"%s\" in %s",
					rs->name, k, rs->name, rs->ports[k],
					t->file);
				return false;
			}
			c->sw_ports[s][k] = p;
			c->port_local[p] = k;
		}
		/* A port without a program would forward tags unchecked. */
		for (k = 0; k < t->nodes[n].nports; k++) {
			int p = t->nodes[n].ports[k];

			if (c->port_local[p] < 0) {
				input_err(
					r->file, 0,
					"switches.%s.ports: port \"%s\" of %s in %s is missing",
					rs->name, t->ports[p].name, rs->name,
					t->file);
				return false;
			}
		}
	}
	for (s = 0; s < r->nhosts; s++) {
		n = topo_find_node(t, r->hosts[s].name);
		if (n < 0) {
			input_err(r->file, 0, "hosts.%s: no node \"%s\" in %s",
				  r->hosts[s].name, r->hosts[s].name, t->file);
			return false;
		}
		c->node_host[n] = s;
	}
	return true;
}

static int64_t add_edge(struct vctx *c, int from, int p, int to, int q, int sw,
			int rule)
{
	bool fresh;
	uint64_t *slot = hmap_slot(
		&c->edges, key2(bdg_node(from, p), bdg_node(to, q)), &fresh);
	struct verify_edge ed = {
		.from_port = from,
		.from_prio = p,
		.to_port = to,
		.to_prio = q,
		.sw = sw,
		.rule = rule,
		.path = -1,
	};

	if (fresh) {
		*slot = (uint64_t)c->nev;
		VEC_PUSH(c->ev, c->nev, c->evcap, ed);
	}
	return (int64_t)*slot;
}

static void note_decreasing(struct vctx *c, int sw, int rule, int path, int hop)
{
	struct dec_rec d = { .sw = sw, .rule = rule, .path = path, .hop = hop };
	bool fresh;
	uint64_t *slot = hmap_slot(&c->dec_idx, key2(sw, rule), &fresh);

	if (fresh) {
		*slot = (uint64_t)c->ndec;
		VEC_PUSH(c->dec, c->ndec, c->dec_cap, d);
	} else if (c->dec[*slot].path < 0) {
		c->dec[*slot].path = path;
		c->dec[*slot].hop = hop;
	}
}

/*
 * Edges of one rewrite rule: every (in, out) it answers for (wildcards
 * expanded, more specific rules taking their keys), where the packet is
 * lossless before and after.
 */
static void rule_edges(struct vctx *c, int s, int k)
{
	const struct rules *r = c->r;
	const struct rules_switch *rs = &r->sw[s];
	const struct rules_rewrite *rw = &rs->rewrite[k];
	bool wild = rw->in == RULES_ANY || rw->out == RULES_ANY;
	int ilo = rw->in == RULES_ANY ? 0 : rw->in;
	int ihi = rw->in == RULES_ANY ? rs->nports : rw->in + 1;
	int olo = rw->out == RULES_ANY ? 0 : rw->out;
	int ohi = rw->out == RULES_ANY ? rs->nports : rw->out + 1;
	int i, o, p, q, rk;

	if (r->rank[rw->new_tag] < r->rank[rw->tag])
		note_decreasing(c, s, k, -1, 0);
	if (!rules_tag_lossless(r, rw->new_tag))
		return;
	for (i = ilo; i < ihi; i++) {
		p = rules_classify(r, s, i, rw->tag, NULL);
		if (p < 0)
			continue;
		for (o = olo; o < ohi; o++) {
			int out = c->sw_ports[s][o],
			    in_b = c->t->ports[out].peer;
			int sb = c->node_sw[port_node(c->t, in_b)];

			if (wild &&
			    (rules_rewrite(r, s, rw->tag, i, o, &rk), rk != k))
				continue;
			if (sb < 0)
				continue; /* a host: a sink, it waits on nobody */
			q = rules_classify(r, sb, c->port_local[in_b],
					   rw->new_tag, NULL);
			if (q >= 0)
				add_edge(c, c->sw_ports[s][i], p, in_b, q, s,
					 k);
		}
	}
}

static void note_lossy(struct walker *w, int path, int cls, int hop, int tag,
		       int rule, enum lossy_reason why)
{
	struct lossy_rec l = {
		.path = path,
		.cls = cls,
		.hop = hop,
		.tag = tag,
		.rule = rule,
		.why = why,
	};

	w->lossy_walks++;
	if (w->nlossy < w->c->max)
		VEC_PUSH(w->lossy, w->nlossy, w->lossy_cap, l);
}

static void walk_decreasing(struct walker *w, int sw, int rule, int path,
			    int hop)
{
	struct dec_rec d = { .sw = sw, .rule = rule, .path = path, .hop = hop };
	bool fresh;

	hmap_slot(&w->dec_seen, key2(sw, rule), &fresh);
	if (fresh)
		VEC_PUSH(w->dec, w->ndec, w->dec_cap, d);
}

static int initial_tag(const struct vctx *c, int node, int cls)
{
	const struct rules *r = c->r;
	int h = c->node_host[node];

	if (r->nclasses)
		return h >= 0 && r->hosts[h].nclasses ?
			       r->hosts[h].classes[cls] :
			       r->class_tags[cls];
	if (h >= 0 && r->hosts[h].tag >= 0)
		return r->hosts[h].tag;
	return r->ntags ? r->tags[0].tag : -1;
}

/*
 * Follow path i for one class: classify at every node after the source
 * that is in "switches", rewrite at every forwarding node. Returns true
 * if the walk stays lossless. Keeps going after a lossy hop, since a later
 * rule may lift the tag again (which the monotonic check reports).
 *
 * The edges a walk takes are rule edges already (same lookups, same
 * conditions), so the first pass only records lossy hops and decreasing
 * rules; with annotate set, a second pass names a path behind each edge
 * of the cycle found (c->cyc: edge key -> index in the cycle).
 */
static bool walk(struct vctx *c, struct walker *wk, int i, int cls,
		 bool annotate)
{
	const struct topo *t = c->t;
	const struct rules *r = c->r;
	const int32_t *h = elp_hops(c->e, i);
	int n = elp_len(c->e, i), k, tag, prev = -1, prev_p = 0;
	bool lossless = true;
	uint64_t ci;

	if (n <= 0)
		return true; /* elp_add() callers may add an empty path */
	tag = initial_tag(c, port_node(t, h[0]), cls);
	if (tag < 0 || !rules_tag_lossless(r, tag)) {
		if (!annotate)
			note_lossy(wk, i, cls, 0, tag, -1, LOSSY_INITIAL);
		return false;
	}
	for (k = 1; k <= n; k++) {
		int in = t->ports[h[k - 1]].peer,
		    sw = c->node_sw[port_node(t, in)];
		int loc = c->port_local[in], p, nt, rule;

		if (sw < 0) {
			if (k < n && lossless && !annotate)
				note_lossy(wk, i, cls, k, tag, -1,
					   LOSSY_NO_RULES);
			return k == n && lossless;
		}
		p = rules_classify(r, sw, loc, tag, &rule);
		if (p < 0 && lossless && !annotate)
			note_lossy(wk, i, cls, k, tag, rule, LOSSY_CLASSIFY);
		lossless &= p >= 0;
		if (annotate && p >= 0 && prev >= 0 &&
		    hmap_get(&c->cyc,
			     key2(bdg_node(prev, prev_p), bdg_node(in, p)),
			     &ci) &&
		    c->res->cycle[ci].path < 0)
			c->res->cycle[ci].path = i;
		if (k == n)
			break;
		nt = rules_rewrite(r, sw, tag, loc, c->port_local[h[k]], &rule);
		if (rule >= 0 && !annotate &&
		    r->rank[r->sw[sw].rewrite[rule].new_tag] < r->rank[tag])
			walk_decreasing(wk, sw, rule, i, k);
		if (nt < 0) {
			if (lossless && !annotate)
				note_lossy(wk, i, cls, k, tag, rule,
					   LOSSY_REWRITE);
			lossless = false;
			nt = r->lossy_tag;
		}
		prev = p >= 0 && rules_tag_lossless(r, nt) ? in : -1;
		prev_p = p;
		tag = nt;
	}
	return lossless;
}

/* Name an ELP path behind each edge of the cycle, where one exists. */
static void annotate_cycle(struct vctx *c, int ncls)
{
	struct verify_result *res = c->res;
	int i, k, named = 0;

	hmap_init(&c->cyc, res->cycle_len);
	for (k = 0; k < res->cycle_len; k++)
		hmap_put(&c->cyc,
			 key2(bdg_node(res->cycle[k].from_port,
				       res->cycle[k].from_prio),
			      bdg_node(res->cycle[k].to_port,
				       res->cycle[k].to_prio)),
			 k);
	for (i = 0; i < c->e->npaths && named < res->cycle_len; i++) {
		for (k = 0; k < ncls; k++)
			walk(c, NULL, i, k, true);
		for (k = 0, named = 0; k < res->cycle_len; k++)
			named += res->cycle[k].path >= 0;
	}
}

/* Vertices of the BDG: every (in-port, priority) some tag is queued in. */
static int64_t count_nodes(struct vctx *c)
{
	const struct rules *r = c->r;
	uint8_t *seen = xcalloc((size_t)c->t->nports * RULES_NPRIOS + 1, 1);
	int64_t n = 0;
	int s, k, i, rk;

	for (s = 0; s < r->nsw; s++) {
		const struct rules_switch *rs = &r->sw[s];

		for (k = 0; k < rs->nclassify; k++) {
			const struct rules_classify *cl = &rs->classify[k];
			int lo = cl->in == RULES_ANY ? 0 : cl->in;
			int hi = cl->in == RULES_ANY ? rs->nports : cl->in + 1;

			if (cl->prio == r->lossy_prio)
				continue;
			for (i = lo; i < hi; i++) {
				uint32_t v =
					bdg_node(c->sw_ports[s][i], cl->prio);

				if (cl->in == RULES_ANY &&
				    (rules_classify(r, s, i, cl->tag, &rk),
				     rk != k))
					continue;
				n += !seen[v];
				seen[v] = 1;
			}
		}
	}
	free(seen);
	return n;
}

static void find_cycle(struct vctx *c)
{
	struct verify_result *res = c->res;
	int *src = xmalloc((c->nev + 1) * sizeof(int));
	int *dst = xmalloc((c->nev + 1) * sizeof(int));
	struct digraph g;
	int64_t i, *cyc;

	for (i = 0; i < c->nev; i++) {
		src[i] = (int)bdg_node(c->ev[i].from_port, c->ev[i].from_prio);
		dst[i] = (int)bdg_node(c->ev[i].to_port, c->ev[i].to_prio);
	}
	digraph_build(&g, c->t->nports * RULES_NPRIOS, src, dst, c->nev);
	res->cycle_len = digraph_find_cycle(&g, &cyc);
	if (res->cycle_len) {
		res->cycle = xmalloc(res->cycle_len * sizeof(*res->cycle));
		for (i = 0; i < res->cycle_len; i++)
			res->cycle[i] = c->ev[cyc[i]];
		free(cyc);
	}
	digraph_free(&g);
	free(src);
	free(dst);
}

static void ctx_free(struct vctx *c)
{
	int s;

	for (s = 0; c->sw_ports && s < c->r->nsw; s++)
		free(c->sw_ports[s]);
	free(c->sw_ports);
	free(c->node_sw);
	free(c->node_host);
	free(c->port_local);
	free(c->ev);
	free(c->lossy);
	free(c->dec);
	hmap_free(&c->edges);
	hmap_free(&c->dec_idx);
	hmap_free(&c->cyc);
}

/*
 * A walk's lookups are cache misses in maps of a few hundred thousand
 * rules, each waiting on the one before (its key holds the tag the last
 * rewrite gave). The first hop's two keys need no earlier lookup, so the
 * walks load them this many paths ahead (written out in the loop: GCC
 * drops a helper whose only effect is a prefetch).
 */
#define WALK_AHEAD 8

static void *walk_range(void *arg)
{
	struct walker *w = arg;
	const struct vctx *c = w->c;
	const struct topo *t = c->t;
	const struct rules *r = c->r;
	int i, k;

	for (i = w->lo; i < w->hi; i++) {
		bool all = true;

		if (i + WALK_AHEAD < w->hi) {
			const int32_t *h = elp_hops(c->e, i + WALK_AHEAD);
			int n = elp_len(c->e, i + WALK_AHEAD), in, sw, tag;

			in = n > 0 ? t->ports[h[0]].peer : -1;
			sw = in >= 0 ? c->node_sw[port_node(t, in)] : -1;
			tag = sw >= 0 ? initial_tag(c, port_node(t, h[0]), 0) :
					-1;
			if (tag >= 0 && !r->sw[sw].dense_classify) {
				__builtin_prefetch(hmap_slot_addr(
					&r->classify,
					rules_classify_key(
						sw, c->port_local[in], tag)));
				if (n > 1)
					__builtin_prefetch(hmap_slot_addr(
						&r->rewrite,
						rules_rewrite_key(
							sw, tag,
							c->port_local[in],
							c->port_local[h[1]])));
			}
		}

		for (k = 0; k < w->ncls; k++)
			all &= walk(w->c, w, i, k, false);
		w->lossless_paths += all;
	}
	return NULL;
}

/* Fold a range's findings in, as if its walks came right after the last. */
static void merge_walker(struct vctx *c, struct walker *w)
{
	int i;

	c->res->lossy_walks += w->lossy_walks;
	c->res->lossless_paths += w->lossless_paths;
	for (i = 0; i < w->nlossy && c->nlossy < c->max; i++)
		VEC_PUSH(c->lossy, c->nlossy, c->lossy_cap, w->lossy[i]);
	for (i = 0; i < w->ndec; i++)
		note_decreasing(c, w->dec[i].sw, w->dec[i].rule, w->dec[i].path,
				w->dec[i].hop);
	free(w->lossy);
	free(w->dec);
	hmap_free(&w->dec_seen);
}

/* Left to itself, a thread per CPU but none for fewer paths than this. */
#define WALKS_PER_THREAD 20000

static void walk_all(struct vctx *c, int ncls, int threads)
{
	long n = threads > 0 ? threads : sysconf(_SC_NPROCESSORS_ONLN);
	struct walker *w;
	pthread_t *tid;
	bool *started;
	int i;

	if (threads <= 0 && n > c->e->npaths / WALKS_PER_THREAD)
		n = c->e->npaths / WALKS_PER_THREAD;
	if (n > c->e->npaths)
		n = c->e->npaths;
	if (n < 1)
		n = 1;
	if (n > VERIFY_THREADS_MAX)
		n = VERIFY_THREADS_MAX;
	w = xcalloc(n, sizeof(*w));
	tid = xcalloc(n, sizeof(*tid));
	started = xcalloc(n, sizeof(*started));
	for (i = 0; i < n; i++) {
		w[i] = (struct walker){
			.c = c,
			.lo = (int)((int64_t)c->e->npaths * i / n),
			.hi = (int)((int64_t)c->e->npaths * (i + 1) / n),
			.ncls = ncls,
		};
		hmap_init(&w[i].dec_seen, 16);
	}
	for (i = 1; i < n; i++)
		started[i] = !pthread_create(&tid[i], NULL, walk_range, &w[i]);
	for (i = 0; i < n; i++) {
		if (started[i])
			pthread_join(tid[i], NULL);
		else
			walk_range(&w[i]);
		merge_walker(c, &w[i]);
	}
	free(w);
	free(tid);
	free(started);
}

int verify_rules(const struct topo *t, const struct elp *e,
		 const struct rules *r, const struct verify_opts *opts,
		 struct verify_result *res)
{
	struct vctx c = { .t = t, .e = e, .r = r, .res = res };
	double t0 = now_seconds();
	int i, k, ncls;

	memset(res, 0, sizeof(*res));
	c.max = opts && opts->max_problems > 0 ? opts->max_problems : 10;
	hmap_init(&c.edges, 1024);
	hmap_init(&c.dec_idx, 16);
	if (!bind(&c)) {
		ctx_free(&c);
		return EXIT_USAGE;
	}
	for (i = 0; i < r->nsw; i++)
		for (k = 0; k < r->sw[i].nrewrite; k++)
			rule_edges(&c, i, k);
	ncls = r->nclasses ? r->nclasses : 1;
	res->nclasses = r->nclasses;
	res->paths = e->npaths;
	walk_all(&c, ncls, opts ? opts->threads : 0);
	res->walks = (int64_t)e->npaths * ncls;
	res->bdg_edges = c.nev;
	res->bdg_nodes = count_nodes(&c);
	find_cycle(&c);
	res->deadlock_free = res->cycle_len == 0;
	if (res->cycle_len)
		annotate_cycle(&c, ncls);
	res->decreasing = c.ndec;
	res->monotonic = c.ndec == 0;
	res->ok = res->deadlock_free && res->monotonic &&
		  (res->lossy_walks == 0 || (opts && opts->allow_lossy));
	verify_witnesses(&c);
	ctx_free(&c);
	res->seconds = now_seconds() - t0;
	return res->ok ? EXIT_OK : EXIT_PROBLEM;
}
