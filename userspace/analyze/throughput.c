// SPDX-License-Identifier: GPL-2.0
/* The multi-commodity flow LP of section 4; see throughput.h. */
#include <glpk.h>
#include <stdlib.h>
#include <string.h>

#include "lib/hmap.h"
#include "lib/log.h"
#include "analyze/throughput.h"
#include "analyze/throughput_fptas.h"
#include "analyze/throughput_paths.h"
#include "lib/util.h"

/*
 * max theta s.t. theta * T fits is solved as its reciprocal, the least
 * congestion lambda of routing T itself:
 *   min lambda
 *   sum_{p of c} y_p = d_c                 for every commodity c
 *   sum_{p over link l} y_p - lambda_l <= 0 for every directed switch link l
 *   lambda_l - lambda_(l+1) = 0            (all lambda_l equal lambda)
 *   y, lambda >= 0
 * theta = 1 / lambda (x = y / lambda routes theta * T at capacity 1). One
 * shared lambda (or theta) column would touch every link (or commodity)
 * row and make the interior point's normal matrix dense there; the chain
 * of per-link copies keeps it sparse ("splitting dense columns").
 * lp_load() writes it into P: its rows, columns and nonzeros.
 */
static void lp_load(glp_prob *P, const struct traffic_matrix *tm,
		    const struct lp_paths *lp, const struct topo *t,
		    struct throughput_result *res)
{
	int *row_of_port = xcalloc(t->nports + 1, sizeof(int)), nrows = tm->n,
	    c, p, k;
	int64_t nz = 0, cap = 3 * (int64_t)t->nports + lp->n + lp->nhops + 1;
	int *ia = xmalloc(cap * sizeof(int)), *ja = xmalloc(cap * sizeof(int));
	double *ar = xmalloc(cap * sizeof(double));
	int nl, l, chain0, col0;

	for (k = 0; k < (int)lp->nhops; k++)
		if (!row_of_port[lp->hops[k]])
			row_of_port[lp->hops[k]] = ++nrows;
	nl = nrows - tm->n;
	res->links = nl;
	res->paths = lp->n;
	chain0 =
		nrows; /* rows chain0+1 .. chain0+nl-1: lambda_l = lambda_l+1 */
	col0 = lp->n + 1; /* columns col0+1 .. col0+nl: lambda_l */
	glp_set_obj_dir(P, GLP_MIN);
	glp_add_rows(P, nrows + nl - 1);
	for (c = 1; c <= tm->n; c++)
		glp_set_row_bnds(P, c, GLP_FX, tm->demand[c - 1],
				 tm->demand[c - 1]);
	for (c = tm->n + 1; c <= nrows; c++)
		glp_set_row_bnds(P, c, GLP_UP, 0, 0);
	for (c = chain0 + 1; c < chain0 + nl; c++)
		glp_set_row_bnds(P, c, GLP_FX, 0, 0);
	glp_add_cols(P, lp->n + 1 + nl);
	glp_set_col_bnds(P, 1, GLP_FX, 0, 0); /* unused */
	for (l = 1; l <= nl; l++) {
		glp_set_col_bnds(P, col0 + l, GLP_LO, 0, 0);
		nz++;
		ia[nz] = tm->n + l, ja[nz] = col0 + l, ar[nz] = -1;
		if (l < nl) {
			nz++;
			ia[nz] = chain0 + l, ja[nz] = col0 + l, ar[nz] = 1;
		}
		if (l > 1) {
			nz++;
			ia[nz] = chain0 + l - 1, ja[nz] = col0 + l, ar[nz] = -1;
		}
	}
	glp_set_obj_coef(P, col0 + 1, 1);
	for (p = 0; p < lp->n; p++) {
		glp_set_col_bnds(P, p + 2, GLP_LO, 0, 0);
		nz++;
		ia[nz] = lp->comm[p] + 1, ja[nz] = p + 2, ar[nz] = 1;
		for (k = lp->off[p]; k < (int)lp->off[p + 1]; k++) {
			nz++;
			ia[nz] = row_of_port[lp->hops[k]], ja[nz] = p + 2,
			ar[nz] = 1;
		}
	}
	glp_load_matrix(P, (int)nz, ia, ja, ar);
	free(row_of_port);
	free(ia);
	free(ja);
	free(ar);
}

