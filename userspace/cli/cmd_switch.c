// SPDX-License-Identifier: GPL-2.0
/* tagger switch { attach | update | show | detach }: the command line. */
#include <stdio.h>
#include <string.h>

#include "cli/cmd.h"
#include "cli/cmd_dp_args.h"
#include "dataplane/dp_pin.h"
#include "dataplane/dp_switch.h"
#include "lib/log.h"

static int help(int argc, char **argv)
{
	if (json_output) {
		json_emit(json_null());
		return 0;
	}
	fprintf(stderr,
		"Usage: %1$s switch attach NAME RULES.json [PORT=IFNAME ...] [--mode MODE]\n"
		"       %1$s switch update NAME RULES.json [--topo FILE] [--force]\n"
		"       %1$s [-j] switch show NAME\n"
		"       %1$s switch detach NAME\n"
		"       (each also takes --bpf-root DIR)\n"
		"where  MODE := { auto | tcx | tc }\n"
		"\n"
		"Runs switch NAME's rules in tc programs on its ports, in this network\n"
		"namespace. attach loads the programs first on ingress and egress of\n"
		"every port the rules list (port names are interface names unless\n"
		"PORT=IFNAME maps them), with tcx where the kernel has it, else cls_bpf\n"
		"(MODE forces one), and sets net.ipv4.ip_forward_update_priority=0.\n"
		"update swaps in new rules atomically, after checking that the union\n"
		"of the attached and the new rules is deadlock-free over the links of\n"
		"the rules file (\"links\") or of --topo; exit 1 if it is not, unless\n"
		"--force. show prints rules and counters; detach removes it all.\n"
		"Programs, maps and state are pinned in DIR/NAME (DIR: --bpf-root,\n"
		"$TAGGER_BPF_ROOT, or %2$s); the programs keep running\n"
		"after tagger exits.\n",
		bin_name, DP_DEFAULT_ROOT);
	return 0;
}

static int do_attach(int argc, char **argv)
{
	return dp_cli_run(argc, argv, "NAME RULES.json",
			  "--bpf-root --mode PORT=IFNAME", dp_switch_attach,
			  help);
}

static int do_update(int argc, char **argv)
{
	return dp_cli_run(argc, argv, "NAME RULES.json",
			  "--bpf-root --topo --force", dp_switch_update, help);
}

static int do_show(int argc, char **argv)
{
	return dp_cli_run(argc, argv, "NAME", "--bpf-root", dp_switch_show,
			  help);
}

static int do_detach(int argc, char **argv)
{
	return dp_cli_run(argc, argv, "NAME", "--bpf-root", dp_switch_detach,
			  help);
}

int do_switch(int argc, char **argv)
{
	static const struct cmd cmds[] = {
		{ "attach", do_attach }, { "update", do_update },
		{ "show", do_show },	 { "detach", do_detach },
		{ "help", help },	 { 0 },
	};

	return cmd_select(cmds, argc, argv, help);
}
