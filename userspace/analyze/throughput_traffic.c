// SPDX-License-Identifier: GPL-2.0
/* Traffic matrices of section 4; see throughput_traffic.h. */
#include <glpk.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lib/log.h"
#include "graph/bfs.h"
#include "lib/rng.h"
#include "analyze/throughput_traffic.h"
#include "lib/util.h"

int traffic_parse(const char *s, struct traffic *tr)
{
	char *end;

	memset(tr, 0, sizeof(*tr));
	if (!strcmp(s, "all-to-all")) {
		tr->kind = TRAFFIC_ALL_TO_ALL;
	} else if (!strcmp(s, "permutation")) {
		tr->kind = TRAFFIC_PERMUTATION;
	} else if (!strncmp(s, "uniform=", 8)) {
		tr->kind = TRAFFIC_UNIFORM;
		tr->p = strtod(s + 8, &end);
		if (end == s + 8 || *end || !(tr->p > 0 && tr->p <= 1)) {
			p_err("uniform=P wants a fraction 0 < P <= 1, not \"%s\"",
			      s + 8);
			return -1;
		}
	} else {
		p_err("--traffic wants all-to-all, uniform=P or permutation, not \"%s\"",
		      s);
		return -1;
	}
	return 0;
}

/* ToRs: switches with hosts (or every switch when none has any). */
static int find_tors(const struct topo *t, int hosts_default, int *tor, int *h)
{
	int i, x, n = 0, any = 0;

	for (i = 0; i < t->nnodes; i++) {
		if (!topo_is_switch(t, i))
			continue;
		h[i] = 0;
		for (x = 0; x < t->nodes[i].nports; x++)
			h[i] += !topo_is_switch(
				t, port_peer_node(t, t->nodes[i].ports[x]));
		any |= h[i] > 0;
	}
	for (i = 0; i < t->nnodes; i++) {
		if (!topo_is_switch(t, i))
			continue;
		if (!any)
			h[i] = hosts_default;
		if (h[i] > 0)
			tor[n++] = i;
	}
	return n;
}

static void add(struct traffic_matrix *tm, int *cap, int u, int v, double d)
{
	if (tm->n == *cap) {
		*cap = *cap ? 2 * *cap : 256;
		tm->src = xrealloc(tm->src, *cap * sizeof(int));
		tm->dst = xrealloc(tm->dst, *cap * sizeof(int));
		tm->demand = xrealloc(tm->demand, *cap * sizeof(double));
	}
	tm->src[tm->n] = u;
	tm->dst[tm->n] = v;
	tm->demand[tm->n++] = d;
}

/*
 * Near-worst permutation: maximum total shortest-path length over perfect
 * matchings of ToRs to other ToRs (GLPK out-of-kilter assignment).
 */
static int permutation(const struct topo *t, const int *tor, int n, int *pi)
{
	glp_graph *G =
		glp_create_graph(sizeof(int), sizeof(double) + sizeof(int));
	struct bfs b;
	int i, j, rc;
	double sol;
	glp_arc *a;

	bfs_init(&b, t);
	glp_add_vertices(G, 2 * n);
	for (i = 0; i < n; i++) {
		*(int *)G->v[i + 1]->data = 0;
		*(int *)G->v[n + i + 1]->data = 1;
		/* Switch hop distances: hosts do not forward (relay off). */
		bfs_to(&b, t, tor[i], false);
		for (j = 0; j < n; j++) {
			if (j == i)
				continue;
			a = glp_add_arc(G, i + 1, n + j + 1);
			/* Unreachable pairs are the worst of all: weight above any path. */
			*(double *)a->data =
				b.dist[tor[j]] < 0 ? t->nnodes : b.dist[tor[j]];
		}
	}
	rc = glp_asnprob_okalg(GLP_ASN_MAX, G, 0, 0, &sol, sizeof(double));
	if (!rc)
		for (i = 0; i < n; i++)
			for (a = G->v[i + 1]->out; a; a = a->t_next)
				if (*(int *)((char *)a->data + sizeof(double)))
					pi[i] = a->head->i - n - 1;
	glp_delete_graph(G);
	bfs_free(&b);
	return rc ? -1 : 0;
}

int traffic_build(const struct topo *t, const struct traffic *tr, uint64_t seed,
		  int hosts_default, struct traffic_matrix *tm)
{
	int *tor = xmalloc(t->nnodes * sizeof(int)),
	    *h = xcalloc(t->nnodes, sizeof(int));
	int n, i, j, cap = 0, H = 0;
	struct rng r;

	memset(tm, 0, sizeof(*tm));
	n = find_tors(t, hosts_default, tor, h);
	for (i = 0; i < n; i++)
		H += h[tor[i]];
	tm->ntors = n;
	tm->hosts = H;
	if (n < 2) {
		p_err("%s: fewer than two ToRs to send traffic between",
		      t->file);
		goto fail;
	}
	if (tr->kind == TRAFFIC_ALL_TO_ALL) {
		for (i = 0; i < n; i++)
			for (j = 0; j < n; j++)
				if (i != j)
					add(tm, &cap, tor[i], tor[j],
					    (double)h[tor[i]] * h[tor[j]] /
						    (H - 1));
	} else if (tr->kind == TRAFFIC_UNIFORM) {
		int m = (int)lround(tr->p * (n - 1)),
		    *pick = xmalloc(n * sizeof(int));

		if (m < 1)
			m = 1;
		rng_seed(&r, seed);
		for (i = 0; i < n; i++) {
			int k = 0, sum = 0;

			for (j = 0; j < n; j++)
				if (j != i)
					pick[k++] = j;
			/* The first m of a random shuffle: m distinct other ToRs. */
			rng_shuffle(&r, pick, k);
			for (j = 0; j < m; j++)
				sum += h[tor[pick[j]]];
			for (j = 0; j < m; j++)
				add(tm, &cap, tor[i], tor[pick[j]],
				    (double)h[tor[i]] * h[tor[pick[j]]] / sum);
		}
		free(pick);
	} else {
		int *pi = xmalloc(n * sizeof(int));

		if (permutation(t, tor, n, pi)) {
			p_err("%s: no permutation of the ToRs (GLPK assignment failed)",
			      t->file);
			free(pi);
			goto fail;
		}
		for (i = 0; i < n; i++)
			add(tm, &cap, tor[i], tor[pi[i]], h[tor[i]]);
		free(pi);
	}
	free(tor);
	free(h);
	return 0;
fail:
	free(tor);
	free(h);
	traffic_free(tm);
	return -1;
}

void traffic_free(struct traffic_matrix *tm)
{
	free(tm->src);
	free(tm->dst);
	free(tm->demand);
	memset(tm, 0, sizeof(*tm));
}
