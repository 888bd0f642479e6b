// SPDX-License-Identifier: GPL-2.0
/* The flower data path of tagger switch; see dp_flower.h. */
#include <errno.h>
#include <limits.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <linux/pkt_cls.h>

#include "dataplane/dp_anchor.h"
#include "dataplane/dp_flower.h"
#include "dataplane/dp_hold.h"
#include "dataplane/dp_pin.h"
#include "dataplane/dp_pin_path.h"
#include "dataplane/dp_record.h"
#include "dataplane/dp_report.h"
#include "dataplane/dp_settle.h"
#include "dataplane/dp_state.h"
#include "dataplane/dp_job.h"
#include "dataplane/dp_table.h"
#include "dataplane/flower_nl.h"
#include "lib/log.h"
#include "lib/util.h"
#include "tagger_maps.h"

/* One switch's filters as flower_nl sends them. */
struct fl {
	struct tc tc;
	int n;
	struct flower_port *fp;
	char **ifnames; /* by port index, for indev keys */
	int *ifindex;
	bool hw; /* skip_sw */
	struct dp_port *owned; /* freed with it (dp_free_ports) */
	int nowned;
	const char *doing; /* for the error: which step, which port */
	int port;
};

static void fl_free(struct fl *x)
{
	int p;

	for (p = 0; x->fp && p < x->n; p++)
		flower_port_free(&x->fp[p]);
	free(x->fp);
	free(x->ifnames);
	free(x->ifindex);
	dp_free_ports(x->owned, x->nowned);
	if (x->tc.nl)
		tc_close(&x->tc);
	memset(x, 0, sizeof(*x));
}

/* The ports' interfaces and netlink; lists only if r is given. 0 or -errno. */
static int fl_open(struct fl *x, const struct rules *r, int sw,
		   const struct dp_port *ports, int n, bool hw)
{
	int p, err;

	memset(x, 0, sizeof(*x));
	x->n = n;
	x->hw = hw;
	x->fp = xcalloc(n + 1, sizeof(*x->fp));
	x->ifnames = xcalloc(n + 1, sizeof(*x->ifnames));
	x->ifindex = xcalloc(n + 1, sizeof(*x->ifindex));
	for (p = 0; p < n; p++) {
		x->ifnames[p] = ports[p].ifname;
		x->ifindex[p] = if_nametoindex(ports[p].ifname);
		if (r && flower_port_build(r, sw, p, &x->fp[p]))
			return -ENOMEM;
	}
	err = tc_open(&x->tc);
	if (err)
		x->tc.nl = NULL;
	return err;
}

static int fl_err(struct fl *x, int err)
{
	if (err)
		p_err("%s on %s: %s%s%s", x->doing, x->ifnames[x->port],
		      strerror(-err), x->tc.err[0] ? ": " : "", x->tc.err);
	return err;
}

/* Generation gen's chains on every port (an earlier attach's removed). */
static int fl_install(struct fl *x, int gen, bool fresh)
{
	int p, err = 0;

	for (p = 0; p < x->n && !err; p++) {
		x->port = p;
		x->doing = "clsact";
		if (fresh)
			err = flower_nl_clsact(&x->tc, x->ifindex[p]);
		x->doing = "removing earlier filters";
		if (!err && fresh)
			err = flower_nl_remove(&x->tc, x->ifindex[p]);
		x->doing = "deleting an interrupted update's chains";
		if (!err && !fresh)
			err = flower_nl_gen_remove(&x->tc, x->ifindex[p], gen);
		x->doing = "installing a filter";
		if (!err)
			err = flower_nl_install(&x->tc, &x->fp[p], x->ifnames,
						x->ifindex[p], gen, x->hw);
	}
	return fl_err(x, err);
}

/* Every port's two entry filters to generation gen's chains. */
static int fl_entries(struct fl *x, int gen, bool replace)
{
	int p, d, err = 0;

	x->doing = "the chain-0 filter";
	for (p = 0; p < x->n && !err; p++)
		for (d = 0; d < 2 && !err; d++) {
			x->port = p;
			err = flower_nl_entry(&x->tc, x->ifindex[p], gen, d,
					      replace);
		}
	return fl_err(x, err);
}

/* Generation gen's chains gone from every port (absent ones too). */
static int fl_chains_del(struct fl *x, int gen)
{
	int p, err = 0;

	x->doing = "deleting a generation's chains";
	for (p = 0; p < x->n && !err; p++) {
		x->port = p;
		if (x->ifindex[p])
			err = flower_nl_gen_remove(&x->tc, x->ifindex[p], gen);
	}
	return fl_err(x, err);
}

