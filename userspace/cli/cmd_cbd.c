// SPDX-License-Identifier: GPL-2.0
/* tagger cbd TOPO ELP: does the path set have a cyclic buffer dependency? */
#include <stdio.h>

#include "analyze/cbd.h"
#include "cli/cmd.h"
#include "lib/log.h"
#include "cli/opts.h"
#include "lib/util.h"

/* cbd takes no options: its table is empty, so "-x" is no file name. */
static const struct opt cbd_opts[] = { { 0 } };

static int help(int argc, char **argv)
{
	fprintf(stderr,
		"Usage: %s [-j] cbd TOPO ELP\n"
		"\n"
		"Builds the link dependency graph of the paths (a link waits on the\n"
		"next link of any path that takes both) and looks for a cycle.\n"
		"Exit 0: CBD-free. Exit 1: CBD, with one cycle and the paths that\n"
		"create each of its dependencies. Exit 2: bad input.\n",
		bin_name);
	return 0;
}

int do_cbd(int argc, char **argv)
{
	struct cbd_witness w;
	struct topo *t;
	struct elp *e;
	double t0 = now_seconds();
	char *pos[2];
	int cbd;

	if (argc >= 1 && is_help(argv[0]))
		return help(argc, argv);
	if (argc != 2)
		return usage_err(help, "cbd takes TOPO and ELP");
	if (opts_parse(cbd_opts, argc, argv, pos, 2, NULL))
		return usage_help(help);
	e = elp_parse_files(pos[0], pos[1], &t);
	if (!e)
		return EXIT_USAGE;
	cbd = cbd_check(t, e, &w);
	if (json_output) {
		json_emit(json_pack(
			"{s:b,s:o,s:i,s:I,s:I,s:f}", "cbd", cbd, "cycle",
			cbd ? cbd_witness_json(t, e, &w) : json_null(), "paths",
			e->npaths, "links", (json_int_t)w.links, "dependencies",
			(json_int_t)w.deps, "seconds", now_seconds() - t0));
	} else if (cbd) {
		printf("CBD: a cycle of %d link dependencies\n", w.len);
		cbd_witness_print(stdout, t, e, &w);
	} else {
		printf("no CBD: %d paths, %lld links, %lld dependencies\n",
		       e->npaths, (long long)w.links, (long long)w.deps);
	}
	cbd_witness_free(&w);
	elp_free(e);
	topo_free(t);
	return cbd ? EXIT_PROBLEM : EXIT_OK;
}
