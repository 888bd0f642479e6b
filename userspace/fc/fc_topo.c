// SPDX-License-Identifier: GPL-2.0
/* Flattened Clos topology generation; see fc_topo.h. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/rng.h"
#include "fc/fc_topo.h"
#include "lib/hmap.h"
#include "lib/log.h"
#include "lib/util.h"

/* Right side of inequality (4) with epsilon -> 0: sqrt(2 N ln N). */
double fc_kmin_bound(int ntors)
{
	return sqrt(2.0 * ntors * log((double)ntors));
}

int fc_kmin(int ntors, int fabric)
{
	double bound = fc_kmin_bound(ntors);
	int k;

	for (k = 2; k <= FC_MAX_LAYERS && k - 1 <= fabric / 2; k++)
		if (pow(1.0 + fabric / (2.0 * (k - 1)), k - 1) > bound)
			return k;
	return -1;
}

/*
 * sum a_j = s/2 (from equations 1 and 2); the product of (a_j + 1) is
 * largest when the a_j are as equal as possible. The remainder goes to the
 * outer bipartite graphs first, top one first, which gives the paper's
 * splits: [3,6,6,3] (s=18, k=4), [2,4,4,5,3] (s=18, k=5) and
 * [7,13,13,7] (s=40, k=4).
 */
int fc_split_even(int fabric, int k, int *l)
{
	int a[FC_MAX_LAYERS] = { 0 };
	int n = k - 1, half = fabric / 2, rem, j, lo, hi;

	if (k < 2 || k > FC_MAX_LAYERS || fabric % 2 || half < n)
		return -1;
	for (j = 0; j < n; j++)
		a[j] = half / n;
	rem = half % n;
	for (lo = 0, hi = n - 1; rem > 0; hi--, lo++) {
		a[hi]++;
		if (--rem > 0 && lo < hi) {
			a[lo]++;
			rem--;
		}
	}
	for (j = 0; j < k; j++)
		l[j] = (j > 0 ? a[j - 1] : 0) + (j < n ? a[j] : 0);
	return 0;
}

int fc_split_degrees(const int *l, int k, int *a)
{
	int j, prev = 0;

	if (k < 2 || k > FC_MAX_LAYERS)
		return -1;
	for (j = 0; j < k - 1; j++) {
		a[j] = l[j] - prev;
		if (a[j] <= 0)
			return -1;
		prev = a[j];
	}
	return l[k - 1] == prev ? 0 : -1;
}

struct wiring {
	int n; /* edges in this bipartite graph */
	int *low; /* ToR of the layer-j end */
	int *up; /* ToR of the layer-(j+1) end */
	struct hmap *pairs; /* unordered ToR pair -> physical links */
	bool strict; /* no parallel physical links */
};

static uint64_t pair_key(int x, int y)
{
	return x < y ? key2(x, y) : key2(y, x);
}

static void pair_add(struct hmap *m, int x, int y, int d)
{
	bool fresh;

	*hmap_slot(m, pair_key(x, y), &fresh) += d;
}

static int pair_count(const struct hmap *m, int x, int y)
{
	uint64_t v = 0;

	hmap_get(m, pair_key(x, y), &v);
	return (int)v;
}

/* An edge is bad inside one switch, or (strict) parallel to another link. */
static bool edge_bad(const struct wiring *w, int m)
{
	return w->low[m] == w->up[m] ||
	       (w->strict && pair_count(w->pairs, w->low[m], w->up[m]) > 1);
}

static bool try_swap(struct wiring *w, int m, int m2)
{
	int a = w->low[m], b = w->up[m], c = w->low[m2], d = w->up[m2];

	if (a == d || c == b)
		return false;
	pair_add(w->pairs, a, b, -1);
	pair_add(w->pairs, c, d, -1);
	if (w->strict &&
	    (pair_count(w->pairs, a, d) || pair_count(w->pairs, c, b) ||
	     pair_key(a, d) == pair_key(c, b))) {
		pair_add(w->pairs, a, b, 1);
		pair_add(w->pairs, c, d, 1);
		return false;
	}
	pair_add(w->pairs, a, d, 1);
	pair_add(w->pairs, c, b, 1);
	w->up[m] = d;
	w->up[m2] = b;
	return true;
}

/*
 * Random pairing of stubs, then random edge swaps until no edge is bad
 * (the usual way to draw random regular graphs without loops and
 * multi-edges). Returns false if the budget runs out.
 */
static bool repair(struct wiring *w, struct rng *r)
{
	long budget = 200L * w->n + 10000;
	int m, bad;

	do {
		bad = 0;
		for (m = 0; m < w->n; m++) {
			if (!edge_bad(w, m))
				continue;
			bad++;
			while (budget-- > 0 && edge_bad(w, m))
				try_swap(w, m, (int)rng_below(r, w->n));
			if (budget <= 0)
				return false;
		}
	} while (bad);
	return true;
}

static void wire_layers(struct wiring *w, int ntors, int deg, struct rng *r)
{
	int i, d, m = 0;

	for (i = 0; i < ntors; i++)
		for (d = 0; d < deg; d++, m++)
			w->low[m] = w->up[m] = i;
	w->n = m;
	rng_shuffle(r, w->up, m);
	for (m = 0; m < w->n; m++)
		pair_add(w->pairs, w->low[m], w->up[m], 1);
}

static void unwire(struct wiring *w)
{
	int m;

	for (m = 0; m < w->n; m++)
		pair_add(w->pairs, w->low[m], w->up[m], -1);
}

