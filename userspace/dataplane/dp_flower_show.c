// SPDX-License-Identifier: GPL-2.0
/*
 * tagger switch show for the flower data path: the ports as the kernel's
 * filters count them, in the eBPF data plane's shape (dp_report.h), and
 * per port the generation each direction's entry filter goes to; see
 * dp_flower.h.
 *
 * A tc filter's counter belongs to the logical filter it was made from
 * (flower_tc_origin): a lossless classify counts "in" under its tag, a
 * rewrite "out" under the new tag, a lossy answer its reason, and "in"
 * or "out" under the tag it matched or wrote when it names one. A filter
 * that matches any DSCP (the lossy default) names no tag: its packets
 * count under their reason only, where the eBPF data plane also counts
 * them under the tag they arrived with.
 *
 * With --shared-blocks a port's hook bound to a block runs the block's
 * filters, whose counters are the block's: the packets of all its ports
 * together. Those counters go to the block's entry of "blocks" (named,
 * with its ports), not to any port; the port names its block and runs
 * what the block's entry filter goes to.
 */
#include <errno.h>
#include <linux/pkt_cls.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dataplane/dp_flower.h"
#include "dataplane/dp_report.h"
#include "dataplane/dp_state.h"
#include "dataplane/flower_nl.h"
#include "lib/log.h"
#include "lib/util.h"
#include "model/rules.h"
#include "tagger_maps.h"

struct cell {
	uint64_t packets, bytes;
};

/* One port's sums while its filters are dumped. */
struct port_sum {
	const struct flower_port *fp;
	struct cell in[TAGGER_DSCP_MAX][2], out[TAGGER_DSCP_MAX][2];
	struct tagger_port_stats st;
	int gen[2]; /* per direction: the entry filter's, -1 none */
	long long filters, in_hw;
};

static void add(struct cell *c, const struct flower_nl_filter *f)
{
	c->packets += f->packets;
	c->bytes += f->bytes;
}

static void count_logical(struct port_sum *s, const struct flower_filter *fl,
			  const struct flower_nl_filter *f)
{
	bool ll = fl->act == FLOWER_LOSSLESS;
	int tag;

	if (fl->act == FLOWER_GOTO)
		return; /* the chain it goes to counts the packet */
	if (!ll && fl->reason >= 0 && fl->reason < TAGGER_LOSSY_REASONS)
		s->st.lossy[fl->reason] += f->packets;
	if (!f->egress) {
		tag = fl->dscp;
		if (tag >= 0 && tag < TAGGER_DSCP_MAX)
			add(&s->in[tag][ll], f);
		return;
	}
	tag = fl->new_dscp >= 0 ? fl->new_dscp : fl->dscp;
	if (tag >= 0 && tag < TAGGER_DSCP_MAX)
		add(&s->out[tag][ll], f);
}

static void sum_filter(const struct flower_nl_filter *f, void *arg)
{
	struct port_sum *s = arg;
	const struct flower_list *l;
	int g, i;

	if (strcmp(f->kind, "flower"))
		return;
	if (f->chain == 0 && f->pref == FLOWER_TC_ENTRY_PREF) {
		s->gen[f->egress] = flower_nl_gen(f->goto_chain);
		return;
	}
	g = flower_nl_gen(f->chain);
	if (g < 0)
		return;
	s->filters++;
	s->in_hw += !!(f->flags & TCA_CLS_FLAGS_IN_HW);
	i = flower_tc_origin(s->fp, g, f->egress, f->chain, f->pref);
	l = f->egress ? &s->fp->out : &s->fp->in;
	if (i >= 0 && i < l->n)
		count_logical(s, &l->f[i], f);
}

static json_t *cells_json(struct cell (*c)[2])
{
	json_t *arr = json_array();
	int tag, ll;

	for (tag = 0; tag < TAGGER_DSCP_MAX; tag++)
		for (ll = 1; ll >= 0; ll--)
			if (c[tag][ll].packets)
				json_array_append_new(
					arr,
					dp_show_counter_json(tag, ll,
							     c[tag][ll].packets,
							     c[tag][ll].bytes));
	return arr;
}

