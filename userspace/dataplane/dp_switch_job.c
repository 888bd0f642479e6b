// SPDX-License-Identifier: GPL-2.0
/*
 * What every tagger switch subcommand does around its own work: read the
 * rules, lock and settle the switch's record, keep the rules in a record,
 * the sysctl, the teardown; see dp_switch_int.h.
 */
#include <errno.h>
#include <limits.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dataplane/dp_flower.h"
#include "dataplane/dp_pin.h"
#include "dataplane/dp_record.h"
#include "dataplane/dp_report.h"
#include "dataplane/dp_settle.h"
#include "dataplane/dp_state.h"
#include "dataplane/dp_switch_int.h"
#include "dataplane/dp_table.h"
#include "lib/log.h"
#include "lib/util.h"
#include "model/rules_bin.h"

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

/* The rules file and its switch: the switch's index, or -EXIT_USAGE. */
static int load_rules(const struct dp_opts *o, struct dp_job *j)
{
	dp_phase(NULL);
	/* Compiled rules (tagger switch pack) by their magic, else JSON. */
	j->r = rules_bin_is(o->rules_file) ?
		       rules_bin_load(o->rules_file, &j->doc) :
		       rules_load(o->rules_file, &j->doc);
	dp_phase("read and check the rules");
	if (!j->r)
		return -EXIT_USAGE;
	j->sw = rules_find_switch(j->r, o->name);
	if (j->sw < 0) {
		p_err("%s: no switch \"%s\" in the rules", o->rules_file,
		      o->name);
		return -EXIT_USAGE;
	}
	return j->sw;
}

/* After an interrupted update: the flower data path's filters to match. */
static int switch_repair(const char *dir, json_t *state)
{
	return dp_record_flower(state) ? dp_flower_repair(dir, state) : 0;
}

/* A switch as dp_node_settle sees it. */
static struct dp_node switch_node(const char *name)
{
	return (struct dp_node){ .kind = "switch",
				 .name = name,
				 .teardown = dp_switch_teardown,
				 .repair = switch_repair };
}

static void job_init(struct dp_job *j)
{
	memset(j, 0, sizeof(*j));
	j->lock = -1;
}

/* The switch's dir, locked, and its record settled; an exit code. */
static int lock_settle(const struct dp_opts *o, struct dp_job *j)
{
	struct dp_node node = switch_node(o->name);
	int err;

	if (dp_path(j->dir, o->name, NULL))
		return EXIT_USAGE;
	j->lock = dp_lock();
	dp_phase("lock");
	if (j->lock < 0)
		return -j->lock;
	err = dp_node_settle(j->dir, &node, &j->state);
	dp_phase("load and settle the state");
	if (err < 0 && err != -ENOENT)
		return dp_settle_exit(err);
	j->leftover = err == 1;
	return EXIT_OK;
}

int dp_switch_lock(const struct dp_opts *o, struct dp_job *j)
{
	job_init(j);
	return lock_settle(o, j);
}

/* The rules first: no lock is held while a big file is read. */
int dp_switch_open(const struct dp_opts *o, struct dp_job *j)
{
	job_init(j);
	if (load_rules(o, j) < 0)
		return EXIT_USAGE;
	return lock_settle(o, j);
}

void dp_switch_close(struct dp_job *j)
{
	dp_unlock(j->lock);
	rules_free(j->r);
	json_decref(j->doc);
	json_decref(j->state);
	job_init(j);
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

/* Every port's two hooks, as a record of the eBPF data plane names them. */
static int bpf_teardown(const char *dir, json_t *state)
{
	static const char *const hook[2] = { "ingress", "egress" };
	enum dp_mode mode = dp_node_mode(state);
	char link[IF_NAMESIZE + 32];
	const char *ifname;
	int k, err, ret = 0;
	json_t *port;
	size_t i;

	json_array_foreach(json_object_get(state, "ports"), i, port) {
		ifname = json_string_value(json_object_get(port, "ifname")) ?:
									      "?";
		for (k = 0; k < 2; k++) {
			/* legacy: link pins (dp_state.h) */
			snprintf(link, sizeof(link), "link_%s_%s", ifname,
				 hook[k]);
			err = dp_hook_teardown(dir, ifname, k, link,
					       json_object_get(port, hook[k]),
					       mode);
			ret = ret ?: err;
		}
	}
	return ret;
}

/*
 * Detach what a switch record names (its data path's way), restore the
 * sysctl, remove dir (the record last). A record without handles
 * (attaching) has tc filters at DP_TC_PRIO/DP_TC_HANDLE if any; none at
 * all, nothing attached.
 */
int dp_switch_teardown(const char *dir, json_t *state,
		       const struct dp_node *node)
{
	int ret = dp_record_flower(state) ? dp_flower_teardown(dir, state) :
					    bpf_teardown(dir, state),
	    err;
	json_t *pv = json_object_get(state, "sysctl_prio_was");

	if (pv)
		dp_sysctl_restore(json_integer_value(pv));
	err = dp_remove(dir);
	if (err)
		p_err("removing %s: %s", dir, strerror(-err));
	return ret ?: err;
}
