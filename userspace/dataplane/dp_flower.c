// SPDX-License-Identifier: GPL-2.0
/* The flower data path of tagger switch; see dp_flower.h. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "dataplane/dp_anchor.h"
#include "dataplane/dp_flower.h"
#include "dataplane/dp_flower_fl.h"
#include "dataplane/dp_hold.h"
#include "dataplane/dp_pin.h"
#include "dataplane/dp_pin_path.h"
#include "dataplane/dp_record.h"
#include "dataplane/dp_report.h"
#include "dataplane/dp_settle.h"
#include "dataplane/dp_state.h"
#include "dataplane/dp_job.h"
#include "dataplane/dp_table.h"
#include "dataplane/flower_block.h"
#include "dataplane/flower_nl.h"
#include "lib/log.h"
#include "lib/util.h"
#include "model/flower_share.h"
#include "tagger_maps.h"

/* ---- attach ---- */

/* The record's "table": the rules' counts, and the filters installed. */
static void record_table(json_t *state, const struct dp_opts *o,
			 const struct dp_job *j, const struct dp_port *ports,
			 const struct fl_counts *c)
{
	struct dp_table tab = { 0 };
	json_t *t;

	dp_table_build(j->r, j->sw, ports, &tab);
	dp_switch_record_rules(state, o, j->doc, &tab);
	dp_table_free(&tab);
	t = json_object_get(state, "table");
	json_object_set_new(t, "filters", json_integer(c->filters));
	json_object_set_new(t, "in_hw", json_integer(c->in_hw));
}

/* Any filter on a hook: what a port bound to a block would lose. */
static void any_filter(const struct flower_nl_filter *f, void *arg)
{
	(void)f;
	++*(int *)arg;
}

/*
 * Port p's clsact, made anew bound to its blocks: tagger's filters of an
 * earlier attach and a clsact of tagger's blocks go; the operator's
 * block or filters are in the way, and refused by name.
 */
static int bind_port(struct fl *x, const struct flower_block_use *used,
		     int nused, int p)
{
	uint32_t in, eg;
	int d, err, others = 0;

	fl_at_port(x, p);
	if (flower_block_of(used, nused, x->ifindex[p], &in, &eg) &&
	    ((in && !flower_block_ours(in)) ||
	     (eg && !flower_block_ours(eg)))) {
		p_err("%s: its clsact is bound to tc block %u, not one of "
		      "tagger's: --shared-blocks binds the port to its own "
		      "(unbind it: tc qdisc del dev %s clsact; or attach "
		      "without --shared-blocks)",
		      x->where, in && !flower_block_ours(in) ? in : eg,
		      x->where);
		return -EBUSY;
	}
	x->doing = "removing earlier filters";
	err = in || eg ? 0 : flower_nl_remove(&x->tc, x->ifindex[p]);
	for (d = 0; d < 2 && !err && !in && !eg; d++)
		err = flower_nl_dump(&x->tc, x->ifindex[p], d, any_filter,
				     &others);
	if (dp_hook_gone(err))
		err = 0; /* no clsact */
	if (!err && others) {
		p_err("%s: %d tc filter(s) of others on its clsact (tc filter "
		      "show dev %s ingress/egress): a port bound to a shared "
		      "block keeps none; remove them or attach without "
		      "--shared-blocks",
		      x->where, others, x->where);
		return -EBUSY;
	}
	x->doing = "deleting the clsact before binding it to blocks";
	err = err ?: flower_block_unbind(&x->tc, x->ifindex[p]);
	if (dp_hook_gone(err))
		err = 0;
	x->doing = "binding the clsact to tc blocks";
	err = err   ?:
		      flower_block_bind(&x->tc, x->ifindex[p], x->blk[0][p],
					x->blk[1][p]);
	return err == -EBUSY ? err : fl_err(x, err);
}

/*
 * --shared-blocks: the ports whose lists of a direction are alike get one
 * free block each group, and their clsact bound to it. The first port
 * keeps its own hooks: the holders (dp_hold.h) are found by a query of
 * its device, which the kernel refuses on a shared block.
 */
