// SPDX-License-Identifier: GPL-2.0
/* tagger host { attach | detach }: the command line. */
#include <stdio.h>
#include <stdlib.h>

#include "cli/cmd.h"
#include "cli/cmd_dp_args.h"
#include "cli/opts.h"
#include "dataplane/dp_host.h"
#include "dataplane/dp_pin.h"
#include "lib/json_get.h"
#include "lib/log.h"
#include "lib/util.h"

/* The RDMA device's record, as the host's state keeps it (dp_rdma.h). */
static void print_rdma(const char *name, const json_t *rec)
{
	const char *err = json_string_value(json_object_get(rec, "error"));

	printf("host %s: RDMA %s port %lld: ", name, jget_str(rec, "ibdev"),
	       jget_int(rec, "port"));
	if (err)
		printf("%s", err);
	else
		printf("default RoCE ToS %lld (was %lld)", jget_int(rec, "tos"),
		       jget_int(rec, "prev_tos"));
	printf("; %s\n", jget_str(rec, "dcb"));
}

static void print_attach(const struct dp_opts *o, const struct dp_report *rep)
{
	const struct dp_host_report *h = &rep->host;

	printf("host %s: %s egress (%s): %s leave with tag %d, priority %d\n",
	       o->name, o->ifname, dp_mode_name(h->mode), h->selects, h->tag,
	       h->priority);
	if (h->cnp_tag >= 0)
		printf("host %s: RoCEv2 CNPs leave with tag %d, priority %d\n",
		       o->name, h->cnp_tag, h->cnp_prio);
	if (json_is_object(h->rdma))
		print_rdma(o->name, h->rdma);
}

static void print_detach(const struct dp_opts *o, const struct dp_report *rep)
{
	printf("host %s: detached from %s\n", o->name, o->ifname);
}

static int help(int argc, char **argv);

static const struct dp_verb verbs[] = {
	{ .name = "host attach",
	  .words = "NAME IFNAME RULES.json",
	  .run = dp_host_attach,
	  .print = print_attach,
	  .help = help },
	{ .name = "host detach",
	  .words = "NAME IFNAME",
	  .run = dp_host_detach,
	  .print = print_detach,
	  .help = help },
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
		"\n"
		"Host NAME's packets of the lossless class leave IFNAME with the host's\n"
		"initial tag from the rules (with --class N: its tag for class N) and\n"
		"the priority the first switch classifies that tag into; ECN is kept.\n"
		"The class is what the application sent with one of the DSCP\n"
		"codepoints (--class-dscp), or to the UDP ports (--udp-dport; RoCEv2:\n"
		"4791); every IP packet when no selector is given. Other packets leave\n"
		"as they were sent.\n"
		"Where an RDMA device sits on IFNAME (RoCE bypasses tc), attach also\n"
		"sets the RDMA CM's default RoCE ToS (configfs, tag << 2) and, where\n"
		"the NIC has DCB, trust DSCP and PFC on the lossless priorities;\n"
		"detach puts the ToS back and leaves DCB as set.\n"
		"Pins live in DIR/NAME/IFNAME (DIR: --bpf-root, $TAGGER_BPF_ROOT, or\n"
		"%s).\n"
		"\n"
		"OPTIONS:\n",
		DP_DEFAULT_ROOT);
	opts = dp_cli_opts("host");
	opts_usage(stderr, opts);
	free(opts);
	return 0;
}

static int do_attach(int argc, char **argv)
{
	return dp_cli_run(argc, argv, &verbs[0]);
}

static int do_detach(int argc, char **argv)
{
	return dp_cli_run(argc, argv, &verbs[1]);
}

int do_host(int argc, char **argv)
{
	static const struct cmd cmds[] = {
		{ "attach", do_attach },
		{ "detach", do_detach },
		{ "help", help },
		{ 0 },
	};

	return cmd_select(cmds, argc, argv, help);
}