static void add_hosts(struct topo *t, int tor, int idx, int hosts)
{
	char name[64], port[32];
	int i, h;

	for (i = 1; i <= hosts; i++) {
		snprintf(name, sizeof(name), "h%d-%d", idx, i);
		snprintf(port, sizeof(port), "eth%d", i);
		h = topo_add_node(t, name, NODE_HOST, LAYER_NONE);
		topo_add_link(t, h, "eth0", tor, port);
	}
}

static void add_fabric_link(struct topo *t, int *next, int k, int lo_tor,
			    int hi_tor, int j)
{
	char pa[32], pb[32];

	snprintf(pa, sizeof(pa), "v%dp%d", j + 1, ++next[lo_tor * k + j]);
	snprintf(pb, sizeof(pb), "v%dp%d", j + 2, ++next[hi_tor * k + j + 1]);
	topo_add_link(t, lo_tor, pa, hi_tor, pb);
}

static bool spec_ok(const struct fc_spec *s, int *a, char *err, size_t len)
{
	int j, sum = 0;

	if (s->ntors < 2) {
		snprintf(err, len, "an FC needs at least 2 ToRs");
		return false;
	}
	if (fc_split_degrees(s->split, s->k, a)) {
		snprintf(
			err, len,
			"split violates equation (2): need l_1 = a_1, "
			"l_j = a_(j-1) + a_j, l_k = a_(k-1) with every a_j > 0");
		return false;
	}
	for (j = 0; j < s->k; j++)
		sum += s->split[j];
	if (sum != s->fabric) {
		snprintf(err, len,
			 "split has %d ports, the ToRs %d fabric ports", sum,
			 s->fabric);
		return false;
	}
	for (j = 0; j < s->k - 1; j++)
		if (a[j] > s->ntors - 1) {
			snprintf(
				err, len,
				"degree %d between layers %d and %d needs more "
				"than %d ToRs",
				a[j], j + 1, j + 2, s->ntors);
			return false;
		}
	return true;
}

struct topo *fc_build(const struct fc_spec *spec, char *err, size_t errlen)
{
	int a[FC_MAX_LAYERS], k = spec->k, n = spec->ntors, i, j, m;
	struct wiring w[FC_MAX_LAYERS];
	struct hmap pairs;
	struct rng r;
	struct topo *t;
	int *next;
	char name[32];

	if (!spec_ok(spec, a, err, errlen))
		return NULL;
	rng_seed(&r, spec->seed);
	hmap_init(&pairs, (uint64_t)n * spec->fabric);
	for (j = 0; j < k - 1; j++) {
		w[j] = (struct wiring){
			.low = xmalloc((size_t)n * a[j] * sizeof(int)),
			.up = xmalloc((size_t)n * a[j] * sizeof(int)),
			.pairs = &pairs,
			.strict = true,
		};
		wire_layers(&w[j], n, a[j], &r);
		if (!repair(&w[j], &r)) {
			/* Small N: parallel links between two ToRs are unavoidable. */
			pr_info("fc: layers %d-%d need parallel links\n", j + 1,
				j + 2);
			w[j].strict = false;
			unwire(&w[j]);
			wire_layers(&w[j], n, a[j], &r);
			if (!repair(&w[j], &r)) {
				snprintf(err, errlen,
					 "cannot wire layers %d and %d", j + 1,
					 j + 2);
				for (; j >= 0; j--) {
					free(w[j].low);
					free(w[j].up);
				}
				hmap_free(&pairs);
				return NULL;
			}
		}
	}
	t = topo_new(NULL);
	for (i = 0; i < n; i++) {
		snprintf(name, sizeof(name), "T%d", i + 1);
		topo_add_node(t, name, NODE_SWITCH, 0);
	}
	for (i = 0; i < n; i++)
		add_hosts(t, i, i + 1, spec->hosts);
	next = xcalloc((size_t)n * k, sizeof(int));
	for (j = 0; j < k - 1; j++) {
		for (m = 0; m < w[j].n; m++)
			add_fabric_link(t, next, k, w[j].low[m], w[j].up[m], j);
		free(w[j].low);
		free(w[j].up);
	}
	free(next);
	hmap_free(&pairs);
	return t;
}

/*
 * Figure 4(a): four switches, ports 1 | 2 3 | 4 in virtual layers 1 | 2 | 3.
 * Layer 1 of S_i wires to layer 2 of S_(i+1), layer 2 of S_i to layer 3 of
 * S_(i-1): physically a ring S1-S2-S3-S4 with two links per neighbour, where
 * non-adjacent pairs get one clockwise and one counter-clockwise up-down path
 * (section 6.2).
 */
struct topo *fc_testbed(int hosts)
{
	struct topo *t = topo_new(NULL);
	int next[4 * 3] = { 0 }, i;
	char name[16];

	for (i = 0; i < 4; i++) {
		snprintf(name, sizeof(name), "S%d", i + 1);
		topo_add_node(t, name, NODE_SWITCH, 0);
	}
	for (i = 0; i < 4; i++)
		add_hosts(t, i, i + 1, hosts);
	for (i = 0; i < 4; i++)
		add_fabric_link(t, next, 3, i, (i + 1) % 4, 0);
	for (i = 0; i < 4; i++)
		add_fabric_link(t, next, 3, (i + 1) % 4, i, 1);
	return t;
}

int fc_port_layer(const struct topo *t, int port)
{
	const char *s = t->ports[port].name;
	char *end;
	long j, n;

	if (s[0] != 'v')
		return 0;
	j = strtol(s + 1, &end, 10);
	if (end == s + 1 || *end != 'p' || j < 1 || j > FC_MAX_LAYERS)
		return 0;
	n = strtol(end + 1, &end, 10);
	return *end || n < 1 ? 0 : (int)j;
}
