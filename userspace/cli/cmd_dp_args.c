// SPDX-License-Identifier: GPL-2.0
/* The command line of tagger switch and tagger host; see cmd_dp_args.h. */
#include <net/if.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/libbpf.h>

#include "cli/cmd.h"
#include "cli/cmd_dp_args.h"
#include "cli/cmd_pfc.h"
#include "cli/opts.h"
#include "dataplane/dp_pin.h"
#include "lib/dcb_port.h"
#include "lib/log.h"
#include "lib/util.h"
#include "pfc/pfc_config.h"

/*
 * The kernel's dev_valid_name(): 1-15 characters, not "." or "..", no '/',
 * ':' or white space. An IFNAME becomes a bpffs path component (a host's
 * pin directory, a switch's link pins): "." or ".." would name another
 * node's pins.
 */
bool dp_valid_ifname(const char *s)
{
	size_t n = strlen(s);

	if (!n || n >= IF_NAMESIZE || !strcmp(s, ".") || !strcmp(s, ".."))
		return false;
	return !strpbrk(s, "/: \t\n\v\f\r");
}

/* One command per process: the table's targets are this one's options. */
static struct dp_opts o;
static int mode, datapath;

static int set_root(const struct opt *op, const char *val)
{
	dp_root_set(val);
	return 0;
}

static const struct opt_enum modes[] = {
	{ "auto", DP_MODE_AUTO },
	{ "tcx", DP_MODE_TCX },
	{ "tc", DP_MODE_TC },
	{ NULL },
};

static const struct opt_enum datapaths[] = {
	{ "bpf", DP_DATAPATH_BPF },
	{ "flower", DP_DATAPATH_FLOWER },
	{ "dcb", DP_DATAPATH_DCB },
	{ NULL },
};

/*
 * Every option of switch and host, one line each: the verbs that take it
 * ("host attach", or "switch *" for every verb of switch, separated by
 * ", ") and the option (opts.h's macros, writing o or mode). A new option
 * is one line here, and a field of struct dp_opts for its value; the
 * verbs' usage lines and the helps' OPTIONS print it from here.
 */
static const struct dp_opt {
	const char *verbs;
	struct opt opt;
} all_opts[] = {
	{ "switch *, host *",
	  OPT_FUNC("--bpf-root", set_root, NULL, "DIR",
		   "the BPF file system directory of the pins") },
	{ "switch attach, host attach",
	  OPT_ENUM("--mode", &mode, modes,
		   "tcx if the kernel has it, else tc (default auto)") },
	{ "switch attach",
	  OPT_ENUM("--datapath", &datapath, datapaths,
		   "where the rules run: bpf (tc programs, default), flower "
		   "(tc flower filters, for switch ASICs) or dcb (the ports' "
		   "DCB maps)") },
	{ "switch attach",
	  OPT_FLAG(
		  "--offload", &o.offload,
		  "flower: in the switch ASIC only (skip_sw); refused where the "
		  "driver cannot") },
	{ "switch attach",
	  OPT_FLAG("--shared-blocks", &o.shared_blocks,
		   "flower: ports with the same filters share one tc block "
		   "(counted per block)") },
	{ "switch attach",
	  OPT_RATE("--speed", &o.dcb.speed_bps, 1000000, "RATE",
		   "dcb: the ports' speed, for PFC's delay and the buffers "
		   "(default 100gbit)") },
	{ "switch attach",
	  OPT_FUNC("--cable-length", pfc_cable_opt, &o.dcb.cable_m, "METERS",
		   "dcb: every port's cable, 5 ns/m (default 5)") },
	{ "switch attach",
	  OPT_INT("--mtu", &o.dcb.mtu, 68, 65535, "BYTES",
		  "dcb: the largest frame is BYTES + 18 (default 9100)") },
	{ "switch update",
	  OPT_STR("--topo", &o.topo_file, "FILE",
		  "the union check's links (for rules without)") },
	{ "switch update",
	  OPT_FLAG("--force", &o.force, "update even if the union is cyclic") },
	{ "switch show",
	  OPT_FLAG("--packed", &o.packed,
		   "-j: the attached rules, packed, in base64 (\"packed\")") },
	{ "host attach",
	  OPT_STR("--class-dscp", &o.class_dscp, "LIST",
		  "selector: these DSCP codepoints (26,34-35)") },
	{ "host attach",
	  OPT_STR("--udp-dport", &o.udp_dport, "PORT[-PORT]",
		  "selector: UDP packets to this port or range") },
	{ "host attach", OPT_INT("--class", &o.class_id, 0, 1 << 30, "N",
				 "the host's tag for lossless class N") },
	{ NULL },
};

