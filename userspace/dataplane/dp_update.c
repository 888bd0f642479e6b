// SPDX-License-Identifier: GPL-2.0
/*
 * tagger switch update: check the union of the attached and the new rules,
 * then build the new table and swap it in; see dp_switch.h and dp_union.h.
 */
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>

#include "dataplane/dp_anchor.h"
#include "dataplane/dp_flower.h"
#include "dataplane/dp_inplace.h"
#include "dataplane/dp_pin.h"
#include "dataplane/dp_pin_path.h"
#include "dataplane/dp_record.h"
#include "dataplane/dp_state.h"
#include "dataplane/dp_report.h"
#include "dataplane/dp_switch.h"
#include "dataplane/dp_switch_int.h"
#include "dataplane/dp_table.h"
#include "dataplane/dp_union.h"
#include "lib/log.h"
#include "lib/util.h"
#include "model/rules_blob.h"

/* Links for the union check: --topo, else the new file's, else the old's. */
static int union_links(const struct dp_opts *o, json_t *doc, json_t *old_doc,
		       struct dp_links *l)
{
	struct topo *t;
	int got;

	if (o->topo_file) {
		t = topo_parse(o->topo_file);
		if (!t)
			return -1;
		dp_links_from_topo(t, l);
		topo_free(t);
		return 0;
	}
	got = dp_links_from_json(doc, o->rules_file, l);
	if (got == 0)
		got = dp_links_from_json(old_doc, "attached rules", l);
	if (got == 0) {
		p_err("%s has no \"links\" for the union check: give --topo FILE "
		      "(or --force to skip the check)",
		      o->rules_file);
		return -1;
	}
	return got < 0 ? -1 : 0;
}

static bool same_ports(const struct rules *r, int sw,
		       const struct dp_port *ports, int n)
{
	int i;

	if (r->sw[sw].nports != n)
		return false;
	for (i = 0; i < n; i++)
		if (strcmp(r->sw[sw].ports[i], ports[i].name))
			return false;
	return true;
}

/*
 * Rules of one topology only: an update whose "links" are another set
 * than the attached rules' would mix two topologies' links in the union
 * check (matching port names are no proof). Without links on one side
 * it cannot tell: a warning, and --topo (if given) decides the links.
 */
static bool same_topology(const struct dp_opts *o, json_t *doc, json_t *old_doc)
{
	int same = dp_links_same(doc, old_doc);

	if (same < 0 && !o->topo_file)
		pr_warn("%s or the attached rules have no \"links\": cannot check that "
			"both are rules of one topology\n",
			o->rules_file);
	if (same != 0)
		return true;
	if (o->force) {
		pr_warn("%s: rules of another topology (other \"links\" than the "
			"attached rules): updating anyway (--force)\n",
			o->rules_file);
		return true;
	}
	p_err("%s: rules of another topology: their \"links\" differ from the "
	      "attached rules' (detach and attach to change topology, or "
	      "--force)",
	      o->rules_file);
	return false;
}

/*
 * The delta check where it gives the full check's verdict: the attached
 * rules were found acyclic over these very links (their record says
 * "union_acyclic", and both have the same "links", no --topo); else, or
 * if the change is not small, the full check. *delta: which one answered.
 */
static int check(const struct dp_opts *o, json_t *state, json_t *doc,
		 const struct rules *old, const struct rules *new,
		 const struct dp_links *l, struct dp_union_result *res,
		 bool *delta)
{
	int ok = -1;

	if (!o->topo_file &&
	    json_is_true(json_object_get(state, "union_acyclic")) &&
	    dp_links_same(doc, dp_state_links_doc(state)) == 1)
		ok = dp_union_check_delta(old, new, l, res);
	*delta = ok >= 0;
	return ok >= 0 ? ok : dp_union_check(old, new, l, res);
}

/*
 * 1 if the update may go ahead; 0 refused (reported); -EXIT_USAGE bad
 * input, -EXIT_RUNTIME the attached rules cannot be read. *acyclic: the
 * new rules alone are known acyclic over their own links (the next
 * update may check only its change). u->cycle, if cyclic, is the
 * caller's to json_decref.
 */
static int union_gate(const struct dp_opts *o, const struct dp_job *j,
		      struct dp_union_report *u, bool *acyclic)
{
	json_t *old_doc = dp_state_links_doc(j->state);
	struct dp_union_result res;
	struct rules *old;
	struct dp_links l;
	bool delta;
	int ok;

