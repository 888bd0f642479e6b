// SPDX-License-Identifier: GPL-2.0
/*
 * tagger paths fc: edge-disjoint virtual up-down routing, optionally with
 * a failed link rerouted locally; and the shared helpers of the FC kinds
 * (ToR paths to host paths, statistics for the -j summary).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cmd_fc.h"
#include "fc/fc_reroute.h"
#include "fc/fc_route.h"
#include "lib/log.h"
#include "cli/opts.h"
#include "analyze/path_stats.h"
#include "lib/util.h"

const char paths_fc_doc[] =
	"Edge-disjoint virtual up-down routing of Flattened Clos (NSDI 2023,\n"
	"section 3.2): for every ordered ToR pair, the most edge-disjoint paths\n"
	"that are up-down in the virtual layers, with the fewest hops (min-cost\n"
	"max-flow on the directed virtual up-down graph of figure 4c, contracted\n"
	"to physical paths). CBD-free by lemma 4. Virtual layers come from the\n"
	"v<j>p<n> port names of 'tagger topo fc', or from --split L1,..,Lk over\n"
	"each switch's switch-facing ports in natural name order. Paths run\n"
	"between ToRs (--between tors/switches, the default when there are no\n"
	"hosts) or between hosts (every host pair, over its ToRs' paths).\n"
	"--max-paths caps the paths per pair, --threads T routes in parallel\n"
	"(same output). --fail NODE:PORT fails that link and adds, for every\n"
	"path that takes it, the local reroute of section 7.1: the fewest-hop\n"
	"up-down continuation from where the packet is, or a bounce if none.\n"
	"-v prints the statistics of tables 1 and 2 (also in -j).";

/* Hosts hanging off each switch: host egress port, switch port toward it. */
struct tor_hosts {
	int *start; /* nnodes + 1, by node id */
	int *up, *down;
};

static void tor_hosts_build(const struct topo *t, struct tor_hosts *th)
{
	int i, x, n = 0;

	th->start = xcalloc(t->nnodes + 1, sizeof(int));
	th->up = xmalloc((t->nports + 1) * sizeof(int));
	th->down = xmalloc((t->nports + 1) * sizeof(int));
	for (i = 0; i < t->nnodes; i++) {
		const struct topo_node *nd = &t->nodes[i];

		th->start[i] = n;
		if (!topo_is_switch(t, i))
			continue;
		for (x = 0; x < nd->nports; x++) {
			int p = nd->ports[x];

			if (topo_is_switch(t, port_peer_node(t, p)))
				continue;
			th->down[n] = p;
			th->up[n++] = t->ports[p].peer;
		}
	}
	th->start[t->nnodes] = n;
}

static void tor_hosts_free(struct tor_hosts *th)
{
	free(th->start);
	free(th->up);
	free(th->down);
}

static void emit_host_paths(const struct tor_hosts *th, int s, int d,
			    const int32_t *hops, int n, struct path_sink *sink)
{
	int32_t buf[512];
	int a, b;

	if (n + 2 > (int)ARRAY_SIZE(buf))
		return;
	if (n)
		memcpy(buf + 1, hops, n * sizeof(*hops));
	for (a = th->start[s]; a < th->start[s + 1]; a++)
		for (b = th->start[d]; b < th->start[d + 1]; b++) {
			if (a == b)
				continue;
			buf[0] = th->up[a];
			buf[n + 1] = th->down[b];
			sink_emit(sink, buf, n + 2);
		}
}

/*
 * Switch-level paths -> the sink, as they are or as host paths (every
 * host pair over its switches' paths; hosts under one switch get the
 * one-switch path).
 */
int fc_emit(const struct topo *t, const struct elp *e, bool hosts,
	    struct path_sink *sink)
{
	struct tor_hosts th;
	int i;

	if (!hosts) {
		for (i = 0; i < e->npaths; i++)
			sink_emit(sink, elp_hops(e, i), elp_len(e, i));
		return 0;
	}
	tor_hosts_build(t, &th);
	if (th.start[t->nnodes] < 2) {
		p_err("%s: fewer than two hosts to connect", t->file);
		tor_hosts_free(&th);
		return -1;
	}
	for (i = 0; i < t->nnodes; i++)
		emit_host_paths(&th, i, i, NULL, 0, sink);
	for (i = 0; i < e->npaths; i++) {
		const int32_t *h = elp_hops(e, i);
		int n = elp_len(e, i);

		emit_host_paths(&th, port_node(t, h[0]),
				port_peer_node(t, h[n - 1]), h, n, sink);
	}
	tor_hosts_free(&th);
	return 0;
}

