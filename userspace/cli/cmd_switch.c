// SPDX-License-Identifier: GPL-2.0
/* tagger switch { attach | update | show | detach }: the command line. */
#include <errno.h>
#include <malloc.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cmd.h"
#include "cli/cmd_dp_args.h"
#include "cli/cmd_switch.h"
#include "dataplane/dp_pin.h"
#include "dataplane/dp_switch.h"
#include "cli/opts.h"
#include "lib/json_get.h"
#include "lib/log.h"
#include "lib/outfile.h"
#include "lib/util.h"
#include "model/rules_bin.h"

static void print_attach(const struct dp_opts *o, const struct dp_report *rep)
{
	const struct dp_attach_report *a = &rep->attach;

	if (a->sysctl_changed)
		printf("set net.ipv4.ip_forward_update_priority = 0 (was %d): "
		       "forwarding keeps the priority tagger sets\n",
		       a->sysctl_was);
	if (!strcmp(a->datapath, "flower"))
		printf("switch %s: %d ports attached as tc flower filters: "
		       "%lld filters, %lld in hardware%s%.0d%s; %s%s\n",
		       o->name, a->ports, a->filters, a->in_hw,
		       o->shared_blocks ? ", shared tc blocks: " : "",
		       a->blocks, o->shared_blocks && !a->blocks ? "0" : "",
		       a->pins[0] ?
			       "state pinned in " :
			       "state held by the kernel (no bpffs to pin in)",
		       a->pins);
	else if (!strcmp(a->datapath, "dcb"))
		printf("switch %s: %d ports' DCB app, rewr and PFC settings "
		       "written (their earlier ones kept for detach); %s%s\n",
		       o->name, a->ports,
		       a->pins[0] ?
			       "state pinned in " :
			       "state held by the kernel (no bpffs to pin in)",
		       a->pins);
	else
		printf("switch %s: %d ports attached with %s, first on ingress "
		       "and egress; %s%s\n",
		       o->name, a->ports, dp_mode_name(a->mode),
		       a->pins[0] ? "pinned in " :
				    "held by the kernel (no bpffs to pin in)",
		       a->pins);
	printf("generation %lld: %lld table entries (%lld classify, %lld rewrite)\n",
	       a->generation, a->table.entries, a->table.classify,
	       a->table.rewrite);
}

/* A cyclic union goes to stderr: refused, or updated anyway (--force). */
static void print_cycle(const json_t *cycle, bool updated)
{
	json_t *e;
	size_t i;

	fprintf(stderr,
		"%s: the union of the attached and the new rules has "
		"a cyclic buffer dependency of %zu buffers:\n",
		updated ? "Warning" : "Error", json_array_size(cycle));
	json_array_foreach(cycle, i, e)
		fprintf(stderr,
			"  %s prio %lld -> %s prio %lld  (tag %lld -> %lld, %s rules)\n",
			jget_str(e, "from"), jget_int(e, "from_priority"),
			jget_str(e, "to"), jget_int(e, "to_priority"),
			jget_int(e, "tag"), jget_int(e, "new_tag"),
			jget_str(e, "rules"));
	if (!updated)
		fprintf(stderr,
			"not updated: while switches change over, this "
			"cycle can deadlock (--force to update anyway)\n");
}

static void print_update(const struct dp_opts *o, const struct dp_report *rep)
{
	const struct dp_update_report *u = &rep->update;
	const struct dp_union_report *un = &u->union_;

	if (un->checked && !un->acyclic)
		print_cycle(un->cycle, u->updated);
	if (!u->updated)
		return;
	printf("switch %s: generation %lld live: %lld table entries (%lld classify, "
	       "%lld rewrite), built and swapped in %.1f ms\n",
	       o->name, u->generation, u->table.entries, u->table.classify,
	       u->table.rewrite, 1e3 * u->swap_seconds);
	if (un->checked)
		printf("union of old and new rules: %s (%lld buffers, %lld "
		       "dependencies%s)\n",
		       un->acyclic ? "no cyclic buffer dependency" :
				     "CYCLIC, forced",
		       un->buffers, un->dependencies,
		       un->incremental ? " reached from the changed rules" :
					 "");
	else
		printf("union check skipped (--force, no links)\n");
}

