/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The exact minimum of lossless priorities, by SAT (CaDiCaL).
 *
 * Paths are reduced to their in-ports at forwarding nodes (where packets
 * are classified) and merged into a prefix trie: a packet's tag at a hop
 * depends only on its source's initial tag and the (in-port, out-port)
 * keys before it, and the first in-port names the source, so every
 * prefix has one tag in any rule set. A trie node is a prefix, a trie
 * edge one hop, a transition the pair (in-port a, next in-port b), which
 * is the key (tag, a, out) of the rewrite rules up to the tag.
 *
 * Two models, both "can it be done with K priorities?":
 *
 * SAT_TAGGING, the Tagger paper's model that the compiler produces: every
 * packet enters with tag 0, tags never decrease, each tag is a priority,
 * the rewrite answer is a function of (tag, in-port, out-port), and each
 * tag's graph of same-tag hops is acyclic. Variables y[n][t] = "the tag
 * of prefix n is at least t" (order encoding, t = 1..K-1); monotonicity
 * is y[parent][t] -> y[child][t]; w[tr][t][s] = "key (t, tr) answers at
 * least s" makes rewriting a function; e[tr][t] is implied by a same-tag
 * hop of tag t over tr. A SAT answer is a tagging (a rewrite answer per
 * key), which the replay algorithm turns into rules.
 *
 * SAT_PRIORITIES, a relaxation of every rule set `tagger verify` accepts
 * with every ELP path lossless: any priority per prefix (not monotone,
 * several tags may share a priority, any initial tag), only the buffer
 * dependency graph over (in-port, priority) acyclic. Variables q[n][p]
 * one-hot, f[tr][p][p'] implied by a hop from priority p to p' over tr;
 * prefix 0 gets priority 0 (priorities are interchangeable). UNSAT here
 * means no rule set at all keeps the ELP lossless with K priorities.
 *
 * Acyclicity is added lazily (counterexample-guided): solve, look for
 * cycles in the graphs the model's answer uses, add for each one the
 * clause "not all of these edge variables", solve again. Each added
 * clause holds in every real solution (setting each edge variable to
 * "used"), so UNSAT of the final formula is UNSAT of the model; SAT
 * without a cycle is a solution. Each round, the shortest cycle through
 * each used edge becomes a clause (sat_cycles.h).
 *
 * API:
 *   sat_trie_build(t, e, &tr) / sat_trie_free(&tr)
 *   tag_sat_solve(t, &tr, k, model, deadline, &ans)
 *       1 solvable, 0 proven not (UNSAT), -1 unknown (deadline passed:
 *       now_seconds() past deadline; 0 means none)
 *   tag_sat_run(t, &tr, k, model, &search, &ans)   the same, with:
 *       grow_first: the paths enter in a seeded random order, this many
 *       first, then doubling, each batch solved in the same solver, until
 *       grow_until (then all the rest). UNSAT on a batch is UNSAT for the
 *       ELP (a subset's clauses are a subset of the whole formula's:
 *       every prefix, transition and hop clause of a subset path is the
 *       same in the whole trie, and each cycle clause holds in every
 *       solution of any superset); ans.core / ans.ncore name its paths.
 *       hint (SAT_TAGGING): a tag per prefix, assumed; on UNSAT under it,
 *       the prefixes in the failed assumptions are released (with every
 *       prefix over the same transition and all below them) and the
 *       solver runs again, so a hint only costs time, never an answer.
 *   ans.keys (SAT_TAGGING, solvable): rule_key(tag, in, out) -> new tag
 *   ans.tag: per trie node, its tag / priority (solvable)
 *   tag_sat_answer_free(&ans)
 *   tag_sat_too_large(&tr, k)   the formula would number over 10^8
 *       variables (tag_sat_solve then answers -1 at once)
 *   tag_algo_replay_init(&rp, keys)  an algorithm that answers the
 *       engine's keys from the map (missing keys turn lossy)
 *
 * The exact search (compile_exact.c), for one class:
 *   compile_exact(t, e, o, lower, seconds, r, &x)
 *       K = lower, lower + 1, ... below r's count in the tagging model:
 *       the first solvable K replaces r by its rules (compiled by the
 *       replay algorithm); every K below it UNSAT (or below the proven
 *       lower bound) makes it optimal. Then the priorities model at
 *       optimum - 1 says whether any rule set at all could do with fewer.
 *       Stops cleanly at the time limit, keeping the best result: x.optimum
 *       stays -1 ("not proved"). 0, or -1 after a message. The tagging
 *       model grows (a tenth of the time left) and starts from r's
 *       tagging clipped to k (at k = 2, when o->two_orders, the
 *       two-order search of two_orders.h runs first: its tagging is
 *       adopted as a solver's would be, or the solver starts from the
 *       tagging of the orders it reached); a core is solved again alone (its own trie
 *       and forwarding nodes, a new solver) and kept in x.core only if
 *       UNSAT there too: method "sat-core".
 *   compile_exact_free(&x)   after the last use of r (r->algo lives in x)
 */
#ifndef __TAGGER_TAG_SAT_H
#define __TAGGER_TAG_SAT_H

#include <stdint.h>

#include "compile/tagging.h"
#include "lib/hmap.h"
#include "model/elp.h"
#include "model/topo.h"

struct sat_trie {
	int n; /* prefixes (trie nodes) */
	int *port; /* last in-port of the prefix */
	int *parent; /* -1 for a first hop */
	int *tr; /* transition of the hop parent -> node, -1 for a first hop */
	int ntr;
	int *tr_from, *tr_to; /* in-ports of each transition */
	int npaths;
	int *path_end; /* per ELP path, its last prefix (-1: none) */
};

enum sat_model {
	SAT_TAGGING,
	SAT_PRIORITIES,
};

struct sat_answer {
	int result; /* 1, 0, -1 as tag_sat_solve returns */
	int k;
	enum sat_model model;
	int vars;
	int64_t clauses;
	int rounds; /* solver calls */
	int cycles; /* cycle clauses added */
	int paths; /* paths in the formula at the answer */
	int *core; /* UNSAT before all paths were in: those paths, ascending */
	int ncore;
	double seconds;
	double cpu_seconds; /* the process's CPU time meanwhile */
	int *tag; /* per trie node, when solvable */
	struct hmap keys; /* SAT_TAGGING, solvable */
};

void sat_trie_build(const struct topo *t, const struct elp *e,
		    struct sat_trie *tr);
void sat_trie_free(struct sat_trie *tr);
int tag_sat_solve(const struct topo *t, const struct sat_trie *tr, int k,
		  enum sat_model model, double deadline, struct sat_answer *a);

struct sat_search {
	double deadline; /* now_seconds() past it: unknown; 0: none */
	int grow_first; /* paths in the first batch; 0: all at once */
	double grow_until; /* past it the next batch is all the rest; 0: none */
	const int *hint; /* SAT_TAGGING: per prefix a tag to start from */
};

int tag_sat_run(const struct topo *t, const struct sat_trie *tr, int k,
		enum sat_model model, const struct sat_search *search,
		struct sat_answer *a);
void tag_sat_answer_free(struct sat_answer *a);
bool tag_sat_too_large(const struct sat_trie *tr, int k);
const char *sat_model_name(enum sat_model m);

struct tag_algo_replay {
	struct tag_algo algo;
	const struct hmap *keys;
};

void tag_algo_replay_init(struct tag_algo_replay *rp, const struct hmap *keys);

#define EXACT_STEPS_MAX 16

struct exact_step {
	int k;
	enum sat_model model;
	const char *search; /* "sat", or "two-orders" (two_orders.h) */
	int result; /* 1 solvable, 0 UNSAT, -1 unknown */
	double seconds;
	double cpu_seconds;
	int vars;
	int64_t clauses;
	int rounds;
	int cycles;
	int paths; /* paths in the formula at the answer */
};

struct exact_search {
	int found; /* priorities before the search */
	int lower; /* the proven lower bound it started from */
	int optimum; /* -1: not proved */
	const char *method; /* what proves the optimum: "sat", "lower-bound" */
	int any_rules; /* 1: no rule set of any kind does with optimum - 1;
			* 0: the relaxation could not rule it out; -1 unknown */
	bool improved; /* r was replaced by the solver's tagging */
	bool timed_out;
	double seconds;
	struct exact_step steps[EXACT_STEPS_MAX];
	int nsteps;
	struct elp *core; /* paths UNSAT on their own at core_k, or NULL */
	int core_k;
	double core_seconds; /* the core's check on its own */
	struct sat_answer ans; /* the tagging r was compiled from */
	struct tag_algo_replay replay;
};

struct compile_opts;
struct compile_result;

int compile_exact(const struct topo *t, const struct elp *e,
		  const struct compile_opts *o, int lower, double seconds,
		  struct compile_result *r, struct exact_search *x);
void compile_exact_free(struct exact_search *x);

#endif /* __TAGGER_TAG_SAT_H */
