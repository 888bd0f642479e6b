// SPDX-License-Identifier: GPL-2.0
/*
 * tagger paths edst: routing inside edge-disjoint spanning trees, the
 * baseline of section 4.1.
 */
#include <stdio.h>

#include "cli/cmd.h"
#include "fc/edst.h"
#include "cli/cmd_fc.h"
#include "lib/log.h"
#include "cli/opts.h"
#include "analyze/path_stats.h"
#include "lib/util.h"

const char paths_edst_doc[] =
	"Edge-disjoint spanning trees (EDST) of the switch graph, found by\n"
	"matroid partitioning (as many as the links allow, or --trees N), and\n"
	"one path per tree for every ordered pair: the unique path inside that\n"
	"tree. CBD-free (no path turns back inside a tree; trees share no\n"
	"links); the baseline of the Flattened Clos paper (TCP Bolt, DF-EDST).\n"
	"Links in no tree stay unused. --between as for fc. -v or -j: the\n"
	"statistics of table 2.";

static int want; /* --trees, 0: as many as there are */

const struct opt paths_edst_opts[] = {
	OPT_INT("--trees", &want, 1, 100000, "N",
		"N trees at most (default: as many as the links allow)"),
	{ 0 }
};

int paths_edst_run(const struct topo *t, enum gen_between between,
		   struct path_sink *sink, int argc, char **argv,
		   json_t **extra)
{
	int k, rc;
	struct path_stats st;
	struct edst tr;
	struct elp *e;

	want = 0;
	if (opts_parse(paths_edst_opts, argc, argv, NULL, 0, NULL))
		return EXIT_USAGE;
	k = edst_find(t, want, &tr);
	if (!k) {
		p_err("%s: the switches have no spanning tree (not connected)",
		      t->file);
		edst_free(&tr);
		return EXIT_USAGE;
	}
	if (want && k < want)
		pr_warn("%s: only %d edge-disjoint spanning trees\n", t->file,
			k);
	e = elp_new(NULL);
	edst_route(t, &tr, e, &st);
	*extra = json_pack("{s:i,s:i,s:o}", "trees", k, "unused_links",
			   tr.unused_links, "stats", path_stats_json(&st));
	pr_info("paths edst: %d trees, %d links in none\n", k, tr.unused_links);
	if (log_level >= LOG_INFO && !log_quiet)
		path_stats_print(stderr, &st);
	rc = fc_emit(t, e, fc_between_hosts(t, between), sink) ? EXIT_USAGE :
								 EXIT_OK;
	elp_free(e);
	edst_free(&tr);
	return rc;
}
