// SPDX-License-Identifier: GPL-2.0
/*
 * Max concurrent flow over fixed paths by the Garg-Koenemann scheme with
 * Fleischer's commodity-by-commodity phases, with both bounds certified
 * at every phase:
 *   lower: the flow routed so far, scaled down by its worst link load, is
 *          feasible and carries min_c(F_c / d_c) / load of every demand;
 *   upper: LP duality, for any link lengths y >= 0,
 *          theta* <= sum_l y_l / sum_c d_c dist_y(c),
 *          dist_y(c) the shortest of c's own paths under y.
 * Stops when upper <= lower (1 + eps).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lib/log.h"
#include "analyze/throughput_fptas.h"
#include "lib/util.h"

#define MAX_PHASES 200000

struct fp {
	const struct lp_paths *lp;
	int *first; /* commodity -> its first path (paths grouped) */
	int *order; /* paths sorted by commodity */
	int *link; /* hop -> link index */
	int nlinks;
	double *y, *load, *routed;
};

static double path_len(const struct fp *f, int p)
{
	double s = 0;
	uint32_t k;

	for (k = f->lp->off[p]; k < f->lp->off[p + 1]; k++)
		s += f->y[f->link[k]];
	return s;
}

static int best_path(const struct fp *f, int c, double *len)
{
	int i, best = -1;
	double bl = 0;

	for (i = f->first[c]; i < f->first[c + 1]; i++) {
		double l = path_len(f, f->order[i]);

		if (best < 0 || l < bl) {
			best = f->order[i];
			bl = l;
		}
	}
	*len = bl;
	return best;
}

static double upper_bound(const struct fp *f, const struct traffic_matrix *tm)
{
	double num = 0, den = 0, len;
	int l, c;

	for (l = 0; l < f->nlinks; l++)
		num += f->y[l];
	for (c = 0; c < tm->n; c++) {
		best_path(f, c, &len);
		den += tm->demand[c] * len;
	}
	return den > 0 ? num / den : INFINITY;
}

static double lower_bound(const struct fp *f, const struct traffic_matrix *tm)
{
	double worst = 0, frac = INFINITY;
	int l, c;

	for (l = 0; l < f->nlinks; l++)
		if (f->load[l] > worst)
			worst = f->load[l];
	for (c = 0; c < tm->n; c++)
		if (f->routed[c] / tm->demand[c] < frac)
			frac = f->routed[c] / tm->demand[c];
	return worst > 0 ? frac / worst : 0;
}

static void route(struct fp *f, int p, double u, double eps)
{
	uint32_t k;

	for (k = f->lp->off[p]; k < f->lp->off[p + 1]; k++) {
		f->y[f->link[k]] *= 1 + eps * u;
		f->load[f->link[k]] += u;
	}
	f->routed[f->lp->comm[p]] += u;
}

static void fp_init(struct fp *f, const struct traffic_matrix *tm,
		    const struct lp_paths *lp, const struct topo *t)
{
	int *row = xmalloc((t->nports + 1) * sizeof(int)), p, c;
	uint32_t k;

	memset(f, 0, sizeof(*f));
	f->lp = lp;
	memset(row, 0xff, (t->nports + 1) * sizeof(int));
	f->link = xmalloc((lp->nhops + 1) * sizeof(int));
	for (k = 0; k < lp->nhops; k++) {
		if (row[lp->hops[k]] < 0)
			row[lp->hops[k]] = f->nlinks++;
		f->link[k] = row[lp->hops[k]];
	}
	free(row);
	f->first = xcalloc(tm->n + 2, sizeof(int));
	f->order = xmalloc((lp->n + 1) * sizeof(int));
	for (p = 0; p < lp->n; p++)
		f->first[lp->comm[p] + 2]++;
	for (c = 0; c < tm->n; c++)
		f->first[c + 2] += f->first[c + 1];
	for (p = 0; p < lp->n; p++)
		f->order[f->first[lp->comm[p] + 1]++] = p;
	f->y = xmalloc(f->nlinks * sizeof(double));
	f->load = xcalloc(f->nlinks, sizeof(double));
	f->routed = xcalloc(tm->n, sizeof(double));
}

static void fp_free(struct fp *f)
{
	free(f->first);
	free(f->order);
	free(f->link);
	free(f->y);
	free(f->load);
	free(f->routed);
}

int throughput_fptas(const struct traffic_matrix *tm, const struct lp_paths *lp,
		     const struct topo *t, double eps, struct fptas_bounds *b)
{
	double lo = 0, hi = INFINITY, scale, vol = 0, len;
	int c, l, phase;
	struct fp f;

	fp_init(&f, tm, lp, t);
	b->links = f.nlinks;
	/*
	 * Scale demands so that one phase routes about what the links can carry
	 * (the bound with unit lengths): phases then advance the lengths evenly.
	 */
	for (l = 0; l < f.nlinks; l++)
		f.y[l] = 1;
	for (c = 0; c < tm->n; c++) {
		best_path(&f, c, &len);
		vol += tm->demand[c] * len;
	}
	scale = vol > 0 ? f.nlinks / vol : 1;
	/* Lengths start equal; only their ratios matter for both bounds. */
	for (l = 0; l < f.nlinks; l++)
		f.y[l] = 1e-100;
	for (phase = 1; phase <= MAX_PHASES; phase++) {
		/*
		 * The average flow carries the early phases' poor routes; forget
		 * the flow (not the lengths) at powers of two, so the primal bound
		 * averages over the latest half only.
		 */
		if (!(phase & (phase - 1)) && phase >= 16) {
			memset(f.load, 0, f.nlinks * sizeof(double));
			memset(f.routed, 0, tm->n * sizeof(double));
		}
		for (c = 0; c < tm->n; c++) {
			double r = tm->demand[c] * scale;

			while (r > 1e-15) {
				double u = r < 1 ? r : 1;

				route(&f, best_path(&f, c, &len), u, eps);
				r -= u;
			}
		}
		/* Keep lengths in range; both bounds are scale-free in y. */
		for (len = 0, l = 0; l < f.nlinks; l++)
			if (f.y[l] > len)
				len = f.y[l];
		if (len > 1e100)
			for (l = 0; l < f.nlinks; l++)
				f.y[l] /= len;
		lo = fmax(lo, lower_bound(&f, tm));
		hi = fmin(hi, upper_bound(&f, tm));
		if (hi <= lo * (1 + eps))
			break;
	}
	b->lower = lo;
	b->upper = hi;
	b->phases = phase;
	if (phase > MAX_PHASES)
		pr_warn("throughput: bounds %.4f..%.4f after %d phases\n", lo,
			hi, MAX_PHASES);
	fp_free(&f);
	return 0;
}