/* P's optimum into *lambda by method (interior falls back to simplex). */
static int lp_run(glp_prob *P, int method, double *lambda)
{
	glp_smcp parm;

	if (method == THROUGHPUT_INTERIOR) {
		glp_iptcp ip;

		glp_init_iptcp(&ip);
		ip.msg_lev = log_level >= LOG_DEBUG ? GLP_MSG_ON : GLP_MSG_OFF;
		if (!glp_interior(P, &ip) && glp_ipt_status(P) == GLP_OPT) {
			*lambda = glp_ipt_obj_val(P);
			return 0;
		}
		/* GLPK's interior point gives up on some degenerate LPs. */
		pr_info("throughput: interior point failed (status %d), simplex\n",
			glp_ipt_status(P));
	}
	glp_init_smcp(&parm);
	parm.msg_lev = log_level >= LOG_DEBUG ? GLP_MSG_ON : GLP_MSG_OFF;
	parm.presolve = GLP_ON;
	if (method == THROUGHPUT_DUAL)
		parm.meth = GLP_DUALP;
	if (glp_simplex(P, &parm) || glp_get_status(P) != GLP_OPT) {
		p_err("GLPK: the throughput LP did not solve (status %d)",
		      glp_get_status(P));
		return -1;
	}
	*lambda = glp_get_obj_val(P);
	return 0;
}

static int solve_lp(const struct traffic_matrix *tm, const struct lp_paths *lp,
		    const struct topo *t, int method,
		    struct throughput_result *res)
{
	glp_prob *P = glp_create_prob();
	double lambda = 0;
	int rc;

	lp_load(P, tm, lp, t, res);
	rc = lp_run(P, method, &lambda);
	if (!rc)
		res->theta = lambda > 0 ? 1 / lambda : 0;
	glp_delete_prob(P);
	return rc;
}

static int solve_fptas(const struct traffic_matrix *tm,
		       const struct lp_paths *lp, const struct topo *t,
		       double eps, struct throughput_result *res)
{
	struct fptas_bounds b;
	int rc = throughput_fptas(tm, lp, t, eps, &b);

	res->theta = b.lower;
	res->upper = b.upper;
	res->phases = b.phases;
	res->links = b.links;
	res->paths = lp->n;
	return rc;
}

int throughput_solve(const struct topo *t, const struct elp *e,
		     const struct traffic_matrix *tm, int method, double eps,
		     struct throughput_result *res)
{
	struct lp_paths lp = { 0 };
	struct hmap comm;
	double t0 = now_seconds();
	char *has = xcalloc(tm->n + 1, 1);
	int c, rc = 0;

	memset(res, 0, sizeof(*res));
	res->commodities = tm->n;
	hmap_init(&comm, tm->n);
	for (c = 0; c < tm->n; c++)
		hmap_put(&comm, key2(tm->src[c], tm->dst[c]), c);
	lp_paths_collect(t, e, &comm, &lp);
	for (c = 0; c < lp.n; c++)
		has[lp.comm[c]] = 1;
	for (c = 0; c < tm->n; c++)
		res->unrouted += !has[c];
	if (res->unrouted)
		res->theta = 0; /* some demand cannot move at all */
	else if (method == THROUGHPUT_FPTAS)
		rc = solve_fptas(tm, &lp, t, eps, res);
	else
		rc = solve_lp(tm, &lp, t, method, res);
	if (method != THROUGHPUT_FPTAS || res->unrouted)
		res->upper = res->theta;
	free(has);
	lp_paths_free(&lp);
	hmap_free(&comm);
	res->seconds = now_seconds() - t0;
	return rc;
}
