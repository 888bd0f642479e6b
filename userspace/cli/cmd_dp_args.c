// SPDX-License-Identifier: GPL-2.0
/* Argument parsing shared by tagger switch and tagger host; see dp_cli.h. */
#include <net/if.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <bpf/libbpf.h>

#include "cli/cmd.h"
#include "cli/cmd_dp_args.h"
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

static bool allowed_opt(const char *allowed, const char *a)
{
	size_t n = strlen(a);
	const char *p = allowed;

	while ((p = strstr(p, a))) {
		if ((p == allowed || p[-1] == ' ') && (p[n] == ' ' || !p[n]))
			return true;
		p += n;
	}
	return false;
}

static bool is_map(const char *a)
{
	const char *eq = strchr(a, '=');

	return eq && eq != a && eq[1] && a[0] != '-';
}

static int option(int argc, char **argv, int *i, struct dp_opts *o,
		  int (*help)(int, char **))
{
	const char *a = argv[*i];
	unsigned long v;
	int m;

	if (!strcmp(a, "--force")) {
		o->force = true;
		return 0;
	}
	if (*i + 1 >= argc)
		return usage_err(help, "%s needs a value", a);
	a = argv[++*i];
	if (!strcmp(argv[*i - 1], "--bpf-root")) {
		dp_root_set(a);
	} else if (!strcmp(argv[*i - 1], "--mode")) {
		m = dp_mode_parse(a);
		if (m < 0)
			return usage_err(
				help, "What is \"%s\"? (mode: auto, tcx or tc)",
				a);
		o->mode = m;
	} else if (!strcmp(argv[*i - 1], "--topo")) {
		o->topo_file = a;
	} else if (!strcmp(argv[*i - 1], "--class-dscp")) {
		o->class_dscp = a;
	} else if (!strcmp(argv[*i - 1], "--udp-dport")) {
		o->udp_dport = a;
	} else if (!strcmp(argv[*i - 1], "--class")) {
		if (!parse_uint(a, 1 << 30, &v))
			return usage_err(help,
					 "What is \"%s\"? (a class number)", a);
		o->class_id = v;
	}
	return 0;
}

int dp_cli_run(int argc, char **argv, const char *words, const char *allowed,
	       const struct dp_verb *v)
{
	int (*help)(int argc, char **argv) = v->help;
	struct dp_report rep = { 0 };
	int i, np = 0, npos = 1, ret = EXIT_USAGE;
	char **maps = xcalloc(argc + 1, sizeof(char *));
	char *pos[3] = { 0 };
	struct dp_opts o;
	const char *w;

	for (w = words; (w = strchr(w, ' ')); w++)
		npos++;
	memset(&o, 0, sizeof(o));
	o.class_id = -1;
	if (argc >= 1 && is_help(argv[0])) {
		ret = help(argc, argv);
		goto out;
	}
	for (i = 0; i < argc; i++) {
		if (argv[i][0] == '-' && argv[i][1] == '-') {
			if (!allowed_opt(allowed, argv[i])) {
				usage_err(help, "What is \"%s\"?", argv[i]);
				goto out;
			}
			if (option(argc, argv, &i, &o, help))
				goto out;
		} else if (np < npos) {
			pos[np++] = argv[i];
		} else if (allowed_opt(allowed, "PORT=IFNAME") &&
			   is_map(argv[i])) {
			maps[o.nmaps++] = argv[i];
		} else {
			usage_err(help, "What is \"%s\"?", argv[i]);
			goto out;
		}
	}
	if (np != npos) {
		usage_err(help, "expected %s", words);
		goto out;
	}
	if (!valid_name(pos[0])) {
		usage_err(help, "\"%s\" is not a valid node name", pos[0]);
		goto out;
	}
	for (i = 0; i < o.nmaps; i++)
		if (!dp_valid_ifname(strchr(maps[i], '=') + 1)) {
			usage_err(
				help,
				"\"%s\": not a valid interface name after '='",
				maps[i]);
			goto out;
		}
	o.name = pos[0];
	o.maps = maps;
	if (strstr(words, "IFNAME")) {
		if (!dp_valid_ifname(pos[1])) {
			usage_err(help,
				  "\"%s\" is not a valid interface name (1-15 "
				  "characters, no '/', not \".\" or \"..\")",
				  pos[1]);
			goto out;
		}
		o.ifname = pos[1];
		o.rules_file = pos[2];
	} else {
		o.rules_file = pos[1];
	}
	log_libbpf();
	ret = v->run(&o, &rep);
	if (rep.json && json_output)
		json_emit(json_incref(rep.json));
	else if (rep.json)
		v->print(&o, &rep);
	json_decref(rep.json);
out:
	free(maps);
	return ret;
}
