// SPDX-License-Identifier: GPL-2.0
/*
 * What a data path's attach and update use of their command's job: the
 * record's ports and rules, the sysctl, the phases; see dp_job.h.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dataplane/dp_job.h"
#include "dataplane/dp_record.h"
#include "dataplane/dp_report.h"
#include "dataplane/dp_state.h"
#include "dataplane/dp_table.h"
#include "lib/log.h"
#include "lib/util.h"

#define SYSCTL_PRIO "/proc/sys/net/ipv4/ip_forward_update_priority"

/* One clock for the command: its phases are marked from several files. */
void dp_phase(const char *what)
{
	static struct phase_clock pc;

	phase_mark(&pc, what);
}

/* A failed dp_state_save: its exit code, after the error. */
int dp_state_save_err(const struct dp_opts *o, const char *dir, int err)
{
	if (err == -EFBIG) {
		p_err("%s: the rules take more than %u bytes as state (the cap)",
		      o->rules_file, DP_RECORD_MAX);
		return EXIT_USAGE;
	}
	p_err("saving state in %s: %s", dir, strerror(-err));
	return EXIT_RUNTIME;
}

void dp_switch_record_rules(json_t *state, const struct dp_opts *o, json_t *doc,
			    const struct dp_table *tab)
{
	struct dp_table_counts c = dp_table_counts(tab);
	char abs[PATH_MAX];
	json_t *t = json_object();

	dp_state_set_rules(state, doc);
	json_object_set_new(state, "rules_file",
			    json_string(realpath(o->rules_file, abs) ?
						abs :
						o->rules_file));
	dp_counts_set(t, &c);
	json_object_set_new(t, "size", json_integer(tab->size));
	json_object_set_new(state, "table", t);
}

/* The sysctl's value, 0 if the kernel has none (before 4.19). */
int dp_sysctl_read(void)
{
	FILE *f = fopen(SYSCTL_PRIO, "r");
	int v = 0;

	if (!f)
		return 0;
	if (fscanf(f, "%d", &v) != 1)
		v = 0;
	fclose(f);
	return v;
}

int dp_sysctl_prio(int *old)
{
	int v = dp_sysctl_read();
	FILE *f;

	if (v == 0)
		return 0;
	f = fopen(SYSCTL_PRIO, "w");
	if (!f || fputs("0\n", f) < 0 || fclose(f)) {
		pr_warn("cannot set net.ipv4.ip_forward_update_priority=0: %s "
			"(the egress program sets the priority anyway)\n",
			strerror(errno));
		return 0;
	}
	*old = v;
	return 1;
}

void dp_sysctl_restore(int old)
{
	FILE *f = fopen(SYSCTL_PRIO, "w");

	if (f) {
		fprintf(f, "%d\n", old);
		fclose(f);
	}
}

void dp_free_ports(struct dp_port *ports, int n)
{
	int i;

	for (i = 0; ports && i < n; i++) {
		free(ports[i].name);
		free(ports[i].ifname);
	}
	free(ports);
}

json_t *dp_ports_json(const struct dp_port *ports, int n)
{
	json_t *arr = json_array();
	int i;

	for (i = 0; i < n; i++)
		json_array_append_new(
			arr,
			json_pack("{s:s,s:s,s:i,s:i}", "port", ports[i].name,
				  "ifname", ports[i].ifname, "ifindex",
				  ports[i].ifindex, "slot", ports[i].slot));
	return arr;
}

/* The ports a state document records. */
struct dp_port *dp_state_ports(json_t *state, int *n)
{
	json_t *arr = json_object_get(state, "ports"), *v;
	struct dp_port *ports;
	size_t i;

	*n = json_array_size(arr);
	ports = xcalloc(*n + 1, sizeof(*ports));
	json_array_foreach(arr, i, v) {
		ports[i].name = xstrdup(
			json_string_value(json_object_get(v, "port")) ?: "?");
		ports[i].ifname = xstrdup(
			json_string_value(json_object_get(v, "ifname")) ?: "?");
		ports[i].ifindex =
			json_integer_value(json_object_get(v, "ifindex"));
		ports[i].slot = json_integer_value(json_object_get(v, "slot"));
	}
	return ports;
}
