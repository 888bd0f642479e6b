// SPDX-License-Identifier: GPL-2.0
/*
 * The nodes tagger metrics reads when none are named: the switches pinned
 * under the bpffs root and the pause agents' state directories, of this
 * network namespace only (the others' counters are read there, by a tagger
 * started there). Nodes of other namespaces are skipped quietly: on a
 * machine with one namespace per node they are the rule.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dataplane/dp_pin.h"
#include "dataplane/dp_record.h"
#include "dataplane/dp_state.h"
#include "lib/log.h"
#include "metrics/metrics.h"
#include "pfc/pfc_ident.h"
#include "pfc/pfc_state.h"
#include "lib/util.h"

void metrics_nodes_add(struct metrics_nodes *n, enum metrics_kind kind,
		       const char *name)
{
	n->names[kind] =
		xrealloc(n->names[kind], (n->n[kind] + 1) * sizeof(char *));
	n->names[kind][n->n[kind]++] = xstrdup(name);
}

void metrics_nodes_free(struct metrics_nodes *n)
{
	int k, i;

	for (k = 0; k < 2; k++) {
		for (i = 0; i < n->n[k]; i++)
			free(n->names[k][i]);
		free(n->names[k]);
		n->names[k] = NULL;
		n->n[k] = 0;
	}
}

/* An attached switch of this namespace (not a host: those have no counters
 * of their own). */
static bool is_local_switch(const char *name)
{
	json_t *state, *self;
	char dir[PATH_MAX];
	bool ok;

	if (dp_path(dir, name, NULL))
		return false;
	state = dp_state_view(dir);
	if (!state)
		return false;
	self = dp_netns_json();
	ok = !strcmp(json_string_value(json_object_get(state, "kind")) ?: "",
		     "switch") &&
	     !strcmp(dp_record_phase(state), "attached") &&
	     (!json_is_object(json_object_get(state, "netns")) ||
	      json_equal(json_object_get(state, "netns"), self));
	json_decref(self);
	json_decref(state);
	return ok;
}

static bool is_local_agent(const char *base, const char *name)
{
	struct pfc_netns self, rec;
	struct pfc_state *st;
	char dir[PATH_MAX];

	if (snprintf(dir, sizeof(dir), "%s/%s", base, name) >=
		    (int)sizeof(dir) ||
	    pfc_state_open(dir, false, &st))
		return false;
	rec = (struct pfc_netns){ st->netns_dev, st->netns_ino };
	pfc_state_unmap(st);
	return !pfc_netns_self(&self) && pfc_netns_eq(&self, &rec);
}

/* The entries of dir that pass keep, in name order. */
static void scan(struct metrics_nodes *n, enum metrics_kind kind,
		 const char *dir,
		 bool (*keep)(const char *dir, const char *name))
{
	struct dirent **ents;
	int i, k = scandir(dir, &ents, NULL, alphasort);

	for (i = 0; i < k; i++) {
		if (valid_name(ents[i]->d_name) && keep(dir, ents[i]->d_name))
			metrics_nodes_add(n, kind, ents[i]->d_name);
		free(ents[i]);
	}
	if (k >= 0)
		free(ents);
}

static bool keep_switch(const char *dir, const char *name)
{
	return is_local_switch(name);
}

int metrics_discover(struct metrics_nodes *n)
{
	char base[PATH_MAX];
	size_t len;

	/* Pins are read only under a root that can be trusted (as show). */
	if (!access(dp_root(), F_OK)) {
		int rfd = dp_root_open();

		if (rfd < 0)
			return EXIT_USAGE;
		close(rfd);
		scan(n, METRICS_SWITCH, dp_root(), keep_switch);
	}
	if (pfc_dir("", base, sizeof(base)))
		return EXIT_USAGE;
	len = strlen(base);
	if (len > 1 && base[len - 1] == '/')
		base[len - 1] = '\0';
	scan(n, METRICS_PFC, base, is_local_agent);
	return 0;
}
