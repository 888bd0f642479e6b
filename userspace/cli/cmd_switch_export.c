// SPDX-License-Identifier: GPL-2.0
/*
 * tagger switch export: a switch's rules as tc flower filters, printed as
 * a `tc -batch` file for an operator to review and apply, or for a
 * switch ASIC's driver to offload (--offload); or, with --apply, the same
 * filters installed over rtnetlink (dataplane/flower_nl.h).
 */
#include <errno.h>
#include <linux/pkt_cls.h>
#include <net/if.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cmd.h"
#include "cli/cmd_dp_args.h"
#include "cli/cmd_switch.h"
#include "cli/opts.h"
#include "dataplane/flower_nl.h"
#include "dataplane/flower_tc.h"
#include "lib/log.h"
#include "lib/outfile.h"
#include "model/rules_bin.h"

struct export
{
	const char *name;
	const char *rules_file;
	const char *out;
	int gen;
	bool offload, update, apply;
	struct rules *r;
	int sw;
	char **ifnames; /* by port index */
	int *ifindex; /* with --apply */
	struct flower_port *fp;
	struct tc tc;
	const char *doing; /* what --apply was at */
	int port;
};

static int help(int argc, char **argv);

/* PORT=IFNAME maps; a port not mapped runs on the interface of its name. */
static int map_ports(struct export *x, char **maps, int n)
{
	const struct rules_switch *s = &x->r->sw[x->sw];
	int i, j, p;

	x->ifnames = calloc(s->nports ? s->nports : 1, sizeof(*x->ifnames));
	if (!x->ifnames)
		return -ENOMEM;
	for (i = 0; i < s->nports; i++)
		x->ifnames[i] = s->ports[i];
	for (i = 0; i < n; i++) {
		char *eq = strchr(maps[i], '=');

		if (!eq)
			return usage_err(help, "What is \"%s\"? (PORT=IFNAME)",
					 maps[i]);
		*eq = 0;
		p = rules_find_port(x->r, x->sw, maps[i]);
		if (p < 0)
			return usage_err(help, "switch %s has no port \"%s\"",
					 x->name, maps[i]);
		x->ifnames[p] = eq + 1;
	}
	for (i = 0; i < s->nports; i++) {
		if (!dp_valid_ifname(x->ifnames[i]))
			return usage_err(
				help,
				"port \"%s\" needs PORT=IFNAME: \"%s\" "
				"is not a valid interface name",
				s->ports[i], x->ifnames[i]);
		for (j = 0; j < i; j++)
			if (!strcmp(x->ifnames[i], x->ifnames[j]))
				return usage_err(help,
						 "ports \"%s\" and \"%s\" are "
						 "both on %s",
						 s->ports[j], s->ports[i],
						 x->ifnames[i]);
	}
	return 0;
}

static int load(struct export *x)
{
	json_t *doc = NULL;

	x->r = rules_bin_is(x->rules_file) ?
		       rules_bin_load(x->rules_file, &doc) :
		       rules_load(x->rules_file, &doc);
	json_decref(doc); /* only the rules are written */
	if (!x->r)
		return EXIT_USAGE;
	x->sw = rules_find_switch(x->r, x->name);
	if (x->sw < 0) {
		p_err("%s: no switch \"%s\"", x->rules_file, x->name);
		return EXIT_USAGE;
	}
	return 0;
}

/*
 * The batch in three passes over the ports: every port's clsact and the
 * generation's chains; then the chain-0 filters that make them live (with
 * --update, replacing the running ones); then, with --update, the other
 * generation's chains go. No port switches before every table is whole.
 * Between the first and the last switch a packet may meet one generation
 * at ingress and the other at egress: that packet's answer is still one
 * table's (flower_table.h), as egress needs nothing from ingress but the
 * DSCP.
 */
static int batch_lines(struct export *x, FILE *f)
{
	int n = x->r->sw[x->sw].nports, p, d, c, err = 0;

	for (p = 0; p < n && !err; p++) {
		if (!x->update)
			fprintf(f, "qdisc replace dev %s clsact\n",
				x->ifnames[p]);
		err = flower_tc_write(f, &x->fp[p], x->ifnames, p, x->gen,
				      x->offload);
	}
	for (p = 0; p < n && !err; p++)
		for (d = 0; d < 2 && !err; d++)
			err = flower_tc_chain_entry(f, x->ifnames[p], x->gen, d,
						    x->update);
	for (p = 0; p < n && !err && x->update; p++)
		for (d = 0; d < 2; d++)
			for (c = 0; c < FLOWER_CHAINS; c++)
				if (flower_tc_chain_used(d, c))
					fprintf(f,
						"chain del dev %s %s chain %d\n",
						x->ifnames[p],
						d ? "egress" : "ingress",
						FLOWER_TC_CHAIN(!x->gen, c));
	return err;
}