/* The entry "obj verb" or "obj *" of the list verbs names which. */
static bool takes(const char *verbs, const char *which)
{
	const char *sp = strchr(which, ' '), *p = verbs, *end;
	size_t objlen = sp ? (size_t)(sp - which) : strlen(which);
	size_t n;

	for (; *p; p = *end ? end + 2 : end) {
		end = strstr(p, ", ") ?: p + strlen(p);
		n = end - p;
		if (n == strlen(which) && !strncmp(p, which, n))
			return true;
		/* "obj *" takes every verb; "obj" asks for any verb of obj */
		if (n > objlen && !strncmp(p, which, objlen) &&
		    p[objlen] == ' ' &&
		    (!sp || (n == objlen + 2 && p[objlen + 1] == '*')))
			return true;
	}
	return false;
}

struct opt *dp_cli_opts(const char *which)
{
	struct opt *opts = xcalloc(ARRAY_SIZE(all_opts), sizeof(*opts));
	size_t i, n = 0;

	for (i = 0; all_opts[i].verbs; i++)
		if (takes(all_opts[i].verbs, which))
			opts[n++] = all_opts[i].opt;
	return opts; /* ends with a zeroed entry */
}

void dp_cli_usage_line(FILE *f, const char *lead, const struct dp_verb *v)
{
	struct opt *opts = dp_cli_opts(v->name);

	fprintf(f, "%s%s %s%s %s%s", lead, bin_name, v->json ? "[-j] " : "",
		v->name, v->words, v->maps ? " [PORT=IFNAME ...]" : "");
	opts_synopsis(f, opts);
	fprintf(f, "\n");
	free(opts);
}

void dp_cli_usage(FILE *f, const struct dp_verb *verbs, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		dp_cli_usage_line(f, i ? "       " : "Usage: ", &verbs[i]);
}

static bool is_map(const char *a)
{
	const char *eq = strchr(a, '=');

	return eq && eq != a && eq[1] && a[0] != '-';
}

/* NAME, IFNAME and the maps' IFNAMEs become bpffs path components. */
static int check_names(char **pos, const char *words, int (*help)(int, char **))
{
	int i;

	if (!valid_name(pos[0]))
		return usage_err(help, "\"%s\" is not a valid node name",
				 pos[0]);
	if (strstr(words, "IFNAME") && !dp_valid_ifname(pos[1]))
		return usage_err(help,
				 "\"%s\" is not a valid interface name (1-15 "
				 "characters, no '/', not \".\" or \"..\")",
				 pos[1]);
	for (i = 0; i < o.nmaps; i++)
		if (!dp_valid_ifname(strchr(o.maps[i], '=') + 1))
			return usage_err(
				help,
				"\"%s\": not a valid interface name after '='",
				o.maps[i]);
	return 0;
}

/*
 * The positional words: the first npos are words, the rest PORT=IFNAME
 * maps where the verb takes them.
 */
static int split_words(char **pos, int got, int npos, const struct dp_verb *v)
{
	const char *words = v->words;
	int i;

	if (got < npos)
		return usage_err(v->help, "expected %s", words);
	for (i = npos; i < got; i++) {
		if (!v->maps || !is_map(pos[i]))
			return usage_err(v->help, "What is \"%s\"?", pos[i]);
		o.maps[o.nmaps++] = pos[i];
	}
	o.name = pos[0];
	if (strstr(words, "IFNAME")) {
		o.ifname = pos[1];
		o.rules_file = pos[2];
	} else {
		o.rules_file = pos[1];
	}
	return check_names(pos, words, v->help);
}

