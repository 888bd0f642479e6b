// SPDX-License-Identifier: GPL-2.0
/*
 * tagger switch check: a dry run of a data path on a switch, per port the
 * interface, where the data path would run, its entries, and every rule
 * it cannot express (dataplane/dp_check.h). Changes nothing.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cmd.h"
#include "cli/cmd_dp_args.h"
#include "cli/cmd_switch.h"
#include "cli/opts.h"
#include "dataplane/dp_check.h"
#include "lib/json_get.h"
#include "lib/log.h"
#include "model/rules_bin.h"

static int help(int argc, char **argv);

/* One command per process: the table's targets are this one's options. */
static int datapath = -1;
static bool strict;
static const struct opt_enum datapaths[] = { { "bpf", DP_CHECK_BPF },
					     { "flower", DP_CHECK_FLOWER },
					     { "dcb", DP_CHECK_DCB },
					     { NULL } };
static const struct opt opts[] = {
	OPT_ENUM("--datapath", &datapath, datapaths,
		 "the data path to check (bpf, flower, dcb)"),
	OPT_FLAG("--strict", &strict,
		 "dcb: off-ELP pairs kept lossless are problems (exit 1)"),
	{ 0 },
};

/* PORT=IFNAME maps; a port not mapped runs on the interface of its name. */
static int map_ports(const struct rules *r, int sw, char **maps, int n,
		     char **ifnames)
{
	const struct rules_switch *s = &r->sw[sw];
	int i, j, p;

	for (i = 0; i < s->nports; i++)
		ifnames[i] = s->ports[i];
	for (i = 0; i < n; i++) {
		char *eq = strchr(maps[i], '=');

		if (!eq)
			return usage_err(help, "What is \"%s\"? (PORT=IFNAME)",
					 maps[i]);
		*eq = 0;
		p = rules_find_port(r, sw, maps[i]);
		if (p < 0)
			return usage_err(help, "switch %s has no port \"%s\"",
					 s->name, maps[i]);
		ifnames[p] = eq + 1;
	}
	for (i = 0; i < s->nports; i++) {
		if (!dp_valid_ifname(ifnames[i]))
			return usage_err(
				help,
				"port \"%s\" needs PORT=IFNAME: \"%s\" "
				"is not a valid interface name",
				s->ports[i], ifnames[i]);
		for (j = 0; j < i; j++)
			if (!strcmp(ifnames[i], ifnames[j]))
				return usage_err(help,
						 "ports \"%s\" and \"%s\" are "
						 "both on %s",
						 s->ports[j], s->ports[i],
						 ifnames[i]);
	}
	return 0;
}

static void print_port(const json_t *port, const char *path)
{
	const char *note = jget_str(port, "note");
	json_t *v;
	size_t i;

	printf("  port %s on %s", jget_str(port, "port"),
	       jget_str(port, "ifname"));
	if (!jget_bool(port, "found")) {
		printf(": %s\n", note);
		return;
	}
	printf(" (ifindex %lld): %s %s%s, %s%s, %lld entries",
	       jget_int(port, "ifindex"), path,
	       strcmp(jget_str(port, "runs"), "none") ? "in " : "runs ",
	       strcmp(jget_str(port, "runs"), "none") ? jget_str(port, "runs") :
							"nowhere",
	       json_is_true(jget_field(port, "switchdev")) ? "switchdev " : "",
	       json_is_true(jget_field(port, "hw_tc_offload")) ?
		       "hw-tc-offload on" :
		       "hw-tc-offload off",
	       jget_int(port, "entries"));
	if (!strcmp(path, "dcb")) {
		printf(" (%lld app, %lld rewr), pfc", jget_int(port, "app"),
		       jget_int(port, "rewr"));
		if (!json_array_size(jget_field(port, "pfc")))
			printf(" none");
		json_array_foreach(jget_field(port, "pfc"), i, v)
			printf("%s%lld", i ? "," : " ", json_integer_value(v));
	}
	printf("\n");
	if (note[0])
		printf("    %s\n", note);
}

/* dcb: whether compiling differently helps, with the maps form's counts. */
static void print_remedies(const json_t *rep)
{
	json_t *rem = jget_field(rep, "remedies"), *m, *v;
	size_t i;

	if (!json_array_size(rem))
		return;
	printf("compiling differently:\n");
	json_array_foreach(rem, i, v)
		printf("  %s: %s\n", jget_str(v, "kind"), jget_str(v, "text"));
	m = jget_field(rep, "maps");
	if (json_is_object(m))
		printf("  as maps (tagger maps) switch %s needs %s%lld traffic "
		       "classes over %lld lossless priorities: %s\n",
		       jget_str(rep, "switch"),
		       jget_bool(m, "classes_at_least") ? "more than " : "",
		       jget_int(m, "classes"),
		       jget_int(m, "lossless_priorities"),
		       jget_bool(m, "refused") ?
			       "refused there too" :
			       "tagger export sonic can run that, DCB cannot");
}

/* flower: what --shared-blocks would bind and save. */
static void print_sharing(const json_t *rep)
{
	json_t *sh = jget_field(rep, "shared_blocks"), *b, *v;
	size_t i, k;

	if (!json_is_object(sh))
		return;
	printf("with --shared-blocks: %zu tc blocks, %lld entries (%lld "
	       "fewer; a block's counters are its ports' together)\n",
	       json_array_size(jget_field(sh, "blocks")),
	       jget_int(sh, "entries"), jget_int(sh, "saved"));
	json_array_foreach(jget_field(sh, "blocks"), i, b) {
		printf("  %s of", jget_str(b, "direction"));
		json_array_foreach(jget_field(b, "ports"), k, v)
			printf(" %s", json_string_value(v));
		printf("\n");
	}
}

