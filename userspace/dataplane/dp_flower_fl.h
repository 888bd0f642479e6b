/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One switch's flower filters on its ports and shared blocks, as the flower
 * data path (dp_flower.c) installs, moves, deletes and counts them: the
 * units (a port's hook of a direction, or a block once), netlink, and the
 * step being done for the error.
 *
 * API:
 *   fl_open(x, r, sw, ports, n, hw)  the ports' interfaces and netlink;
 *                                    the filter lists only if r; 0, -errno
 *   fl_free(x)
 *   fl_units(x)                      the units from x->blk
 *   fl_at(x, u), fl_at_port(x, p)    where the next error happens
 *   fl_err(x, err)                   err, said with the step and place
 *   fl_blocks_read(x, state)         the record's "blocks" into x->blk
 *   fl_blocks_json(x)                x->blk as the record's "blocks"
 *   fl_install(x, gen, fresh)        generation gen's chains on every unit
 *   fl_entries(x, gen, replace)      every unit's entry filter to gen
 *   fl_chains_del(x, gen)            generation gen's chains gone
 *   fl_count(x, &c)                  tagger's filters, and those in hardware
 */
#ifndef __TAGGER_DP_FLOWER_FL_H
#define __TAGGER_DP_FLOWER_FL_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

#include "dataplane/dp_table.h"
#include "lib/tc_nl.h"
#include "model/flower_table.h"
#include "model/rules.h"

/*
 * Where one table of filters goes: a port's hook of direction egress, or
 * a shared block (FLOWER_NL_BLOCK) the hooks of that direction of several
 * ports are bound to; port's lists are the ones installed there.
 */
struct unit {
	int at; /* flower_nl's ifindex */
	bool egress;
	int port;
	uint32_t block; /* 0: the port's own hook */
};

/* One switch's filters as flower_nl sends them. */
struct fl {
	struct tc tc;
	int n;
	struct flower_port *fp;
	char **ifnames; /* by port index, for indev keys */
	int *ifindex;
	bool hw; /* skip_sw */
	uint32_t *blk[2]; /* per direction and port: its shared block, or 0 */
	struct unit *u;
	int nu;
	struct dp_port *owned; /* freed with it (dp_free_ports) */
	int nowned;
	const char *doing; /* for the error: which step, where */
	char where[64];
};

struct fl_counts {
	long long filters, in_hw;
};

int fl_open(struct fl *x, const struct rules *r, int sw,
	    const struct dp_port *ports, int n, bool hw);
void fl_free(struct fl *x);
void fl_units(struct fl *x);
void fl_at(struct fl *x, const struct unit *u);
void fl_at_port(struct fl *x, int p);
int fl_err(struct fl *x, int err);
void fl_blocks_read(struct fl *x, json_t *state);
json_t *fl_blocks_json(const struct fl *x);
int fl_install(struct fl *x, int gen, bool fresh);
int fl_entries(struct fl *x, int gen, bool replace);
int fl_chains_del(struct fl *x, int gen);
int fl_count(struct fl *x, struct fl_counts *c);

#endif /* __TAGGER_DP_FLOWER_FL_H */