/* show prints the document that -j and the metrics read. */
static void print_counters(json_t *arr, const char *dir)
{
	json_t *c;
	size_t i;

	json_array_foreach(arr, i, c)
		printf("    %-3s tag %2lld %-8s %12lld packets %14lld bytes\n",
		       dir, jget_int(c, "tag"),
		       jget_bool(c, "lossless") ? "lossless" : "lossy",
		       jget_int(c, "packets"), jget_int(c, "bytes"));
}

static void print_port(json_t *port)
{
	json_t *v;
	const char *key;

	printf("  port %s (%s, ifindex %lld)\n", jget_str(port, "port"),
	       jget_str(port, "ifname"), jget_int(port, "ifindex"));
	print_counters(json_object_get(port, "in"), "in");
	print_counters(json_object_get(port, "out"), "out");
	printf("    lossy:");
	json_object_foreach(json_object_get(port, "lossy"), key, v)
		if (json_integer_value(v))
			printf(" %s %lld", key, json_integer_value(v));
	printf("  pfc %lld  pause %lld  non-ip %lld\n",
	       jget_int(port, "pfc_frames"), jget_int(port, "pause_frames"),
	       jget_int(port, "non_ip"));
	if (json_object_get(port, "samples"))
		printf("    demoted samples: %lld taken, %lld lost\n",
		       jget_int(json_object_get(port, "samples"), "taken"),
		       jget_int(json_object_get(port, "samples"), "lost"));
}

/* The last packets demoted off the ELP, oldest first: their flows. */
static void print_samples(json_t *arr)
{
	json_t *v;
	size_t i;

	if (json_array_size(arr))
		printf("demoted (no_rewrite), the last %zu sampled:\n",
		       json_array_size(arr));
	json_array_foreach(arr, i, v)
		printf("  %7.3fs ago  in %-8s out %-8s tag %2lld  %s %s:%lld -> "
		       "%s:%lld  %lld bytes\n",
		       jget_real(v, "age_seconds"), jget_str(v, "in_port"),
		       jget_str(v, "out_port"), jget_int(v, "tag"),
		       jget_int(v, "proto") == 6  ? "tcp" :
		       jget_int(v, "proto") == 17 ? "udp" :
						    "ip",
		       jget_str(v, "src"), jget_int(v, "sport"),
		       jget_str(v, "dst"), jget_int(v, "dport"),
		       jget_int(v, "bytes"));
}

/* The flower data path's own lines of a port: its filters, what runs. */
static void print_flower_port(json_t *port, long long gen)
{
	json_t *run = json_object_get(port, "running");
	json_t *in = json_object_get(run, "ingress");
	json_t *out = json_object_get(run, "egress");

	printf("    filters %lld, %lld in hardware", jget_int(port, "filters"),
	       jget_int(port, "in_hw"));
	if (json_is_integer(json_object_get(port, "ingress_block")))
		printf("; ingress: tc block %lld's",
		       jget_int(port, "ingress_block"));
	if (json_is_integer(json_object_get(port, "egress_block")))
		printf("; egress: tc block %lld's",
		       jget_int(port, "egress_block"));
	if (!json_is_integer(in) || !json_is_integer(out) ||
	    json_integer_value(in) != (gen & 1) ||
	    json_integer_value(out) != (gen & 1))
		printf("; NOT on generation %lld's chains (an interrupted "
		       "command: the next update or detach repairs it)",
		       gen);
	printf("\n");
}

/*
 * --shared-blocks: a block's counters are its ports' together, which no
 * port's lines above include: said here, once a block.
 */
static void print_blocks(json_t *blocks, long long gen)
{
	json_t *b, *v, *run;
	const char *key;
	size_t i, k;

	json_array_foreach(blocks, i, b) {
		printf("  tc block %lld (%s of", jget_int(b, "block"),
		       jget_str(b, "direction"));
		json_array_foreach(json_object_get(b, "ports"), k, v)
			printf(" %s", json_string_value(v));
		printf("): counters of all its ports together\n");
		print_counters(json_object_get(b, "in"), "in");
		print_counters(json_object_get(b, "out"), "out");
		printf("    lossy:");
		json_object_foreach(json_object_get(b, "lossy"), key, v)
			if (json_integer_value(v))
				printf(" %s %lld", key, json_integer_value(v));
		printf("\n");
		run = json_object_get(b, "running");
		printf("    filters %lld, %lld in hardware%s\n",
		       jget_int(b, "filters"), jget_int(b, "in_hw"),
		       json_is_integer(run) &&
				       json_integer_value(run) == (gen & 1) ?
			       "" :
			       "; NOT on the generation's chains (an "
			       "interrupted command: the next update or "
			       "detach repairs it)");
	}
}

