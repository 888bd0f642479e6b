/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Independent check of compiled rules against the topology and the ELP
 * (Documentation/tagger-verify.8.rst). Shares nothing with the compiler but the
 * topology/ELP model and the rules parser.
 *
 * The buffer dependency graph (BDG) has a node per (switch, in-port,
 * lossless priority). A packet in (A, i, p) that leaves A on port o with a
 * lossless tag and is queued losslessly at the next switch B, port j,
 * priority q, waits on (B, j, q): an edge. Edges come from every rewrite
 * rule (wildcards expanded over the switch's ports, the in-port itself
 * included, because a route may send a packet back where it came from)
 * since a rerouted packet may combine any rules, and the ELP walks name
 * the paths behind them. Checked:
 *   1. the BDG is acyclic (deadlock_free);
 *   2. every ELP path, for every lossless class, is lossless at every node
 *      it crosses (lossless_paths == walks), unless allow_lossy;
 *   3. no rule and no path hop lowers a tag's rank (monotonic).
 *
 * API:
 *   verify_rules(t, e, r, &opts, &res)   EXIT_OK, EXIT_PROBLEM, or
 *                                        EXIT_USAGE after "file: ..." when
 *                                        the rules do not fit the topology;
 *                                        res is verify_report.h's
 * The ELP walks run in opts.threads threads (ranges of paths, merged in
 * path order): the result is the same for any number of threads.
 * Cost: O(expanded rewrite rules + total ELP hops x classes) hash probes,
 * O(BDG edges) memory; the cycle search is digraph.h's linear DFS.
 */
#ifndef __TAGGER_VERIFY_H
#define __TAGGER_VERIFY_H

#include <stdbool.h>

#include "analyze/verify_report.h"
#include "model/elp.h"
#include "model/rules.h"
#include "model/topo.h"

struct verify_opts {
	bool allow_lossy; /* lossy ELP paths are counted, not problems */
	int max_problems; /* witnesses kept per kind; 0 means 10 */
	int threads; /* walks in parallel; 0: one thread per online CPU */
};

#define VERIFY_THREADS_MAX 64

int verify_rules(const struct topo *t, const struct elp *e,
		 const struct rules *r, const struct verify_opts *opts,
		 struct verify_result *res);

#endif /* __TAGGER_VERIFY_H */
