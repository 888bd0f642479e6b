// SPDX-License-Identifier: GPL-2.0
/*
 * tagger export sonic { RULES.json | MAPS.json } --switch NAME: one switch's
 * per-port maps as SONiC config_db entries, buffers from the headroom model.
 */
#include <stdio.h>
#include <string.h>

#include "cli/cmd.h"
#include "cli/cmd_maps.h"
#include "cli/cmd_pfc.h"
#include "cli/opts.h"
#include "compile/maps_sonic.h"
#include "compile/rules_maps.h"
#include "lib/log.h"
#include "lib/outfile.h"
#include "lib/util.h"
#include "pfc/pfc_config.h"
#include "pfc/pfc_frame.h"

#define SONIC_DEFAULT_RATE PFC_HW_RATE
#define SONIC_DEFAULT_MTU PFC_HW_MTU
#define SONIC_DEFAULT_CABLE_M PFC_HW_CABLE_M
#define SONIC_DEFAULT_T_PRO_Q PFC_HW_T_PRO_Q
#define SONIC_NOPTS 15

struct sonic_args {
	const char *out, *sw, *pool;
	int max_classes, max_prios, mtu, action;
	uint64_t rate;
	struct pfc_config c; /* cable_m, t_pro */
	struct sonic_buffer b;
};

static const struct opt_enum wd_actions[] = { { "drop", 0 },
					      { "forward", 1 },
					      { "alert", 2 },
					      { NULL } };

static void sonic_opts(struct opt t[SONIC_NOPTS + 1], struct sonic_args *a)
{
	const struct opt opts[] = {
		OPT_STR("--switch", &a->sw, "NAME", "the switch of the rules"),
		OPT_STR("-o", &a->out, "FILE", "write the entries to FILE"),
		OPT_STR("--output", &a->out, "FILE", "the same as -o"),
		OPT_INT("--max-classes", &a->max_classes, 1, MAPS_MAX_CLASSES,
			"N", "traffic classes of the switch (default 8)"),
		OPT_INT("--max-priorities", &a->max_prios, 1, RULES_NPRIOS, "N",
			"lossless priorities of the switch (default 8)"),
		OPT_RATE("--speed", &a->rate, 1000000, "RATE",
			 "the ports' speed (default 100gbit)"),
		OPT_FUNC("--cable-length", pfc_cable_opt, &a->c.cable_m,
			 "METERS", "every port's cable, 5 ns/m (default 5)"),
		OPT_INT("--mtu", &a->mtu, 68, 65535, "BYTES",
			"the MTU: s_MTU = BYTES + 18 (default 9100)"),
		OPT_FUNC("--t-pro", pfc_t_pro_opt, &a->c, "{ TIME | Nq }",
			 "the sender's PAUSE processing (default 60q)"),
		OPT_STR("--pool", &a->pool, "NAME",
			"the lossless buffer pool (default ingress_lossless_pool)"),
		OPT_INT("--dynamic-th", &a->b.dynamic_th, -8, 7, "N",
			"the profile's dynamic_th (default 0)"),
		OPT_ENUM("--pfcwd-action", &a->action, wd_actions,
			 "PFC watchdog action (default drop)"),
		OPT_INT("--pfcwd-detection-ms", &a->b.wd_detect_ms, 100, 5000,
			"MS", "PFC watchdog detection time (default 200)"),
		OPT_INT("--pfcwd-restoration-ms", &a->b.wd_restore_ms, 100,
			60000, "MS", "PFC watchdog restoration (default 200)"),
		{ 0 }
	};

	_Static_assert(ARRAY_SIZE(opts) == SONIC_NOPTS, "SONIC_NOPTS");
	memcpy(t, opts, sizeof(opts));
}

static int help(int argc, char **argv)
{
	struct sonic_args a;
	struct opt t[SONIC_NOPTS + 1];

	sonic_opts(t, &a);
	fprintf(stderr,
		"Usage: %s [-j] export sonic { RULES.json | MAPS.json } --switch NAME\n"
		"                   [ { -o | --output } FILE ] [ OPTIONS ]\n"
		"       %s export help\n"
		"\n"
		"sonic: the switch's per-port maps (see `%s maps`: from the rules, or\n"
		"a maps document) as SONiC config_db\n"
		"entries: DSCP_TO_TC_MAP, TC_TO_DSCP_MAP, TC_TO_QUEUE_MAP,\n"
		"TC_TO_PRIORITY_GROUP_MAP, PORT_QOS_MAP, CABLE_LENGTH, BUFFER_PROFILE,\n"
		"BUFFER_PG and PFC_WD, the lossless profile from the headroom model\n"
		"(see `%s pfc headroom`): xoff = headroom, xon = r t_pro,\n"
		"size = xon + xoff. The document names the device's ports and\n"
		"buffer pool and is merged into its config_db.\n",
		bin_name, bin_name, bin_name, bin_name);
	opts_usage(stderr, t);
	fprintf(stderr,
		"Without -o the entries go to stdout (unless -j: a summary).\n"
		"Exit 0; 1 SONiC cannot express the switch's maps (the refusal says\n"
		"why); 2 bad input or usage.\n");
	return 0;
}