static int fl_share(struct fl *x)
{
	struct flower_block_use *used = NULL;
	int *rep[2], nused = 0, groups = 0, next = 0, d, p, q, err;
	uint32_t *out;

	x->doing = "listing the tc blocks in use";
	snprintf(x->where, sizeof(x->where), "this network namespace");
	err = fl_err(x, flower_block_scan(&x->tc, &used, &nused));
	if (err)
		return err;
	for (d = 0; d < 2; d++) {
		rep[d] = xcalloc(x->n + 1, sizeof(*rep[d]));
		groups += flower_share(x->fp, x->n, d, 1, rep[d]);
	}
	out = xcalloc(groups + 1, sizeof(*out));
	err = flower_block_pick(used, nused, out, groups);
	if (err)
		p_err("no free tc block index in %#x..%#x", FLOWER_BLOCK_BASE,
		      FLOWER_BLOCK_BASE + FLOWER_BLOCK_RANGE - 1);
	for (d = 0; d < 2 && !err; d++)
		for (p = 0; p < x->n; p++)
			if (rep[d][p] == p) {
				for (q = p; q < x->n; q++)
					if (rep[d][q] == p)
						x->blk[d][q] = out[next];
				next++;
			}
	for (p = 0; p < x->n && !err; p++)
		if (x->blk[0][p] || x->blk[1][p])
			err = bind_port(x, used, nused, p);
	fl_units(x);
	free(rep[0]);
	free(rep[1]);
	free(out);
	free(used);
	return err;
}

static int attach_filters(const struct dp_opts *o, struct dp_job *j,
			  const struct dp_port *ports, int n,
			  struct fl_counts *c, json_t **blocks)
{
	struct fl x;
	int err = fl_open(&x, j->r, j->sw, ports, n, o->offload);

	if (err)
		p_err("netlink: %s", strerror(-err));
	if (!err && o->shared_blocks)
		err = fl_share(&x);
	err = err			       ?:
		      fl_install(&x, 0, true)  ?:
		      fl_entries(&x, 0, false) ?:
						 fl_count(&x, c);
	*blocks = fl_blocks_json(&x);
	fl_free(&x);
	return err;
}

int dp_flower_attach(const struct dp_opts *o, struct dp_job *j,
		     const struct dp_port *ports, int n,
		     struct dp_attach_report *rep)
{
	struct fl_counts c = { 0 };
	json_t *blocks = NULL;
	int err;

	err = n ? dp_hold_setup(j->dir, ports[0].ifindex, 0) : -EINVAL;
	if (err) {
		p_err("loading the holder programs on %s: %s",
		      n ? ports[0].ifname : "no port", strerror(-err));
		return EXIT_RUNTIME;
	}
	if (attach_filters(o, j, ports, n, &c, &blocks)) {
		json_decref(blocks);
		return EXIT_RUNTIME;
	}
	rep->sysctl_changed = dp_sysctl_prio(&rep->sysctl_was);
	json_object_set_new(j->state, "phase", json_string("attached"));
	json_object_set_new(j->state, "mode", json_string("tc")); /* holders */
	json_object_set_new(j->state, "ports", dp_hold_ports_json(ports, n));
	json_object_set_new(j->state, "generation", json_integer(0));
	json_object_set_new(j->state, "offload", json_boolean(o->offload));
	json_object_set_new(j->state, "shared_blocks",
			    json_boolean(o->shared_blocks));
	json_object_set_new(j->state, "blocks", blocks);
	record_table(j->state, o, j, ports, &c);
	err = dp_state_save_rules(j->dir, DP_STATE_CUR, j->state, j->r);
	if (err)
		return dp_state_save_err(o, j->dir, err);
	rep->mode = DP_MODE_TC;
	rep->ports = n;
	rep->generation = 0;
	rep->filters = c.filters;
	rep->in_hw = c.in_hw;
	rep->blocks = (int)json_array_size(json_object_get(j->state, "blocks"));
	rep->table = dp_counts_get(json_object_get(j->state, "table"));
	if (!dp_root_private())
		snprintf(rep->pins, sizeof(rep->pins), "%s", j->dir);
	return EXIT_OK;
}