struct count {
	long long filters, in_hw;
};

static void count_filter(const struct flower_nl_filter *f, void *arg)
{
	struct count *c = arg;

	if (!strcmp(f->kind, "flower") && flower_nl_gen(f->chain) >= 0) {
		c->filters++;
		c->in_hw += !!(f->flags & TCA_CLS_FLAGS_IN_HW);
	}
}

static int fl_count(struct fl *x, struct count *c)
{
	int p, d, err = 0;

	x->doing = "reading the filters";
	for (p = 0; p < x->n && !err; p++)
		for (d = 0; d < 2 && !err; d++) {
			x->port = p;
			err = flower_nl_dump(&x->tc, x->ifindex[p], d,
					     count_filter, c);
		}
	return fl_err(x, err);
}

/* ---- attach ---- */

/* The record's "table": the rules' counts, and the filters installed. */
static void record_table(json_t *state, const struct dp_opts *o,
			 const struct dp_job *j, const struct dp_port *ports,
			 const struct count *c)
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

static int attach_filters(const struct dp_opts *o, struct dp_job *j,
			  const struct dp_port *ports, int n, struct count *c)
{
	struct fl x;
	int err = fl_open(&x, j->r, j->sw, ports, n, o->offload);

	if (err)
		p_err("netlink: %s", strerror(-err));
	err = err			       ?:
		      fl_install(&x, 0, true)  ?:
		      fl_entries(&x, 0, false) ?:
						 fl_count(&x, c);
	fl_free(&x);
	return err;
}

int dp_flower_attach(const struct dp_opts *o, struct dp_job *j,
		     const struct dp_port *ports, int n,
		     struct dp_attach_report *rep)
{
	struct count c = { 0 };
	int err;

	err = n ? dp_hold_setup(j->dir, ports[0].ifindex, 0) : -EINVAL;
	if (err) {
		p_err("loading the holder programs on %s: %s",
		      n ? ports[0].ifname : "no port", strerror(-err));
		return EXIT_RUNTIME;
	}
	if (attach_filters(o, j, ports, n, &c))
		return EXIT_RUNTIME;
	rep->sysctl_changed = dp_sysctl_prio(&rep->sysctl_was);
	json_object_set_new(j->state, "phase", json_string("attached"));
	json_object_set_new(j->state, "mode", json_string("tc")); /* holders */
	json_object_set_new(j->state, "ports", dp_hold_ports_json(ports, n));
	json_object_set_new(j->state, "generation", json_integer(0));
	json_object_set_new(j->state, "offload", json_boolean(o->offload));
	record_table(j->state, o, j, ports, &c);
	err = dp_state_save_rules(j->dir, DP_STATE_CUR, j->state, j->r);
	if (err)
		return dp_state_save_err(o, j->dir, err);
	rep->mode = DP_MODE_TC;
	rep->ports = n;
	rep->generation = 0;
	rep->filters = c.filters;
	rep->in_hw = c.in_hw;
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

/* The new record, its counts and the filters' lists; 0 or an exit code. */
static int update_prepare(const struct dp_opts *o, struct dp_job *j,
			  struct fl *x, bool acyclic, int64_t next)
{
	struct count none = { 0 };
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
	json_object_set_new(j->state, "union_acyclic", json_boolean(acyclic));
	json_object_set_new(j->state, "generation", json_integer(next));
	record_table(j->state, o, j, ports, &none);
	/* ifnames point into ports: kept until fl_free */
	x->owned = ports;
	x->nowned = n;
	err = dp_state_save_rules(j->dir, DP_STATE_NEXT, j->state, j->r);
	return err ? dp_state_save_err(o, j->dir, err) : EXIT_OK;
}

int dp_flower_update(const struct dp_opts *o, struct dp_job *j, bool acyclic,
		     struct dp_update_report *u, int64_t *gen)
{
	struct fl x = { 0 };
	struct count c = { 0 };
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

int dp_flower_teardown(const char *dir, json_t *state)
{
	struct dp_port *ports;
	int n, p, err = 0;
	struct fl x;

	ports = dp_state_ports(state, &n);
	if (!fl_open(&x, NULL, 0, ports, n, false)) {
		x.doing = "removing the filters";
		for (p = 0; p < n; p++) {
			int e = x.ifindex[p] ?
					flower_nl_remove(&x.tc, x.ifindex[p]) :
					0;

			x.port = p;
			err = err ?: fl_err(&x, dp_hook_gone(e) ? 0 : e);
		}
	} else {
		err = -EIO;
		p_err("netlink: %s", strerror(EIO));
	}
	err = err ?: dp_hold_teardown(dir, state);
	fl_free(&x);
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
