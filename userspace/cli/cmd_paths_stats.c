// SPDX-License-Identifier: GPL-2.0
/*
 * tagger paths stats TOPO ELP: a path set's statistics in the shape of the
 * Flattened Clos paper's tables 1 and 2 (analyze/path_stats.c).
 */
#include <stdio.h>

#include "cli/cmd.h"
#include "cli/cmd_fc.h"
#include "lib/log.h"
#include "cli/opts.h"
#include "analyze/path_stats.h"
#include "lib/util.h"

/* stats takes no options: its table is empty, so "-x" is no file name. */
static const struct opt stats_opts[] = { { 0 } };

static int stats_help(int argc, char **argv)
{
	if (json_output) /* main() prints the null */
		return 0;
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
	char *pos[2];

	if (argc >= 1 && is_help(argv[0]))
		return stats_help(argc, argv);
	if (argc != 2)
		return usage_err(stats_help, "paths stats takes TOPO and ELP");
	if (opts_parse(stats_opts, argc, argv, pos, 2, NULL))
		return usage_help(stats_help);
	e = elp_parse_files(pos[0], pos[1], &t);
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
