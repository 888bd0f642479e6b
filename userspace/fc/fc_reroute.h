/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Local reroute around a failed link in a Flattened Clos (section 7.1).
 *
 * A path that would take the failed link (either direction) is rerouted by
 * the switch in front of it: from the virtual state the packet is in there
 * (up or down, and its virtual layer), the fewest-hop virtual up-down
 * continuation to the destination that avoids the link. Every ToR can use
 * any of its virtual layers, so such a continuation usually exists and the
 * rerouted path stays up-down: no new CBD, no tagging needed. Only if none
 * exists does the packet bounce: the shortest physical path on, which
 * contains a down-up turn that Tagger must tag (one more priority per
 * bounce).
 *
 * API:
 *   fc_reroute(t, L, in, fail_port, out, &rs)
 *       out = every path of in, plus the rerouted version of each path that
 *       takes the failed link; rs counts what happened.
 *   fc_bounces(t, L, hops, n)   down-up turns of a path in virtual layers
 */
#ifndef __TAGGER_FC_REROUTE_H
#define __TAGGER_FC_REROUTE_H

#include "model/elp.h"
#include "fc/fc_layout.h"
#include "model/topo.h"

struct fc_reroute_stats {
	int affected; /* paths that take the failed link */
	int updown; /* rerouted and still virtual up-down */
	int bounced; /* rerouted with at least one bounce */
	int unreachable; /* no way around the failure */
	int max_bounces;
};

int fc_reroute(const struct topo *t, const struct fc_layout *L,
	       const struct elp *in, int fail_port, struct elp *out,
	       struct fc_reroute_stats *rs);
int fc_bounces(const struct topo *t, const struct fc_layout *L,
	       const int32_t *hops, int n);

#endif /* __TAGGER_FC_REROUTE_H */
