// SPDX-License-Identifier: GPL-2.0
/* tagger host { attach | detach }: the command line. */
#include <stdio.h>

#include "cli/cmd.h"
#include "cli/cmd_dp_args.h"
#include "dataplane/dp_host.h"
#include "dataplane/dp_pin.h"
#include "lib/json_get.h"
#include "lib/log.h"

static int help(int argc, char **argv)
{
	if (json_output) {
		json_emit(json_null());
		return 0;
	}
	fprintf(stderr,
		"Usage: %1$s host attach NAME IFNAME RULES.json [SELECTOR] [--class N]\n"
		"                        [--mode MODE]\n"
		"       %1$s host detach NAME IFNAME\n"
		"       (each also takes --bpf-root DIR)\n"
		"where  SELECTOR := [--class-dscp DSCP[,DSCP|-DSCP...]] [--udp-dport PORT[-PORT]]\n"
		"       MODE := { auto | tcx | tc }\n"
		"\n"
		"Host NAME's packets of the lossless class leave IFNAME with the host's\n"
		"initial tag from the rules (with --class N: its tag for class N) and\n"
		"the priority the first switch classifies that tag into; ECN is kept.\n"
		"The class is what the application sent with one of the DSCP\n"
		"codepoints, or to the UDP ports (RoCEv2: 4791); every IP packet when\n"
		"no selector is given. Other packets leave as they were sent.\n"
		"Where an RDMA device sits on IFNAME (RoCE bypasses tc), attach also\n"
		"sets the RDMA CM's default RoCE ToS (configfs, tag << 2) and, where\n"
		"the NIC has DCB, trust DSCP and PFC on the lossless priorities;\n"
		"detach puts the ToS back and leaves DCB as set.\n"
		"Pins live in DIR/NAME/IFNAME (DIR: --bpf-root, $TAGGER_BPF_ROOT, or\n"
		"%2$s).\n",
		bin_name, DP_DEFAULT_ROOT);
	return 0;
}

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

static int do_attach(int argc, char **argv)
{
	static const struct dp_verb v = { dp_host_attach, print_attach, help };

	return dp_cli_run(argc, argv, "NAME IFNAME RULES.json",
			  "--bpf-root --mode --class-dscp --udp-dport --class",
			  &v);
}

static int do_detach(int argc, char **argv)
{
	static const struct dp_verb v = { dp_host_detach, print_detach, help };

	return dp_cli_run(argc, argv, "NAME IFNAME", "--bpf-root", &v);
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
