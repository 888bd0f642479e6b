/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What tagger paths check-fib finds in the routing's paths (fib_walk.h),
 * shared by check-fib and the watching metrics server (tagger-metrics(8),
 * --check-fib): the paths the rules do not keep lossless (a walk of the
 * rules from the source host's tag, as tagger verify walks them), and
 * what compiling the paths for the lossless priorities the switches have
 * gives (how many they need, the paths that stay lossy).
 *
 * API:
 *   fib_check_prios(r, list, n, &co)   the lossless priorities: list[n]
 *                                 (n > 0), else all but the rules' lossy
 *                                 and cnp ones; EXIT_OK, or EXIT_USAGE
 *                                 after p_err (a priority twice, the
 *                                 lossy one)
 *   fib_check(t, e, r, &co, &c)   the paths of e checked; EXIT_OK, or
 *                                 EXIT_USAGE after p_err
 *   fib_check_free(&c)
 *
 * struct fib_check: not_lossless, {"text", "path"} per path not kept
 * lossless, walks of them; prios, {"needed", "available",
 * "lossy_paths", "first_lossy": [path texts]}; lossy, the paths that need
 * more priorities.
 */
#ifndef __TAGGER_FIB_CHECK_H
#define __TAGGER_FIB_CHECK_H

#include <stdint.h>
#include <jansson.h>

#include "compile/compile.h"
#include "model/elp.h"
#include "model/rules.h"
#include "model/topo.h"

struct fib_check {
	json_t *not_lossless;
	int64_t walks;
	json_t *prios;
	int lossy;
};

int fib_check_prios(const struct rules *r, const int *list, int n,
		    struct compile_opts *co);
int fib_check(const struct topo *t, const struct elp *e, const struct rules *r,
	      const struct compile_opts *co, struct fib_check *c);
void fib_check_free(struct fib_check *c);

#endif /* __TAGGER_FIB_CHECK_H */
