/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the files of tagger switch (dp_switch.c, dp_update.c, dp_show.c)
 share; the command line sees dp_switch.h.
 *
 * API:
 *   struct dp_job, and what data paths use of it: dp_job.h
 *   dp_switch_open(&opts, &job)          the rules file, its switch, the
 *                                        switch's dir, the lock and its
 *                                        settled record (dp_settle.h); an
 *                                        exit code after p_err
 *   dp_switch_lock(&opts, &job)          the same without rules (detach)
 *   dp_switch_close(&job)                unlock, free
 *   dp_switch_teardown(dir, state, node)   detach what a record names,
 *                                        restore the sysctl, remove dir;
 *                                        struct dp_node's teardown
 */
#ifndef __TAGGER_DP_SWITCH_INT_H
#define __TAGGER_DP_SWITCH_INT_H

#include <limits.h>
#include <stdbool.h>
#include <jansson.h>

#include "dataplane/dp_job.h"

struct dp_port;
struct dp_table;
struct dp_node;

int dp_switch_open(const struct dp_opts *o, struct dp_job *job);
int dp_switch_lock(const struct dp_opts *o, struct dp_job *job);
void dp_switch_close(struct dp_job *job);
int dp_switch_teardown(const char *dir, json_t *state,
		       const struct dp_node *node);
#endif /* __TAGGER_DP_SWITCH_INT_H */
