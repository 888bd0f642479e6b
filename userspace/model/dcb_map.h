/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A switch's rules in the form Linux DCB holds them (iproute2's `dcb app`,
 * `dcb rewr`, `dcb pfc`), and every rule that form cannot express.
 *
 *   app   per in-port: DSCP -> priority, all 64 DSCPs (a DSCP without an
 *         entry would take the port's default priority, nobody's choice)
 *   rewr  per out-port: priority -> DSCP, for the priorities that leave
 *         there (a priority without an entry keeps its DSCP: the CNP's)
 *   pfc   per port: the priorities PFC runs on (ingress: classified
 *         lossless there; egress: queues the next hop pauses)
 *
 * One priority per packet decides both its ingress priority group (what
 * this switch pauses its upstream by) and its egress queue (what the next
 * hop's PAUSE stops). The rules decouple them: a packet leaving A for B
 * waits in the queue of the priority B classifies its new tag into. So a
 * lossless (in-port, tag) pair of priority p at A, leaving on out, runs on
 * DCB only if
 *   (1) every pair of priority p leaving on out gets one new tag: rewr
 *       is keyed by (priority, out-port) alone            DCB_REWRITE
 *   (2) the next hop classifies that tag into p, or lossy: else its PAUSE
 *       for its own priority stops another queue            DCB_QUEUE
 *   (3) a pair the rules demote at out (an explicit lossy rewrite, or a
 *       new tag the next hop classifies lossy) shares no (p, out) with a
 *       pair kept lossless there: DCB has no in-port key     DCB_DEMOTE
 * and its priority is one DCB has (0..7, not the CNP's)    DCB_PRIORITY.
 * (rules_check() already keeps priorities in 0..7, so more than eight
 * distinct ones cannot occur; the check guards rules built otherwise.)
 *
 * Off the ELP: a pair with no rewrite rule at out is demoted by the eBPF
 * and flower data paths. On DCB it leaves in queue p with rewr's tag for
 * (p, out); when that tag is lossless at the next hop the packet stays
 * lossless off its paths. Those (in-port, tag, out-port) combinations are
 * counted, not refused (off_elp): every switch with more than one
 * in-port has them (a leaf's spine-to-spine bounce, whose up-going
 * twin is on the ELP), and they make a deadlock possible exactly when
 * the routing sends lossless traffic off the ELP, e.g. a bounce after a
 * link failure: the cyclic buffer dependency that Tagger's demotion
 * prevents then forms in one priority. On DCB the ELP must hold the
 * routing, as for plain PFC.
 *
 * The next hop's classify comes from the rules' switch at the other end
 * of the link (peers, from the rules' "links"); for a host, or without
 * links, it is the new tag's priority in "tags".
 *
 * API:
 *   dcb_peers(r, sw, a, b, n, peers)   the switch and port across each
 *                                      port of sw, from n links a[i] <->
 *                                      b[i] ("node:port"); peers has
 *                                      nports entries; returns how many
 *                                      ports have a switch across
 *   dcb_map_build(r, sw, peers, &m)    the DCB form of switch sw (peers
 *                                      may be NULL); 0 if it expresses
 *                                      every rule, 1 if m.problems lists
 *                                      some (the maps are filled anyway)
 *   dcb_map_free(&m)
 *   dcb_app_entries(m, port)           app entries of an in-port (64)
 *   dcb_rewr_entries(m, port)          rewr entries of an out-port
 *   dcb_problem_kind_name(kind)        "priority", "queue", ... (JSON)
 *   dcb_problem_remedy(kind)           whether compiling differently
 *                                      helps, one sentence
 *   dcb_map_report(m)                  every problem of m on stderr, then
 *                                      the remedy of each kind seen
 */
#ifndef __TAGGER_DCB_MAP_H
#define __TAGGER_DCB_MAP_H

#include <stdbool.h>
#include <stdint.h>

#include "model/rules.h"

enum dcb_problem_kind {
	DCB_PRIORITY, /* a priority DCB has not, or the CNP's */
	DCB_QUEUE, /* the next hop's priority for the new tag differs */
	DCB_REWRITE, /* two new tags for one (priority, out-port) */
	DCB_DEMOTE, /* a demotion that (priority, out-port) cannot make */
	DCB_KINDS,
};

struct dcb_problem {
	int kind;
	int in, tag, out; /* port indexes of the switch, a DSCP; -1: none */
	char *msg; /* names the switch and the rule */
};

struct dcb_peer {
	int sw; /* the rules' switch across the link, -1: a host or none */
	int port;
};

struct dcb_map {
	const struct rules *r;
	int sw, nports;
	uint8_t *app; /* [in * RULES_NTAGS + dscp] -> priority */
	uint8_t *rewr; /* [out * RULES_NPRIOS + prio] -> DSCP, if set */
	uint8_t *rewr_set; /* [out] -> priorities with a rewr entry */
	uint8_t *pfc; /* [port] -> priorities PFC runs on */
	uint8_t pfc_any; /* their union */
	long *off_elp; /* [out] -> pairs kept lossless off the ELP there */
	long off_elp_total;
	int off_in, off_tag,
		off_out; /* one of them (in != out if any), or -1 */
	struct dcb_problem *problems;
	int nproblems, cap;
};

int dcb_peers(const struct rules *r, int sw, char *const *a, char *const *b,
	      int n, struct dcb_peer *peers);
int dcb_map_build(const struct rules *r, int sw, const struct dcb_peer *peers,
		  struct dcb_map *m);
void dcb_map_free(struct dcb_map *m);
const char *dcb_problem_kind_name(int kind);
const char *dcb_problem_remedy(int kind);
void dcb_map_report(const struct dcb_map *m);

static inline int dcb_app_entries(const struct dcb_map *m, int port)
{
	(void)m;
	(void)port;
	return RULES_NTAGS;
}

static inline int dcb_rewr_entries(const struct dcb_map *m, int port)
{
	return __builtin_popcount(m->rewr_set[port]);
}

#endif /* __TAGGER_DCB_MAP_H */
