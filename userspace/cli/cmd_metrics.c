// SPDX-License-Identifier: GPL-2.0
/* tagger metrics { show | serve }: the command line; see metrics.h. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli/cmd.h"
#include "cli/cmd_metrics_watch.h"
#include "dataplane/dp_pin.h"
#include "lib/log.h"
#include "cli/opts.h"
#include "metrics/metrics.h"
#include "metrics/metrics_http.h"
#include "fabric/fabric_fib.h"
#include "lib/outfile.h"
#include "lib/util.h"

struct opts {
	struct metrics_nodes nodes;
	const char *root;
	const char *out; /* show */
	const char *listen; /* serve */
	int max_conns; /* serve */
	struct fib_watch_opts watch; /* serve --check-fib */
	struct fib_watch *w;
};

static const struct opt_enum source_names[] = {
	{ "netlink", FIB_SOURCE_NETLINK },
	{ "frr", FIB_SOURCE_FRR },
	{ NULL },
};

/* --switch NAME, --pfc NAME: a node to read, as often as there are. */
static int node_opt(const struct opt *opt, const char *val)
{
	if (!valid_name(val)) {
		p_err("\"%s\" is not a valid node name", val);
		return 1;
	}
	metrics_nodes_add(
		opt->out,
		strcmp(opt->name, "--pfc") ? METRICS_SWITCH : METRICS_PFC, val);
	return 0;
}

/*
 * The options of show (serve false) or serve, into o: NODES, then the
 * verb's own from t[NNODES]; t ends with { 0 }.
 */
#define NNODES 3
#define NOPTS (NNODES + 8)
static void verb_opts(struct opt t[NOPTS + 1], struct opts *o, bool serve)
{
	const struct opt nodes[NNODES] = {
		OPT_FUNC("--switch", node_opt, &o->nodes, "NAME",
			 "a switch to read; repeatable"),
		OPT_FUNC("--pfc", node_opt, &o->nodes, "NAME",
			 "a pause agent to read; repeatable"),
		OPT_STR("--bpf-root", &o->root, "DIR",
			"the switches' bpffs root"),
	};
	const struct opt show[] = {
		OPT_STR("-o", &o->out, "FILE", "write to FILE, atomically"),
		{ 0 },
	};
	const struct opt serve_opts[] = {
		OPT_STR("--listen", &o->listen, "ADDR[:PORT]",
			"the address to listen on"),
		OPT_INT("--max-connections", &o->max_conns, 1,
			METRICS_HTTP_MAX_CONNS_LIMIT, "N",
			"connections open at once"),
		OPT_STR("--check-fib", &o->watch.rules, "RULES",
			"check the routing's paths against RULES on every "
			"route change (with --topo and --inventory)"),
		OPT_STR("--topo", &o->watch.topo, "TOPO",
			"--check-fib: the topology"),
		OPT_STR("--inventory", &o->watch.inventory, "INVENTORY",
			"--check-fib: the switches (tagger-fabric(8))"),
		OPT_ENUM("--source", &o->watch.source, source_names,
			 "--check-fib: ip -j route (netlink, default) or "
			 "FRR's vtysh"),
		OPT_INT("--poll", &o->watch.poll, 1, 86400, "SECONDS",
			"--check-fib: how often ssh switches are read "
			"(default 10)"),
		OPT_INT("--first", &o->watch.first, 0, FIB_WATCH_FIRST_MAX, "N",
			"--check-fib: paths named per kind (default 10)"),
		{ 0 },
	};

	memset(t, 0, (NOPTS + 1) * sizeof(*t));
	memcpy(t, nodes, sizeof(nodes));
	if (serve)
		memcpy(t + NNODES, serve_opts, sizeof(serve_opts));
	else
		memcpy(t + NNODES, show, sizeof(show));
}

static int help(int argc, char **argv)
{
	struct opt t[NOPTS + 1];
	struct opts o;

	if (json_output)
		return 0;
	fprintf(stderr,
		"Usage: %1$s [-j] metrics show [NODES] [-o FILE]\n"
		"       %1$s [-j] metrics serve [--listen ADDR[:PORT]] [--max-connections N] [NODES]\n"
		"                 [--check-fib RULES --topo TOPO --inventory INVENTORY\n"
		"                  [--source netlink|frr] [--poll SECONDS] [--first N]]\n"
		"where  NODES := [--switch NAME]... [--pfc NAME]... [--bpf-root DIR]\n"
		"\n"
		"NODES:\n",
		bin_name);
	verb_opts(t, &o, false);
	t[NNODES] = (struct opt){ 0 };
	opts_usage(stderr, t);
	fprintf(stderr, "show:\n");
	verb_opts(t, &o, false);
	opts_usage(stderr, t + NNODES);
	fprintf(stderr, "serve:\n");
	verb_opts(t, &o, true);
	opts_usage(stderr, t + NNODES);
	fprintf(stderr,
		"\n"
		"The counters of `switch show` and `pfc show` as Prometheus metrics\n"
		"(text format 0.0.4): tagger_switch_* per port, direction, tag and\n"
		"lossy reason, tagger_pfc_* per port and priority, agent health.\n"
		"show prints them once (-o FILE: written whole or not at all, for\n"
		"node_exporter's textfile collector; -j: the metrics as JSON).\n"
		"serve answers GET /metrics on ADDR:PORT (default 127.0.0.1:%1$d; port\n"
		"0: any free one; IPv6 as [ADDR]:PORT) until SIGTERM or SIGINT, and\n"
		"first prints the address it listens on. It serves its connections\n"
		"together, each with its own 5 s budget for its request and 5 s for\n"
		"the answer; a malformed request gets 400 at once. At most N\n"
		"connections are open (default %3$d, 1 to %4$d): one more closes\n"
		"the oldest that has not sent a whole request first. One collection\n"
		"answers every request waiting for it.\n"
		"Without --switch or --pfc: every switch under the bpffs root (DIR,\n"
		"$TAGGER_BPF_ROOT or %2$s) and every pause agent\n"
		"($TAGGER_PFC_DIR or /run/tagger/pfc) of this network namespace,\n"
		"looked up again at every scrape.\n"
		"--check-fib: tagger paths check-fib RULES TOPO INVENTORY on every\n"
		"route or link change in the inventory's netns switches (events,\n"
		"a burst checked once: 0.2 s after its last event, at most 1 s\n"
		"after its first), every --poll seconds for ssh switches, its\n"
		"findings as tagger_paths_* metrics (the first N paths by name).\n"
		"Exit status: 0 ok, 2 bad usage; a node that cannot be read: that of\n"
		"its `show` (serve reports it as tagger_metrics_collect_success 0);\n"
		"3 if -o cannot be written or serve cannot listen.\n"
		"Every option is --name V or --name=V.\n",
		METRICS_HTTP_PORT, DP_DEFAULT_ROOT, METRICS_HTTP_MAX_CONNS,
		METRICS_HTTP_MAX_CONNS_LIMIT);
	return 0;
}

