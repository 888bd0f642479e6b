// SPDX-License-Identifier: GPL-2.0
/*
 * The eBPF data plane's update: build the new table and swap it in, in
 * place where the idle table is quiescent, else as a new table; see
 * dp_bpf.h and dp_state.h.
 */
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dataplane/dp_anchor.h"
#include "dataplane/dp_bpf.h"
#include "dataplane/dp_inplace.h"
#include "dataplane/dp_pin_path.h"
#include "dataplane/dp_record.h"
#include "dataplane/dp_report.h"
#include "dataplane/dp_state.h"
#include "dataplane/dp_job.h"
#include "dataplane/dp_table.h"
#include "lib/log.h"
#include "model/rules_blob.h"
#include "tagger_maps.h"

struct stage_job {
	int outer, tfd, err;
	int64_t next;
};

static void *stage_run(void *arg)
{
	struct stage_job *j = arg;

	j->err = dp_table_put(j->outer, j->next, j->tfd);
	return NULL;
}

/*
 * The flip both paths end in: generation next goes live, then its record
 * ("state_new") is committed; 0 or -errno (nothing live changed).
 */
static int flip(const char *dir, int genfd, int64_t next, int64_t *gen)
{
	int err = dp_table_go(genfd, next);

	dp_phase("swap (generation)");
	if (err)
		return err;
	*gen = next;
	err = dp_state_commit(dir);
	dp_phase("commit the state");
	if (err) /* live anyway: the next command commits it */
		pr_warn("generation %lld is live; committing its state: %s\n",
			(long long)next, strerror(-err));
	return 0;
}

/*
 * The new record goes in first (state_new, generation next), then the
 * generation moves, then the record is renamed over the old: a kill at
 * any point leaves what dp_state_settle commits or drops by the kernel's
 * generation. The two map-in-map writes (the table into its idle slot,
 * the record into the anchor) each wait for an RCU grace period in the
 * kernel; neither needs the other, so they wait side by side, in one
 * grace period. Both are done before the generation moves.
 */
static int swap_in(const char *dir, json_t *next_state, const void *blob,
		   size_t len, int outer, int genfd, int tfd, int64_t *gen)
{
	struct stage_job job = { outer, tfd, 0, dp_table_next(genfd) };
	pthread_t th;
	bool threaded;
	int err;

	if (job.next < 0)
		return (int)job.next;
	threaded = !pthread_create(&th, NULL, stage_run, &job);
	if (!threaded)
		stage_run(&job);
	json_object_set_new(next_state, "generation", json_integer(job.next));
	err = dp_state_save_blob(dir, DP_STATE_NEXT, next_state, blob, len);
	if (threaded)
		pthread_join(th, NULL);
	dp_phase("stage the table, save the new state");
	if (err || job.err) {
		if (!err) /* not live: the next command would drop it */
			dp_state_drop(dir);
		return err ?: job.err;
	}
	return flip(dir, genfd, job.next, gen);
}

/*
 * The in-place path (dp_inplace.h): the idle table gets the entries that
 * differ, the anchor's idle record map the new record, both without a
 * write into an array of maps; then the same flip as swap_in.
 * 1 if it failed before the flip (nothing live changed: the caller
 * replaces the table and the idle record instead), 0 done, -errno.
 */
static int swap_in_place(const char *dir, json_t *next_state, const void *blob,
			 size_t len, int outer, int genfd,
			 const struct dp_table *tab, int64_t *gen)
{
	int64_t next = dp_table_next(genfd);
	size_t written;
	int sfd, err;

	if (next < 0)
		return (int)next;
	if (dp_inplace_table(outer, next, tab, &written))
		return 1;
	pr_debug("%zu table entries written in place\n", written);
	dp_phase("write the idle table in place");
	sfd = dp_anchor_idle_fd(dir);
	if (sfd < 0)
		return 1;
	json_object_set_new(next_state, "generation", json_integer(next));
	err = dp_record_rewrite_fd(sfd, next_state, blob, len);
	if (!err)
		err = dp_record_pin_fd(dir, DP_STATE_NEXT, sfd);
	close(sfd);
	dp_phase("write the idle record in place");
	if (err) {
		pr_debug("in place: %s; replacing the table\n", strerror(-err));
		return 1;
	}
	return flip(dir, genfd, next, gen);
}

/*
 * Build the new table, write the new record and swap both in: in place
 * where the idle table is quiescent, else a new table. What fails here is
 * the kernel's or the system's doing (over the record's cap: 2): 0 or an
 * exit code after p_err. *gen: the generation now live, -1 if none went.
 */
static int update_apply(const struct dp_opts *o, struct dp_job *j, int outer,
			int genfd, bool acyclic, struct dp_update_report *u,
			int64_t *gen)
{
	struct dp_table tab = { 0 };
	struct dp_port *ports;
	int n, err, tfd = -1;
	bool in_place = dp_inplace_ready(j->dir, j->state, genfd);
	size_t len;
	const void *blob = dp_job_blob(j, &len);

	ports = dp_state_ports(j->state, &n);
	dp_table_build(j->r, j->sw, ports, &tab);
	dp_free_ports(ports, n);
	dp_phase("build the table");
	json_object_set_new(j->state, "union_acyclic", json_boolean(acyclic));
	dp_switch_record_rules(j->state, o, j->doc, &tab);
	err = in_place ? swap_in_place(j->dir, j->state, blob, len, outer,
				       genfd, &tab, gen) :
			 1;
	u->in_place = !err;
	if (err == 1) {
		tfd = dp_table_create(&tab);
		dp_phase("create and write the table");
		err = tfd < 0 ? tfd :
				swap_in(j->dir, j->state, blob, len, outer,
					genfd, tfd, gen);
	}
	if (tfd >= 0)
		close(tfd);
	if (err == -EFBIG) {
		err = dp_state_save_err(o, j->dir, err);
	} else if (err) {
		p_err("%s %zu rule table entries: %s",
		      *gen < 0 ? "loading" : "swapping in", tab.n,
		      strerror(-err));
		err = EXIT_RUNTIME;
	} else {
		u->updated = true;
		u->generation = *gen;
		u->table = dp_table_counts(&tab);
	}
	dp_table_free(&tab);
	return err;
}

int dp_bpf_update(const struct dp_opts *o, struct dp_job *j, bool acyclic,
		  struct dp_update_report *u, int64_t *gen)
{
	int outer = dp_pin_open(j->dir, tagger_str(TAGGER_RULES_OUTER));
	int genfd = dp_pin_open(j->dir, tagger_str(TAGGER_GEN));
	int ret;

	*gen = -1;
	dp_phase("open the pinned maps");
	if (outer < 0 || genfd < 0) {
		p_err("%s: the pinned maps are gone (%s): detach and attach again",
		      j->dir, strerror(-(outer < 0 ? outer : genfd)));
		ret = EXIT_RUNTIME;
	} else {
		ret = update_apply(o, j, outer, genfd, acyclic, u, gen);
	}
	if (outer >= 0)
		close(outer);
	if (genfd >= 0)
		close(genfd);
	return ret;
}

/* The next update may go in place once this flip is quiescent. */
void dp_bpf_after_update(const char *dir, int64_t gen)
{
	int genfd = dp_pin_open(dir, tagger_str(TAGGER_GEN));

	if (genfd < 0)
		return;
	dp_inplace_quiesce(dir, genfd, gen);
	dp_phase("free, start the marking child");
	close(genfd);
}
