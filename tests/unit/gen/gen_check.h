/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers of the generator suites: collect a generator's paths into an ELP,
 * check every path is a walk of the topology, and round-trip topologies
 * and paths through the text formats.
 */
#ifndef __TAGGER_GEN_CHECK_H
#define __TAGGER_GEN_CHECK_H

#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "gen/gen.h"
#include "testlib.h"

/* Consecutive hops are linked: hop k enters the node hop k+1 leaves. */
static inline void assert_walk(const struct topo *t, const int32_t *h, int n)
{
	int k;

	ck_assert_int_gt(n, 0);
	for (k = 0; k < n; k++) {
		ck_assert_int_ge(h[k], 0);
		ck_assert_int_lt(h[k], t->nports);
		if (k + 1 < n)
			ck_assert_int_eq(port_peer_node(t, h[k]),
					 port_node(t, h[k + 1]));
	}
}

static inline void assert_all_walks(const struct topo *t, const struct elp *e)
{
	int i;

	for (i = 0; i < e->npaths; i++)
		assert_walk(t, elp_hops(e, i), elp_len(e, i));
}

static inline int path_src(const struct topo *t, const struct elp *e, int i)
{
	return port_node(t, elp_hops(e, i)[0]);
}

static inline int path_dst(const struct topo *t, const struct elp *e, int i)
{
	return port_peer_node(t, elp_hops(e, i)[elp_len(e, i) - 1]);
}

/* The ELP text of e parses back to the same hops. */
static inline void assert_elp_round_trip(const struct topo *t,
					 const struct elp *e)
{
	char *buf = CAPTURE(f, ck_assert_int_eq(elp_write(f, t, e), 0));
	struct elp *back;
	int i;

	back = elp_from_str(t, buf);
	ck_assert_ptr_nonnull(back);
	ck_assert_int_eq(back->npaths, e->npaths);
	for (i = 0; i < e->npaths; i++) {
		ck_assert_int_eq(elp_len(back, i), elp_len(e, i));
		ck_assert(!memcmp(elp_hops(back, i), elp_hops(e, i),
				  elp_len(e, i) * sizeof(int32_t)));
	}
	elp_free(back);
	free(buf);
}

/* The sink writer's text equals elp_write's. */
static inline void assert_writer_matches(const struct topo *t,
					 const struct elp *e)
{
	char *a = elp_to_str(t, e), *b;
	struct path_sink s;
	int i;

	b = CAPTURE(fb, {
		sink_writer_open(&s, t, fb);
		for (i = 0; i < e->npaths; i++)
			sink_emit(&s, elp_hops(e, i), elp_len(e, i));
		ck_assert_int_eq(sink_writer_close(&s), 0);
	});
	ck_assert_str_eq(a, b);
	free(a);
	free(b);
}

static inline struct gen_ends ends_of(const struct topo *t, enum gen_between b,
				      bool relay)
{
	struct gen_ends ends;

	ck_assert_int_eq(gen_ends(t, b, relay, &ends), 0);
	return ends;
}

/* A topology written by topo_write parses back with equal counts and names. */
static inline struct topo *topo_round_trip(const struct topo *t)
{
	char *buf = CAPTURE(f, ck_assert_int_eq(topo_write(f, t), 0));
	struct topo *back;
	int i;

	back = topo_from_str(buf);
	free(buf);
	ck_assert_ptr_nonnull(back);
	ck_assert_int_eq(back->nnodes, t->nnodes);
	ck_assert_int_eq(back->nports, t->nports);
	for (i = 0; i < t->nnodes; i++) {
		ck_assert_str_eq(back->nodes[i].name, t->nodes[i].name);
		ck_assert_int_eq(back->nodes[i].kind, t->nodes[i].kind);
		ck_assert_int_eq(back->nodes[i].layer, t->nodes[i].layer);
		ck_assert_int_eq(back->nodes[i].nports, t->nodes[i].nports);
	}
	return back;
}

static inline int count_kind(const struct topo *t, enum node_kind k)
{
	int i, n = 0;

	for (i = 0; i < t->nnodes; i++)
		n += t->nodes[i].kind == k;
	return n;
}

static inline int node_of(const struct topo *t, const char *name)
{
	int v = topo_find_node(t, name);

	ck_assert_msg(v >= 0, "no node %s", name);
	return v;
}

/* Is node a linked to node b? */
static inline bool linked(const struct topo *t, const char *a, const char *b)
{
	return topo_port_toward(t, node_of(t, a), node_of(t, b)) != PORT_NONE;
}

#endif /* __TAGGER_GEN_CHECK_H */
