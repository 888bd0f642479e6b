/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The verifier's working state, shared by its two halves (internal to
 * verify.c and verify_witness.c): verify.c builds the buffer dependency
 * graph and walks the ELP, keeping only integer records of what it found;
 * verify_witness.c turns those records into problems (text and JSON) once
 * at the end.
 *
 * API:
 *   struct vctx, struct lossy_rec, struct dec_rec
 *   verify_witnesses(c)   the records -> c->res's problems
 */
#ifndef __TAGGER_VERIFY_CTX_H
#define __TAGGER_VERIFY_CTX_H

#include "analyze/verify_report.h"
#include "lib/hmap.h"

/* Why a walk became lossy: the first failing hop. */
enum lossy_reason {
	LOSSY_INITIAL, /* the source has no lossless initial tag */
	LOSSY_NO_RULES, /* a forwarding node is not in "switches" */
	LOSSY_CLASSIFY, /* classify has no rule or answers lossy */
	LOSSY_REWRITE, /* rewrite has no rule or answers lossy */
};

struct lossy_rec {
	int path;
	int cls;
	int hop; /* index of the node in the path (0 = source) */
	int tag;
	int rule; /* answering rule, -1 if none matched */
	enum lossy_reason why;
};

struct dec_rec {
	int sw;
	int rule;
	int path; /* a path that takes this rule, -1 if none */
	int hop;
};

struct vctx {
	const struct topo *t;
	const struct elp *e;
	const struct rules *r;
	struct verify_result *res;
	int max;
	int *node_sw; /* topology node -> rules switch or -1 */
	int *node_host; /* topology node -> rules host or -1 */
	int *port_local; /* topology port -> port index in its switch */
	int **sw_ports; /* rules switch, port index -> topology port */
	struct hmap edges; /* key2(from node, to node) -> edge index */
	struct verify_edge *ev;
	int64_t nev, evcap;
	struct lossy_rec *lossy;
	int nlossy, lossy_cap;
	struct dec_rec *dec;
	int ndec, dec_cap;
	struct hmap dec_idx; /* key2(sw, rule) -> index in dec */
	struct hmap cyc; /* key2(from node, to node) -> index in the cycle */
};

void verify_witnesses(struct vctx *c);

#endif /* __TAGGER_VERIFY_CTX_H */
