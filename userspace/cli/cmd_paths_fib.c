// SPDX-License-Identifier: GPL-2.0
/* tagger paths from-fib, diff, check-fib; see cmd_paths_fib.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cmd.h"
#include "cli/cmd_paths_fib.h"
#include "cli/opts.h"
#include "compile/compile.h"
#include "fabric/fabric_fib.h"
#include "fabric/fib_check.h"
#include "fabric/fib_walk.h"
#include "lib/json_get.h"
#include "lib/lines.h"
#include "lib/log.h"
#include "lib/outfile.h"
#include "lib/strmap.h"
#include "lib/util.h"
#include "model/elp.h"
#include "model/rules.h"

/* The options of one command (one per process); the help prints them. */
static struct {
	const char *out;
	const char *hosts;
	int source;
	int max;
	const char *topo;
	struct opt_list prios;
} arg;

static const struct opt_enum source_names[] = {
	{ "netlink", FIB_SOURCE_NETLINK },
	{ "frr", FIB_SOURCE_FRR },
	{ NULL },
};

#define FIB_OPTS                                                           \
	OPT_STR("--hosts", &arg.hosts, "H1,H2|all",                        \
		"the hosts to walk between (default all)"),                \
		OPT_ENUM("--source", &arg.source, source_names,            \
			 "ip -j route (netlink, default) or FRR's vtysh"), \
		OPT_INT("--max-per-pair", &arg.max, 1, 1000000000, "N",    \
			"paths per pair at most (default 4096)")

static const struct opt from_fib_opts[] = {
	FIB_OPTS,
	OPT_STR("-o", &arg.out, "ELP",
		"write the paths to ELP, whole or not at all (-: stdout)"),
	{ 0 }
};

static const struct opt diff_opts[] = {
	OPT_STR("--topo", &arg.topo, "TOPO",
		"compare the paths of TOPO (ports as TOPO needs them) "
		"instead of the lines"),
	{ 0 }
};

static const struct opt check_fib_opts[] = {
	FIB_OPTS,
	OPT_LIST("--priorities", &arg.prios, 0, 7, "LIST",
		 "lossless priorities available (default: all but the "
		 "rules' lossy and cnp ones)"),
	OPT_STR("-o", &arg.out, "ELP",
		"also write the routing's paths to ELP (-: stdout)"),
	{ 0 }
};

void paths_fib_help(void)
{
	fprintf(stderr,
		"       %1$s paths from-fib TOPO INVENTORY [--hosts H1,H2|all] "
		"[--source netlink|frr] [-o ELP]\n"
		"       %1$s paths diff A B [--topo TOPO]\n"
		"       %1$s paths check-fib RULES TOPO INVENTORY [--hosts "
		"H1,H2|all] [--source netlink|frr] [--priorities LIST]\n",
		bin_name);
}

static const char fib_about[] =
	"\n"
	"Reads every switch's forwarding table through INVENTORY's transport\n"
	"(tagger-fabric(8)): ip -j route show table main and ip -j -6 route\n"
	"(--source netlink), or vtysh's show ip route json, show ipv6 route\n"
	"json and show interface json (--source frr; tagger_vtysh,\n"
	"tagger_vty_socket). A host's address is the one its switch routes\n"
	"out of the port to it. For every ordered pair of hosts, every path\n"
	"longest-prefix matches give, every ECMP next hop taken, a next hop\n"
	"interface being the topology's port of that name. Loops and black\n"
	"holes (no route, a reject route, an interface that is no port, a\n"
	"link down, a switch not in INVENTORY) are named on stderr, not\n"
	"written as paths. See tagger-paths(8), FROM-FIB.\n";

static int from_fib_help(int argc, char **argv)
{
	if (json_output)
		return 0;
	fprintf(stderr,
		"Usage: %s [-j] paths from-fib TOPO INVENTORY [--hosts "
		"H1,H2|all] [--source netlink|frr] [--max-per-pair N] "
		"[-o ELP]\n",
		bin_name);
	fprintf(stderr, "%s", fib_about);
	fprintf(stderr,
		"\nWrites the paths (ELP format, grouped by destination) to "
		"ELP,\n"
		"stdout by default; with -j prints a summary instead.\n"
		"\nOPTIONS:\n");
	opts_usage(stderr, from_fib_opts);
	return 0;
}

