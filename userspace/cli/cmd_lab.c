// SPDX-License-Identifier: GPL-2.0
/*
 * tagger lab plan: what vmlab needs to build a topology out of network
 * namespaces: one /31 per link (10.0.0.0/8 + port id; a link's two ports
 * have ids 2k and 2k+1), host addresses, and the routes of every node.
 */
#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cmd.h"
#include "lab/lab_routes.h"
#include "lib/log.h"
#include "cli/opts.h"
#include "lib/util.h"

static void port_addr(int p, char *buf)
{
	struct in_addr a = { htonl((10u << 24) + (unsigned)p) };

	inet_ntop(AF_INET, &a, buf, INET_ADDRSTRLEN);
}

static json_t *plan_json(const struct topo *t, const struct lab_routes *r)
{
	json_t *ports = json_array(), *routes = json_array(),
	       *hosts = json_object();
	char a[INET_ADDRSTRLEN], b[INET_ADDRSTRLEN];
	int p, i, k;

	for (p = 0; p < t->nports; p++) {
		int q = t->ports[p].peer;

		port_addr(p, a);
		port_addr(q, b);
		json_array_append_new(
			ports,
			json_pack("{s:s,s:s,s:s,s:s,s:s,s:s}", "node",
				  t->nodes[port_node(t, p)].name, "port",
				  t->ports[p].name, "addr", a, "peer_addr", b,
				  "peer_node", t->nodes[port_node(t, q)].name,
				  "peer_port", t->ports[q].name));
	}
	for (i = 0; i < t->nnodes; i++)
		if (!topo_is_switch(t, i) && t->nodes[i].nports) {
			port_addr(t->nodes[i].ports[0], a);
			json_object_set_new(hosts, t->nodes[i].name,
					    json_string(a));
		}
	for (i = 0; i < r->n; i++) {
		json_t *nh = json_array();

		for (k = 0; k < r->r[i].nports; k++) {
			p = r->r[i].ports[k];
			port_addr(t->ports[p].peer, b);
			json_array_append_new(nh, json_pack("{s:s,s:s}", "port",
							    t->ports[p].name,
							    "via", b));
		}
		port_addr(t->nodes[r->r[i].dst].ports[0], a);
		json_array_append_new(
			routes, json_pack("{s:s,s:s,s:s,s:o}", "node",
					  t->nodes[r->r[i].node].name, "dst",
					  t->nodes[r->r[i].dst].name,
					  "dst_addr", a, "nexthops", nh));
	}
	return json_pack("{s:o,s:o,s:o,s:i}", "ports", ports, "hosts", hosts,
			 "routes", routes, "unroutable", r->unroutable);
}

/* The plain lines: what plan_json() holds, from the same topology and routes. */
static void plan_print(const struct topo *t, const struct lab_routes *r)
{
	char a[INET_ADDRSTRLEN], b[INET_ADDRSTRLEN];
	int p, i, k;

	for (p = 0; p < t->nports; p++) {
		int q = t->ports[p].peer;

		port_addr(p, a);
		port_addr(q, b);
		printf("addr %s %s %s/31 %s %s %s\n",
		       t->nodes[port_node(t, p)].name, t->ports[p].name, a, b,
		       t->nodes[port_node(t, q)].name, t->ports[q].name);
	}
	for (i = 0; i < t->nnodes; i++)
		if (!topo_is_switch(t, i) && t->nodes[i].nports) {
			port_addr(t->nodes[i].ports[0], a);
			printf("host %s %s\n", t->nodes[i].name, a);
		}
	for (i = 0; i < r->n; i++) {
		port_addr(t->nodes[r->r[i].dst].ports[0], a);
		printf("route %s %s", t->nodes[r->r[i].node].name, a);
		for (k = 0; k < r->r[i].nports; k++) {
			p = r->r[i].ports[k];
			port_addr(t->ports[p].peer, b);
			printf(" %s,%s", t->ports[p].name, b);
		}
		printf("\n");
	}
	if (r->unroutable)
		pr_warn("%d path(s) have no detour around the failed links\n",
			r->unroutable);
}

/* Link addresses are derived from port ids: check the pairing holds. */
static bool ports_paired(const struct topo *t)
{
	int p;

	for (p = 0; p < t->nports; p++)
		if (t->ports[p].peer != (p ^ 1))
			return false;
	return t->nports < (1 << 23);
}

