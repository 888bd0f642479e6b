// SPDX-License-Identifier: GPL-2.0
/*
 * tagger topo KIND [OPTIONS] [-o FILE]: write a generated topology.
 *
 * Kinds are a table: a new kind is one line in topo_kinds[] plus its make
 * function (gen_cli.h: parse the kind's own options with opts_parse(), then
 * call the library generator of gen.h or its own).
 */
#include <stdio.h>
#include <string.h>

#include "cli/cmd.h"
#include "cli/cmd_fc.h"
#include "cli/cmd_topo_lldp.h"
#include "cli/gen_cli.h"
#include "lib/log.h"
#include "cli/opts.h"
#include "lib/outfile.h"
#include "lib/util.h"

#define MAX_SIZE 1000000

struct topo_kind {
	const char *name;
	const char *args; /* positional words before the options, or NULL */
	const struct opt *opts; /* the kind's own options */
	const char *usage; /* what follows the kind, when args and opts
			    * cannot say it; NULL: generated from them */
	const char *doc; /* description, one or more lines */
	topo_make_fn *make; /* see gen_cli.h */
};

/*
 * The options of every kind. A kind's table writes here and its make
 * function resets its fields first; the help prints the same tables.
 */
static struct {
	struct clos_opts clos;
	int hosts, leaves, spines;
	uint64_t seed;
} arg;

static const char *out_file;

static const struct opt topo_common[] = {
	OPT_STR("-o", &out_file, "FILE",
		"write to FILE, whole or not at all (-: stdout)"),
	{ 0 }
};

#define HOSTS_OPT(lo, mv, h) OPT_INT("--hosts", &arg.hosts, lo, MAX_SIZE, mv, h)

static const struct opt clos_opts[] = {
	OPT_INT("--pods", &arg.clos.pods, 1, MAX_SIZE, "N", "pods (default 2)"),
	OPT_INT("--tors", &arg.clos.tors, 1, MAX_SIZE, "N",
		"ToRs per pod (default 2)"),
	OPT_INT("--leaves", &arg.clos.leaves, 1, MAX_SIZE, "N",
		"leaves per pod (default 2)"),
	OPT_INT("--spines", &arg.clos.spines, 0, MAX_SIZE, "N",
		"spines (default 2)"),
	OPT_INT("--hosts", &arg.clos.hosts, 0, MAX_SIZE, "N",
		"hosts per ToR (default 1)"),
	OPT_INT("--planes", &arg.clos.planes, 1, MAX_SIZE, "N",
		"spine planes (default 1)"),
	{ 0 }
};

static int make_clos(int argc, char **argv, struct topo **out)
{
	clos_defaults(&arg.clos);
	if (opts_parse(clos_opts, argc, argv, NULL, 0, NULL))
		return EXIT_USAGE;
	*out = topo_gen_clos(&arg.clos);
	return *out ? EXIT_OK : EXIT_USAGE;
}

/* Positional numbers of a kind, e.g. "bcube N K". */
static int numbers(const char *kind, char **pos, int got, int want,
		   const char *const *names, const long *min, int *val)
{
	int i;

	if (got != want) {
		p_err("topo %s wants %d number%s", kind, want,
		      want > 1 ? "s" : "");
		return EXIT_USAGE;
	}
	for (i = 0; i < want; i++)
		if (!opt_number(names[i], pos[i], min[i], MAX_SIZE, &val[i]))
			return EXIT_USAGE;
	return EXIT_OK;
}

static const struct opt fattree_opts[] = {
	HOSTS_OPT(0, "N", "hosts per ToR (default K/2)"),
	{ 0 }
};

static int make_fattree(int argc, char **argv, struct topo **out)
{
	static const char *const names[] = { "K" };
	static const long min[] = { 2 };
	int k, got;
	char *pos[1];

	arg.hosts = -1;
	if (opts_parse(fattree_opts, argc, argv, pos, 1, &got) ||
	    numbers("fattree", pos, got, 1, names, min, &k))
		return EXIT_USAGE;
	*out = topo_gen_fattree(k, arg.hosts < 0 ? k / 2 : arg.hosts);
	return *out ? EXIT_OK : EXIT_USAGE;
}

static const struct opt leafspine_opts[] = {
	OPT_INT("--leaves", &arg.leaves, 1, MAX_SIZE, "N",
		"leaves (default 4)"),
	OPT_INT("--spines", &arg.spines, 0, MAX_SIZE, "N",
		"spines (default 2)"),
	HOSTS_OPT(0, "N", "hosts per leaf (default 1)"),
	{ 0 }
};

static int make_leafspine(int argc, char **argv, struct topo **out)
{
	arg.leaves = 4, arg.spines = 2, arg.hosts = 1;
	if (opts_parse(leafspine_opts, argc, argv, NULL, 0, NULL))
		return EXIT_USAGE;
	*out = topo_gen_leafspine(arg.leaves, arg.spines, arg.hosts);
	return *out ? EXIT_OK : EXIT_USAGE;
}

static const struct opt no_opts[] = { { 0 } };

