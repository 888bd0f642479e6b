/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A dry run of a data path on a switch (tagger switch check): what would
 * run on each port, and every rule it cannot express. Nothing is written
 * to the kernel; the ports' interfaces are looked up in the caller's
 * network namespace and only read (ifindex, IFLA_PHYS_SWITCH_ID, the
 * hw-tc-offload feature, DCB support).
 *
 * Per port: the interface (a missing one is reported, not fatal), the data
 * path that would run there and whether in hardware, and its entries:
 *   bpf     the rule table entries of the port (dp_table.h: classify with
 *           the port as in-port, rewrite with it as out-port); software
 *           only, and a switchdev port's ASIC forwards past it
 *   flower  the port's tc filters (flower_tc.h's walk, both directions,
 *           plus the two chain-0 entry filters); in hardware where the
 *           port's hw-tc-offload is on
 *   dcb     app entries + rewr entries (model/dcb_map.h); in the driver
 *           where it has DCB operations
 * Problems: flower, a chain beyond tc's prefs; dcb, every dcb_map problem,
 * with whether compiling differently helps (and the switch's maps form,
 * tagger maps, as evidence), and the off-ELP pairs DCB keeps lossless
 * (counted; problems with strict).
 *
 * API:
 *   struct dp_check_in             the rules, their document (for
 *                                  "links"; may be NULL), the switch,
 *                                  each port's interface, the data path
 *   dp_check(in, &report)          the report as a JSON object (the -j
 *                                  document); EXIT_OK if the data path
 *                                  expresses every rule, EXIT_PROBLEM if
 *                                  not, EXIT_USAGE after p_err() when no
 *                                  port's interface is here or the links
 *                                  are bad, EXIT_RUNTIME out of memory
 *                                  (no report then)
 *   dp_check_path_name(path)       "bpf", "flower", "dcb"
 */
#ifndef __TAGGER_DP_CHECK_H
#define __TAGGER_DP_CHECK_H

#include <stdbool.h>
#include <jansson.h>

#include "model/rules.h"

enum dp_check_path {
	DP_CHECK_BPF,
	DP_CHECK_FLOWER,
	DP_CHECK_DCB,
};

struct dp_check_in {
	const struct rules *r;
	json_t *doc;
	const char *rules_file;
	int sw;
	char *const *ifnames; /* by port index */
	int path;
	bool strict; /* dcb: off-ELP pairs kept lossless are problems */
};

int dp_check(const struct dp_check_in *in, json_t **report);
const char *dp_check_path_name(int path);

#endif /* __TAGGER_DP_CHECK_H */