static void print_show(const struct dp_opts *o, const struct dp_report *rep)
{
	json_t *j = rep->json, *port, *v, *tab = json_object_get(j, "table");
	json_t *rules = json_object_get(j, "rules");
	size_t i;

	bool flower = !strcmp(jget_str(j, "datapath"), "flower");

	printf("switch %s  generation %lld  %s  table: %lld entries (%lld classify, "
	       "%lld rewrite)\n",
	       jget_str(j, "switch"), jget_int(j, "generation"),
	       flower ? (jget_bool(j, "offload") ? "flower, offloaded" :
						   "flower") :
	       !strcmp(jget_str(j, "datapath"), "dcb") ? "dcb" :
							 jget_str(j, "mode"),
	       jget_int(tab, "entries"), jget_int(tab, "classify"),
	       jget_int(tab, "rewrite"));
	printf("rules %s\n", jget_str(j, "rules_file"));
	json_array_foreach(json_object_get(j, "ports"), i, port) {
		print_port(port);
		if (flower)
			print_flower_port(port, jget_int(j, "generation"));
	}
	print_blocks(json_object_get(j, "blocks"), jget_int(j, "generation"));
	print_samples(json_object_get(j, "demoted_samples"));
	json_array_foreach(json_object_get(rules, "classify"), i, v)
		printf("  classify in %-8s tag %2lld -> priority %lld\n",
		       jget_str(v, "in"), jget_int(v, "tag"),
		       jget_int(v, "priority"));
	json_array_foreach(json_object_get(rules, "rewrite"), i, v)
		printf("  rewrite  tag %2lld in %-8s out %-8s -> tag %lld\n",
		       jget_int(v, "tag"), jget_str(v, "in"),
		       jget_str(v, "out"), jget_int(v, "new_tag"));
}

static void print_detach(const struct dp_opts *o, const struct dp_report *rep)
{
	const struct dp_detach_report *d = &rep->detach;

	if (d->leftover)
		printf("switch %s: detached (what an interrupted command left)\n",
		       o->name);
	else if (d->detached)
		printf("switch %s: detached from %d ports%s\n", o->name,
		       d->ports,
		       d->restored ?
			       "; net.ipv4.ip_forward_update_priority restored" :
			       "");
}

static int show(const struct dp_opts *o, struct dp_report *rep)
{
	return dp_switch_json(o, &rep->json);
}

/*
 * An update's buffers (the rules twice, the table, the record: 0.5 MB
 * each at 100,000 rules) come from the heap and go back to it, so later
 * ones reuse pages already faulted in instead of mapping fresh ones: this
 * process's heap, so the command sets it, not the data plane.
 */
static int update(const struct dp_opts *o, struct dp_report *rep)
{
	mallopt(M_MMAP_THRESHOLD, 64 << 20);
	mallopt(M_TRIM_THRESHOLD, 128 << 20);
	return dp_switch_update(o, rep);
}

static int help(int argc, char **argv);

static const struct dp_verb verbs[] = {
	{ .name = "switch attach",
	  .words = "NAME RULES",
	  .maps = true,
	  .run = dp_switch_attach,
	  .print = print_attach,
	  .help = help },
	{ .name = "switch update",
	  .words = "NAME RULES",
	  .run = update,
	  .print = print_update,
	  .help = help },
	{ .name = "switch show",
	  .words = "NAME",
	  .json = true,
	  .run = show,
	  .print = print_show,
	  .help = help },
	{ .name = "switch detach",
	  .words = "NAME",
	  .run = dp_switch_detach,
	  .print = print_detach,
	  .help = help },
};

static int do_attach(int argc, char **argv)
{
	return dp_cli_run(argc, argv, &verbs[0]);
}

static int do_update(int argc, char **argv)
{
	return dp_cli_run(argc, argv, &verbs[1]);
}

static int do_show(int argc, char **argv)
{
	return dp_cli_run(argc, argv, &verbs[2]);
}

static int do_detach(int argc, char **argv)
{
	return dp_cli_run(argc, argv, &verbs[3]);
}

