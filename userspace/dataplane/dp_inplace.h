/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The in-place update of a switch: no write into an array of maps, so no
 * RCU grace period on the way (each such write waits for one).
 *
 * The outer table (TAGGER_RULES_OUTER) holds two tables; after the flip
 * to generation g new packets read slot g % 2 and the other slot holds
 * generation g - 1's table. Once an RCU grace period has passed since
 * that flip no program still reads the idle table (tc programs run under
 * rcu_read_lock), so the next update may write the entries that differ
 * straight into it (it is mmapable) and flip again. Likewise the anchor's
 * slot that is not live holds the record that generation g replaced: the
 * next update rewrites that map in place (dp_record_rewrite_fd) instead
 * of writing a new one into the anchor.
 *
 * The grace period is waited for after the update by a child process
 * that keeps the update's lock (the inherited flocks): it makes one write
 * into a throwaway array of maps (the kernel calls synchronize_rcu after
 * it), then, if the generation is still g, marks the live record "idle
 * table of generation g quiescent" (dp_record_quiet_mark). The next update
 * takes the in-place path only if the live record bears the mark of the
 * running generation; else (child killed, an update by a tagger that
 * marks no record: 0.1.0 before 2026-11-25, a record written since) it
 * takes the path that replaces the table through the outer map. The next command waits for the lock, so at most
 * for the rest of that grace period.
 *
 * API:
 *   dp_inplace_ready(dir, state, gen_fd)   true if the live record (the
 *                                 "state" pin, state loaded from it) is of
 *                                 the running generation and bears its
 *                                 mark
 *   dp_inplace_table(outer, next, &tab, &written)   make generation
 *                                 next's slot hold tab exactly, writing
 *                                 only the entries that differ (written:
 *                                 how many); -errno (nothing written) if
 *                                 that slot holds no mmapable table of
 *                                 tab's size
 *   dp_inplace_quiesce(dir, gen_fd, gen)   after the flip to gen: fork
 *                                 the child that marks it (and keeps the
 *                                 rules' digest in the live record while
 *                                 it waits: dp_packed.h); returns at once
 *   dp_grace_period()             wait for one RCU grace period; 0 or
 *                                 -errno
 */
#ifndef __TAGGER_DP_INPLACE_H
#define __TAGGER_DP_INPLACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <jansson.h>

#include "dataplane/dp_table.h"

bool dp_inplace_ready(const char *dir, json_t *state, int gen_fd);
int dp_inplace_table(int outer_fd, int64_t next, const struct dp_table *tab,
		     size_t *written);
void dp_inplace_quiesce(const char *dir, int gen_fd, int64_t gen);
int dp_grace_period(void);

#endif /* __TAGGER_DP_INPLACE_H */
