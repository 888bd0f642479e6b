/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the files of tagger switch (dp_switch.c, dp_update.c, dp_show.c)
 share; the command line sees dp_switch.h.
 *
 * API:
 *   struct dp_job                        what attach and update hold
 *   dp_switch_open(&opts, &job)          the rules file, its switch, the
 *                                        switch's dir, the lock and its
 *                                        settled record (dp_settle.h); an
 *                                        exit code after p_err
 *   dp_switch_lock(&opts, &job)          the same without rules (detach)
 *   dp_switch_close(&job)                unlock, free
 *   dp_switch_record_rules(state, &opts, doc, &tab)   what a record keeps
 *                                        of the rules: their links, the
 *                                        rules file and the table's counts
 *   dp_state_ports(state, &n)            the ports a record names
 *   dp_free_ports(ports, n)
 *   dp_sysctl_read(), dp_sysctl_prio(&old)   net.ipv4.ip_forward_update_
 *                                        priority; prio sets it to 0: 1 if
 *                                        changed (old set)
 *   dp_sysctl_restore(old)
 *   dp_state_save_err(&opts, dir, err)   a failed dp_state_save: p_err,
 *                                        its exit code (over the cap: 2)
 *   dp_phase(what)                       -v: the time since the last
 *                                        phase, named what (NULL: start)
 *   dp_switch_teardown(dir, state, node)   detach what a record names,
 *                                        restore the sysctl, remove dir;
 *                                        struct dp_node's teardown
 */
#ifndef __TAGGER_DP_SWITCH_INT_H
#define __TAGGER_DP_SWITCH_INT_H

#include <limits.h>
#include <stdbool.h>
#include <jansson.h>

#include "dataplane/dp_opts.h"

struct dp_job {
	struct rules *r;
	json_t *doc; /* the rules document */
	int sw; /* the switch's index in r */
	char dir[PATH_MAX];
	int lock;
	json_t *state; /* the attached record; NULL: not attached */
	bool leftover; /* not attached: an interrupted command's was removed */
};

struct dp_port;
struct dp_table;
struct dp_node;

int dp_switch_open(const struct dp_opts *o, struct dp_job *job);
int dp_switch_lock(const struct dp_opts *o, struct dp_job *job);
void dp_switch_close(struct dp_job *job);
void dp_switch_record_rules(json_t *state, const struct dp_opts *o, json_t *doc,
			    const struct dp_table *tab);
struct dp_port *dp_state_ports(json_t *state, int *n);
void dp_free_ports(struct dp_port *ports, int n);
int dp_sysctl_read(void);
int dp_sysctl_prio(int *old);
void dp_sysctl_restore(int old);
int dp_state_save_err(const struct dp_opts *o, const char *dir, int err);
void dp_phase(const char *what);
int dp_switch_teardown(const char *dir, json_t *state,
		       const struct dp_node *node);
#endif /* __TAGGER_DP_SWITCH_INT_H */
