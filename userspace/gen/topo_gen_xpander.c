// SPDX-License-Identifier: GPL-2.0
/*
 * Xpander (Valadarsky, Shahaf, Dinitz and Schapira, CoNEXT 2016): a random
 * lift of the complete graph K_(d+1).
 *
 * A k-lift of a base graph replaces every vertex u by k copies (u, 0..k-1),
 * its "meta-node", and every base edge {u, v} by a perfect matching between
 * the copies of u and of v: (u, i) -- (v, pi_uv(i)) for a permutation pi_uv.
 * Lifting K_(d+1) gives a d-regular graph on n = k (d + 1) vertices with no
 * self-loop (the base has none) and no parallel link (two meta-nodes share
 * exactly one matching), and copies of one vertex are never adjacent. The
 * Xpander paper draws the permutations uniformly at random (or by repeated
 * random 2-lifts, which keep the same guarantees): random lifts are good
 * expanders with high probability, which is the whole point of the design.
 * We draw one k-lift with independent uniform permutations (Fisher-Yates
 * from rng.h, so a seed gives the same graph everywhere) and redraw the
 * rare disconnected one.
 *
 * Switch names: sw1..swn, meta-node by meta-node (sw1..swk are the copies
 * of base vertex 0). O(n d) time per draw.
 */
#include <stdio.h>
#include <stdlib.h>

#include "gen/gen.h"
#include "lib/log.h"
#include "lib/rng.h"
#include "lib/util.h"

#define XP_MAX_ATTEMPTS 1000

static int find(int *parent, int x)
{
	while (parent[x] != x)
		x = parent[x] = parent[parent[x]];
	return x;
}

static bool connected(int n, const int *a, const int *b, int nlinks)
{
	int *parent = xmalloc(n * sizeof(*parent)), i, parts = n;

	for (i = 0; i < n; i++)
		parent[i] = i;
	for (i = 0; i < nlinks; i++) {
		int x = find(parent, a[i]), y = find(parent, b[i]);

		if (x != y) {
			parent[x] = y;
			parts--;
		}
	}
	free(parent);
	return parts == 1;
}

/* One random k-lift of K_(d+1): links (a[i], b[i]), a[i] < b[i]. */
static int draw_lift(int d, int k, struct rng *r, int *perm, int *a, int *b)
{
	int u, v, i, nlinks = 0;

	for (u = 0; u <= d; u++)
		for (v = u + 1; v <= d; v++) {
			for (i = 0; i < k; i++)
				perm[i] = i;
			rng_shuffle(r, perm, k);
			for (i = 0; i < k; i++) {
				a[nlinks] = u * k + i;
				b[nlinks++] = v * k + perm[i];
			}
		}
	return nlinks;
}

static bool xp_valid(int n, int d, int hosts)
{
	if (n < 1 || d < 1 || hosts < 0 || n % (d + 1)) {
		p_err("xpander: needs degree >= 1, switches a multiple of degree + 1 (lifts of K_(D+1)), hosts >= 0 (got %d, %d, %d)",
		      n, d, hosts);
		return false;
	}
	return gen_regular_fits("xpander", n, d, hosts);
}

static struct topo *build(int n, int hosts, const int *a, const int *b,
			  int nlinks)
{
	struct topo *t = gen_flat_switches(n, hosts);
	int i;

	for (i = 0; i < nlinks; i++)
		topo_link_auto(t, a[i], b[i]);
	return t;
}

struct topo *topo_gen_xpander(int n, int d, int hosts, uint64_t seed)
{
	struct topo *t = NULL;
	int *perm, *a, *b, k, nlinks = 0, attempt;
	struct rng r;

	if (!xp_valid(n, d, hosts))
		return NULL;
	k = n / (d + 1);
	rng_seed(&r, seed);
	perm = xmalloc((size_t)k * sizeof(*perm));
	a = xmalloc(((size_t)n * d / 2 + 1) * sizeof(*a));
	b = xmalloc(((size_t)n * d / 2 + 1) * sizeof(*b));
	for (attempt = 0; attempt < XP_MAX_ATTEMPTS; attempt++) {
		nlinks = draw_lift(d, k, &r, perm, a, b);
		if (connected(n, a, b, nlinks))
			break;
	}
	if (attempt == XP_MAX_ATTEMPTS)
		p_err("xpander: no connected %d-lift of K_%d after %d draws", k,
		      d + 1, attempt);
	else
		t = build(n, hosts, a, b, nlinks);
	pr_debug("xpander: %d draw(s)\n", attempt + 1);
	free(perm);
	free(a);
	free(b);
	return t;
}