static void print_off_elp(const json_t *rep)
{
	json_t *o = jget_field(rep, "off_elp"), *e = jget_field(o, "example");
	long long n = jget_int(o, "pairs");

	if (!n)
		return;
	printf("off the ELP: %lld (in-port, tag, out-port) combinations without "
	       "a rewrite rule (e.g. in %s tag %lld out %s) keep their lossless "
	       "priority on dcb, where bpf and flower demote them: deadlock-"
	       "free only while the routing keeps lossless traffic on the "
	       "ELP%s\n",
	       n, jget_str(e, "in"), jget_int(e, "tag"), jget_str(e, "out"),
	       jget_bool(o, "problems") ? "" : " (--strict refuses them)");
}

static void print_report(const json_t *rep)
{
	const char *path = jget_str(rep, "datapath");
	json_t *v, *probs = jget_field(rep, "problems");
	size_t i, n = json_array_size(probs);

	printf("switch %s on %s: rules %s, interfaces here for %lld of %lld "
	       "ports\n",
	       jget_str(rep, "switch"), path, jget_str(rep, "rules"),
	       jget_int(rep, "ports_found"),
	       jget_int(rep, "ports_found") + jget_int(rep, "ports_missing"));
	json_array_foreach(jget_field(rep, "ports"), i, v)
		print_port(v, path);
	if (!strcmp(path, "dcb"))
		print_off_elp(rep);
	if (!strcmp(path, "flower"))
		print_sharing(rep);
	if (n)
		printf("%zu rule%s %s cannot express:\n", n, n == 1 ? "" : "s",
		       path);
	json_array_foreach(probs, i, v)
		printf("  %s: %s\n", jget_str(v, "kind"),
		       jget_str(v, "message"));
	if (!strcmp(path, "dcb"))
		print_remedies(rep);
	if (n)
		printf("switch %s: NOT expressible on %s\n",
		       jget_str(rep, "switch"), path);
	else
		printf("switch %s: every rule runs on %s, %lld entries\n",
		       jget_str(rep, "switch"), path, jget_int(rep, "entries"));
}

static int check(const char *name, const char *file, char **maps, int nmaps)
{
	struct dp_check_in in = { .rules_file = file,
				  .path = datapath,
				  .strict = strict };
	json_t *doc = NULL, *rep;
	char **ifnames = NULL;
	struct rules *r;
	int ret;

	r = rules_bin_is(file) ? rules_bin_load(file, &doc) :
				 rules_load(file, &doc);
	if (!r)
		return EXIT_USAGE;
	in.r = r;
	in.doc = doc;
	in.sw = rules_find_switch(r, name);
	if (in.sw < 0) {
		p_err("%s: no switch \"%s\"", file, name);
		ret = EXIT_USAGE;
		goto out;
	}
	ifnames = calloc(r->sw[in.sw].nports + 1, sizeof(*ifnames));
	if (!ifnames) {
		ret = EXIT_RUNTIME;
		goto out;
	}
	ret = map_ports(r, in.sw, maps, nmaps, ifnames);
	if (ret)
		goto out;
	in.ifnames = ifnames;
	ret = dp_check(&in, &rep);
	if (rep && json_output) {
		json_emit(rep); /* takes it */
	} else if (rep) {
		print_report(rep);
		json_decref(rep);
	}
out:
	free(ifnames);
	rules_free(r);
	json_decref(doc);
	return ret;
}

int do_switch_check(int argc, char **argv)
{
	char **pos = calloc(argc + 1, sizeof(*pos));
	int got, ret;

	if (argc >= 1 && is_help(argv[0]))
		ret = help(0, NULL);
	else if (!pos || opts_parse(opts, argc, argv, pos, argc, &got))
		ret = pos ? usage_help(help) : EXIT_RUNTIME;
	else if (got < 2)
		ret = usage_err(help, "check takes NAME and RULES");
	else if (datapath < 0)
		ret = usage_err(help, "check needs --datapath bpf|flower|dcb");
	else
		ret = check(pos[0], pos[1], pos + 2, got - 2);
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
		"Usage: %s [-j] switch check NAME RULES --datapath { bpf | flower | dcb } [PORT=IFNAME ...] [--strict]\n"
		"\n"
		"A dry run: what switch NAME's rules would take on each port with\n"
		"that data path, here (this network namespace). Per port: the\n"
		"interface (a missing one is reported), where the data path would\n"
		"run (software, hardware: flower with hw-tc-offload on, dcb in a\n"
		"driver with DCB operations), whether it is a switchdev port, the\n"
		"entries (bpf: table entries, flower: tc filters, dcb: app + rewr\n"
		"entries), and every rule the data path cannot express, with\n"
		"whether compiling differently helps. Changes nothing.\n"
		"Exit 0: every rule expressible; 1: some rule is not; 2: usage,\n"
		"bad rules, or no port's interface here.\n"
		"OPTIONS:\n",
		bin_name);
	opts_usage(stderr, opts);
	return 0;
}