/* ---- update ---- */

/* Steps 2-5 of dp_flower.h; the record (step 1) is saved. */
static int update_swap(struct fl *x, const char *dir, int genfd, int64_t next,
		       int64_t *gen)
{
	int g = (int)(next & 1), err;

	err = fl_install(x, g, false);
	if (err) {
		fl_chains_del(x, g);
		dp_state_drop(dir);
		return err;
	}
	/* from the move until every port is moved: the repair's mark */
	err = dp_hold_flux_set(genfd, true) ?: dp_table_go(genfd, next);
	if (err) {
		p_err("moving the generation to %lld: %s", (long long)next,
		      strerror(-err));
		fl_chains_del(x, g);
		dp_state_drop(dir);
		return err;
	}
	*gen = next; /* live from here on; the next command completes it */
	err = fl_entries(x, g, true)	   ?:
		      fl_chains_del(x, !g) ?:
					     dp_hold_flux_set(genfd, false);
	if (!err)
		err = dp_state_commit(dir);
	return err;
}

/*
 * A block's ports run one table: the new rules must give them alike
 * lists, for the binding cannot change without deleting the ports'
 * clsact, which no update does (packets would meet no filter meanwhile).
 */
static bool blocks_alike(struct fl *x, const char *file)
{
	int i, p;

	for (i = 0; i < x->nu; i++) {
		const struct unit *u = &x->u[i];

		for (p = 0; u->block && p < x->n; p++)
			if (x->blk[u->egress][p] == u->block &&
			    !flower_list_equal(
				    u->egress ? &x->fp[p].out : &x->fp[p].in,
				    u->egress ? &x->fp[u->port].out :
						&x->fp[u->port].in)) {
				p_err("%s: ports %s and %s share tc block %u "
				      "(%s) but the new rules give them "
				      "different filters there: detach and "
				      "attach again",
				      file, x->ifnames[u->port], x->ifnames[p],
				      u->block,
				      u->egress ? "egress" : "ingress");
				return false;
			}
	}
	return true;
}

/* The new record, its counts and the filters' lists; 0 or an exit code. */
static int update_prepare(const struct dp_opts *o, struct dp_job *j,
			  struct fl *x, bool acyclic, int64_t next)
{
	struct fl_counts none = { 0 };
	struct dp_port *ports;
	int n, err;

	ports = dp_state_ports(j->state, &n);
	err = fl_open(x, j->r, j->sw, ports, n,
		      json_is_true(json_object_get(j->state, "offload")));
	if (err) {
		p_err("netlink: %s", strerror(-err));
		dp_free_ports(ports, n);
		return EXIT_RUNTIME;
	}
	/* ifnames point into ports: kept until fl_free */
	x->owned = ports;
	x->nowned = n;
	fl_blocks_read(x, j->state);
	if (!blocks_alike(x, o->rules_file))
		return EXIT_USAGE;
	json_object_set_new(j->state, "union_acyclic", json_boolean(acyclic));
	json_object_set_new(j->state, "generation", json_integer(next));
	record_table(j->state, o, j, ports, &none);
	err = dp_state_save_rules(j->dir, DP_STATE_NEXT, j->state, j->r);
	return err ? dp_state_save_err(o, j->dir, err) : EXIT_OK;
}

int dp_flower_update(const struct dp_opts *o, struct dp_job *j, bool acyclic,
		     struct dp_update_report *u, int64_t *gen)
{
	struct fl x = { 0 };
	struct fl_counts c = { 0 };
	int ret, genfd;
	int64_t next;