static int make_bcube(int argc, char **argv, struct topo **out)
{
	static const char *const names[] = { "N", "K" };
	static const long min[] = { 2, 0 };
	int v[2], got;
	char *pos[2];

	if (opts_parse(no_opts, argc, argv, pos, 2, &got) ||
	    numbers("bcube", pos, got, 2, names, min, v))
		return EXIT_USAGE;
	*out = topo_gen_bcube(v[0], v[1]);
	return *out ? EXIT_OK : EXIT_USAGE;
}

static const struct opt random_regular_opts[] = {
	HOSTS_OPT(0, "H", "hosts per switch (default 0)"),
	OPT_U64("--seed", &arg.seed, "S", "seed of the wiring (default 1)"),
	{ 0 }
};

/* N D [--hosts H] [--seed S] of the random regular kinds. */
static int make_random_regular(int argc, char **argv, struct topo **out,
			       const char *kind,
			       struct topo *(*gen)(int, int, int, uint64_t))
{
	static const char *const names[] = { "N", "D" };
	static const long min[] = { 1, 0 };
	int v[2], got;
	char *pos[2];

	arg.hosts = 0, arg.seed = 1;
	if (opts_parse(random_regular_opts, argc, argv, pos, 2, &got) ||
	    numbers(kind, pos, got, 2, names, min, v))
		return EXIT_USAGE;
	*out = gen(v[0], v[1], arg.hosts, arg.seed);
	return *out ? EXIT_OK : EXIT_USAGE;
}

static int make_jellyfish(int argc, char **argv, struct topo **out)
{
	return make_random_regular(argc, argv, out, "jellyfish",
				   topo_gen_jellyfish);
}

static int make_xpander(int argc, char **argv, struct topo **out)
{
	return make_random_regular(argc, argv, out, "xpander",
				   topo_gen_xpander);
}

static const struct opt chain_opts[] = {
	HOSTS_OPT(0, "H", "hosts per switch (default 0)"),
	{ 0 }
};

static int make_chain(int argc, char **argv, struct topo **out, bool ring)
{
	static const char *const names[] = { "N" };
	static const long min[] = { 1 };
	int n, got;
	char *pos[1];

	arg.hosts = 0;
	if (opts_parse(chain_opts, argc, argv, pos, 1, &got) ||
	    numbers(ring ? "ring" : "line", pos, got, 1, names, min, &n))
		return EXIT_USAGE;
	*out = ring ? topo_gen_ring(n, arg.hosts) : topo_gen_line(n, arg.hosts);
	return *out ? EXIT_OK : EXIT_USAGE;
}

static int make_ring(int argc, char **argv, struct topo **out)
{
	return make_chain(argc, argv, out, true);
}

static int make_line(int argc, char **argv, struct topo **out)
{
	return make_chain(argc, argv, out, false);
}

static const struct topo_kind topo_kinds[] = {
	{ "clos", NULL, clos_opts, NULL,
	  "3-tier Clos: per pod --tors ToRs (T1.., layer 0) each linked to the\n"
	  "--leaves leaves (L1.., layer 1) of its pod; leaf j of a pod linked to\n"
	  "every spine (S1.., layer 2) of plane j mod --planes (the spines split\n"
	  "into equal planes); --hosts hosts (h1..) per ToR. Defaults: the Tagger\n"
	  "paper's Clos, 2 pods x (2 ToRs + 2 leaves), 2 spines, 1 host per ToR,\n"
	  "1 plane (T1-T4, L1-L4, S1-S2, h1-h4).",
	  make_clos },
	{ "fattree", "K", fattree_opts, NULL,
	  "k-ary fat-tree: k pods of k/2 ToRs and k/2 aggregation switches (L..),\n"
	  "(k/2)^2 cores (S..) in k/2 planes, k/2 hosts per ToR unless --hosts.\n"
	  "Names and layers as in clos.",
	  make_fattree },
	{ "leafspine", NULL, leafspine_opts, NULL,
	  "2-tier leaf-spine: every leaf (L1.., layer 0) linked to every spine\n"
	  "(S1.., layer 1), --hosts hosts per leaf. Defaults: 4 leaves, 2 spines,\n"
	  "1 host per leaf.",
	  make_leafspine },
	{ "bcube", "N K", no_opts, NULL,
	  "BCube(N,K): N^(K+1) servers s<digits> (hosts with K+1 ports that relay\n"
	  "traffic; port eth<i> to the level-i switch) and K+1 levels of N^K\n"
	  "N-port switches w<level>-<digits>. No layers.",
	  make_bcube },
	{ "jellyfish", "N D", random_regular_opts, NULL,
	  "Jellyfish: a random simple connected D-regular graph of N switches\n"
	  "(sw1..), drawn by Steger-Wormald pairing (asymptotically uniform),\n"
	  "reproducible from --seed (default 1) on every machine; H hosts per\n"
	  "switch (default 0).",
	  make_jellyfish },
	{ "xpander", "N D", random_regular_opts, NULL,
	  "Xpander: a random (N/(D+1))-lift of the complete graph K_(D+1), as in\n"
	  "the Xpander paper: N switches (sw1.., a multiple of D+1) in D+1\n"
	  "meta-nodes of N/(D+1) copies, every pair of meta-nodes joined by a\n"
	  "random perfect matching; simple, connected (a disconnected draw is\n"
	  "redrawn), D-regular, reproducible from --seed (default 1) on every\n"
	  "machine; H hosts per switch (default 0).",
	  make_xpander },
	{ "ring", "N", chain_opts, NULL,
	  "Ring of N >= 3 switches sw1..swN, H hosts per switch (default 0).",
	  make_ring },
	{ "line", "N", chain_opts, NULL,
	  "Line of N switches sw1..swN, H hosts per switch (default 0).",
	  make_line },
	{ "fc", NULL, topo_fc_opts, TOPO_FC_USAGE, topo_fc_doc, topo_fc_make },
	{ 0 }
};

