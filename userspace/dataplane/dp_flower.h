/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The flower data path of tagger switch: a switch's rules as tc flower
 * filters (flower_tc.h's layout, sent over rtnetlink by flower_nl.h)
 * instead of the eBPF programs, for switches whose ASIC forwards in
 * hardware, where a tc BPF hook sees only what the CPU forwards. All
 * around the filters is the eBPF data plane's, not a copy: the rules
 * and the lock (dp_switch_int.h), the record and its transaction
 * (dp_state.h), the anchor that finds a node again without pins
 * (dp_anchor.h), the namespace check, update's union check, show's
 * document (dp_path.h).
 *
 * The kernel keeps the record with two holder programs
 * (bpf/tagger_hold.bpf.c) bound to the anchor and attached to the first
 * port's chain 0 behind the entry filter (DP_HOLD_PRIO); the generation
 * map they read names the generation the record's chains are of. An
 * update, after its checks:
 *   1. the new record as "state_new", generation next
 *   2. generation next's chains on every port (tc chains of parity
 *      next % 2, flower_tc.h; an interrupted update's leftovers there
 *      deleted first)
 *   3. the holders' flux mark is set (dp_hold.h), then the generation
 *      map moves to next: the commit point
 *   4. every port's two entry filters go to the new chains (a packet
 *      meets the old chains or the new, never half of either)
 *   5. the old chains deleted, the mark cleared, the record committed
 * Killed before 3, the next command drops the record (dp_state_settle)
 * and repairs; killed after it, the record is the new one (the anchor's
 * live slot follows the generation, even with no pin left) and the mark
 * says the ports may be half moved, so it repairs: the repair points
 * every entry filter at the record's generation and deletes the other
 * generation's chains, which completes 4 and 5 or undoes 2. show reads
 * each port's entry filters, so between a kill and the repair it names,
 * per port, what the kernel runs.
 *
 * API:
 *   dp_flower_path           the data path, "flower" (struct dp_path)
 *   dp_flower_attach(o, j, ports, n, rep)   after the "attaching" record
 *                            (dp_switch.c): the holders and the anchor,
 *                            the filters on every port, the sysctl, the
 *                            "attached" record; 0 or an exit code after
 *                            p_err
 *   dp_flower_update(o, j, acyclic, u, &gen)   steps 1-5, after update's
 *                            checks (dp_update.c); 0 or an exit code after
 *                            p_err; *gen the generation now live, -1 none
 *   dp_flower_teardown(dir, state)   remove the filters and the holders a
 *                            flower record names (an "attaching" one's
 *                            too, at their known places); 0 or -errno
 *                            after p_err
 *   dp_flower_repair(dir, state, interrupted)   the repair above, when
 *                            a pending record was settled (interrupted)
 *                            or the holders' flux mark says an update was
 *                            killed moving the ports (dp_hold.h); 0 or
 *                            -errno
 *   dp_flower_show(dir, state, j)   fill show's document j (made from
 *                            the record) with the ports as the kernel's
 *                            filters count them; 0 or an exit code after
 *                            p_err (dp_flower_show.c)
 */
#ifndef __TAGGER_DP_FLOWER_H
#define __TAGGER_DP_FLOWER_H

#include <stdbool.h>
#include <stdint.h>
#include <jansson.h>

#include "dataplane/dp_path.h"

extern const struct dp_path dp_flower_path;

int dp_flower_attach(const struct dp_opts *o, struct dp_job *j,
		     const struct dp_port *ports, int n,
		     struct dp_attach_report *rep);
int dp_flower_update(const struct dp_opts *o, struct dp_job *j, bool acyclic,
		     struct dp_update_report *u, int64_t *gen);
int dp_flower_teardown(const char *dir, json_t *state);
int dp_flower_repair(const char *dir, json_t *state, bool interrupted);
int dp_flower_show(const char *dir, json_t *state, json_t *j);

#endif /* __TAGGER_DP_FLOWER_H */