/*
 * NODES and the options of one verb (-o FILE for show, --listen ADDR and
 * --max-connections N for serve): 0, an exit code after the message, or
 * -1 when the help was asked for (exit 0).
 */
static int parse(int argc, char **argv, bool serve, struct opts *o)
{
	struct opt t[NOPTS + 1];

	if (argc && is_help(argv[0]))
		return help(0, NULL) ?: -1;
	verb_opts(t, o, serve);
	if (opts_parse(t, argc, argv, NULL, 0, NULL))
		return usage_help(help);
	if (o->root)
		dp_root_set(o->root);
	o->nodes.discover =
		!o->nodes.n[METRICS_SWITCH] && !o->nodes.n[METRICS_PFC];
	return 0;
}

static void write_out(struct prom *p, FILE *f)
{
	if (!json_output) {
		prom_write(p, f);
		return;
	}
	json_dumpf(prom_json(p), f,
		   (pretty_output ? JSON_INDENT(2) : JSON_COMPACT) |
			   JSON_REAL_PRECISION(17));
	fputc('\n', f);
}

static int do_show(int argc, char **argv)
{
	struct opts o = { 0 };
	struct outfile out;
	struct prom *p;
	int r = parse(argc, argv, false, &o);

	if (r)
		goto done;
	p = prom_new();
	/* All or nothing: a textfile with a node missing would look fine. */
	r = metrics_collect(p, &o.nodes);
	if (!r && !outfile_open(&out, o.out)) {
		write_out(p, out.f);
		r = outfile_close(&out, true) ? EXIT_RUNTIME : 0;
	} else if (!r) {
		r = EXIT_RUNTIME; /* the output file could not be made */
	}
	prom_free(p);
done:
	metrics_nodes_free(&o.nodes);
	return r < 0 ? 0 : r;
}

/* A scrape: what could be read, failed nodes as collect_success 0. */
static int scrape(void *arg, FILE *f)
{
	struct prom *p = prom_new();
	struct opts *o = arg;

	metrics_collect(p, &o->nodes);
	if (o->w)
		fib_watch_metrics(o->w, p);
	prom_write(p, f);
	prom_free(p);
	return 0;
}

static int do_serve(int argc, char **argv)
{
	struct sockaddr_storage ss;
	struct opts o = { .max_conns = METRICS_HTTP_MAX_CONNS,
			  .watch = { .poll = FIB_WATCH_POLL_S,
				     .first = FIB_WATCH_FIRST } };
	char bound[80];
	socklen_t len;
	int r = parse(argc, argv, true, &o), fd;

	if (r)
		goto done;
	if (metrics_http_addr(o.listen ?: "127.0.0.1", &ss, &len)) {
		r = usage_err(help,
			      "What is \"%s\"? (ADDR:PORT, [ADDR]:PORT for "
			      "IPv6, numeric, port 0-65535)",
			      o.listen);
		goto done;
	}
	if (!o.watch.rules != !o.watch.topo ||
	    !o.watch.rules != !o.watch.inventory) {
		r = usage_err(help, "--check-fib, --topo and --inventory go "
				    "together");
		goto done;
	}
	if (o.watch.rules) {
		r = fib_watch_start(&o.watch, &o.w);
		if (r)
			goto done;
	}
	fd = metrics_http_listen(&ss, len, bound, sizeof(bound));
	if (fd < 0) {
		p_err("cannot listen on %s: %s", o.listen ?: "127.0.0.1",
		      strerror(-fd));
		r = EXIT_RUNTIME;
		goto done;
	}
	if (json_output)
		json_emit(json_pack("{s:s,s:s}", "listen", bound, "path",
				    "/metrics"));
	else
		printf("listening on http://%s/metrics\n", bound);
	fflush(stdout);
	r = metrics_http_serve(fd, o.max_conns, scrape, &o);
	close(fd);
	if (r)
		p_err("serving %s: %s", bound, strerror(-r));
	r = r ? EXIT_RUNTIME : 0;
done:
	metrics_nodes_free(&o.nodes);
	return r < 0 ? 0 : r;
}

int do_metrics(int argc, char **argv)
{
	static const struct cmd cmds[] = {
		{ "show", do_show },
		{ "serve", do_serve },
		{ "help", help },
		{ 0 },
	};

	return cmd_select(cmds, argc, argv, help);
}
