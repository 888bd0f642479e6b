// SPDX-License-Identifier: GPL-2.0
/*
 * GLPK's functions that the analyses call (analyze/: bounds, throughput),
 * each resolved from libglpk on its first call, not linked: GLPK and the
 * libraries behind it (gmp, colamd, amd, ltdl) cost every tagger process
 * 0.8 ms of start-up in the dynamic loader, and a switch update, a show
 * or a pause agent never solves a linear program. The callers include
 * <glpk.h> and call glp_* as usual; these definitions are theirs.
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include <glpk.h>

#include "lib/log.h"

#define LIBGLPK "libglpk.so.40"

static void *lib;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void load(void)
{
	lib = dlopen(LIBGLPK, RTLD_NOW | RTLD_LOCAL);
}

/* The library's own function name; a missing library ends the process. */
static void *sym(const char *name)
{
	void *f;

	pthread_once(&once, load);
	f = lib ? dlsym(lib, name) : NULL;
	if (!f) {
		p_err("%s (%s): %s: this command needs GLPK (Debian: "
		      "apt-get install libglpk40)",
		      LIBGLPK, name, dlerror() ?: "not found");
		exit(EXIT_RUNTIME);
	}
	return f;
}

/* A function of GLPK's: its pointer looked up once, then called. */
#define GLP(ret, name, params, args)                                         \
	ret name params                                                      \
	{                                                                    \
		static ret(*fn) params;                                      \
		if (!__atomic_load_n(&fn, __ATOMIC_ACQUIRE))                 \
			__atomic_store_n(&fn, sym(#name), __ATOMIC_RELEASE); \
		return __atomic_load_n(&fn, __ATOMIC_ACQUIRE) args;          \
	}

/* The same for a function that returns nothing. */
#define GLPV(name, params, args)                                             \
	void name params                                                     \
	{                                                                    \
		static void(*fn) params;                                     \
		if (!__atomic_load_n(&fn, __ATOMIC_ACQUIRE))                 \
			__atomic_store_n(&fn, sym(#name), __ATOMIC_RELEASE); \
		__atomic_load_n(&fn, __ATOMIC_ACQUIRE) args;                 \
	}

GLP(glp_prob *, glp_create_prob, (void), ())
GLPV(glp_delete_prob, (glp_prob * P), (P))
GLP(int, glp_add_rows, (glp_prob * P, int n), (P, n))
GLP(int, glp_add_cols, (glp_prob * P, int n), (P, n))
GLPV(glp_set_row_bnds, (glp_prob * P, int i, int type, double lb, double ub),
     (P, i, type, lb, ub))
GLPV(glp_set_col_bnds, (glp_prob * P, int j, int type, double lb, double ub),
     (P, j, type, lb, ub))
GLPV(glp_set_col_kind, (glp_prob * P, int j, int kind), (P, j, kind))
GLPV(glp_set_obj_dir, (glp_prob * P, int dir), (P, dir))
GLPV(glp_set_obj_coef, (glp_prob * P, int j, double coef), (P, j, coef))
GLPV(glp_load_matrix,
     (glp_prob * P, int ne, const int ia[], const int ja[], const double ar[]),
     (P, ne, ia, ja, ar))
GLP(int, glp_get_num_cols, (glp_prob * P), (P))
GLPV(glp_init_smcp, (glp_smcp * parm), (parm))
GLPV(glp_init_iptcp, (glp_iptcp * parm), (parm))
GLPV(glp_init_iocp, (glp_iocp * parm), (parm))
GLP(int, glp_simplex, (glp_prob * P, const glp_smcp *parm), (P, parm))
GLP(int, glp_interior, (glp_prob * P, const glp_iptcp *parm), (P, parm))
GLP(int, glp_intopt, (glp_prob * P, const glp_iocp *parm), (P, parm))
GLP(int, glp_get_status, (glp_prob * P), (P))
GLP(int, glp_ipt_status, (glp_prob * P), (P))
GLP(int, glp_mip_status, (glp_prob * P), (P))
GLP(double, glp_get_obj_val, (glp_prob * P), (P))
GLP(double, glp_ipt_obj_val, (glp_prob * P), (P))
GLP(glp_graph *, glp_create_graph, (int v_size, int a_size), (v_size, a_size))
GLPV(glp_delete_graph, (glp_graph * G), (G))
GLP(int, glp_add_vertices, (glp_graph * G, int nadd), (G, nadd))
GLP(glp_arc *, glp_add_arc, (glp_graph * G, int i, int j), (G, i, j))
GLP(int, glp_asnprob_okalg,
    (int form, glp_graph *G, int v_set, int a_cost, double *sol, int a_x),
    (form, G, v_set, a_cost, sol, a_x))
