/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Topology and path generators, as library functions: each builds a
 * struct topo (topo.h) or streams paths into a sink (elp.h ids), so the
 * CLI (cmd_topo.c, cmd_paths.c), the compiler, Flattened Clos and the tests
 * call the same code.
 *
 * Topologies (NULL with a message through p_err() on bad parameters):
 *   topo_gen_clos(&o)              3-tier Clos; clos_defaults() is the
 *                                  Tagger paper's T1-T4, L1-L4, S1-S2
 *   topo_gen_fattree(k, hosts)     k-ary fat-tree (a Clos with k/2 planes)
 *   topo_gen_leafspine(l, s, h)    2-tier
 *   topo_gen_bcube(n, k)           BCube(n,k): servers are hosts that relay
 *   topo_gen_jellyfish(n, d, h, seed)  random simple connected d-regular
 *   topo_gen_xpander(n, d, h, seed)    random (n/(d+1))-lift of K_(d+1)
 *   topo_gen_ring(n, h), topo_gen_line(n, h)
 *   gen_flat_switches(n, h)        sw1..swN, h hosts on each, no other links
 *   gen_regular_fits(kind, n, d, h)  size and connectivity limits of an
 *                                  n-switch d-regular graph (p_err if not)
 * Names: Clos and fat-tree ToRs T1.. (layer 0), leaves L1.. (1), spines
 * S1.. (2); leaf-spine leaves L1.. (0) and spines S1.. (1); hosts h1..,
 * numbered switch by switch; sw1.. for ring, line, Jellyfish and Xpander; BCube
 * servers s<digits> and switches w<level>-<digits> (digits most significant
 * first, dot-separated when n > 10).
 *
 * Paths: a generator walks ordered endpoint pairs and hands every path to
 * a sink, as an array of egress port ids (elp.h); nothing is kept across
 * pairs, so output streams out as it is found.
 *   gen_ends(t, between, relay, &ends)   the endpoints (hosts, switches, tors)
 *   paths_updown / paths_bounce / paths_shortest / paths_ecmp / paths_ksp /
 *   paths_bcube                          0, or -1 after p_err()
 *   sink_elp(&s, e), sink_writer_open(&s, t, f), sink_count(&s)
 */
#ifndef __TAGGER_GEN_H
#define __TAGGER_GEN_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "model/elp.h"
#include "model/topo.h"

/* Upper bounds every generator checks, so sizes stay addressable. */
#define GEN_MAX_NODES 2000000
#define GEN_MAX_PORTS 8000000

struct clos_opts {
	int pods;
	int tors; /* per pod */
	int leaves; /* per pod */
	int spines;
	int hosts; /* per ToR */
	int planes; /* leaf j of a pod connects to the spines of plane j % planes */
};

void clos_defaults(struct clos_opts *o);
struct topo *topo_gen_clos(const struct clos_opts *o);
struct topo *topo_gen_fattree(int k, int hosts);
struct topo *topo_gen_leafspine(int leaves, int spines, int hosts);
struct topo *topo_gen_bcube(int n, int k);
struct topo *topo_gen_jellyfish(int n, int d, int hosts, uint64_t seed);
struct topo *topo_gen_xpander(int n, int d, int hosts, uint64_t seed);
struct topo *topo_gen_ring(int n, int hosts);
struct topo *topo_gen_line(int n, int hosts);
struct topo *gen_flat_switches(int n, int hosts);
bool gen_regular_fits(const char *kind, int n, int d, int hosts);

/* Where paths start and end. */
enum gen_between {
	BETWEEN_AUTO, /* hosts if the topology has any, else switches */
	BETWEEN_HOSTS,
	BETWEEN_SWITCHES,
	BETWEEN_TORS, /* layer-0 switches, or switches with hosts */
};

struct gen_ends {
	int *node; /* endpoint node ids, ascending */
	int n;
	bool relay_hosts; /* may a path cross a host (BCube servers)? */
};

int gen_ends(const struct topo *t, enum gen_between between, bool relay_hosts,
	     struct gen_ends *ends);
void gen_ends_free(struct gen_ends *ends);
int gen_between_parse(const char *s, enum gen_between *out);

/* A consumer of paths. Counters are kept by sink_emit(). */
struct path_sink {
	void (*emit)(struct path_sink *s, const int32_t *hops, int n);
	void *ctx;
	int64_t paths;
	int64_t hops;
	int max_len;
	int64_t unreachable; /* endpoint pairs with no path */
};

static inline void sink_emit(struct path_sink *s, const int32_t *hops, int n)
{
	s->paths++;
	s->hops += n;
	if (n > s->max_len)
		s->max_len = n;
	if (s->emit)
		s->emit(s, hops, n);
}

void sink_elp(struct path_sink *s, struct elp *e);
void sink_count(struct path_sink *s);
void sink_writer_open(struct path_sink *s, const struct topo *t, FILE *f);
int sink_writer_close(struct path_sink *s);

/* Generators. k: bounces, paths per pair. */
int paths_updown(const struct topo *t, const struct gen_ends *ends,
		 struct path_sink *s);
int paths_bounce(const struct topo *t, const struct gen_ends *ends, int k,
		 bool simple, struct path_sink *s);

struct shortest_opts {
	bool random; /* random next hops (seeded) instead of the first */
	uint64_t seed;
};

int paths_shortest(const struct topo *t, const struct gen_ends *ends,
		   const struct shortest_opts *o, struct path_sink *s);
int paths_ecmp(const struct topo *t, const struct gen_ends *ends,
	       int max_per_pair, struct path_sink *s);
int paths_ksp(const struct topo *t, const struct gen_ends *ends, int k,
	      int threads, struct path_sink *s);

enum bcube_order {
	BCUBE_HIGH_FIRST, /* correct digit k first, as BCubeRouting's default */
	BCUBE_LOW_FIRST,
	BCUBE_PARALLEL, /* one path per differing digit, cyclic order */
};

int paths_bcube(const struct topo *t, const struct gen_ends *ends,
		enum bcube_order order, struct path_sink *s);

#define ECMP_DEFAULT_MAX_PER_PAIR 64

#endif /* __TAGGER_GEN_H */
