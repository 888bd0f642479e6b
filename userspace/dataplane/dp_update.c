// SPDX-License-Identifier: GPL-2.0
/*
 * tagger switch update: check the union of the attached and the new rules,
 * then build the new table and swap it in; see dp_switch.h and dp_union.h.
 */
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dataplane/dp_packed.h"
#include "dataplane/dp_paths.h"
#include "dataplane/dp_record.h"
#include "dataplane/dp_state.h"
#include "dataplane/dp_report.h"
#include "dataplane/dp_switch.h"
#include "dataplane/dp_switch_int.h"
#include "dataplane/dp_table.h"
#include "dataplane/dp_union.h"
#include "lib/log.h"
#include "lib/util.h"

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
static int union_gate(const struct dp_opts *o, struct dp_job *j,
		      struct dp_union_report *u, bool *acyclic)
{
	json_t *old_doc = dp_state_links_doc(j->state);
	struct dp_union_result res;
	struct rules *old;
	struct dp_links l;
	const void *blob;
	size_t len;
	bool delta;
	int ok, near;

	*acyclic = false;
	if (o->force && !o->topo_file && !json_object_get(j->doc, "links") &&
	    !json_object_get(old_doc, "links"))
		return 1;
	if (union_links(o, j->doc, old_doc, &l))
		return -EXIT_USAGE;
	blob = dp_job_blob(j, &len);
	old = dp_state_rules_near(j->dir, j->state, j->r, blob, len, &near);
	if (old && near >= 0)
		pr_debug("the attached rules: the new ones with %d rules "
			 "changed back\n",
			 near);
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

/*
 * The rules may replace the attached ones: the same ports, the same
 * topology, a union that is deadlock-free (or --force). An exit code
 * (EXIT_PROBLEM: the union check refused); u says what it found.
 */
static int update_check(const struct dp_opts *o, struct dp_job *j,
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

int dp_switch_update(const struct dp_opts *o, struct dp_report *rep)
{
	struct dp_update_report *u = &rep->update;
	const struct dp_path *path = NULL;
	double t0 = now_seconds(), t1;
	int64_t gen = -1;
	struct dp_job j;
	bool acyclic;
	int ret;

	ret = dp_switch_open(o, &j);
	if (!ret)
		ret = update_check(o, &j, u, &acyclic);
	if (!ret) {
		path = dp_path_of(j.state);
		if (!path) {
			p_err("%s: its record names a data path this tagger does "
			      "not know: update it with the tagger that attached it",
			      j.dir);
			ret = EXIT_USAGE;
		}
	}
	if (ret)
		goto out;
	/* From here on what fails is the kernel's or the system's doing. */
	t1 = now_seconds();
	ret = path->update(o, &j, acyclic, u, &gen);
	u->swap_seconds = now_seconds() - t1;
	u->seconds = now_seconds() - t0;
out:
	/* A refused update reports what the union check found, too. */
	if (ret == EXIT_OK || ret == EXIT_PROBLEM)
		rep->json = dp_update_json(o, u);
	/* cycle: rep->json's from here on */
	json_decref((json_t *)u->union_.cycle);
	/* Last, with the big buffers freed (a child the data path starts
	 * copies less); still under the lock, which dp_switch_close drops. */
	json_decref(j.doc);
	json_decref(j.state);
	rules_free(j.r);
	free(j.mem);
	free(j.blob_mem);
	j.doc = j.state = NULL;
	j.r = NULL;
	j.blob = j.blob_mem = j.mem = NULL;
	if (gen >= 0 && path->after_update)
		path->after_update(j.dir, gen); /* it keeps the digest too */
	else if (ret == EXIT_OK && path && dp_packed_mark(j.dir))
		pr_debug("%s: no digest kept in the record\n", j.dir);
	dp_switch_close(&j);
	return ret;
}
