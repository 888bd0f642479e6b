// SPDX-License-Identifier: GPL-2.0
/*
 * tagger fabric { status | plan }: every switch of an inventory at once:
 * what runs where, whether all of it together is deadlock-free, and a
 * rollout that stays so (tagger-fabric(8); fabric/).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cmd.h"
#include "cli/opts.h"
#include "fabric/fabric_inv.h"
#include "fabric/fabric_plan.h"
#include "fabric/fabric_state.h"
#include "lib/json_get.h"
#include "lib/log.h"
#include "lib/outfile.h"
#include "lib/util.h"

static const char *topo_file, *out_file, *check_file;
static int batch_size;
static const char *via[DP_UNION_MAX_SETS];
static int nvia;

static int add_via(const struct opt *o, const char *val)
{
	if (nvia == DP_UNION_MAX_SETS - 2) {
		p_err("--via: at most %d intermediate rule sets",
		      DP_UNION_MAX_SETS - 2);
		return 1;
	}
	via[nvia++] = val;
	return 0;
}

static const struct opt status_opts[] = {
	OPT_STR("--topo", &topo_file, "FILE",
		"the union check's links (for rules without)"),
	{ 0 }
};

static const struct opt plan_opts[] = {
	OPT_FUNC("--via", add_via, NULL, "RULES",
		 "an intermediate rule set to go through (repeats)"),
	OPT_INT("--batch-size", &batch_size, 1, FABRIC_MAX_HOSTS, "N",
		"at most N switches a batch (default: one batch a stage)"),
	OPT_STR("--topo", &topo_file, "FILE",
		"the union check's links (for rules without)"),
	OPT_STR("-o", &out_file, "FILE",
		"write the plan there (default stdout)"),
	OPT_STR("--check", &check_file, "PLAN",
		"is PLAN still of the fabric's state? (exit 1 if not)"),
	{ 0 }
};

static int help(int argc, char **argv)
{
	if (json_output)
		return 0;
	fprintf(stderr,
		"Usage: %1$s [-j] fabric status INVENTORY [--topo FILE]\n"
		"       %1$s [-j] fabric plan INVENTORY NEW_RULES [OPTIONS]\n"
		"       %1$s [-j] fabric plan --check PLAN INVENTORY\n"
		"\n"
		"Every switch of INVENTORY (Ansible's INI form: a host a line,\n"
		"tagger_netns=NS or ansible_host=HOST) is asked, through its\n"
		"namespace or ssh, for its data path, rules digest, generation and\n"
		"PFC agent. status prints them, the versions (rule sets by digest)\n"
		"live in the fabric and whether their union is deadlock-free, with\n"
		"a cycle if not: exit 1. plan writes batches of switches such that\n"
		"the versions live during every batch have an acyclic union, through\n"
		"the --via rule sets if given, or refuses with the cycle (exit 1).\n"
		"--check refuses a plan made from another state than the fabric's.\n"
		"See tagger-fabric(8).\n"
		"\n"
		"OPTIONS:\n",
		bin_name);
	opts_usage(stderr, plan_opts);
	return 0;
}

static void print_cycle(json_t *un)
{
	json_t *e;
	size_t i;

	json_array_foreach(json_object_get(un, "cycle"), i, e)
		printf("    %s prio %lld -> %s prio %lld  (tag %lld -> %lld, "
		       "rules %.19s...)\n",
		       jget_str(e, "from"), jget_int(e, "from_priority"),
		       jget_str(e, "to"), jget_int(e, "to_priority"),
		       jget_int(e, "tag"), jget_int(e, "new_tag"),
		       jget_str(e, "rules"));
}

static void print_union(json_t *un)
{
	if (!un || !jget_bool(un, "checked")) {
		printf("union: not checked\n");
		return;
	}
	printf("union of %zu version(s): %s (%lld buffers, %lld dependencies)\n",
	       json_array_size(json_object_get(un, "versions")),
	       jget_bool(un, "acyclic") ? "deadlock-free" :
					  "CYCLIC buffer dependency",
	       jget_int(un, "buffers"), jget_int(un, "dependencies"));
	print_cycle(un);
}

static void print_status(json_t *j)
{
	json_t *s, *v, *dp, *ag, *n;
	size_t i, k;

	json_array_foreach(json_object_get(j, "switches"), i, s) {
		dp = json_object_get(s, "data_path");
		ag = json_object_get(s, "agent");
		printf("%-12s %-24s ", jget_str(s, "name"),
		       jget_str(s, "transport"));
		if (strcmp(jget_str(s, "status"), "ok"))
			printf("%s: %s", jget_str(s, "status"),
			       jget_str(s, "error"));
		else
			printf("generation %lld  %s  %lld ports  %.19s...",
			       jget_int(s, "generation"), jget_str(dp, "mode"),
			       jget_int(dp, "ports"),
			       jget_str(s, "rules_digest"));
		if (json_is_object(ag))
			printf("  agent %s %s", jget_str(ag, "node"),
			       jget_bool(ag, "healthy") ?
				       "ok" :
				       jget_str(ag, "status"));
		printf("\n");
	}
	printf("versions: %zu\n",
	       json_array_size(json_object_get(j, "versions")));
	json_array_foreach(json_object_get(j, "versions"), i, v) {
		printf("  %s ", jget_str(v, "digest"));
		json_array_foreach(json_object_get(v, "switches"), k, n)
			printf(" %s", json_string_value(n));
		printf("\n");
	}
	print_union(json_object_get(j, "union"));
	printf("state %s\n", jget_str(j, "state_digest"));
}

/* Per switch errors on stderr (the -j document carries them). */
static void report_errors(const struct fabric_state *st)
{
	int k;

	for (k = 0; k < st->inv->n && !json_output; k++) {
		if (st->sw[k].status)
			p_err("%s (switch %s): %s", st->sw[k].h->name,
			      st->sw[k].h->sw, st->sw[k].err);
		if (st->sw[k].agent_bad)
			p_err("%s: PFC agent %s is not healthy",
			      st->sw[k].h->name, st->sw[k].h->pfc);
	}
}

