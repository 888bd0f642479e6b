/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A switch's data path: where its rules run, behind one interface, so
 * that what every data path needs is written once. tagger switch's
 * commands (dp_switch.c, dp_update.c, dp_show.c) do the common part: the
 * rules file, the lock, the record and its transaction (dp_state.h), the
 * namespace check, the anchor that finds a node without pins
 * (dp_anchor.h), the ports, update's union check, show's document. A data
 * path does only what differs: put the rules where packets meet them,
 * swap them, count, take them away.
 *
 * The record names its data path ("datapath", dp_record.h; none: bpf),
 * written in the "attaching" record already, so every later command,
 * and the teardown of a killed attach, takes the right one.
 *
 * Implementations: dp_bpf.h (the tc programs of bpf/tagger_port.bpf.c),
 * dp_flower.h (tc flower filters, offloadable).
 *
 * API:
 *   struct dp_path                  one data path's operations:
 *     attach(o, j, ports, n, rep)   after the "attaching" record: put the
 *                                   rules on every port, write the
 *                                   "attached" record (dp_switch_record_
 *                                   rules, dp_state_save_rules); 0 or an
 *                                   exit code after p_err
 *     update(o, j, acyclic, u, &gen)   after update's checks: the record
 *                                   of the new rules as "state_new", the
 *                                   swap, the commit (dp_state.h); 0 or
 *                                   an exit code after p_err; *gen the
 *                                   generation now live, -1 if none went
 *     after_update(dir, gen)        or NULL: run once the update's big
 *                                   buffers are freed, under its lock
 *     teardown(dir, state)          take away what a record names (an
 *                                   "attaching" one's too); 0 or -errno
 *                                   after p_err
 *     repair(dir, state, interrupted)   or NULL: make the ports run
 *                                   what the settled record says, at the
 *                                   start of every command that locks;
 *                                   interrupted: an update's record was
 *                                   just committed or dropped
 *                                   (dp_settle.h); else the data path
 *                                   knows itself whether it must act
 *     show(dir, state, j)           fill show's document j: "ports"
 *                                   (dp_show_port_json's shape) and what
 *                                   the data path adds; 0 or an exit code
 * The list of them is dp_paths.h.
 */
#ifndef __TAGGER_DP_PATH_H
#define __TAGGER_DP_PATH_H

#include <stdbool.h>
#include <stdint.h>
#include <jansson.h>

#include "dataplane/dp_opts.h"

struct dp_job;
struct dp_port;

struct dp_path {
	const char *name;
	int (*attach)(const struct dp_opts *o, struct dp_job *j,
		      const struct dp_port *ports, int n,
		      struct dp_attach_report *rep);
	int (*update)(const struct dp_opts *o, struct dp_job *j, bool acyclic,
		      struct dp_update_report *u, int64_t *gen);
	void (*after_update)(const char *dir, int64_t gen);
	int (*teardown)(const char *dir, json_t *state);
	int (*repair)(const char *dir, json_t *state, bool interrupted);
	int (*show)(const char *dir, json_t *state, json_t *j);
};

#endif /* __TAGGER_DP_PATH_H */
