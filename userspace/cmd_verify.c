// SPDX-License-Identifier: GPL-2.0
/* tagger verify TOPO ELP RULES.json: independent check of compiled rules. */
#include <stdio.h>
#include <string.h>

#include "cmd.h"
#include "log.h"
#include "util.h"
#include "verify.h"

static int help(int argc, char **argv)
{
	fprintf(stderr,
		"Usage: %s [-j] verify TOPO ELP RULES.json [--allow-lossy] [--max-problems N]\n"
		"\n"
		"Re-derives the buffer dependency graph over (switch, in-port, priority)\n"
		"from every rewrite rule and every ELP path, and checks that\n"
		"  1. it is acyclic (deadlock-free),\n"
		"  2. every ELP path is lossless at every switch, in every class,\n"
		"  3. no rule and no path hop lowers a tag.\n"
		"  --allow-lossy       count lossy paths instead of failing on them\n"
		"  --max-problems N    witnesses shown per kind (default 10)\n"
		"Exit 0: all hold. Exit 1: a witness for each problem. Exit 2: bad input.\n",
		bin_name);
	return 0;
}

int do_verify(int argc, char **argv)
{
	struct verify_opts opts = { 0 };
	struct verify_result res;
	const char *files[3];
	struct rules *r = NULL;
	struct topo *t = NULL;
	struct elp *e = NULL;
	int i, nfiles = 0, rc = EXIT_USAGE;
	unsigned long v;
	double t0, t1, t2;

	if (argc >= 1 && is_help(argv[0]))
		return help(argc, argv);
	for (i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "--allow-lossy")) {
			opts.allow_lossy = true;
		} else if (!strcmp(argv[i], "--max-problems")) {
			if (++i >= argc || !parse_uint(argv[i], 1000000, &v) || !v)
				return usage_err(help, "--max-problems takes a number from 1");
			opts.max_problems = (int)v;
		} else if (argv[i][0] == '-' && argv[i][1]) {
			return usage_err(help, "What is \"%s\"?", argv[i]);
		} else if (nfiles < 3) {
			files[nfiles++] = argv[i];
		} else {
			return usage_err(help, "What is \"%s\"?", argv[i]);
		}
	}
	if (nfiles != 3)
		return usage_err(help, "verify takes TOPO, ELP and RULES.json");
	t0 = now_seconds();
	if (!(e = elp_parse_files(files[0], files[1], &t)))
		goto out;
	t1 = now_seconds();
	if (!(r = rules_parse(files[2])))
		goto out;
	t2 = now_seconds();
	rc = verify_rules(t, e, r, &opts, &res);
	pr_info("verify: topology + ELP %.3f s, rules %.3f s, check %.3f s\n",
		t1 - t0, t2 - t1, res.seconds);
	if (rc == EXIT_USAGE)
		goto out;
	if (json_output)
		json_emit(verify_result_json(t, e, r, &res));
	else
		verify_result_print(stdout, t, e, r, &res);
	verify_result_free(&res);
out:
	rules_free(r);
	elp_free(e);
	topo_free(t);
	return rc;
}