static int status(const char *inv_path)
{
	const struct fabric_version **vs;
	struct fabric_union u = { .acyclic = -1 };
	struct fabric_state st;
	struct fabric_inv inv;
	json_t *j;
	int ret, n;

	if (fabric_inv_load(inv_path, &inv))
		return EXIT_USAGE;
	fabric_gather(&inv, &st);
	ret = fabric_exit(&st);
	n = fabric_state_versions(&st, &vs);
	if (n && fabric_union(vs, n, topo_file, &u) < 0 && ret < EXIT_USAGE)
		ret = EXIT_USAGE;
	else if (!u.acyclic && ret < EXIT_PROBLEM)
		ret = EXIT_PROBLEM;
	j = fabric_state_json(&st);
	json_object_set_new(j, "union",
			    n ? fabric_union_json(&u) : json_null());
	report_errors(&st);
	if (json_output)
		json_emit(json_incref(j));
	else
		print_status(j);
	json_decref(j);
	fabric_union_free(&u);
	free(vs);
	fabric_state_free(&st);
	fabric_inv_free(&inv);
	return ret;
}

static int do_status(int argc, char **argv)
{
	char *pos[1];
	int got;

	if (argc >= 1 && is_help(argv[0]))
		return help(0, NULL);
	topo_file = NULL;
	if (opts_parse(status_opts, argc, argv, pos, 1, &got))
		return usage_help(help);
	if (got != 1)
		return usage_err(help, "status takes INVENTORY");
	return status(pos[0]);
}

/* Every switch of the inventory in every stage's rules. */
static int rules_cover(const struct fabric_inv *inv,
		       const struct fabric_version *v)
{
	int k;

	for (k = 0; k < inv->n; k++)
		if (rules_find_switch(v->r, inv->h[k].sw) < 0) {
			input_err(v->file, 0, "no switch \"%s\" (%s:%d)",
				  inv->h[k].sw, inv->path, inv->h[k].line);
			return EXIT_USAGE;
		}
	return 0;
}

