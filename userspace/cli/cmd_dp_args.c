// SPDX-License-Identifier: GPL-2.0
/* The command line of tagger switch and tagger host; see cmd_dp_args.h. */
#include <net/if.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <bpf/libbpf.h>

#include "cli/cmd.h"
#include "cli/cmd_dp_args.h"
#include "cli/opts.h"
#include "dataplane/dp_pin.h"
#include "lib/log.h"
#include "lib/util.h"

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
static int mode;

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

/* Every option of switch and host; each verb takes those it names. */
static const struct opt all_opts[] = {
	{ "--bpf-root", OPT_FUNC, .func = set_root },
	{ "--mode", OPT_ENUM, .out = &mode, .names = modes },
	{ "--topo", OPT_STR, .out = &o.topo_file },
	{ "--force", OPT_FLAG, .out = &o.force },
	{ "--class-dscp", OPT_STR, .out = &o.class_dscp },
	{ "--udp-dport", OPT_STR, .out = &o.udp_dport },
	{ "--class", OPT_INT, .min = 0, .max = 1 << 30, .out = &o.class_id },
	{ NULL },
};

/* The word w is one of the space-separated words of list. */
static bool listed(const char *list, const char *w)
{
	size_t n = strlen(w);
	const char *p = list;

	while ((p = strstr(p, w))) {
		if ((p == list || p[-1] == ' ') && (p[n] == ' ' || !p[n]))
			return true;
		p += n;
	}
	return false;
}

/* The options of all_opts that allowed names, in *opts (malloc'ed). */
static struct opt *verb_opts(const char *allowed)
{
	struct opt *opts = xcalloc(ARRAY_SIZE(all_opts), sizeof(*opts));
	size_t i, n = 0;

	for (i = 0; all_opts[i].name; i++)
		if (listed(allowed, all_opts[i].name))
			opts[n++] = all_opts[i];
	return opts; /* ends with a zeroed entry */
}

static bool is_map(const char *a)
{
	const char *eq = strchr(a, '=');

	return eq && eq != a && eq[1] && a[0] != '-';
}

/* NAME, IFNAME and the maps' IFNAMEs become bpffs path components. */
static int check_names(char **pos, int npos, const char *words,
		       int (*help)(int, char **))
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
static int split_words(char **pos, int got, int npos, const char *words,
		       const char *allowed, int (*help)(int, char **))
{
	int i;

	if (got < npos)
		return usage_err(help, "expected %s", words);
	for (i = npos; i < got; i++) {
		if (!listed(allowed, "PORT=IFNAME") || !is_map(pos[i]))
			return usage_err(help, "What is \"%s\"?", pos[i]);
		o.maps[o.nmaps++] = pos[i];
	}
	o.name = pos[0];
	if (strstr(words, "IFNAME")) {
		o.ifname = pos[1];
		o.rules_file = pos[2];
	} else {
		o.rules_file = pos[1];
	}
	return check_names(pos, npos, words, help);
}

int dp_cli_run(int argc, char **argv, const char *words, const char *allowed,
	       const struct dp_verb *v)
{
	struct dp_report rep = { 0 };
	int npos = 1, got = 0, ret = EXIT_USAGE;
	char **pos = xcalloc(argc + 1, sizeof(char *));
	struct opt *opts = verb_opts(allowed);
	const char *w;

	for (w = words; (w = strchr(w, ' ')); w++)
		npos++;
	memset(&o, 0, sizeof(o));
	o.class_id = -1;
	o.maps = xcalloc(argc + 1, sizeof(char *));
	mode = DP_MODE_AUTO;
	if (argc >= 1 && is_help(argv[0])) {
		ret = v->help(argc, argv);
		goto out;
	}
	if (opts_parse(opts, argc, argv, pos, argc, &got)) {
		if (!json_output)
			v->help(0, NULL);
		goto out;
	}
	if (split_words(pos, got, npos, words, allowed, v->help))
		goto out;
	o.mode = mode;
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