bool fc_between_hosts(const struct topo *t, enum gen_between between)
{
	if (between == BETWEEN_AUTO)
		return topo_nswitches(t) < t->nnodes;
	return between == BETWEEN_HOSTS;
}

int fc_layout_opt(const struct topo *t, const char *split, struct fc_layout *L)
{
	char err[512];
	int *arr = NULL, n, rc;

	if (!split) {
		rc = fc_layout_from_names(t, L, err, sizeof(err));
	} else {
		n = split_list(split, 1, 100000, &arr);
		if (n < 2 || n > FC_MAX_LAYERS) {
			p_err("--split wants 2 to %d port counts like 1,2,1, not \"%s\"",
			      FC_MAX_LAYERS, split);
			free(arr);
			return -1;
		}
		rc = fc_layout_from_split(t, arr, n, L, err, sizeof(err));
		free(arr);
	}
	if (rc)
		fprintf(stderr, "%s\n", err);
	return rc;
}

static int find_port(const struct topo *t, const char *spec)
{
	char *copy = xstrdup(spec), *colon = strchr(copy, ':');
	int node, port = -1;

	if (colon) {
		*colon = '\0';
		node = topo_find_node(t, copy);
		if (node >= 0)
			port = topo_find_port(t, node, colon + 1);
	}
	free(copy);
	if (port < 0 || !topo_is_switch(t, port_node(t, port)) ||
	    !topo_is_switch(t, port_peer_node(t, port))) {
		p_err("--fail wants NODE:PORT of a link between two switches, not \"%s\"",
		      spec);
		return -1;
	}
	return port;
}

/* The options of paths fc (paths_fc_run resets them first). */
static struct {
	const char *split, *fail;
	struct fc_route_opts route;
} arg;

const struct opt paths_fc_opts[] = {
	OPT_STR("--split", &arg.split, "L1,..,Lk",
		"virtual layers by port counts, not port names"),
	OPT_INT("--max-paths", &arg.route.max_paths, 1, 512, "N",
		"paths per pair at most"),
	OPT_INT("--threads", &arg.route.threads, 1, 256, "T",
		"threads (same output)"),
	OPT_STR("--fail", &arg.fail, "NODE:PORT",
		"fail that link and add the local reroutes"),
	{ 0 }
};

static json_t *reroute_json(const struct fc_reroute_stats *rs)
{
	return json_pack("{s:i,s:i,s:i,s:i,s:i}", "affected", rs->affected,
			 "updown", rs->updown, "bounced", rs->bounced,
			 "unreachable", rs->unreachable, "max_bounces",
			 rs->max_bounces);
}

int paths_fc_run(const struct topo *t, enum gen_between between,
		 struct path_sink *sink, int argc, char **argv, json_t **extra)
{
	struct fc_reroute_stats rs;
	struct path_stats st;
	struct fc_layout L;
	struct elp *e, *all;
	int fail_port = -1, rc = EXIT_USAGE;
	memset(&arg, 0, sizeof(arg));
	if (opts_parse(paths_fc_opts, argc, argv, NULL, 0, NULL) ||
	    fc_layout_opt(t, arg.split, &L))
		return EXIT_USAGE;
	if (arg.fail && (fail_port = find_port(t, arg.fail)) < 0)
		goto out;
	e = elp_new(NULL);
	fc_route(t, &L, &arg.route, e, &st);
	if (st.min_paths == 0)
		pr_warn("%s: some ToR pairs have no up-down path (use more layers)\n",
			t->file);
	sink->unreachable += st.pairs - st.pairs_with_paths;
	*extra = json_pack("{s:i,s:o}", "layers", L.k, "stats",
			   path_stats_json(&st));
	pr_info("paths fc: %d ToRs, %d virtual layers, %.2f s\n", L.ntors, L.k,
		st.seconds);
	if (log_level >= LOG_INFO && !log_quiet)
		path_stats_print(stderr, &st);
	all = e;
	if (fail_port >= 0) {
		all = elp_new(NULL);
		fc_reroute(t, &L, e, fail_port, all, &rs);
		json_object_set_new(*extra, "reroute", reroute_json(&rs));
		pr_info("paths fc: %d paths take the failed link: %d rerouted up-down, "
			"%d bounced (at most %d bounces), %d unreachable\n",
			rs.affected, rs.updown, rs.bounced, rs.max_bounces,
			rs.unreachable);
	}
	rc = fc_emit(t, all, fc_between_hosts(t, between), sink) ? EXIT_USAGE :
								   EXIT_OK;
	if (all != e)
		elp_free(all);
	elp_free(e);
out:
	fc_layout_free(&L);
	return rc;
}