static int write_plan(json_t *plan)
{
	struct outfile of;
	int bad;

	if (!out_file) {
		json_emit(json_incref(plan));
		return EXIT_OK;
	}
	if (outfile_open(&of, out_file))
		return EXIT_RUNTIME;
	bad = json_dumpf(plan, of.f, JSON_INDENT(2) | JSON_PRESERVE_ORDER) ||
	      fputc('\n', of.f) == EOF;
	if (outfile_close(&of, !bad) || bad)
		return EXIT_RUNTIME;
	if (json_output)
		json_emit(json_incref(plan));
	else
		printf("plan: %zu stage(s) written to %s (state %s)\n",
		       json_array_size(json_object_get(plan, "stages")),
		       out_file, jget_str(plan, "state_digest"));
	return EXIT_OK;
}

static int refuse(struct fabric_union *u)
{
	json_t *un = fabric_union_json(u);

	if (json_output) {
		json_emit(json_pack("{s:b,s:o}", "refused", 1, "union", un));
		return EXIT_PROBLEM;
	}
	printf("refused: the versions live during a batch have a cyclic buffer "
	       "dependency (give --via RULES: an intermediate rule set whose "
	       "unions with the old and the new are deadlock-free):\n");
	print_union(un);
	json_decref(un);
	return EXIT_PROBLEM;
}

static int plan(const char *inv_path, const char *new_rules)
{
	struct fabric_version vers[DP_UNION_MAX_SETS];
	const struct fabric_version *vs[DP_UNION_MAX_SETS];
	struct fabric_union u = { .acyclic = -1 };
	struct fabric_state st;
	struct fabric_inv inv;
	json_t *doc = NULL;
	char why[600];
	int ret, k, n = 0;

	if (check_file && fabric_plan_load(check_file, &doc))
		return EXIT_USAGE;
	if (fabric_inv_load(inv_path, &inv)) {
		json_decref(doc);
		return EXIT_USAGE;
	}
	for (k = 0; !check_file && k <= nvia; k++, n++) {
		ret = fabric_rules_load(k < nvia ? via[k] : new_rules,
					&vers[k]);
		if (!ret)
			ret = rules_cover(&inv, &vers[k]);
		if (ret)
			goto out;
		vs[k] = &vers[k];
	}
	fabric_gather(&inv, &st);
	ret = fabric_exit(&st);
	report_errors(&st);
	if (ret > EXIT_PROBLEM) {
		if (!json_output || !check_file)
			p_err("%s: the fabric's state is not complete: no plan "
			      "%s",
			      inv_path,
			      check_file ? "can be checked" : "is made");
		goto out_st;
	}
	if (check_file) {
		ret = fabric_plan_check(doc, &st, why, sizeof(why));
		if (json_output)
			json_emit(json_pack("{s:s,s:b,s:s?,s:s}", "plan",
					    check_file, "fresh", ret == EXIT_OK,
					    "stale", ret ? why : NULL,
					    "state_digest", st.digest));
		else if (ret)
			printf("plan %s is stale: %s\n", check_file, why);
		else
			printf("plan %s: made from the fabric's state (%s)\n",
			       check_file, st.digest);
		goto out_st;
	}
	ret = fabric_plan_make(&st, vs, n, topo_file, batch_size, &doc, &u);
	if (ret == EXIT_OK)
		ret = write_plan(doc);
	else if (ret == EXIT_PROBLEM)
		ret = refuse(&u);
	fabric_union_free(&u);
out_st:
	fabric_state_free(&st);
out:
	for (k = 0; k < n; k++)
		fabric_version_free(&vers[k]);
	json_decref(doc);
	fabric_inv_free(&inv);
	return ret;
}

static int do_plan(int argc, char **argv)
{
	char *pos[2];
	int got;

	if (argc >= 1 && is_help(argv[0]))
		return help(0, NULL);
	topo_file = out_file = check_file = NULL;
	batch_size = 0;
	nvia = 0;
	if (opts_parse(plan_opts, argc, argv, pos, 2, &got))
		return usage_help(help);
	if (check_file && (got != 1 || nvia || out_file || batch_size))
		return usage_err(help,
				 "plan --check PLAN takes INVENTORY only");
	if (!check_file && got != 2)
		return usage_err(help, "plan takes INVENTORY and NEW_RULES");
	return plan(pos[0], check_file ? NULL : pos[1]);
}

int do_fabric(int argc, char **argv)
{
	static const struct cmd cmds[] = {
		{ "status", do_status },
		{ "plan", do_plan },
		{ "help", help },
		{ 0 },
	};

	return cmd_select(cmds, argc, argv, help);
}
