/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A node's record under the loader's lock, and taking down what a record
 * names: one path for every kind of node (a switch, a host port). A loader
 * killed at any point leaves a record the next command settles by
 * (dp_state.h): an "attaching" record is rolled back, a "detaching" one
 * completed, a directory without any record (killed before its first
 * write) removed, each by the node's own teardown.
 *
 * API:
 *   struct dp_node                 a node: its kind and name (and a host's
 *                                  interface), and its teardown
 *   dp_node_settle(dir, node, &state)   under the lock: the node's record
 *                                  at dir, after repairing what a killed
 *                                  loader left. 0: attached, its record in
 *                                  *state (to json_decref); 1: not
 *                                  attached, but what an interrupted
 *                                  command left was cleaned up; -ENOENT:
 *                                  not attached; -EXDEV: attached in
 *                                  another network namespace; any other
 *                                  -errno: what the kernel holds could not
 *                                  be read. The last two after p_err.
 *   dp_node_mode(state)            the mode a record was attached in; auto
 *                                  (either) if it names none it knows
 *   dp_settle_exit(err)            the exit code of a dp_node_settle that
 *                                  failed: EXIT_USAGE for -EXDEV, else
 *                                  EXIT_RUNTIME
 *   dp_hook_gone(err)              true if a detach failed with err because
 *                                  nothing of ours is on the hook: -ENOENT,
 *                                  -ENODEV (no interface), -EINVAL (no
 *                                  clsact qdisc)
 *   dp_hook_teardown(dir, ifname, egress, link_pin, handle, mode)
 *                                  detach whatever of ours is on one hook
 *                                  of ifname, attached in mode (auto: a
 *                                  killed attach may have done either):
 *                                  the tcx link pinned as dir/link_pin
 *                                  (legacy: link pins, dp_state.h),
 *                                  our program (dir/prog_ingress or
 *                                  prog_egress) on tcx, our tc filter at
 *                                  handle ([handle, prio] as recorded;
 *                                  NULL: the known DP_TC_HANDLE). Nothing
 *                                  there is no error; 0 or -errno after
 *                                  p_err
 */
#ifndef __TAGGER_DP_SETTLE_H
#define __TAGGER_DP_SETTLE_H

#include <errno.h>
#include <stdbool.h>
#include <jansson.h>

#include "dataplane/dp_attach.h"

struct dp_node {
	const char *kind; /* "switch" or "host", as its programs say */
	const char *name;
	const char *ifname; /* a host's interface, else NULL */
	/*
	 * Detach what state names (NULL: no record was written) and remove
	 * dir, the record last; every step may have been done already (a
	 * teardown killed half way runs again). 0 or -errno after p_err.
	 */
	int (*teardown)(const char *dir, json_t *state,
			const struct dp_node *node);
	/*
	 * Or NULL. Once the record is settled and attached: make what the
	 * kernel runs match the record where the record alone does not
	 * decide it (dp_path.h); interrupted: an update's pending record
	 * was committed or dropped just now. 0 or -errno after p_err.
	 */
	int (*repair)(const char *dir, json_t *state, bool interrupted);
};

int dp_node_settle(const char *dir, const struct dp_node *node, json_t **state);
int dp_settle_exit(int err);
enum dp_mode dp_node_mode(json_t *state);

static inline bool dp_hook_gone(int err)
{
	return err == -ENOENT || err == -ENODEV || err == -EINVAL;
}

int dp_hook_teardown(const char *dir, const char *ifname, bool egress,
		     const char *link_pin, json_t *handle, enum dp_mode mode);

#endif /* __TAGGER_DP_SETTLE_H */
