// SPDX-License-Identifier: GPL-2.0
/*
 * tagger paths edst: routing inside edge-disjoint spanning trees, the
 * baseline of section 4.1; and tagger paths stats TOPO ELP.
 */
#include <stdio.h>

#include "cmd.h"
#include "edst.h"
#include "fc_cmd.h"
#include "log.h"
#include "opts.h"
#include "path_stats.h"
#include "util.h"

const char paths_edst_doc[] =
	"Edge-disjoint spanning trees (EDST) of the switch graph, found by\n"
	"matroid partitioning (as many as the links allow, or --trees N), and\n"
	"one path per tree for every ordered pair: the unique path inside that\n"
	"tree. CBD-free (no path turns back inside a tree; trees share no\n"
	"links); the baseline of the Flattened Clos paper (TCP Bolt, DF-EDST).\n"
	"Links in no tree stay unused. --between as for fc. -v or -j: the\n"
	"statistics of table 2.";

int paths_edst_run(const struct topo *t, enum gen_between between,
		   struct path_sink *sink, int argc, char **argv, json_t **extra)
{
	int want = 0, k, rc;
	const struct opt opts[] = {
		{ .name = "--trees", .type = OPT_INT, .min = 1, .max = 100000, .out = &want },
		{ 0 }
	};
	struct path_stats st;
	struct edst tr;
	struct elp *e;

	if (opts_parse(opts, argc, argv, NULL, 0, NULL))
		return EXIT_USAGE;
	k = edst_find(t, want, &tr);
	if (!k) {
		p_err("%s: the switches have no spanning tree (not connected)", t->file);
		edst_free(&tr);
		return EXIT_USAGE;
	}
	if (want && k < want)
		pr_warn("%s: only %d edge-disjoint spanning trees\n", t->file, k);
	e = elp_new(NULL);
	edst_route(t, &tr, e, &st);
	*extra = json_pack("{s:i,s:i,s:o}", "trees", k, "unused_links", tr.unused_links,
			   "stats", path_stats_json(&st));
	pr_info("paths edst: %d trees, %d links in none\n", k, tr.unused_links);
	if (log_level >= LOG_INFO && !log_quiet)
		path_stats_print(stderr, &st);
	rc = fc_emit(t, e, fc_between_hosts(t, between), sink) ? EXIT_USAGE : EXIT_OK;
	elp_free(e);
	edst_free(&tr);
	return rc;
}

static int stats_help(int argc, char **argv)
{
	if (json_output) {
		json_emit(json_null());
		return 0;
	}
	fprintf(stderr,
		"Usage: %s [-j] paths stats TOPO ELP\n"
		"\n"
		"Statistics of a path set in the shape of tables 1 and 2 of the\n"
		"Flattened Clos paper, over the ordered pairs of path endpoints\n"
		"(pairs of endpoints with no path count with 0 paths): average number\n"
		"of paths, average path length, average shortest path length (per\n"
		"pair), minimum and maximum number of paths. Lengths are in hops\n"
		"(links); the paper counts switches, one more for ToR-to-ToR paths.\n",
		bin_name);
	return 0;
}

int do_paths_stats(int argc, char **argv)
{
	struct path_stats st;
	struct topo *t;
	struct elp *e;
	double t0 = now_seconds();

	if (argc >= 1 && is_help(argv[0]))
		return stats_help(argc, argv);
	if (argc != 2)
		return usage_err(stats_help, "paths stats takes TOPO and ELP");
	e = elp_parse_files(argv[0], argv[1], &t);
	if (!e)
		return EXIT_USAGE;
	path_stats_elp(t, e, &st);
	st.seconds = now_seconds() - t0;
	if (json_output) {
		json_t *j = path_stats_json(&st);

		json_object_set_new(j, "seconds", json_real(st.seconds));
		json_emit(j);
	} else {
		path_stats_print(stdout, &st);
	}
	elp_free(e);
	topo_free(t);
	return EXIT_OK;
}
