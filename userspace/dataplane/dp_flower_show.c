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

/* One port: its filters dumped and summed; NULL after p_err. */
static json_t *port_json(struct tc *tc, json_t *port,
			 const struct flower_port *fp)
{
	const char *ifname = json_string_value(json_object_get(port, "ifname"));
	int ifindex = if_nametoindex(ifname ?: ""), d, err = 0;
	struct port_sum *s = xcalloc(1, sizeof(*s));
	json_t *j = NULL;

	s->fp = fp;
	s->gen[0] = s->gen[1] = -1;
	for (d = 0; d < 2 && !err && ifindex; d++)
		err = flower_nl_dump(tc, ifindex, d, sum_filter, s);
	if (err) {
		p_err("reading the filters of %s: %s", ifname, strerror(-err));
		goto out;
	}
	j = dp_show_port_json(port, cells_json(s->in), cells_json(s->out),
			      &s->st);
	json_object_set_new(j, "filters", json_integer(s->filters));
	json_object_set_new(j, "in_hw", json_integer(s->in_hw));
	/* the chain parity each entry filter goes to: what runs there */
	json_object_set_new(j, "running",
			    json_pack("{s:o,s:o}", "ingress",
				      gen_json(s->gen[0]), "egress",
				      gen_json(s->gen[1])));
out:
	free(s);
	return j;
}

static int show_ports(struct tc *tc, json_t *state, const struct rules *r,
		      int sw, json_t *out)
{
	json_t *port, *pj;
	size_t i;
	int ret = EXIT_OK;

	json_array_foreach(json_object_get(state, "ports"), i, port) {
		struct flower_port fp = { 0 };

		if (flower_port_build(r, sw, (int)i, &fp)) {
			p_err("out of memory");
			return EXIT_RUNTIME;
		}
		pj = port_json(tc, port, &fp);
		flower_port_free(&fp);
		if (!pj)
			return EXIT_RUNTIME;
		json_array_append_new(out, pj);
	}
	return ret;
}

int dp_flower_show(const char *dir, json_t *state, json_t *j)
{
	const char *name = json_string_value(json_object_get(state, "name"));
	struct rules *r = dp_state_rules(dir, state);
	int sw = r && name ? rules_find_switch(r, name) : -1, ret, err;
	json_t *ports = json_array();
	struct tc tc;

	if (sw < 0 || r->sw[sw].nports != (int)json_array_size(json_object_get(
						  state, "ports"))) {
		p_err("%s: the attached rules cannot be read: %s", dir,
		      strerror(errno ?: EINVAL));
		rules_free(r);
		json_decref(ports);
		return EXIT_RUNTIME;
	}
	err = tc_open(&tc);
	if (err) {
		p_err("netlink: %s", strerror(-err));
		ret = EXIT_RUNTIME;
	} else {
		ret = show_ports(&tc, state, r, sw, ports);
		tc_close(&tc);
	}
	rules_free(r);
	json_object_set_new(
		j, "offload",
		json_boolean(json_is_true(json_object_get(state, "offload"))));
	json_object_set_new(j, "ports", ports);
	return ret;
}
