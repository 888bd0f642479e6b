// SPDX-License-Identifier: GPL-2.0
/*
 * tagger switch update: check the union of the attached and the new rules,
 * then build the new table and swap it in; see dp_switch.h and dp_union.h.
 */
#include <errno.h>
#include <limits.h>
#include <malloc.h>
#include <stdint.h>
#include <sys/mman.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>

#include "dataplane/dp_anchor.h"
#include "dataplane/dp_inplace.h"
#include "dataplane/dp_pin.h"
#include "dataplane/dp_pin_path.h"
#include "dataplane/dp_record.h"
#include "dataplane/dp_state.h"
#include "dataplane/dp_switch.h"
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
 * update may check only its change).
 */
static int union_gate(const struct dp_opts *o, const char *dir, json_t *state,
		      const struct rules *new, json_t *doc, json_t *report,
		      bool *acyclic)
{
	json_t *old_doc = dp_state_links_doc(state);
	struct dp_union_result res;
	struct rules *old;
	struct dp_links l;
	bool delta;
	int ok;

	*acyclic = false;
	if (o->force && !o->topo_file && !json_object_get(doc, "links") &&
	    !json_object_get(old_doc, "links")) {
		json_object_set_new(report, "union",
				    json_pack("{s:b}", "checked", 0));
		return 1;
	}
	if (union_links(o, doc, old_doc, &l))
		return -EXIT_USAGE;
	old = dp_state_rules(dir, state);
	dp_phase("union: links, the attached rules");
	if (!old) {
		dp_links_free(&l);
		if (!o->force) {
			p_err("%s: the attached rules cannot be read (%s): "
			      "--force to update without the union check",
			      dir, strerror(errno));
			return -EXIT_RUNTIME;
		}
		pr_warn("%s: the attached rules cannot be read (%s): updating "
			"without the union check (--force)\n",
			dir, strerror(errno));
		json_object_set_new(report, "union",
				    json_pack("{s:b}", "checked", 0));
		return 1;
	}
	ok = check(o, state, doc, old, new, &l, &res, &delta);
	rules_free(old);
	dp_phase("union: the check");
	/* The union acyclic over the document's own links: so is the new set. */
	*acyclic = ok && !o->topo_file && json_object_get(doc, "links");
	json_object_set_new(
		report, "union",
		json_pack("{s:b,s:b,s:b,s:I,s:I,s:o}", "checked", 1, "acyclic",
			  ok, "incremental", delta, "buffers",
			  (json_int_t)res.buffers, "dependencies",
			  (json_int_t)res.deps, "cycle",
			  ok ? json_null() : dp_union_cycle_json(&res)));
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
	err = dp_table_go(genfd, job.next);
	dp_phase("swap (generation)");
	if (err)
		return err;
	*gen = job.next;
	err = dp_state_commit(dir);
	dp_phase("commit the state");
	if (err) /* live anyway: the next command commits it */
		pr_warn("generation %lld is live; committing its state: %s\n",
			(long long)job.next, strerror(-err));
	return 0;
}

/*
 * The in-place path (dp_inplace.h): the idle table gets the entries that
 * differ, the anchor's idle record map the new record, both without a
 * write into an array of maps; then the same flip and commit as swap_in.
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
	err = dp_table_go(genfd, next);
	dp_phase("swap (generation)");
	if (err)
		return err;
	*gen = next;
	err = dp_state_commit(dir);
	dp_phase("commit the state");
	if (err)
		pr_warn("generation %lld is live; committing its state: %s\n",
			(long long)next, strerror(-err));
	return 0;
}

/* The report's table fields, as attach's. */
static void report_table(json_t *report, int64_t gen,
			 const struct dp_table *tab)
{
	json_object_set_new(report, "updated", json_true());
	json_object_set_new(report, "generation", json_integer(gen));
	json_object_set_new(report, "entries", json_integer(tab->n - 1));
	json_object_set_new(report, "classify", json_integer(tab->nclassify));
	json_object_set_new(report, "rewrite", json_integer(tab->nrewrite));
}

/*
 * Grow the heap by len at once and ask for transparent huge pages there
 * (where THP is "madvise"): a thousand 4 KiB page faults become a few.
 */
static void heap_huge(size_t len)
{
	const uintptr_t huge = 2 << 20;
	char *p = malloc(len);
	uintptr_t a, z;

	if (!p)
		return;
	a = ((uintptr_t)p + huge - 1) & ~(huge - 1);
	z = ((uintptr_t)p + len) & ~(huge - 1);
	if (z > a)
		madvise((void *)a, z - a, MADV_HUGEPAGE);
	free(p);
}