/* What follows the kind on its usage line. */
static void kind_usage(const struct topo_kind *k)
{
	if (k->usage) {
		fprintf(stderr, " %s", k->usage);
		return;
	}
	if (k->args)
		fprintf(stderr, " %s", k->args);
	opts_synopsis(stderr, k->opts);
}

static int help(int argc, char **argv)
{
	const struct topo_kind *k;

	if (json_output) /* main() prints the null */
		return 0;
	fprintf(stderr, "Usage: %s [-j] topo KIND [OPTIONS] [-o FILE]\n",
		bin_name);
	for (k = topo_kinds; k->name; k++) {
		fprintf(stderr, "       %s topo %s", bin_name, k->name);
		kind_usage(k);
		fprintf(stderr, "\n");
	}
	topo_lldp_help();
	fprintf(stderr,
		"\n"
		"Writes the topology text format to FILE (stdout by default). With -j,\n"
		"prints a summary (nodes, switches, hosts, links) instead; the topology\n"
		"then goes only to -o FILE.\n"
		"'%s topo KIND help' describes a kind and its OPTIONS.\n"
		"discover and check read the cabling from lldpd on every switch\n"
		"of an inventory ('%s topo discover help').\n"
		"\n"
		"OPTIONS of every kind:\n",
		bin_name, bin_name);
	opts_usage(stderr, topo_common);
	return 0;
}

static const struct topo_kind *kind_help_of;

static int kind_help(int argc, char **argv)
{
	const struct topo_kind *k = kind_help_of;

	if (json_output) /* main() prints the null */
		return 0;
	fprintf(stderr, "Usage: %s [-j] topo %s", bin_name, k->name);
	kind_usage(k);
	fprintf(stderr, " [-o FILE]\n\n%s\n\nOPTIONS:\n", k->doc);
	opts_usage_with(stderr, k->opts, topo_common);
	return 0;
}

static json_t *summary(const char *kind, const struct topo *t, double secs)
{
	int i, hosts = 0, layers = 0;

	for (i = 0; i < t->nnodes; i++) {
		hosts += t->nodes[i].kind == NODE_HOST;
		if (t->nodes[i].layer + 1 > layers)
			layers = t->nodes[i].layer + 1;
	}
	return json_pack("{s:s,s:i,s:i,s:i,s:i,s:i,s:f}", "kind", kind, "nodes",
			 t->nnodes, "switches", t->nnodes - hosts, "hosts",
			 hosts, "links", t->nports / 2, "layers", layers,
			 "seconds", secs);
}

static int write_topo(const struct topo *t, const char *file)
{
	struct outfile out;

	if (outfile_open(&out, file))
		return EXIT_USAGE;
	/* topo_write fails only on I/O errors, which outfile_close reports. */
	topo_write(out.f, t);
	return outfile_close(&out, true) ? EXIT_USAGE : EXIT_OK;
}

int do_topo(int argc, char **argv)
{
	const struct topo_kind *k;
	struct topo *t = NULL;
	double t0 = now_seconds();
	int rc;

	if (argc < 1)
		return usage_err(help, "topo wants a KIND");
	if (is_help(argv[0]))
		return help(argc, argv);
	if (!strcmp(argv[0], "discover"))
		return do_topo_discover(argc - 1, argv + 1);
	if (!strcmp(argv[0], "check"))
		return do_topo_check(argc - 1, argv + 1);
	for (k = topo_kinds; k->name && strcmp(k->name, argv[0]); k++)
		;
	if (!k->name)
		return usage_err(help, "What is \"%s\"?", argv[0]);
	kind_help_of = k;
	if (argc > 1 && is_help(argv[1]))
		return kind_help(0, NULL);
	argc--, argv++;
	out_file = NULL;
	rc = opts_take_all(topo_common, &argc, argv);
	if (!rc && out_file && !strcmp(out_file, "-"))
		out_file = NULL; /* "-o -" is stdout, as without -o */
	if (!rc)
		rc = k->make(argc, argv, &t);
	if (rc) {
		if (!json_output)
			kind_help(0, NULL);
		return rc;
	}
	if (!json_output || out_file)
		rc = write_topo(t, out_file);
	if (!rc && json_output)
		json_emit(summary(k->name, t, now_seconds() - t0));
	topo_free(t);
	return rc;
}