static json_t *gen_json(int g)
{
	return g >= 0 ? json_integer(g) : json_null();
}

/* A port's or a block's filters dumped and summed: dirs, at flower_nl's. */
static int sum(struct tc *tc, int at, int dirs, struct port_sum *s)
{
	int d, err = 0;

	s->gen[0] = s->gen[1] = -1;
	for (d = 0; d < 2 && !err; d++)
		if (dirs & (d ? FLOWER_NL_EGRESS : FLOWER_NL_INGRESS))
			err = flower_nl_dump(tc, at, d, sum_filter, s);
	return err;
}

static json_t *sums_json(json_t *port, struct port_sum *s)
{
	json_t *j = dp_show_port_json(port, cells_json(s->in),
				      cells_json(s->out), &s->st);

	json_object_set_new(j, "filters", json_integer(s->filters));
	json_object_set_new(j, "in_hw", json_integer(s->in_hw));
	return j;
}

/* The record's block of port i's direction d, 0 for its own hook. */
static uint32_t block_of(json_t *state, size_t i, int d)
{
	json_t *b, *v;
	size_t k, m;

	json_array_foreach(json_object_get(state, "blocks"), k, b) {
		if (json_is_true(json_object_get(b, "egress")) != d)
			continue;
		json_array_foreach(json_object_get(b, "ports"), m, v)
			if (json_integer_value(v) == (json_int_t)i)
				return json_integer_value(
					json_object_get(b, "block"));
	}
	return 0;
}

/* What a block's entry filter goes to, -1 none (blocks: its show). */
static int block_running(json_t *blocks, uint32_t blk)
{
	json_t *b;
	size_t k;

	json_array_foreach(blocks, k, b)
		if (json_integer_value(json_object_get(b, "block")) == blk)
			return json_is_integer(json_object_get(b, "running")) ?
				       json_integer_value(
					       json_object_get(b, "running")) :
				       -1;
	return -1;
}

/* One port: its own hooks' filters dumped and summed; NULL after p_err. */
static json_t *port_json(struct tc *tc, json_t *state, size_t i, json_t *port,
			 const struct flower_port *fp, json_t *blocks)
{
	const char *ifname = json_string_value(json_object_get(port, "ifname"));
	int ifindex = if_nametoindex(ifname ?: ""), d, dirs = 0, err = 0;
	struct port_sum *s = xcalloc(1, sizeof(*s));
	uint32_t blk[2];
	json_t *j = NULL;

	s->fp = fp;
	for (d = 0; d < 2; d++) {
		blk[d] = block_of(state, i, d);
		if (!blk[d])
			dirs |= d ? FLOWER_NL_EGRESS : FLOWER_NL_INGRESS;
	}
	err = ifindex ? sum(tc, ifindex, dirs, s) : 0;
	if (err) {
		p_err("reading the filters of %s: %s", ifname, strerror(-err));
		goto out;
	}
	for (d = 0; d < 2; d++)
		if (blk[d])
			s->gen[d] = block_running(blocks, blk[d]);
	j = sums_json(port, s);
	/* the chain parity each entry filter goes to: what runs there */
	json_object_set_new(j, "running",
			    json_pack("{s:o,s:o}", "ingress",
				      gen_json(s->gen[0]), "egress",
				      gen_json(s->gen[1])));
	for (d = 0; d < 2; d++)
		json_object_set_new(j, d ? "egress_block" : "ingress_block",
				    blk[d] ? json_integer(blk[d]) :
					     json_null());
out:
	free(s);
	return j;
}

