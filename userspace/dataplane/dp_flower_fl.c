// SPDX-License-Identifier: GPL-2.0
/* A switch's flower filters on its ports and blocks; see dp_flower_fl.h. */
#include <errno.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/pkt_cls.h>

#include "dataplane/dp_flower_fl.h"
#include "dataplane/dp_job.h"
#include "dataplane/flower_nl.h"
#include "lib/log.h"
#include "lib/util.h"

void fl_free(struct fl *x)
{
	int p;

	for (p = 0; x->fp && p < x->n; p++)
		flower_port_free(&x->fp[p]);
	free(x->fp);
	free(x->ifnames);
	free(x->ifindex);
	free(x->blk[0]);
	free(x->blk[1]);
	free(x->u);
	dp_free_ports(x->owned, x->nowned);
	if (x->tc.nl)
		tc_close(&x->tc);
	memset(x, 0, sizeof(*x));
}

/* The units of the ports' blocks: a port's own hook, or a block once. */
void fl_units(struct fl *x)
{
	int d, p, q;

	free(x->u);
	x->u = xcalloc(2 * x->n + 1, sizeof(*x->u));
	x->nu = 0;
	for (d = 0; d < 2; d++)
		for (p = 0; p < x->n; p++) {
			uint32_t b = x->blk[d][p];

			for (q = 0; b && q < p && x->blk[d][q] != b; q++)
				;
			if (b && q < p)
				continue; /* the block's unit is there */
			x->u[x->nu++] = (struct unit){
				.at = b ? FLOWER_NL_BLOCK(b) : x->ifindex[p],
				.egress = d,
				.port = p,
				.block = b,
			};
		}
}

void fl_at(struct fl *x, const struct unit *u)
{
	if (u->block)
		snprintf(x->where, sizeof(x->where), "tc block %u", u->block);
	else
		snprintf(x->where, sizeof(x->where), "%s", x->ifnames[u->port]);
}

void fl_at_port(struct fl *x, int p)
{
	snprintf(x->where, sizeof(x->where), "%s", x->ifnames[p]);
}

/*
 * The record's "blocks": [{"block": N, "egress": bool, "ports": [i...]}]
 * into x->blk; none or no array: every hook its port's own.
 */
void fl_blocks_read(struct fl *x, json_t *state)
{
	json_t *b, *ports, *v;
	size_t i, k;

	json_array_foreach(json_object_get(state, "blocks"), i, b) {
		int d = json_is_true(json_object_get(b, "egress"));
		json_int_t idx =
			json_integer_value(json_object_get(b, "block"));

		ports = json_object_get(b, "ports");
		json_array_foreach(ports, k, v) {
			json_int_t p = json_integer_value(v);

			if (p >= 0 && p < x->n)
				x->blk[d][p] = (uint32_t)idx;
		}
	}
	fl_units(x);
}

json_t *fl_blocks_json(const struct fl *x)
{
	json_t *arr = json_array(), *ports;
	int d, p, q;

	for (d = 0; d < 2; d++)
		for (p = 0; p < x->n; p++) {
			uint32_t b = x->blk[d][p];

			for (q = 0; b && q < p && x->blk[d][q] != b; q++)
				;
			if (!b || q < p)
				continue;
			ports = json_array();
			for (q = p; q < x->n; q++)
				if (x->blk[d][q] == b)
					json_array_append_new(ports,
							      json_integer(q));
			json_array_append_new(
				arr, json_pack("{s:I,s:b,s:o}", "block",
					       (json_int_t)b, "egress", d,
					       "ports", ports));
		}
	return arr;
}

