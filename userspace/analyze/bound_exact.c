// SPDX-License-Identifier: GPL-2.0
/*
 * Can the ELP be tagged with K tags? A 0-1 program solved with GLPK; the
 * formulation is in bound.h. Paths are reduced to their sequences of
 * in-ports at forwarding nodes, and identical sequences are kept once.
 */
#include <glpk.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/bound.h"
#include "lib/hmap.h"
#include "lib/log.h"
#include "lib/util.h"

struct seqs {
	int n;
	int *start; /* n + 1 */
	int *port; /* in-ports of forwarding hops */
};

struct lp {
	glp_prob *p;
	int *ia, *ja;
	double *ar;
	int nz, cap;
};

static const struct seqs *sort_seqs;

static int cmp_seq(const void *a, const void *b)
{
	const struct seqs *s = sort_seqs;
	int x = *(const int *)a, y = *(const int *)b;
	int lx = s->start[x + 1] - s->start[x],
	    ly = s->start[y + 1] - s->start[y];

	if (lx != ly)
		return lx - ly;
	return memcmp(s->port + s->start[x], s->port + s->start[y],
		      lx * sizeof(int));
}

/* In-port sequences, duplicates removed (they add nothing to the program). */
static void build_seqs(const struct topo *t, const struct elp *e,
		       struct seqs *s)
{
	struct seqs all = { .n = e->npaths };
	bool *fw = elp_forwarding(t, e);
	int i, k, n = 0, *idx;

	all.start = xmalloc((e->npaths + 1) * sizeof(int));
	all.port = xmalloc((e->nhops + 1) * sizeof(int));
	for (i = 0; i < e->npaths; i++) {
		all.start[i] = n;
		for (k = 0; k < elp_len(e, i); k++) {
			int in = t->ports[elp_hops(e, i)[k]].peer;

			if (fw[port_node(t, in)])
				all.port[n++] = in;
		}
	}
	all.start[e->npaths] = n;
	idx = xmalloc(e->npaths * sizeof(int));
	for (i = 0; i < e->npaths; i++)
		idx[i] = i;
	sort_seqs = &all;
	qsort(idx, e->npaths, sizeof(int), cmp_seq);
	s->start = xmalloc((e->npaths + 1) * sizeof(int));
	s->port = xmalloc((n + 1) * sizeof(int));
	s->n = 0;
	n = 0;
	for (i = 0; i < e->npaths; i++) {
		int p = idx[i], len = all.start[p + 1] - all.start[p];

		if (i && !cmp_seq(&idx[i - 1], &idx[i]))
			continue;
		s->start[s->n++] = n;
		memcpy(s->port + n, all.port + all.start[p], len * sizeof(int));
		n += len;
	}
	s->start[s->n] = n;
	free(idx);
	free(fw);
	free(all.start);
	free(all.port);
}

static void nz(struct lp *l, int row, int col, double v)
{
	if (l->nz + 1 >= l->cap) {
		l->cap = l->cap ? 2 * l->cap : 4096;
		l->ia = xrealloc(l->ia, l->cap * sizeof(int));
		l->ja = xrealloc(l->ja, l->cap * sizeof(int));
		l->ar = xrealloc(l->ar, l->cap * sizeof(double));
	}
	l->nz++;
	l->ia[l->nz] = row;
	l->ja[l->nz] = col;
	l->ar[l->nz] = v;
}

static int add_row(struct lp *l, int type, double lo, double hi)
{
	int r = glp_add_rows(l->p, 1);

	glp_set_row_bnds(l->p, r, type, lo, hi);
	return r;
}

static int add_cols(struct lp *l, int n, int kind, double lo, double hi)
{
	int c, i;

	/* GLPK aborts the process on zero columns (no path has two hops) */
	if (!n)
		return glp_get_num_cols(l->p) + 1;
	c = glp_add_cols(l->p, n);

	for (i = 0; i < n; i++) {
		glp_set_col_kind(l->p, c + i, kind);
		if (kind != GLP_BV)
			glp_set_col_bnds(l->p, c + i, GLP_DB, lo, hi);
	}
	return c;
}

struct model {
	int k;
	struct seqs s;
	struct hmap trans; /* key2(u, v) -> transition index */
	struct hmap ports; /* port -> index */
	int ntrans, nports;
	int xb, zb, ab, fb; /* first column of each variable family */
};

static int x_col(const struct model *m, int p, int j, int t)
{
	return m->xb + (m->s.start[p] + j) * m->k + t;
}

static int index_of(struct hmap *h, uint64_t key, int *n)
{
	bool fresh;
	uint64_t *v = hmap_slot(h, key, &fresh);

	if (fresh)
		*v = (uint64_t)(*n)++;
	return (int)*v;
}

static void index_model(struct model *m)
{
	int p, j;

	hmap_init(&m->trans, 1024);
	hmap_init(&m->ports, 1024);
	for (p = 0; p < m->s.n; p++)
		for (j = m->s.start[p]; j < m->s.start[p + 1]; j++) {
			index_of(&m->ports, (uint64_t)m->s.port[j], &m->nports);
			if (j + 1 < m->s.start[p + 1])
				index_of(&m->trans,
					 key2(m->s.port[j], m->s.port[j + 1]),
					 &m->ntrans);
		}
}