static int pack_write(const char *in, const char *out_path)
{
	struct outfile out;
	struct rules *r;
	json_t *doc = NULL, *links;
	int ret = EXIT_RUNTIME, bad;

	if (rules_bin_is(in)) {
		input_err(in, 0,
			  "compiled rules already: pack reads a rules "
			  "document (JSON)");
		return EXIT_USAGE;
	}
	r = rules_load(in, &doc);
	if (!r)
		return EXIT_USAGE;
	links = json_object_get(doc, "links");
	bad = rules_bin_links_ok(links);
	if (bad >= 0) {
		input_err(in, 0,
			  "links[%d]: expected [\"node:port\", \"node:port\"] "
			  "(names of at most %d bytes)",
			  bad, RULES_BIN_MAX_NAME);
		ret = EXIT_USAGE;
	} else if (!outfile_open(&out, out_path)) {
		ret = rules_bin_write(out.f, r, links) ? EXIT_RUNTIME : EXIT_OK;
		if (outfile_close(&out, ret == EXIT_OK))
			ret = EXIT_RUNTIME; /* p_err'd */
		else if (ret)
			p_err("cannot write %s: %s", out_path, strerror(EIO));
	}
	if (ret == EXIT_OK && json_output)
		json_emit(json_pack("{s:s,s:s,s:i}", "rules", in, "output",
				    out_path, "switches", r->nsw));
	rules_free(r);
	json_decref(doc);
	return ret;
}

static const char *pack_out; /* one pack per process */

static const struct opt pack_opts[] = {
	OPT_STR("-o", &pack_out, "FILE", "pack: where the compiled rules go"),
	OPT_STR("--output", &pack_out, "FILE", "the same as -o"),
	{ 0 }
};

static int help(int argc, char **argv)
{
	struct opt *opts;

	if (json_output) {
		json_emit(json_null());
		return 0;
	}
	dp_cli_usage(stderr, verbs, ARRAY_SIZE(verbs));
	fprintf(stderr,
		"       %1$s [-j] switch pack RULES.json { -o | --output } FILE\n"
		"       %1$s [-j] switch export NAME RULES [PORT=IFNAME ...] [OPTIONS]\n"
		"       %1$s [-j] switch check NAME RULES --datapath { bpf | flower | dcb } [PORT=IFNAME ...] [--strict]\n"
		"where  RULES := { RULES.json | FILE of switch pack }\n"
		"\n"
		"Runs switch NAME's rules in tc programs on its ports, in this network\n"
		"namespace. attach loads the programs first on ingress and egress of\n"
		"every port the rules list (port names are interface names unless\n"
		"PORT=IFNAME maps them), with tcx where the kernel has it, else cls_bpf\n"
		"(--mode forces one), and sets net.ipv4.ip_forward_update_priority=0.\n"
		"update swaps in new rules atomically, after checking that the union\n"
		"of the attached and the new rules is deadlock-free over the links of\n"
		"the rules file (\"links\") or of --topo; exit 1 if it is not, unless\n"
		"--force. show prints rules and counters; detach removes it all.\n"
		"pack writes the rules and links of RULES.json in compiled form,\n"
		"which attach and update read (by its magic) without any JSON.\n"
		"export writes the rules as tc flower filters ('switch export help').\n"
		"Programs, maps and state are pinned in DIR/NAME (DIR: --bpf-root,\n"
		"$TAGGER_BPF_ROOT, or %2$s); the programs keep running\n"
		"after tagger exits.\n"
		"\n"
		"OPTIONS:\n",
		bin_name, DP_DEFAULT_ROOT);
	opts = dp_cli_opts("switch");
	opts_usage_with(stderr, opts, pack_opts);
	free(opts);
	return 0;
}

static int do_pack(int argc, char **argv)
{
	char *pos[1];
	int got;

	if (argc >= 1 && is_help(argv[0]))
		return help(0, NULL);
	pack_out = NULL;
	if (opts_parse(pack_opts, argc, argv, pos, 1, &got))
		return usage_help(help);
	if (got != 1 || !pack_out)
		return usage_err(help, "pack takes RULES.json and -o FILE");
	return pack_write(pos[0], pack_out);
}

int do_switch(int argc, char **argv)
{
	static const struct cmd cmds[] = {
		{ "attach", do_attach },
		{ "update", do_update },
		{ "show", do_show },
		{ "detach", do_detach },
		{ "pack", do_pack },
		{ "export", do_switch_export }, /* cmd_switch_export.c */
		{ "check", do_switch_check }, /* cmd_switch_check.c */
		{ "help", help },
		{ 0 },
	};

	return cmd_select(cmds, argc, argv, help);
}