	*gen = -1;
	genfd = dp_pin_open(j->dir, tagger_str(TAGGER_GEN));
	next = genfd < 0 ? genfd : dp_table_next(genfd);
	if (next < 0) {
		p_err("%s: the generation map is gone (%s): detach and attach "
		      "again",
		      j->dir, strerror(-(int)next));
		if (genfd >= 0)
			close(genfd);
		return EXIT_RUNTIME;
	}
	ret = update_prepare(o, j, &x, acyclic, next);
	if (!ret && update_swap(&x, j->dir, genfd, next, gen))
		ret = EXIT_RUNTIME;
	if (!ret && !fl_count(&x, &c))
		json_object_set_new(json_object_get(j->state, "table"),
				    "filters", json_integer(c.filters));
	fl_free(&x);
	close(genfd);
	if (ret)
		return ret;
	u->updated = true;
	u->generation = *gen;
	u->table = dp_counts_get(json_object_get(j->state, "table"));
	return EXIT_OK;
}

/* ---- teardown and repair ---- */

/*
 * A port bound to one of tagger's blocks loses its clsact: the binding
 * goes no other way, and the last port takes the block with it. Found in
 * the kernel, not the record: a killed attach may have bound a port
 * before any record named its block.
 */
static int unbind_ports(struct fl *x, bool *bound)
{
	struct flower_block_use *used = NULL;
	int nused = 0, p, err;
	uint32_t in, eg;

	x->doing = "listing the tc blocks in use";
	snprintf(x->where, sizeof(x->where), "this network namespace");
	err = fl_err(x, flower_block_scan(&x->tc, &used, &nused));
	x->doing = "deleting the clsact bound to tagger's block";
	for (p = 0; p < x->n && !err; p++) {
		if (!x->ifindex[p] ||
		    !flower_block_of(used, nused, x->ifindex[p], &in, &eg) ||
		    !(flower_block_ours(in) || flower_block_ours(eg)))
			continue;
		fl_at_port(x, p);
		err = flower_block_unbind(&x->tc, x->ifindex[p]);
		err = fl_err(x, dp_hook_gone(err) ? 0 : err);
		bound[p] = true;
	}
	free(used);
	return err;
}

int dp_flower_teardown(const char *dir, json_t *state)
{
	struct dp_port *ports;
	int n, p, err = 0;
	bool *bound;
	struct fl x;

	ports = dp_state_ports(state, &n);
	bound = xcalloc(n + 1, sizeof(*bound));
	if (!fl_open(&x, NULL, 0, ports, n, false)) {
		err = unbind_ports(&x, bound);
		x.doing = "removing the filters";
		for (p = 0; p < n; p++) {
			int e = x.ifindex[p] && !bound[p] ?
					flower_nl_remove(&x.tc, x.ifindex[p]) :
					0;

			fl_at_port(&x, p);
			err = err ?: fl_err(&x, dp_hook_gone(e) ? 0 : e);
		}
	} else {
		err = -EIO;
		p_err("netlink: %s", strerror(EIO));
	}
	err = err ?: dp_hold_teardown(dir, state);
	fl_free(&x);
	free(bound);
	dp_free_ports(ports, n);
	return err;
}

int dp_flower_repair(const char *dir, json_t *state, bool interrupted)
{
	int64_t g = dp_record_gen(state);
	struct dp_port *ports;
	int n, err, genfd;
	struct fl x;

	/* pending record or not, a kill after the move left the mark */
	if (g < 0 || (!interrupted && dp_hold_flux(dir) <= 0))
		return 0;
	pr_warn("%s: pointing every port at generation %lld's filters\n", dir,
		(long long)g);
	ports = dp_state_ports(state, &n);
	err = fl_open(&x, NULL, 0, ports, n, false);
	if (err)
		p_err("netlink: %s", strerror(-err));
	fl_blocks_read(&x, state);
	err = err					 ?:
		      fl_entries(&x, (int)(g & 1), true) ?:
		      fl_chains_del(&x, !(g & 1));
	genfd = dp_pin_open(dir, tagger_str(TAGGER_GEN));
	if (!err && genfd >= 0)
		err = dp_hold_flux_set(genfd, false);
	if (genfd >= 0)
		close(genfd);
	fl_free(&x);
	dp_free_ports(ports, n);
	return err;
}

const struct dp_path dp_flower_path = {
	.name = "flower",
	.attach = dp_flower_attach,
	.update = dp_flower_update,
	.teardown = dp_flower_teardown,
	.repair = dp_flower_repair,
	.show = dp_flower_show,
};