/* Rows for the hop of path p from position j to j+1 (transition tr). */
static void hop_rows(struct lp *l, const struct model *m, int p, int j, int tr)
{
	int k = m->k, t, u, r;

	/* tags never decrease */
	r = add_row(l, GLP_LO, 0, 0);
	for (t = 1; t < k; t++) {
		nz(l, r, x_col(m, p, j + 1, t), t);
		nz(l, r, x_col(m, p, j, t), -t);
	}
	/* the key's one answer decides the next tag: x' >= x + z - 1 */
	for (t = 0; t < k; t++)
		for (u = t; u < k; u++) {
			r = add_row(l, GLP_LO, -1, 0);
			nz(l, r, x_col(m, p, j + 1, u), 1);
			nz(l, r, x_col(m, p, j, t), -1);
			nz(l, r, m->zb + (tr * k + t) * k + u, -1);
		}
	/* a used same-tag edge is active: a >= x + x' - 1 */
	for (t = 0; t < k; t++) {
		r = add_row(l, GLP_LO, -1, 0);
		nz(l, r, m->ab + tr * k + t, 1);
		nz(l, r, x_col(m, p, j, t), -1);
		nz(l, r, x_col(m, p, j + 1, t), -1);
	}
}

static void build_rows(struct lp *l, struct model *m)
{
	int k = m->k, p, j, t, u, r;
	struct hmap_entry *it;
	double big = m->nports + 1;

	for (p = 0; p < m->s.n; p++) {
		int len = m->s.start[p + 1] - m->s.start[p];

		for (j = 0; j < len; j++) {
			r = add_row(l, GLP_FX, 1, 1);
			for (t = 0; t < k; t++)
				nz(l, r, x_col(m, p, j, t), 1);
		}
		/* one class: every packet enters with tag 0 */
		glp_set_col_bnds(l->p, x_col(m, p, 0, 0), GLP_FX, 1, 1);
		for (j = 0; j + 1 < len; j++) {
			int a = m->s.port[m->s.start[p] + j],
			    b = m->s.port[m->s.start[p] + j + 1];
			uint64_t tr;

			hmap_get(&m->trans, key2(a, b), &tr);
			hop_rows(l, m, p, j, (int)tr);
		}
	}
	HMAP_FOR_EACH(&m->trans, it)
	{
		int tr = (int)it->val, a, b;
		uint64_t pa, pb;

		a = (int)(it->key >> 32);
		b = (int)(uint32_t)it->key;
		hmap_get(&m->ports, (uint64_t)a, &pa);
		hmap_get(&m->ports, (uint64_t)b, &pb);
		for (t = 0; t < k; t++) {
			/* one answer per key, never lower than the tag */
			r = add_row(l, GLP_FX, 1, 1);
			for (u = 0; u < k; u++) {
				int z = m->zb + (tr * k + t) * k + u;

				if (u < t)
					glp_set_col_bnds(l->p, z, GLP_FX, 0, 0);
				else
					nz(l, r, z, 1);
			}
			/* active same-tag edge: phi_b >= phi_a + 1 */
			r = add_row(l, GLP_LO, 1 - big, 0);
			nz(l, r, m->fb + (int)pb * k + t, 1);
			nz(l, r, m->fb + (int)pa * k + t, -1);
			nz(l, r, m->ab + tr * k + t, -big);
		}
	}
}

int bound_exact_feasible(const struct topo *t, const struct elp *e, int k,
			 const struct bound_opts *o)
{
	struct model m = { .k = k };
	struct lp l = { 0 };
	glp_iocp parm;
	long vars;
	int ret, status, res = -1;

	/* identical paths merge, but not by orders of magnitude: skip early */
	if ((long)e->nhops * k > 50 * o->max_vars)
		return -1;
	build_seqs(t, e, &m.s);
	index_model(&m);
	vars = (long)m.s.start[m.s.n] * k + (long)m.ntrans * k * k +
	       (long)m.ntrans * k;
	if (vars > o->max_vars || k < 1)
		goto out;
	l.p = glp_create_prob();
	m.xb = add_cols(&l, m.s.start[m.s.n] * k, GLP_BV, 0, 1);
	m.zb = add_cols(&l, m.ntrans * k * k, GLP_BV, 0, 1);
	m.ab = add_cols(&l, m.ntrans * k, GLP_BV, 0, 1);
	m.fb = add_cols(&l, m.nports * k, GLP_CV, 0, m.nports + 1);
	build_rows(&l, &m);
	glp_load_matrix(l.p, l.nz, l.ia, l.ja, l.ar);
	glp_init_iocp(&parm);
	parm.presolve = GLP_ON;
	parm.msg_lev = GLP_MSG_OFF;
	parm.tm_lim = (int)(o->seconds * 1000);
	ret = glp_intopt(l.p, &parm);
	status = glp_mip_status(l.p);
	if (ret == GLP_ENOPFS || ret == GLP_ENODFS ||
	    (ret == 0 && status == GLP_NOFEAS))
		res = 0;
	else if (ret == 0 && (status == GLP_OPT || status == GLP_FEAS))
		res = 1;
	pr_info("exact: %d tags %s (%ld 0-1 variables, %d paths after merging)\n",
		k,
		res > 0	 ? "feasible" :
		res == 0 ? "infeasible" :
			   "unknown",
		vars, m.s.n);
	glp_delete_prob(l.p);
out:
	free(l.ia);
	free(l.ja);
	free(l.ar);
	free(m.s.start);
	free(m.s.port);
	hmap_free(&m.trans);
	hmap_free(&m.ports);
	return res;
}