/* One shared block of the record: its filters' sums, its ports. */
static json_t *block_json(struct tc *tc, json_t *b, json_t *ports,
			  const struct rules *r, int sw)
{
	uint32_t blk = json_integer_value(json_object_get(b, "block"));
	bool eg = json_is_true(json_object_get(b, "egress"));
	json_t *members = json_object_get(b, "ports"), *names, *ifnames, *j,
	       *fake, *v;
	struct port_sum *s = xcalloc(1, sizeof(*s));
	struct flower_port fp = { 0 };
	int rep = (int)json_integer_value(json_array_get(members, 0)), err;
	size_t k;

	if (flower_port_build(r, sw, rep, &fp)) {
		free(s);
		p_err("out of memory");
		return NULL;
	}
	s->fp = &fp;
	err = sum(tc, FLOWER_NL_BLOCK(blk),
		  eg ? FLOWER_NL_EGRESS : FLOWER_NL_INGRESS, s);
	flower_port_free(&fp);
	if (err) {
		p_err("reading the filters of tc block %u: %s", blk,
		      strerror(-err));
		free(s);
		return NULL;
	}
	names = json_array();
	ifnames = json_array();
	json_array_foreach(members, k, v) {
		json_t *port = json_array_get(ports, json_integer_value(v));

		json_array_append(names, json_object_get(port, "port"));
		json_array_append(ifnames, json_object_get(port, "ifname"));
	}
	fake = json_pack("{s:s,s:n,s:i}", "port", "", "ifname", "ifindex", 0);
	j = sums_json(fake, s);
	json_decref(fake);
	json_object_del(j, "port");
	json_object_del(j, "ifname");
	json_object_del(j, "ifindex");
	json_object_set_new(j, "block", json_integer(blk));
	json_object_set_new(j, "direction",
			    json_string(eg ? "egress" : "ingress"));
	json_object_set_new(j, "ports", names);
	json_object_set_new(j, "ifnames", ifnames);
	json_object_set_new(j, "running", gen_json(s->gen[eg]));
	free(s);
	return j;
}

static int show_blocks(struct tc *tc, json_t *state, const struct rules *r,
		       int sw, json_t *out)
{
	json_t *ports = json_object_get(state, "ports"), *b, *bj;
	size_t i;

	json_array_foreach(json_object_get(state, "blocks"), i, b) {
		bj = block_json(tc, b, ports, r, sw);
		if (!bj)
			return EXIT_RUNTIME;
		json_array_append_new(out, bj);
	}
	return EXIT_OK;
}

static int show_ports(struct tc *tc, json_t *state, const struct rules *r,
		      int sw, json_t *blocks, json_t *out)
{
	json_t *port, *pj;
	size_t i;

	json_array_foreach(json_object_get(state, "ports"), i, port) {
		struct flower_port fp = { 0 };

		if (flower_port_build(r, sw, (int)i, &fp)) {
			p_err("out of memory");
			return EXIT_RUNTIME;
		}
		pj = port_json(tc, state, i, port, &fp, blocks);
		flower_port_free(&fp);
		if (!pj)
			return EXIT_RUNTIME;
		json_array_append_new(out, pj);
	}
	return EXIT_OK;
}

int dp_flower_show(const char *dir, json_t *state, json_t *j)
{
	const char *name = json_string_value(json_object_get(state, "name"));
	struct rules *r = dp_state_rules(dir, state);
	int sw = r && name ? rules_find_switch(r, name) : -1, ret, err;
	json_t *ports = json_array(), *blocks = json_array();
	struct tc tc;

	if (sw < 0 || r->sw[sw].nports != (int)json_array_size(json_object_get(
						  state, "ports"))) {
		p_err("%s: the attached rules cannot be read: %s", dir,
		      strerror(errno ?: EINVAL));
		rules_free(r);
		json_decref(ports);
		json_decref(blocks);
		return EXIT_RUNTIME;
	}
	err = tc_open(&tc);
	if (err) {
		p_err("netlink: %s", strerror(-err));
		ret = EXIT_RUNTIME;
	} else {
		ret = show_blocks(&tc, state, r, sw, blocks) ?:
			      show_ports(&tc, state, r, sw, blocks, ports);
		tc_close(&tc);
	}
	rules_free(r);
	json_object_set_new(
		j, "offload",
		json_boolean(json_is_true(json_object_get(state, "offload"))));
	json_object_set_new(j, "shared_blocks",
			    json_boolean(json_is_true(
				    json_object_get(state, "shared_blocks"))));
	json_object_set_new(j, "blocks", blocks);
	json_object_set_new(j, "ports", ports);
	return ret;
}