static json_t *port_json(const struct export *x, int p)
{
	return json_pack("{s:s, s:s, s:I, s:I}", "port",
			 x->r->sw[x->sw].ports[p], "ifname", x->ifnames[p],
			 "ingress_filters",
			 (json_int_t)(flower_list_entries(&x->fp[p].in) +
				      flower_tc_handoffs(false, x->offload)),
			 "egress_filters",
			 (json_int_t)(flower_list_entries(&x->fp[p].out) +
				      flower_tc_handoffs(true, x->offload)));
}

/* --apply: every port's interface, here. */
static int find_ifaces(struct export *x)
{
	int n = x->r->sw[x->sw].nports, p;

	x->ifindex = calloc(n ? n : 1, sizeof(*x->ifindex));
	if (!x->ifindex)
		return -ENOMEM;
	for (p = 0; p < n; p++) {
		x->ifindex[p] = if_nametoindex(x->ifnames[p]);
		if (!x->ifindex[p])
			return usage_err(
				help, "port \"%s\": no interface \"%s\" here",
				x->r->sw[x->sw].ports[p], x->ifnames[p]);
	}
	return 0;
}

/*
 * The batch's passes (batch_lines), as requests, each answered before the
 * next. Without --update, a port's earlier filters of tagger's go first:
 * the install starts afresh (packets meet no table meanwhile).
 */
static int apply_passes(struct export *x)
{
	int n = x->r->sw[x->sw].nports, p, d, err = 0;

	for (p = 0; p < n && !err; p++) {
		x->port = p;
		if (!x->update) {
			x->doing = "clsact";
			err = flower_nl_clsact(&x->tc, x->ifindex[p]);
			x->doing = "removing the earlier filters";
			if (!err)
				err = flower_nl_remove(&x->tc, x->ifindex[p]);
		}
		if (!err)
			x->doing = "a filter";
		if (!err)
			err = flower_nl_install(&x->tc, &x->fp[p], x->ifnames,
						x->ifindex[p], x->gen,
						x->offload);
	}
	if (!err)
		x->doing = "the chain-0 filter";
	for (p = 0; p < n && !err; p++)
		for (d = 0; d < 2 && !err; d++) {
			x->port = p;
			err = flower_nl_entry(&x->tc, x->ifindex[p], x->gen, d,
					      x->update);
		}
	if (!err)
		x->doing = "deleting the other generation's chains";
	for (p = 0; p < n && !err && x->update; p++) {
		x->port = p;
		err = flower_nl_chains_del(&x->tc, x->ifindex[p], !x->gen);
	}
	return err;
}

struct hw_count {
	long filters, in_hw;
};

static void count_filter(const struct flower_nl_filter *f, void *arg)
{
	struct hw_count *c = arg;

	if (!strcmp(f->kind, "flower") && flower_nl_gen(f->chain) >= 0) {
		c->filters++;
		c->in_hw += !!(f->flags & TCA_CLS_FLAGS_IN_HW);
	}
}

/* What the kernel holds now: filters in tagger's chains, and in hardware. */
static int apply_report(struct export *x, json_t *ports)
{
	int n = x->r->sw[x->sw].nports, p, d, err = 0;
	struct hw_count all = { 0 };

	for (p = 0; p < n && !err; p++) {
		struct hw_count c = { 0 };

		for (d = 0; d < 2 && !err; d++)
			err = flower_nl_dump(&x->tc, x->ifindex[p], d,
					     count_filter, &c);
		json_object_set_new(json_array_get(ports, p), "installed",
				    json_integer(c.filters));
		json_object_set_new(json_array_get(ports, p), "in_hw",
				    json_integer(c.in_hw));
		all.filters += c.filters;
		all.in_hw += c.in_hw;
	}
	if (!err && !json_output)
		printf("switch %s: generation %d installed on %d ports: "
		       "%ld filters, %ld in hardware\n",
		       x->name, x->gen, n, all.filters, all.in_hw);
	return err;
}

static int apply(struct export *x, json_t *ports)
{
	int err = find_ifaces(x);

	if (err)
		return err == -ENOMEM ? EXIT_RUNTIME : err;
	err = tc_open(&x->tc);
	if (err) {
		p_err("netlink: %s", strerror(-err));
		return EXIT_RUNTIME;
	}
	err = apply_passes(x);
	if (err) {
		p_err("switch %s: %s on %s: %s%s%s", x->name, x->doing,
		      x->ifnames[x->port], strerror(-err),
		      x->tc.err[0] ? ": " : "", x->tc.err);
		return EXIT_RUNTIME;
	}
	x->doing = "the dump";
	err = apply_report(x, ports);
	if (err) {
		p_err("switch %s: the filters on %s: %s%s%s", x->name,
		      x->ifnames[x->port], strerror(-err),
		      x->tc.err[0] ? ": " : "", x->tc.err);
		return EXIT_RUNTIME;
	}
	return 0;
}

