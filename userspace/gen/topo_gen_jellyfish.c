// SPDX-License-Identifier: GPL-2.0
/*
 * Jellyfish (Singla et al., NSDI 2012): a random d-regular graph of n
 * switches, simple (no self-loops, no parallel links) and connected.
 *
 * Sampling: the Steger-Wormald pairing algorithm. Every switch has d free
 * ports; each step joins two free ports drawn uniformly at random, provided
 * they belong to different switches that are not yet linked; when no such
 * pair is left, the attempt restarts. Unlike the configuration model with
 * rejection (which succeeds with probability about exp((1-d^2)/4), hopeless
 * at d = 10), it always finishes quickly, and unlike the Jellyfish paper's
 * incremental construction (join random free ports, then break links to
 * place the leftovers) its output is asymptotically uniform over simple
 * d-regular graphs for d << n^(1/3) (Kim and Vu 2003), the regime data
 * center topologies live in. Disconnected results (rare for d >= 3) are
 * rejected and drawn again; conditioning a near-uniform distribution on
 * connectivity keeps it near-uniform over connected graphs.
 *
 * Everything comes from rng.h, so a seed gives the same file everywhere.
 * Expected time O(n d) per attempt (plus O(r^2) checks over the r switches
 * with free ports when the draw gets stuck near the end).
 */
#include <stdio.h>
#include <stdlib.h>

#include "gen/gen.h"
#include "lib/hmap.h"
#include "lib/log.h"
#include "lib/rng.h"
#include "lib/util.h"

#define JF_MAX_ATTEMPTS 1000

struct jf {
	int n, d;
	int *points; /* free ports, as switch ids */
	int npoints;
	int *a, *b; /* links */
	int nlinks;
	struct hmap adj; /* key2(min, max) of each link */
};

static bool linked(const struct jf *g, int u, int v)
{
	uint64_t x;

	return hmap_get(&g->adj, u < v ? key2(u, v) : key2(v, u), &x);
}

static bool suitable(const struct jf *g, int u, int v)
{
	return u != v && !linked(g, u, v);
}

/* Is any pair of free ports still joinable? O(r^2) over distinct switches. */
static bool any_suitable(const struct jf *g)
{
	int i, j;

	for (i = 0; i < g->npoints; i++)
		for (j = i + 1; j < g->npoints; j++)
			if (suitable(g, g->points[i], g->points[j]))
				return true;
	return false;
}

static void take_point(struct jf *g, int i)
{
	g->points[i] = g->points[--g->npoints];
}

/* One attempt of the pairing; false when it got stuck. */
static bool pair_up(struct jf *g, struct rng *r)
{
	long fails = 0;
	int i, v;

	g->npoints = 0;
	g->nlinks = 0;
	hmap_free(&g->adj);
	hmap_init(&g->adj, (uint64_t)g->n * g->d);
	for (v = 0; v < g->n; v++)
		for (i = 0; i < g->d; i++)
			g->points[g->npoints++] = v;
	while (g->npoints) {
		int x = (int)rng_below(r, g->npoints),
		    y = (int)rng_below(r, g->npoints);
		int u = g->points[x], w = g->points[y];

		if (!suitable(g, u, w)) {
			/* Check for a dead end only now and then: it is rare. */
			if (++fails > 64 + 4L * g->npoints) {
				if (!any_suitable(g))
					return false;
				fails = 0;
			}
			continue;
		}
		fails = 0;
		hmap_put(&g->adj, u < w ? key2(u, w) : key2(w, u), 1);
		g->a[g->nlinks] = u < w ? u : w;
		g->b[g->nlinks++] = u < w ? w : u;
		take_point(g, x > y ? x : y);
		take_point(g, x > y ? y : x);
	}
	return true;
}

static int find(int *parent, int x)
{
	while (parent[x] != x)
		x = parent[x] = parent[parent[x]];
	return x;
}

static bool connected(const struct jf *g)
{
	int *parent = xmalloc(g->n * sizeof(*parent)), i, parts = g->n;

	for (i = 0; i < g->n; i++)
		parent[i] = i;
	for (i = 0; i < g->nlinks; i++) {
		int x = find(parent, g->a[i]), y = find(parent, g->b[i]);

		if (x != y) {
			parent[x] = y;
			parts--;
		}
	}
	free(parent);
	return parts == 1;
}

static int cmp_link(const void *x, const void *y)
{
	const int64_t *p = x, *q = y;

	return (*p > *q) - (*p < *q);
}

/* Links in a canonical order (by endpoints) so port numbers read well. */
static void build(struct topo *t, const struct jf *g)
{
	int64_t *l = xmalloc(g->nlinks * sizeof(*l));
	int i;

	for (i = 0; i < g->nlinks; i++)
		l[i] = (int64_t)g->a[i] << 32 | g->b[i];
	qsort(l, g->nlinks, sizeof(*l), cmp_link);
	for (i = 0; i < g->nlinks; i++)
		topo_link_auto(t, (int)(l[i] >> 32), (int)(l[i] & 0xffffffff));
	free(l);
}

static bool jf_valid(int n, int d, int hosts)
{
	if (n < 1 || d < 0 || hosts < 0 || d >= n || ((long long)n * d) % 2) {
		p_err("jellyfish: needs 0 <= degree < switches, switches x degree even, hosts >= 0 (got %d, %d, %d)",
		      n, d, hosts);
		return false;
	}
	return gen_regular_fits("jellyfish", n, d, hosts);
}

struct topo *topo_gen_jellyfish(int n, int d, int hosts, uint64_t seed)
{
	struct jf g = { .n = n, .d = d };
	struct topo *t = NULL;
	struct rng r;
	int attempt;

	if (!jf_valid(n, d, hosts))
		return NULL;
	rng_seed(&r, seed);
	g.points = xmalloc(((size_t)n * d + 1) * sizeof(int));
	g.a = xmalloc(((size_t)n * d / 2 + 1) * sizeof(int));
	g.b = xmalloc(((size_t)n * d / 2 + 1) * sizeof(int));
	hmap_init(&g.adj, 8);
	for (attempt = 0; attempt < JF_MAX_ATTEMPTS; attempt++)
		if (pair_up(&g, &r) && connected(&g))
			break;
	if (attempt == JF_MAX_ATTEMPTS) {
		p_err("jellyfish: no connected %d-regular graph on %d switches after %d draws",
		      d, n, attempt);
		goto out;
	}
	pr_debug("jellyfish: %d draw(s)\n", attempt + 1);
	t = gen_flat_switches(n, hosts);
	build(t, &g);
out:
	hmap_free(&g.adj);
	free(g.points);
	free(g.a);
	free(g.b);
	return t;
}
