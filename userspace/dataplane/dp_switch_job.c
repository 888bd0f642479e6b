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

#include "dataplane/dp_paths.h"
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
#include "model/rules_blob.h"

/* The rules file and its switch: the switch's index, or -EXIT_USAGE. */
static int load_rules(const struct dp_opts *o, struct dp_job *j)
{
	dp_phase(NULL);
	/* Compiled rules (tagger switch pack) by their magic, else JSON. */
	j->r = rules_bin_is(o->rules_file) ?
		       rules_bin_load_blob(o->rules_file, &j->doc, &j->mem,
					   &j->blob, &j->blob_len) :
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

const void *dp_job_blob(struct dp_job *j, size_t *len)
{
	if (!j->blob)
		j->blob = j->blob_mem = rules_to_blob(j->r, &j->blob_len);
	*len = j->blob_len;
	return j->blob;
}

/* The data path's own repair, if it has one (dp_path.h). */
static int switch_repair(const char *dir, json_t *state, bool interrupted)
{
	const struct dp_path *path = dp_path_of(state);

	return path && path->repair ? path->repair(dir, state, interrupted) : 0;
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
	j->lock = dp_lock(o->name);
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
	free(j->mem); /* after the rules whose tables it holds */
	free(j->blob_mem);
	json_decref(j->doc);
	json_decref(j->state);
	job_init(j);
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
	const struct dp_path *path = dp_path_of(state);
	json_t *pv = json_object_get(state, "sysctl_prio_was");
	int ret, err;

	if (!path) {
		p_err("%s: its record names a data path this tagger does not "
		      "know (\"%s\"): detach it with the tagger that attached it",
		      dir,
		      json_string_value(json_object_get(state, "datapath")));
		return -EPROTONOSUPPORT;
	}
	ret = path->teardown(dir, state);

	if (pv)
		dp_sysctl_restore(json_integer_value(pv));
	err = dp_remove(dir);
	if (err)
		p_err("removing %s: %s", dir, strerror(-err));
	return ret ?: err;
}