	*acyclic = false;
	if (o->force && !o->topo_file && !json_object_get(j->doc, "links") &&
	    !json_object_get(old_doc, "links"))
		return 1;
	if (union_links(o, j->doc, old_doc, &l))
		return -EXIT_USAGE;
	old = dp_state_rules(j->dir, j->state);
	dp_phase("union: links, the attached rules");
	if (!old) {
		dp_links_free(&l);
		if (!o->force) {
			p_err("%s: the attached rules cannot be read (%s): "
			      "--force to update without the union check",
			      j->dir, strerror(errno));
			return -EXIT_RUNTIME;
		}
		pr_warn("%s: the attached rules cannot be read (%s): updating "
			"without the union check (--force)\n",
			j->dir, strerror(errno));
		return 1;
	}
	ok = check(o, j->state, j->doc, old, j->r, &l, &res, &delta);
	rules_free(old);
	dp_phase("union: the check");
	/* The union acyclic over the document's own links: so is the new set. */
	*acyclic = ok && !o->topo_file && json_object_get(j->doc, "links");
	*u = (struct dp_union_report){
		.checked = true,
		.acyclic = ok,
		.incremental = delta,
		.buffers = res.buffers,
		.dependencies = res.deps,
		.cycle = ok ? NULL : dp_union_cycle_json(&res),
	};
	dp_union_free(&res);
	dp_links_free(&l);
	return ok || o->force;
}

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
static int swap_in(const char *dir, json_t *next_state, const struct rules *r,
		   int outer, int genfd, int tfd, int64_t *gen)
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
	err = dp_state_save_rules(dir, DP_STATE_NEXT, next_state, r);
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
static int swap_in_place(const char *dir, json_t *next_state,
			 const struct rules *r, int outer, int genfd,
			 const struct dp_table *tab, int64_t *gen)
{
	int64_t next = dp_table_next(genfd);
	size_t written, len;
	void *blob;
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
	blob = rules_to_blob(r, &len);
	err = dp_record_rewrite_fd(sfd, next_state, blob, len);
	free(blob);
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
 * The rules may replace the attached ones: the same ports, the same
 * topology, a union that is deadlock-free (or --force). An exit code
 * (EXIT_PROBLEM: the union check refused); u says what it found.
 */
static int update_check(const struct dp_opts *o, const struct dp_job *j,
			struct dp_update_report *u, bool *acyclic)
{
	struct dp_port *ports;
	int n, gate;
	bool same;

	if (!j->state) {
		p_err("switch %s is not attached (%s)", o->name, j->dir);
		return EXIT_USAGE;
	}
	ports = dp_state_ports(j->state, &n);
	same = same_ports(j->r, j->sw, ports, n);
	dp_free_ports(ports, n);
	if (!same) {
		p_err("%s: switch %s has other ports than the attached rules: "
		      "detach and attach again",
		      o->rules_file, o->name);
		return EXIT_USAGE;
	}
	if (!same_topology(o, j->doc, dp_state_links_doc(j->state)))
		return EXIT_USAGE;
	gate = union_gate(o, j, &u->union_, acyclic);
	u->gated = gate >= 0;
	if (gate < 0)
		return -gate;
	return gate ? EXIT_OK : EXIT_PROBLEM;
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

	ports = dp_state_ports(j->state, &n);
	dp_table_build(j->r, j->sw, ports, &tab);
	dp_free_ports(ports, n);
	dp_phase("build the table");
	json_object_set_new(j->state, "union_acyclic", json_boolean(acyclic));
	dp_switch_record_rules(j->state, o, j->doc, &tab);
	err = in_place ? swap_in_place(j->dir, j->state, j->r, outer, genfd,
				       &tab, gen) :
			 1;
	u->in_place = !err;
	if (err == 1) {
		tfd = dp_table_create(&tab);
		dp_phase("create and write the table");
		err = tfd < 0 ? tfd :
				swap_in(j->dir, j->state, j->r, outer, genfd,
					tfd, gen);
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

int dp_switch_update(const struct dp_opts *o, struct dp_report *rep)
{
	struct dp_update_report *u = &rep->update;
	int outer = -1, genfd = -1, ret;
	double t0 = now_seconds(), t1;
	int64_t gen = -1;
	struct dp_job j;
	bool acyclic;

	ret = dp_switch_open(o, &j);
	if (!ret)
		ret = update_check(o, &j, u, &acyclic);
	if (ret)
		goto out;
	/* From here on what fails is the kernel's or the system's doing. */
	t1 = now_seconds();
	if (dp_record_flower(j.state)) {
		ret = dp_flower_update(o, &j, acyclic, u, &gen);
		gen = -1; /* no in-place marking: flower has no idle table */
		goto timed;
	}
	outer = dp_pin_open(j.dir, tagger_str(TAGGER_RULES_OUTER));
	genfd = dp_pin_open(j.dir, tagger_str(TAGGER_GEN));
	dp_phase("open the pinned maps");
	if (outer < 0 || genfd < 0) {
		p_err("%s: the pinned maps are gone (%s): detach and attach again",
		      j.dir, strerror(-(outer < 0 ? outer : genfd)));
		ret = EXIT_RUNTIME;
		goto out;
	}
	ret = update_apply(o, &j, outer, genfd, acyclic, u, &gen);
timed:
	u->swap_seconds = now_seconds() - t1;
	u->seconds = now_seconds() - t0;
out:
	/* A refused update reports what the union check found, too. */
	if (ret == EXIT_OK || ret == EXIT_PROBLEM)
		rep->json = dp_update_json(o, u);
	/* cycle: rep->json's from here on */
	json_decref((json_t *)u->union_.cycle);
	if (outer >= 0)
		close(outer);
	/*
	 * The next update may go in place once this flip is quiescent. Last,
	 * with the big buffers freed: the child copies less. The child keeps
	 * the lock until it is done.
	 */
	json_decref(j.doc);
	json_decref(j.state);
	rules_free(j.r);
	j.doc = j.state = NULL;
	j.r = NULL;
	if (gen >= 0) {
		dp_inplace_quiesce(j.dir, genfd, gen);
		dp_phase("free, start the marking child");
	}
	dp_switch_close(&j);
	if (genfd >= 0)
		close(genfd);
	return ret;
}