static int write_all(struct export *x)
{
	int n = x->r->sw[x->sw].nports, p, err = 0;
	json_t *ports = json_array();
	struct outfile of;
	bool batch = (!json_output || x->out) && !x->apply;

	x->fp = calloc(n ? n : 1, sizeof(*x->fp));
	if (!x->fp || !ports)
		return EXIT_RUNTIME;
	for (p = 0; p < n && !err; p++) {
		err = flower_port_build(x->r, x->sw, p, &x->fp[p]);
		if (!err)
			json_array_append_new(ports, port_json(x, p));
	}
	if (batch && !err && outfile_open(&of, x->out) == 0) {
		err = batch_lines(x, of.f);
		if (err == -E2BIG)
			p_err("switch %s: a chain needs more than %d tc filters",
			      x->name, FLOWER_TC_MAX_PREF);
		if (outfile_close(&of, !err) && !err)
			err = -EIO;
	} else if (batch && !err) {
		err = -EIO;
	}
	if (!err && x->apply) {
		int r = apply(x, ports);

		if (r) {
			json_decref(ports);
			return r;
		}
	}
	if (!err && json_output)
		json_emit(json_pack("{s:s, s:s, s:b, s:i, s:o}", "switch",
				    x->name, "datapath", "flower", "offload",
				    x->offload, "generation", x->gen, "ports",
				    json_incref(ports)));
	json_decref(ports);
	if (err == -E2BIG)
		return EXIT_USAGE;
	return err ? EXIT_RUNTIME : EXIT_OK;
}

static void export_free(struct export *x)
{
	int p;

	for (p = 0; x->fp && p < x->r->sw[x->sw].nports; p++)
		flower_port_free(&x->fp[p]);
	free(x->fp);
	free(x->ifnames);
	free(x->ifindex);
	if (x->tc.nl)
		tc_close(&x->tc);
	rules_free(x->r);
}

/* One command per process: the table's targets are this one's options. */
static struct export x;
static int datapath;
static const struct opt_enum datapaths[] = { { "flower", 0 }, { NULL } };
static const struct opt opts[] = {
	OPT_ENUM("--datapath", &datapath, datapaths,
		 "the data path to write (flower)"),
	OPT_FLAG("--offload", &x.offload,
		 "skip_sw filters for a switch ASIC's driver"),
	OPT_INT("--generation", &x.gen, 0, 1, "G",
		"the chains of table generation G (0)"),
	OPT_FLAG("--update", &x.update,
		 "replace generation 1-G's entry filters, then its chains"),
	OPT_FLAG("--apply", &x.apply,
		 "install the filters over netlink here instead of printing"),
	OPT_STR("--output", &x.out, "FILE", "the batch file (stdout)"),
	OPT_STR("-o", &x.out, "FILE", "the same"),
	{ 0 },
};

int do_switch_export(int argc, char **argv)
{
	char **pos = calloc(argc + 1, sizeof(*pos));
	int got, ret;

	if (argc >= 1 && is_help(argv[0]))
		ret = help(0, NULL);
	else if (!pos || opts_parse(opts, argc, argv, pos, argc, &got))
		ret = pos ? usage_help(help) : EXIT_RUNTIME;
	else if (got < 2)
		ret = usage_err(help, "export takes NAME and RULES");
	else if (x.apply && x.out)
		ret = usage_err(help, "--apply writes no batch: drop -o");
	else {
		x.name = pos[0];
		x.rules_file = pos[1];
		ret = load(&x);
		if (!ret)
			ret = map_ports(&x, pos + 2, got - 2);
		if (ret == -ENOMEM)
			ret = EXIT_RUNTIME;
		if (!ret)
			ret = write_all(&x);
		export_free(&x);
	}
	free(pos);
	return ret;
}

static int help(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	if (json_output)
		return 0;
	fprintf(stderr,
		"Usage: %s [-j] switch export NAME RULES [PORT=IFNAME ...] [OPTIONS]\n"
		"\n"
		"Writes switch NAME's rules as tc flower filters, one tc command a\n"
		"line, for `tc -batch`: the rules' classify at each port's ingress\n"
		"(DSCP -> skbedit priority), their rewrite at each out-port's egress\n"
		"(indev and DSCP -> pedit of the DSCP bits, ECN kept), lossy\n"
		"demotions as the eBPF data plane makes them. Nothing is installed,\n"
		"unless --apply: then the same filters are sent over netlink to the\n"
		"interfaces of this network namespace (tagger's earlier ones there\n"
		"removed first; with --update, swapped in under traffic).\n"
		"Without --offload the filters are software ones (skip_hw); with it\n"
		"they are skip_sw, without the actions switch drivers refuse (csum,\n"
		"the skb mark). Under -j, prints the filters per port instead (the\n"
		"batch then goes only to -o FILE).\n"
		"OPTIONS:\n",
		bin_name);
	opts_usage(stderr, opts);
	return 0;
}