/*
 * --speed, --cable-length, --mtu: the headroom model (tagger pfc
 * headroom's, a hardware sender: PAUSE processing of PFC_HW_T_PRO_Q
 * quanta) gives PFC's delay, 2 r t_wire in bits, and a lossless
 * priority's buffer, XON + headroom as export sonic sizes it. 0, or
 * EXIT_USAGE after p_err.
 */
static int dcb_model(struct dp_dcb_model *m)
{
	struct pfc_config c = { .t_pro_quanta = PFC_HW_T_PRO_Q };
	uint16_t bits;

	m->set = m->speed_bps || m->cable_m != UINT32_MAX || m->mtu;
	if (!m->set)
		return 0;
	if (o.datapath != DP_DATAPATH_DCB) {
		p_err("--speed, --cable-length and --mtu are for --datapath dcb");
		return EXIT_USAGE;
	}
	m->speed_bps = m->speed_bps ?: PFC_HW_RATE;
	m->cable_m = m->cable_m != UINT32_MAX ? m->cable_m : PFC_HW_CABLE_M;
	m->mtu = m->mtu ?: PFC_HW_MTU;
	c.cable_m = m->cable_m;
	if (dcb_pfc_delay_bits(m->speed_bps,
			       (uint64_t)m->cable_m * PFC_NS_PER_M, &bits)) {
		p_err("--cable-length %u at --speed %llu bit/s: PFC's delay "
		      "(the cable's round trip in bits) exceeds its 16 bits",
		      m->cable_m, (unsigned long long)m->speed_bps);
		return EXIT_USAGE;
	}
	if (pfc_port_model(&c, m->speed_bps, m->mtu) ||
	    c.xon[0] + c.headroom[0] > UINT32_MAX) {
		p_err("the headroom model has no buffer at these settings");
		return EXIT_USAGE;
	}
	m->delay_bits = bits;
	m->buffer_bytes = c.xon[0] + c.headroom[0];
	return 0;
}

int dp_cli_run(int argc, char **argv, const struct dp_verb *v)
{
	struct dp_report rep = { 0 };
	int npos = 1, got = 0, ret = EXIT_USAGE;
	char **pos = xcalloc(argc + 1, sizeof(char *));
	struct opt *opts = dp_cli_opts(v->name);
	const char *w;

	for (w = v->words; (w = strchr(w, ' ')); w++)
		npos++;
	memset(&o, 0, sizeof(o));
	o.class_id = -1;
	o.dcb.cable_m = UINT32_MAX; /* given or not */
	o.maps = xcalloc(argc + 1, sizeof(char *));
	mode = DP_MODE_AUTO;
	datapath = DP_DATAPATH_BPF;
	if (argc >= 1 && is_help(argv[0])) {
		ret = v->help(argc, argv);
		goto out;
	}
	if (opts_parse(opts, argc, argv, pos, argc, &got)) {
		if (!json_output)
			v->help(0, NULL);
		goto out;
	}
	if (split_words(pos, got, npos, v))
		goto out;
	o.mode = mode;
	o.datapath = datapath;
	if (o.offload && o.datapath != DP_DATAPATH_FLOWER) {
		p_err("--offload is for --datapath flower");
		goto out;
	}
	if (o.shared_blocks && o.datapath != DP_DATAPATH_FLOWER) {
		p_err("--shared-blocks is for --datapath flower");
		goto out;
	}
	if (dcb_model(&o.dcb))
		goto out;
	log_libbpf();
	ret = v->run(&o, &rep);
	if (rep.json && json_output)
		json_emit(json_incref(rep.json));
	else if (rep.json)
		v->print(&o, &rep);
	json_decref(rep.json);
out:
	free(o.maps);
	free(opts);
	free(pos);
	return ret;
}