static int fill_json(FILE *f, const void *arg)
{
	return json_dumpf((const json_t *)arg, f, JSON_INDENT(1)) ||
	       fputc('\n', f) == EOF;
}

static int sonic_buffer(struct sonic_args *a)
{
	struct pfc_config *c = &a->c;

	if (pfc_port_model(c, a->rate, a->mtu)) {
		p_err("the buffer model has no XON below XOFF at these settings");
		return EXIT_USAGE;
	}
	a->b.rate_bps = a->rate;
	a->b.cable_m = c->cable_m;
	a->b.xon = c->xon[0];
	a->b.headroom = c->headroom[0];
	a->b.pool = a->pool;
	a->b.wd_action = wd_actions[a->action].name;
	return 0;
}

static int do_sonic(int argc, char **argv)
{
	struct sonic_args a = {
		.pool = "ingress_lossless_pool",
		.max_classes = MAPS_DEFAULT_CLASSES,
		.max_prios = RULES_NPRIOS,
		.mtu = SONIC_DEFAULT_MTU,
		.rate = SONIC_DEFAULT_RATE,
		.c = { .cable_m = SONIC_DEFAULT_CABLE_M,
		       .t_pro_quanta = SONIC_DEFAULT_T_PRO_Q },
		.b = { .wd_detect_ms = 200, .wd_restore_ms = 200 },
	};
	struct opt t[SONIC_NOPTS + 1];
	const struct maps_switch *ms;
	struct maps_cli x;
	char *file = NULL, why[512];
	json_t *doc;
	int got, rc, sw;

	if (argc >= 1 && is_help(argv[0]))
		return help(argc, argv);
	sonic_opts(t, &a);
	if (opts_parse(t, argc, argv, &file, 1, &got))
		return usage_help(help);
	if (!got)
		return usage_err(help,
				 "export sonic takes RULES.json or MAPS.json");
	if (!a.sw)
		return usage_err(help, "export sonic needs --switch NAME");
	if (!valid_name(a.pool) || strlen(a.pool) > 64)
		return usage_err(help, "--pool: \"%s\" is not a pool name",
				 a.pool);
	rc = sonic_buffer(&a);
	if (rc)
		return rc;
	rc = maps_cli_load(file, a.max_classes, a.max_prios, false, &x);
	if (rc)
		goto out;
	sw = rules_find_switch(x.r, a.sw);
	if (sw < 0) {
		p_err("%s: switch \"%s\" is not in the rules", file, a.sw);
		rc = EXIT_USAGE;
		goto out;
	}
	ms = maps_find(&x.m, sw);
	if (maps_sonic_refusal(&x.m, ms, why, sizeof(why))) {
		p_err("%s", why);
		if (!json_output && ms->nclasses > x.m.max_classes) {
			fprintf(stderr, "%s: ", bin_name);
			maps_refusal(&x.m, ms, stderr);
		}
		rc = EXIT_PROBLEM;
		goto out;
	}
	doc = maps_sonic_json(&x.m, ms, &a.b);
	if ((a.out || !json_output) && outfile_write(a.out, fill_json, doc))
		rc = EXIT_RUNTIME;
	json_decref(doc);
	if (json_output && !rc)
		json_emit(json_pack("{s:s,s:i,s:i,s:I,s:I,s:I}", "switch", a.sw,
				    "classes", ms->nclasses,
				    "lossless_priorities", ms->nprios,
				    "headroom", (json_int_t)a.b.headroom, "xon",
				    (json_int_t)a.b.xon, "size",
				    (json_int_t)(a.b.xon + a.b.headroom)));
out:
	maps_cli_free(&x);
	return rc;
}

static int export_help(int argc, char **argv)
{
	return help(argc, argv);
}

int do_export(int argc, char **argv)
{
	static const struct cmd cmds[] = { { "sonic", do_sonic },
					   { "help", export_help },
					   { 0 } };

	return cmd_select(cmds, argc, argv, export_help);
}