static int diff_help(int argc, char **argv)
{
	if (json_output)
		return 0;
	fprintf(stderr,
		"Usage: %s [-j] paths diff A B [--topo TOPO]\n"
		"\n"
		"The paths only in A (\"- PATH\"), only in B (\"+ PATH\"), and "
		"the\n"
		"counts. A path is a line of node names (blanks and comments\n"
		"aside), or with --topo TOPO the ports it takes. Exit 0 when "
		"the\n"
		"sets are equal, 1 when they differ.\n"
		"\nOPTIONS:\n",
		bin_name);
	opts_usage(stderr, diff_opts);
	return 0;
}

static int check_fib_help(int argc, char **argv)
{
	if (json_output)
		return 0;
	fprintf(stderr,
		"Usage: %s [-j] paths check-fib RULES TOPO INVENTORY [--hosts "
		"H1,H2|all] [--source netlink|frr] [--max-per-pair N] "
		"[--priorities LIST] [-o ELP]\n",
		bin_name);
	fprintf(stderr, "%s", fib_about);
	fprintf(stderr,
		"\nNames the paths routing uses now that RULES do not keep\n"
		"lossless (a walk of the rules from the source host's tag, as\n"
		"tagger verify walks them), and those that would need more\n"
		"lossless priorities than LIST has (tagger compile of the\n"
		"routing's paths). Exit 1 if any.\n"
		"\nOPTIONS:\n");
	opts_usage(stderr, check_fib_opts);
	return 0;
}

