// SPDX-License-Identifier: GPL-2.0
/* tagger verify TOPO ELP RULES.json: independent check of compiled rules. */
#include <stdio.h>
#include <string.h>

#include "cli/cmd.h"
#include "lib/log.h"
#include "cli/opts.h"
#include "lib/util.h"
#include "analyze/verify.h"

/* One verify per process: the table writes here, the help prints it. */
static struct verify_opts vopts;

static const struct opt verify_opts_table[] = {
	OPT_FLAG("--allow-lossy", &vopts.allow_lossy,
		 "count lossy paths instead of failing on them"),
	OPT_INT("--max-problems", &vopts.max_problems, 1, 1000000, "N",
		"witnesses shown per kind (default 10)"),
	{ 0 }
};

static int help(int argc, char **argv)
{
	fprintf(stderr, "Usage: %s [-j] verify TOPO ELP RULES.json", bin_name);
	opts_synopsis(stderr, verify_opts_table);
	fprintf(stderr,
		"\n"
		"\n"
		"Re-derives the buffer dependency graph over (switch, in-port, priority)\n"
		"from every rewrite rule and every ELP path, and checks that\n"
		"  1. it is acyclic (deadlock-free),\n"
		"  2. every ELP path is lossless at every switch, in every class,\n"
		"  3. no rule and no path hop lowers a tag.\n"
		"Exit 0: all hold. Exit 1: a witness for each problem. Exit 2: bad input.\n"
		"\n"
		"OPTIONS:\n");
	opts_usage(stderr, verify_opts_table);
	return 0;
}

int do_verify(int argc, char **argv)
{
	struct verify_result res;
	char *files[3];
	struct rules *r = NULL;
	struct topo *t = NULL;
	json_t *o;
	struct elp *e = NULL;
	int nfiles, rc = EXIT_USAGE;
	double t0, t1, t2;

	if (argc >= 1 && is_help(argv[0]))
		return help(argc, argv);
	vopts = (struct verify_opts){ 0 };
	if (opts_parse(verify_opts_table, argc, argv, files, 3, &nfiles))
		return usage_help(help);
	if (nfiles != 3)
		return usage_err(help, "verify takes TOPO, ELP and RULES.json");
	t0 = now_seconds();
	if (!(e = elp_parse_files(files[0], files[1], &t)))
		goto out;
	t1 = now_seconds();
	if (!(r = rules_parse(files[2])))
		goto out;
	t2 = now_seconds();
	rc = verify_rules(t, e, r, &vopts, &res);
	pr_info("verify: topology + ELP %.3f s, rules %.3f s, check %.3f s\n",
		t1 - t0, t2 - t1, res.seconds);
	if (rc == EXIT_USAGE)
		goto out;
	if (json_output) {
		o = verify_result_json(t, e, r, &res);
		json_emit(o);
	} else {
		verify_result_print(stdout, t, e, r, &res);
	}
	verify_result_free(&res);
out:
	rules_free(r);
	elp_free(e);
	topo_free(t);
	return rc;
}