int dp_switch_update(const struct dp_opts *o, struct dp_report *rep)
{
	int sw, n = 0, lock = -1, outer = -1, genfd = -1, tfd = -1,
		ret = EXIT_USAGE, err, gate;
	struct rules *r = NULL;
	json_t *doc = NULL, *state = NULL, *report;
	struct dp_port *ports = NULL;
	struct dp_table tab = { 0 };
	char dir[PATH_MAX], abs[PATH_MAX];
	double t0 = now_seconds(), t1;
	int64_t gen = -1;
	bool acyclic, in_place, leftover;

	/*
	 * Its buffers (the rules twice, the table, the record: 0.5 MB each at
	 * 100,000 rules) come from the heap and go back to it, so later ones
	 * reuse pages already faulted in instead of mapping fresh ones.
	 */
	mallopt(M_MMAP_THRESHOLD, 64 << 20);
	mallopt(M_TRIM_THRESHOLD, 128 << 20);
	heap_huge(8 << 20);
	report = json_pack("{s:s}", "switch", o->name);
	sw = dp_switch_rules(o, &r, &doc);
	if (sw < 0 || dp_path(dir, o->name, NULL))
		goto out;
	ret = dp_switch_locked(dir, o->name, &lock, &state, &leftover);
	if (ret)
		goto out;
	ret = EXIT_USAGE;
	if (!state) {
		p_err("switch %s is not attached (%s)", o->name, dir);
		goto out;
	}
	ports = dp_state_ports(state, &n);
	if (!same_ports(r, sw, ports, n)) {
		p_err("%s: switch %s has other ports than the attached rules: "
		      "detach and attach again",
		      o->rules_file, o->name);
		goto out;
	}
	if (!same_topology(o, doc, dp_state_links_doc(state)))
		goto out;
	gate = union_gate(o, dir, state, r, doc, report, &acyclic);
	if (gate <= 0) {
		ret = gate < 0 ? -gate : EXIT_PROBLEM;
		json_object_set_new(report, "updated", json_false());
		goto out;
	}
	/* From here on what fails is the kernel's or the system's doing. */
	ret = EXIT_RUNTIME;
	t1 = now_seconds();
	outer = dp_pin_open(dir, tagger_str(TAGGER_RULES_OUTER));
	genfd = dp_pin_open(dir, tagger_str(TAGGER_GEN));
	if (outer < 0 || genfd < 0) {
		p_err("%s: the pinned maps are gone (%s): detach and attach again",
		      dir, strerror(-(outer < 0 ? outer : genfd)));
		goto out;
	}
	dp_phase("open the pinned maps");
	in_place = dp_inplace_ready(dir, state, genfd);
	dp_table_build(r, sw, ports, &tab);
	dp_phase("build the table");
	dp_state_set_rules(state, doc);
	json_object_set_new(state, "union_acyclic", json_boolean(acyclic));
	dp_set_counts(state, &tab);
	json_object_set_new(state, "rules_file",
			    json_string(realpath(o->rules_file, abs) ?
						abs :
						o->rules_file));
	err = in_place ?
		      swap_in_place(dir, state, r, outer, genfd, &tab, &gen) :
		      1;
	in_place = !err;
	if (err == 1) {
		tfd = dp_table_create(&tab);
		dp_phase("create and write the table");
		err = tfd < 0 ? tfd :
				swap_in(dir, state, r, outer, genfd, tfd, &gen);
	}

	if (err == -EFBIG) {
		ret = dp_state_save_err(o, dir, err);
		goto out;
	}
	if (err) {
		p_err("%s %zu rule table entries: %s",
		      gen < 0 ? "loading" : "swapping in", tab.n,
		      strerror(-err));
		goto out;
	}
	report_table(report, gen, &tab);
	json_object_set_new(report, "in_place", json_boolean(in_place));
	json_object_set_new(report, "swap_seconds",
			    json_real(now_seconds() - t1));
	json_object_set_new(report, "seconds", json_real(now_seconds() - t0));
	ret = EXIT_OK;
out:
	/* A refused update reports what the union check found, too. */
	if (ret == EXIT_OK || ret == EXIT_PROBLEM)
		rep->json = json_incref(report);
	json_decref(report);
	if (outer >= 0)
		close(outer);
	if (tfd >= 0)
		close(tfd);
	dp_table_free(&tab);
	dp_free_ports(ports, n);
	rules_free(r);
	json_decref(doc);
	json_decref(state);
	/*
	 * The next update may go in place once this flip is quiescent. Last,
	 * with the big buffers freed: the child copies less.
	 */
	if (gen >= 0) {
		dp_inplace_quiesce(dir, genfd, gen);
		dp_phase("free, start the marking child");
	}
	dp_unlock(lock); /* the child keeps it until it is done */
	if (genfd >= 0)
		close(genfd);
	return ret;
}