/* --hosts: NULL for all, else per node (the caller frees). */
static int hosts_sel(const struct topo *t, const char *s, bool **out)
{
	char *copy, *save = NULL, *tok;
	bool *sel;
	int n;

	*out = NULL;
	if (!s || !strcmp(s, "all"))
		return 0;
	sel = xcalloc(t->nnodes + 1, sizeof(bool));
	copy = xstrdup(s);
	for (tok = strtok_r(copy, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		n = topo_find_node(t, tok);
		if (n < 0 || topo_is_switch(t, n)) {
			p_err("--hosts: \"%s\" is not a host of %s", tok,
			      t->file);
			free(copy);
			free(sel);
			return EXIT_USAGE;
		}
		sel[n] = true;
	}
	free(copy);
	*out = sel;
	return 0;
}

/* The routing's paths between the selected hosts of t, by INVENTORY. */
static int routing_paths(const struct topo *t, const char *inv_path,
			 struct fib_walk_out *out)
{
	struct fib_walk_in in = { .t = t, .max_per_pair = arg.max };
	struct fabric_inv inv;
	struct fib **fibs;
	bool *sel;
	int rc;

	if (hosts_sel(t, arg.hosts, &sel))
		return EXIT_USAGE;
	if (fabric_inv_load(inv_path, &inv)) {
		free(sel);
		return EXIT_USAGE;
	}
	rc = fabric_fib_read(&inv, t, arg.source, &fibs);
	fabric_inv_free(&inv);
	if (rc) {
		free(sel);
		return rc;
	}
	in.fib = fibs;
	in.host = sel;
	fib_walk(&in, out);
	fabric_fib_free(fibs, t->nnodes);
	free(sel);
	return EXIT_OK;
}

/* Problems on stderr, one a line, with the walks each ended. */
static void print_problems(const struct fib_walk_out *o)
{
	json_t *p;
	size_t i;

	json_array_foreach(o->problems, i, p)
		pr_warn("%s (%lld walk%s)\n", jget_str(p, "text"),
			(long long)jget_int(p, "walks"),
			jget_int(p, "walks") == 1 ? "" : "s");
	if (o->truncated)
		pr_warn("%lld pair%s stopped at --max-per-pair paths\n",
			(long long)o->truncated, o->truncated == 1 ? "" : "s");
}

static json_t *walk_json(const struct fib_walk_out *o)
{
	return json_pack("{s:i,s:I,s:I,s:I,s:i,s:i,s:O}", "paths", o->e->npaths,
			 "pairs", (json_int_t)o->pairs, "unreachable",
			 (json_int_t)o->unreachable, "truncated",
			 (json_int_t)o->truncated, "loops", o->loops,
			 "black_holes", o->holes, "problems", o->problems);
}

static int write_elp(const struct topo *t, const struct elp *e,
		     const char *file)
{
	struct outfile out;
	int bad;

	if (outfile_open(&out, file))
		return EXIT_USAGE;
	bad = elp_write(out.f, t, e);
	return outfile_close(&out, !bad) || bad ? EXIT_USAGE : EXIT_OK;
}

static void reset_args(void)
{
	memset(&arg, 0, sizeof(arg));
	arg.source = FIB_SOURCE_NETLINK;
}

int do_paths_from_fib(int argc, char **argv)
{
	double t0 = now_seconds();
	struct fib_walk_out o;
	struct topo *t;
	char *pos[2];
	json_t *sum;
	int got, rc;

	if (argc >= 1 && is_help(argv[0]))
		return from_fib_help(0, NULL);
	reset_args();
	if (opts_parse(from_fib_opts, argc, argv, pos, 2, &got))
		return usage_help(from_fib_help);
	if (got != 2)
		return usage_err(from_fib_help,
				 "from-fib takes TOPO and INVENTORY");
	if (arg.out && !strcmp(arg.out, "-"))
		arg.out = NULL;
	t = topo_parse(pos[0]);
	if (!t)
		return EXIT_USAGE;
	rc = routing_paths(t, pos[1], &o);
	if (rc) {
		topo_free(t);
		return rc;
	}
	if (!json_output)
		print_problems(&o);
	if (!json_output || arg.out)
		rc = write_elp(t, o.e, arg.out);
	if (!rc && json_output) {
		sum = walk_json(&o);
		json_object_set_new(sum, "source",
				    json_string(source_names[arg.source].name));
		json_object_set_new(sum, "seconds",
				    json_real(now_seconds() - t0));
		json_emit(sum);
	}
	fib_walk_free(&o);
	topo_free(t);
	return rc;
}

/* A path set as texts, each once, in file order. */
struct pset {
	char **p;
	int n, cap;
	struct strmap idx;
};

static void pset_add(struct pset *s, char *text)
{
	if (!strmap_add(&s->idx, text, s->n)) {
		free(text);
		return;
	}
	VEC_PUSH(s->p, s->n, s->cap, text);
}

static void pset_free(struct pset *s)
{
	int i;

	for (i = 0; i < s->n; i++)
		free(s->p[i]);
	free(s->p);
	strmap_free(&s->idx);
}

/* The lines of file, their words joined by one blank. */
static int pset_lines(const char *file, struct pset *s)
{
	struct lines lr;
	size_t len, k;
	char *text;
	int rc, i;

	if (lines_open(&lr, file))
		return EXIT_USAGE;
	while ((rc = lines_next(&lr)) >= 0) {
		for (i = 0, len = 0; i < lr.ntok; i++)
			len += strlen(lr.tok[i]) + 1;
		text = xmalloc(len);
		for (i = 0, k = 0; i < lr.ntok; i++)
			k += sprintf(text + k, "%s%s", i ? " " : "", lr.tok[i]);
		pset_add(s, text);
	}
	lines_close(&lr);
	return rc == LINES_ERR ? EXIT_USAGE : EXIT_OK;
}

static int pset_elp(const struct topo *t, const char *file, struct pset *s)
{
	struct elp *e = elp_parse(t, file);
	int i;

	if (!e)
		return EXIT_USAGE;
	for (i = 0; i < e->npaths; i++)
		pset_add(s, elp_path_text(t, e, i));
	elp_free(e);
	return EXIT_OK;
}

/* The paths of a not in b, as a JSON array of texts. */
static json_t *only_in(const struct pset *a, const struct pset *b)
{
	json_t *j = json_array();
	int i;

	for (i = 0; i < a->n; i++)
		if (strmap_get(&b->idx, a->p[i]) < 0)
			json_array_append_new(j, json_string(a->p[i]));
	return j;
}

int do_paths_diff(int argc, char **argv)
{
	struct pset s[2] = { 0 };
	struct topo *t = NULL;
	json_t *oa, *ob, *v;
	char *pos[2];
	int got, rc = EXIT_OK, k;
	size_t i;

	if (argc >= 1 && is_help(argv[0]))
		return diff_help(0, NULL);
	reset_args();
	if (opts_parse(diff_opts, argc, argv, pos, 2, &got))
		return usage_help(diff_help);
	if (got != 2)
		return usage_err(diff_help, "diff takes A and B");
	if (arg.topo) {
		t = topo_parse(arg.topo);
		if (!t)
			return EXIT_USAGE;
	}
	for (k = 0; k < 2 && !rc; k++) {
		strmap_init(&s[k].idx);
		rc = t ? pset_elp(t, pos[k], &s[k]) : pset_lines(pos[k], &s[k]);
	}
	if (rc) {
		for (k = 0; k < 2; k++)
			if (s[k].idx.keys)
				pset_free(&s[k]);
		topo_free(t);
		return rc;
	}
	oa = only_in(&s[0], &s[1]);
	ob = only_in(&s[1], &s[0]);
	rc = json_array_size(oa) || json_array_size(ob) ? EXIT_PROBLEM :
							  EXIT_OK;
	if (json_output) {
		json_emit(json_pack("{s:s,s:s,s:b,s:i,s:i,s:i,s:O,s:O}", "a",
				    pos[0], "b", pos[1], "equal", !rc,
				    "a_paths", s[0].n, "b_paths", s[1].n,
				    "common", s[0].n - (int)json_array_size(oa),
				    "only_a", oa, "only_b", ob));
	} else {
		json_array_foreach(oa, i, v)
			printf("- %s\n", json_string_value(v));
		json_array_foreach(ob, i, v)
			printf("+ %s\n", json_string_value(v));
		printf("%zu path%s only in %s, %zu only in %s, %d in both\n",
		       json_array_size(oa), json_array_size(oa) == 1 ? "" : "s",
		       pos[0], json_array_size(ob), pos[1],
		       s[0].n - (int)json_array_size(oa));
	}
	json_decref(oa);
	json_decref(ob);
	pset_free(&s[0]);
	pset_free(&s[1]);
	topo_free(t);
	return rc;
}

static void print_check(const char *rules, const struct fib_walk_out *o,
			json_t *nl, int64_t walks, json_t *pr)
{
	json_t *v;
	size_t i;

	json_array_foreach(nl, i, v)
		printf("%s\n", jget_str(v, "text"));
	printf("%lld of %d path%s the routing uses %s not kept lossless by "
	       "%s\n",
	       (long long)walks, o->e->npaths, o->e->npaths == 1 ? "" : "s",
	       walks == 1 ? "is" : "are", rules);
	json_array_foreach(json_object_get(pr, "first_lossy"), i, v)
		printf("needs more priorities: %s\n", json_string_value(v));
	printf("the routing's paths need %lld lossless priorit%s, %lld "
	       "available%s\n",
	       (long long)jget_int(pr, "needed"),
	       jget_int(pr, "needed") == 1 ? "y" : "ies",
	       (long long)jget_int(pr, "available"),
	       jget_int(pr, "lossy_paths") ? ": some paths stay lossy" : "");
}

int do_paths_check_fib(int argc, char **argv)
{
	struct fib_check c = { 0 };
	struct compile_opts co;
	struct fib_walk_out o;
	struct rules *r;
	struct topo *t;
	json_t *sum;
	char *pos[3];
	int got, rc;
	bool want_out;

	if (argc >= 1 && is_help(argv[0]))
		return check_fib_help(0, NULL);
	reset_args();
	rc = opts_parse(check_fib_opts, argc, argv, pos, 3, &got);
	if (rc || got != 3) {
		free(arg.prios.v);
		return rc ? usage_help(check_fib_help) :
			    usage_err(check_fib_help,
				      "check-fib takes RULES, TOPO and "
				      "INVENTORY");
	}
	want_out = arg.out != NULL;
	if (arg.out && !strcmp(arg.out, "-"))
		arg.out = NULL;
	r = rules_parse(pos[0]);
	t = r ? topo_parse(pos[1]) : NULL;
	compile_opts_init(&co);
	if (!t || fib_check_prios(r, arg.prios.v, arg.prios.n, &co)) {
		rules_free(r);
		topo_free(t);
		free(arg.prios.v);
		return EXIT_USAGE;
	}
	rc = routing_paths(t, pos[2], &o);
	if (rc)
		goto out;
	if (!json_output)
		print_problems(&o);
	if (want_out)
		rc = write_elp(t, o.e, arg.out);
	if (!rc)
		rc = fib_check(t, o.e, r, &co, &c);
	if (!rc) {
		rc = c.walks || c.lossy ? EXIT_PROBLEM : EXIT_OK;
		if (json_output) {
			sum = walk_json(&o);
			json_object_set_new(sum, "rules", json_string(pos[0]));
			json_object_set_new(
				sum, "source",
				json_string(source_names[arg.source].name));
			json_object_set_new(sum, "ok", json_boolean(!rc));
			json_object_set_new(sum, "not_lossless",
					    json_integer(c.walks));
			json_object_set_new(sum, "not_lossless_paths",
					    json_incref(c.not_lossless));
			json_object_set_new(sum, "priorities",
					    json_incref(c.prios));
			json_emit(sum);
		} else {
			print_check(pos[0], &o, c.not_lossless, c.walks,
				    c.prios);
		}
	}
	fib_check_free(&c);
	fib_walk_free(&o);
out:
	rules_free(r);
	topo_free(t);
	free(arg.prios.v);
	return rc;
}
