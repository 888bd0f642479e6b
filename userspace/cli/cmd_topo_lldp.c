// SPDX-License-Identifier: GPL-2.0
/* tagger topo discover and check, from lldpd; see cmd_topo_lldp.h. */
#include <stdio.h>
#include <string.h>

#include "cli/cmd.h"
#include "cli/cmd_topo_lldp.h"
#include "cli/opts.h"
#include "fabric/fabric_inv.h"
#include "fabric/fabric_topo.h"
#include "lib/json_get.h"
#include "lib/log.h"
#include "lib/outfile.h"

static const char *out_file;

static const struct opt discover_opts[] = {
	OPT_STR("-o", &out_file, "FILE",
		"write to FILE, whole or not at all (-: stdout)"),
	{ 0 }
};

static const struct opt check_opts[] = { { 0 } };

void topo_lldp_help(void)
{
	fprintf(stderr,
		"       %1$s [-j] topo discover INVENTORY [-o FILE]\n"
		"       %1$s [-j] topo check TOPO INVENTORY\n",
		bin_name);
}

static void about(void)
{
	fprintf(stderr,
		"\n"
		"Runs lldpcli's show neighbors (JSON) on every switch of INVENTORY\n"
		"(tagger-fabric(8): its namespace or ssh; tagger_lldpcli,\n"
		"tagger_lldp_socket). discover writes the cabling as a topology:\n"
		"the switches, a host per other neighbour, a link per cable with\n"
		"both ends' ports (a cable heard from one end only: a warning).\n"
		"check names every cable that differs from TOPO (missing, extra,\n"
		"cabled to other ports): exit 1 if any. See tagger-topo(8).\n");
}

static int discover_help(int argc, char **argv)
{
	if (json_output)
		return 0;
	fprintf(stderr, "Usage: %s [-j] topo discover INVENTORY [-o FILE]\n",
		bin_name);
	about();
	fprintf(stderr, "\nOPTIONS:\n");
	opts_usage(stderr, discover_opts);
	return 0;
}

static int check_help(int argc, char **argv)
{
	if (json_output)
		return 0;
	fprintf(stderr, "Usage: %s [-j] topo check TOPO INVENTORY\n", bin_name);
	about();
	return 0;
}

static int discover(const char *inv_path, struct topo **t, json_t *warnings)
{
	struct fabric_inv inv;
	int rc;

	if (fabric_inv_load(inv_path, &inv))
		return EXIT_USAGE;
	rc = fabric_discover(&inv, t, warnings);
	fabric_inv_free(&inv);
	return rc;
}

static json_t *summary(const char *inv, const struct topo *t, json_t *warn)
{
	int hosts = 0, i;

	for (i = 0; i < t->nnodes; i++)
		hosts += t->nodes[i].kind == NODE_HOST;
	return json_pack("{s:s,s:i,s:i,s:i,s:o}", "inventory", inv, "switches",
			 t->nnodes - hosts, "hosts", hosts, "links",
			 t->nports / 2, "warnings", warn);
}

int do_topo_discover(int argc, char **argv)
{
	struct outfile out;
	struct topo *t;
	json_t *warn;
	char *pos[1];
	int got, rc;

	if (argc >= 1 && is_help(argv[0]))
		return discover_help(0, NULL);
	out_file = NULL;
	if (opts_parse(discover_opts, argc, argv, pos, 1, &got))
		return usage_help(discover_help);
	if (got != 1)
		return usage_err(discover_help, "discover takes INVENTORY");
	if (out_file && !strcmp(out_file, "-"))
		out_file = NULL;
	warn = json_array();
	rc = discover(pos[0], &t, warn);
	if (rc) {
		json_decref(warn);
		return rc;
	}
	if (!json_output || out_file) {
		if (outfile_open(&out, out_file)) {
			rc = EXIT_USAGE;
			goto out;
		}
		topo_write(out.f, t);
		if (outfile_close(&out, true)) {
			rc = EXIT_USAGE;
			goto out;
		}
	}
	if (json_output)
		json_emit(summary(pos[0], t, json_incref(warn)));
out:
	json_decref(warn);
	topo_free(t);
	return rc;
}

static void print_diff(const char *topo_path, json_t *diff)
{
	json_t *d, *f;
	size_t i, k;

	json_array_foreach(diff, i, d) {
		printf("%-8s link %s", jget_str(d, "kind"),
		       jget_str(d, "link"));
		json_array_foreach(json_object_get(d, "found"), k, f)
			printf("%s%s",
			       k ? ", " : "  cabled: ", json_string_value(f));
		printf("\n");
	}
	if (json_array_size(diff))
		printf("%zu cable(s) differ from %s\n", json_array_size(diff),
		       topo_path);
	else
		printf("the cabling is %s's\n", topo_path);
}

int do_topo_check(int argc, char **argv)
{
	struct topo *want, *got_t;
	json_t *warn, *diff;
	char *pos[2];
	int got, rc;

	if (argc >= 1 && is_help(argv[0]))
		return check_help(0, NULL);
	if (opts_parse(check_opts, argc, argv, pos, 2, &got))
		return usage_help(check_help);
	if (got != 2)
		return usage_err(check_help, "check takes TOPO and INVENTORY");
	want = topo_parse(pos[0]);
	if (!want)
		return EXIT_USAGE;
	warn = json_array();
	rc = discover(pos[1], &got_t, warn);
	if (rc) {
		json_decref(warn);
		topo_free(want);
		return rc;
	}
	diff = fabric_topo_diff(want, got_t);
	rc = json_array_size(diff) ? EXIT_PROBLEM : EXIT_OK;
	if (json_output)
		json_emit(json_pack("{s:s,s:s,s:b,s:O,s:O}", "topo", pos[0],
				    "inventory", pos[1], "match", !rc,
				    "differences", diff, "warnings", warn));
	else
		print_diff(pos[0], diff);
	json_decref(diff);
	json_decref(warn);
	topo_free(want);
	topo_free(got_t);
	return rc;
}
