/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The tagging engine: walks every ELP path (once per lossless class) hop by
 * hop, in rounds of equal hop index, and lets an algorithm choose the tag a
 * packet carries into each next hop. The result is the tagged graph of the
 * Tagger paper: nodes (in-port, tag), one rewrite decision per key
 * (tag, in-port, out-port).
 *
 * Why keys, not paths: a switch sees only (tag, in, out), so every packet
 * with the same key must get the same new tag. The engine asks the
 * algorithm only about keys no earlier hop has decided; a key decided once
 * is forced on every later packet that reaches it ("forced" keys add no
 * edge: the edge exists already). This keeps rewrite a function by
 * construction, which the paper's node merging alone does not guarantee.
 *
 * Why one dynamic DAG: every edge whose ends carry the same tag goes into
 * one Pearce-Kelly order (dyn_dag.h), so each tag's graph stays acyclic by
 * construction; edges between tags only ever go up (tags never decrease),
 * so no cycle can cross tags.
 *
 * Tags here are small integers (layers) 0..TAG_MAX-1; DSCP codepoints and
 * priorities are assigned when rules are written (compile.c).
 *
 * API:
 *   tagging_run(tg, t, e, nclasses, algo)     0, or -1 after a message
 *   tagging_add_edges(tg, unit, tags)         for algorithms: insert the
 *                                             unit's same-tag edges; false
 *                                             (and nothing inserted) if one
 *                                             would close a cycle
 *   tagging_free(tg)
 *   rule_key / rule_key_* pack and unpack (tag, in, out)
 */
#ifndef __TAGGER_TAGGING_H
#define __TAGGER_TAGGING_H

#include <stdbool.h>
#include <stdint.h>

#include "graph/dyn_dag.h"
#include "model/elp.h"
#include "lib/hmap.h"
#include "model/topo.h"

#define TAG_MAX 63 /* DSCP has 64 codepoints, one is the lossy tag */
#define TAG_LOSSY 0xff
#define TAG_PENDING 0xfe /* a key seen in the current unit, not decided */

/* (tag 8 bits, in-port 28 bits, out-port 28 bits) */
static inline uint64_t rule_key(int tag, int in, int out)
{
	return ((uint64_t)tag << 56) | ((uint64_t)in << 28) | (uint64_t)out;
}

static inline int rule_key_tag(uint64_t k)
{
	return (int)(k >> 56);
}
static inline int rule_key_in(uint64_t k)
{
	return (int)((k >> 28) & 0xfffffff);
}
static inline int rule_key_out(uint64_t k)
{
	return (int)(k & 0xfffffff);
}

static inline uint64_t node_key(int port, int tag)
{
	return ((uint64_t)port << 8) | (uint64_t)tag;
}

/* Packets of one class entering one port at one hop, through undecided keys. */
struct tag_unit {
	int cls;
	int hop;
	int port; /* the in-port they enter by */
	int nkeys;
	uint64_t *keys; /* distinct undecided keys leading here */
	int max_prev; /* highest tag among the keys */
};

struct tagging;

struct tag_algo {
	const char *name;
	/* set up per-run state; -1 after a message rejects the input */
	int (*begin)(struct tagging *tg);
	/* fill tags[0..u->nkeys-1]; TAG_LOSSY allowed */
	void (*decide)(struct tagging *tg, const struct tag_unit *u,
		       uint8_t *tags);
	/* after all units of one class in one round */
	void (*end_round)(struct tagging *tg, int cls, int hop);
	void (*end)(struct tagging *tg);
};

struct tagging {
	const struct topo *t;
	const struct elp *e;
	const struct tag_algo *algo;
	void *priv; /* the algorithm's state */
	int nclasses;
	bool *forwards; /* per node: classifies and rewrites */
	struct hmap rules; /* rule_key -> new tag (or TAG_LOSSY) */
	struct hmap nodes; /* node_key(port, tag) -> dag node */
	struct dyn_dag dag;
	int ntags; /* 1 + the highest tag used */
	int *hint; /* optional port order (a permutation): nodes
				 * (port, tag) start at tag * nports + hint[port]
				 * in the dynamic order */
	int maxlen; /* longest path, in hops */
	uint64_t units;
	uint64_t forced; /* packets whose key an earlier hop decided */
	uint64_t overflow; /* keys that would need a tag beyond TAG_MAX */
	uint64_t lossy_keys; /* keys an algorithm sent to the lossy tag */
};

int tagging_run(struct tagging *tg, const struct topo *t, const struct elp *e,
		int nclasses, const struct tag_algo *algo);
bool tagging_add_edges(struct tagging *tg, const struct tag_unit *u,
		       const uint8_t *tags);
void tagging_free(struct tagging *tg);
int tagging_node_forwards(const struct tagging *tg, int node);

extern const struct tag_algo tag_algo_brute;
extern const struct tag_algo tag_algo_greedy;
extern const struct tag_algo tag_algo_clos;
extern const struct tag_algo tag_algo_order;

#endif /* __TAGGER_TAGGING_H */