struct down_ctx {
	const struct topo *t;
	bool *down;
};

static int mark_down(const struct topo *t, const char *arg, bool *down)
{
	char *s = xstrdup(arg), *c = strchr(s, ':');
	int n, p = PORT_NONE;

	if (c) {
		*c = 0;
		n = topo_find_node(t, s);
		if (n >= 0)
			p = topo_find_port(t, n, c + 1);
	}
	free(s);
	if (p < 0) {
		p_err("no port \"%s\" in %s (NODE:PORT)", arg, t->file);
		return -1;
	}
	down[p] = true;
	return 0;
}

/* --down N:P, as often as links have failed. */
static int down_opt(const struct opt *o, const char *val)
{
	const struct down_ctx *d = o->out;

	return mark_down(d->t, val, d->down) ? 1 : 0;
}

/* The options of one plan (one per process); the help prints them. */
static struct {
	const char *paths;
	bool shortest;
	struct down_ctx d;
} arg;

static const struct opt plan_opts[] = {
	OPT_STR("--paths", &arg.paths, "ELP",
		"route each path's destination host along the path"),
	OPT_FLAG("--shortest", &arg.shortest,
		 "all shortest paths, ECMP where several"),
	OPT_FUNC("--down", down_opt, &arg.d, "NODE:PORT",
		 "the link of port PORT of node NODE has failed (repeats)"),
	{ 0 }
};

static int help(int argc, char **argv)
{
	fprintf(stderr,
		"Usage: %s [-j] lab plan TOPO { --paths ELP | --shortest } [--down NODE:PORT]...\n"
		"\n"
		"Addresses and routes for a namespace lab of TOPO (used by vmlab).\n"
		"With --paths, paths crossing a down link are rerouted locally by the\n"
		"node in front of it (shortest detour avoiding nodes already crossed,\n"
		"highest layer first).\n"
		"Output: 'addr NODE PORT ADDR/31 PEER_ADDR PEER_NODE PEER_PORT' per port,\n"
		"'host NODE ADDR' per host, 'route NODE DST_ADDR PORT,VIA ...' per route.\n"
		"\n"
		"OPTIONS of plan:\n",
		bin_name);
	opts_usage(stderr, plan_opts);
	return 0;
}

static int do_plan(int argc, char **argv)
{
	bool *down;
	struct lab_routes r;
	struct elp *e = NULL;
	struct topo *t;
	int rc = EXIT_OK;

	if (argc < 1 || is_help(argv[0]))
		return argc < 1 ? usage_err(help, "plan takes TOPO") :
				  help(argc, argv);
	t = topo_parse(argv[0]);
	if (!t)
		return EXIT_USAGE;
	if (!ports_paired(t)) {
		p_err("%s: unexpected port numbering", argv[0]);
		topo_free(t);
		return EXIT_USAGE;
	}
	down = xcalloc(t->nports, sizeof(*down));
	arg.paths = NULL;
	arg.shortest = false;
	arg.d = (struct down_ctx){ t, down };
	if (opts_parse(plan_opts, argc - 1, argv + 1, NULL, 0, NULL))
		rc = usage_help(help);
	if (rc == EXIT_OK && !!arg.paths == arg.shortest)
		rc = usage_err(help, "give one of --paths ELP and --shortest");
	if (rc == EXIT_OK && arg.paths && !(e = elp_parse(t, arg.paths)))
		rc = EXIT_USAGE;
	if (rc == EXIT_OK) {
		if (e ? lab_routes_from_paths(t, e, down, &r) :
			(lab_routes_shortest(t, down, &r), 0)) {
			rc = EXIT_USAGE;
		} else {
			if (json_output)
				json_emit(plan_json(t, &r));
			else
				plan_print(t, &r);
			lab_routes_free(&r);
		}
	}
	if (e)
		elp_free(e);
	free(down);
	topo_free(t);
	return rc;
}

static int do_lab_help(int argc, char **argv)
{
	return help(argc, argv);
}

int do_lab(int argc, char **argv)
{
	static const struct cmd cmds[] = { { "plan", do_plan }, { 0 } };

	return cmd_select(cmds, argc, argv, do_lab_help);
}