/* The ports' interfaces and netlink; lists only if r is given. 0 or -errno. */
int fl_open(struct fl *x, const struct rules *r, int sw,
	    const struct dp_port *ports, int n, bool hw)
{
	int p, err;

	memset(x, 0, sizeof(*x));
	x->n = n;
	x->hw = hw;
	x->fp = xcalloc(n + 1, sizeof(*x->fp));
	x->ifnames = xcalloc(n + 1, sizeof(*x->ifnames));
	x->ifindex = xcalloc(n + 1, sizeof(*x->ifindex));
	x->blk[0] = xcalloc(n + 1, sizeof(*x->blk[0]));
	x->blk[1] = xcalloc(n + 1, sizeof(*x->blk[1]));
	for (p = 0; p < n; p++) {
		x->ifnames[p] = ports[p].ifname;
		x->ifindex[p] = if_nametoindex(ports[p].ifname);
		if (r && flower_port_build(r, sw, p, &x->fp[p]))
			return -ENOMEM;
	}
	fl_units(x);
	err = tc_open(&x->tc);
	if (err)
		x->tc.nl = NULL;
	return err;
}

int fl_err(struct fl *x, int err)
{
	if (err)
		p_err("%s on %s: %s%s%s", x->doing, x->where, strerror(-err),
		      x->tc.err[0] ? ": " : "", x->tc.err);
	return err;
}

/*
 * Generation gen's chains on every unit (an earlier attach's removed;
 * fresh: the ports' clsact made, the blocks' by fl_bind).
 */
int fl_install(struct fl *x, int gen, bool fresh)
{
	int i, err = 0;

	for (i = 0; i < x->nu && !err; i++) {
		const struct unit *u = &x->u[i];
		int dir = u->egress ? FLOWER_NL_EGRESS : FLOWER_NL_INGRESS;

		fl_at(x, u);
		x->doing = "clsact";
		if (fresh && !x->blk[0][u->port] && !x->blk[1][u->port])
			err = flower_nl_clsact(&x->tc, x->ifindex[u->port]);
		x->doing = "removing earlier filters";
		if (!err && fresh)
			err = flower_nl_remove_dirs(&x->tc, u->at, dir);
		x->doing = "deleting an interrupted update's chains";
		if (!err && !fresh)
			err = flower_nl_gen_remove_dirs(&x->tc, u->at, gen,
							dir);
		x->doing = "installing a filter";
		if (!err)
			err = flower_nl_install_dirs(&x->tc, &x->fp[u->port],
						     x->ifnames, u->at, gen,
						     x->hw, dir);
	}
	return fl_err(x, err);
}

/* Every unit's entry filter to generation gen's chains. */
int fl_entries(struct fl *x, int gen, bool replace)
{
	int i, err = 0;

	x->doing = "the chain-0 filter";
	for (i = 0; i < x->nu && !err; i++) {
		fl_at(x, &x->u[i]);
		err = flower_nl_entry(&x->tc, x->u[i].at, gen, x->u[i].egress,
				      replace);
	}
	return fl_err(x, err);
}

/* Generation gen's chains gone from every unit (absent ones too). */
int fl_chains_del(struct fl *x, int gen)
{
	int i, err = 0;

	x->doing = "deleting a generation's chains";
	for (i = 0; i < x->nu && !err; i++) {
		const struct unit *u = &x->u[i];

		fl_at(x, u);
		if (u->block || x->ifindex[u->port])
			err = flower_nl_gen_remove_dirs(
				&x->tc, u->at, gen,
				u->egress ? FLOWER_NL_EGRESS :
					    FLOWER_NL_INGRESS);
	}
	return fl_err(x, err);
}

static void count_filter(const struct flower_nl_filter *f, void *arg)
{
	struct fl_counts *c = arg;

	if (!strcmp(f->kind, "flower") && flower_nl_gen(f->chain) >= 0) {
		c->filters++;
		c->in_hw += !!(f->flags & TCA_CLS_FLAGS_IN_HW);
	}
}

int fl_count(struct fl *x, struct fl_counts *c)
{
	int i, err = 0;

	x->doing = "reading the filters";
	for (i = 0; i < x->nu && !err; i++) {
		fl_at(x, &x->u[i]);
		err = flower_nl_dump(&x->tc, x->u[i].at, x->u[i].egress,
				     count_filter, c);
	}
	return fl_err(x, err);
}
