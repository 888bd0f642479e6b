// SPDX-License-Identifier: GPL-2.0
/* Settling a node's record, and its teardown; see dp_settle.h. */
#include <errno.h>
#include <net/if.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dataplane/dp_anchor.h"
#include "dataplane/dp_pin_path.h"
#include "dataplane/dp_record.h"
#include "dataplane/dp_settle.h"
#include "dataplane/dp_state.h"
#include "lib/log.h"

/* "switch sw1", "host h1 on eth0": how messages name the node. */
static void node_what(const struct dp_node *n, char *buf, size_t len)
{
	if (n->ifname)
		snprintf(buf, len, "%s %s on %s", n->kind, n->name, n->ifname);
	else
		snprintf(buf, len, "%s %s", n->kind, n->name);
}

/* The record of dir or the pending one: of this namespace, or refused. */
static bool netns_ok(const char *dir, const char *what, bool *none)
{
	static const char *const keys[] = { "netns", NULL };
	json_t *st = dp_record_peek(dir, DP_STATE_CUR, keys);
	json_t *pend = dp_record_peek(dir, DP_STATE_NEXT, keys);
	bool ok = dp_state_netns_ok(st ?: pend, what);

	*none = !st && !pend;
	json_decref(st);
	json_decref(pend);
	return ok;
}

int dp_node_settle(const char *dir, const struct dp_node *n, json_t **state)
{
	char what[300];
	struct stat sb;
	const char *phase;
	json_t *st;
	bool pending;
	bool none;
	int err;

	*state = NULL;
	node_what(n, what, sizeof(what));
	/* What the kernel holds wins over the pins; it may be all there is. */
	err = dp_anchor_sync(dir, n->kind, n->name, n->ifname);
	if (err < 0) /* p_err'd: no way to tell what runs */
		return err == -ENOENT || err == -EXDEV ? -EIO : err;
	if (stat(dir, &sb))
		return -ENOENT;
	if (!netns_ok(dir, what, &none))
		return -EXDEV;
	if (none) {
		/* Killed before its first record: nothing is attached. */
		pr_warn("%s has no state (an attach was killed early): removing it\n",
			dir);
		n->teardown(dir, NULL, n);
		return 1;
	}
	pending = dp_state_settle(dir) != 0; /* a killed update's record */
	st = dp_record_load(dir);
	phase = dp_record_phase(st);
	if (st && !strcmp(phase, "attached")) {
		/* what fails is told; show tells it too */
		if (n->repair)
			n->repair(dir, st, pending);
		*state = st;
		return 0;
	}
	pr_warn("%s: %s was interrupted: %s\n", what,
		!strcmp(phase, "attaching") ? "an attach" : "a detach",
		!strcmp(phase, "attaching") ? "rolling it back" :
					      "completing it");
	n->teardown(dir, st, n);
	json_decref(st);
	return 1;
}

enum dp_mode dp_node_mode(json_t *state)
{
	int mode = dp_mode_parse(
		json_string_value(json_object_get(state, "mode")) ?: "");

	return mode < 0 ? DP_MODE_AUTO : (enum dp_mode)mode;
}

int dp_settle_exit(int err)
{
	return err == -EXDEV ? EXIT_USAGE : EXIT_RUNTIME;
}

/*
 * One hook: a pinned link (detached by the link), or our program on tcx,
 * or our filter, as mode allows.
 */
static int detach_hook(struct dp_attachment *a, enum dp_mode mode)
{
	int err = 0, e;

	if (a->link_fd >= 0) {
		a->mode = DP_MODE_TCX;
		return dp_detach(a);
	}
	if (mode != DP_MODE_TC && a->prog_fd >= 0) {
		a->mode = DP_MODE_TCX;
		e = dp_detach(a);
		if (!dp_hook_gone(e))
			err = e;
	}
	if (mode != DP_MODE_TCX) {
		a->mode = DP_MODE_TC;
		e = dp_detach(a);
		if (!dp_hook_gone(e))
			err = err ?: e;
	}
	return err;
}

int dp_hook_teardown(const char *dir, const char *ifname, bool egress,
		     const char *link_pin, json_t *handle, enum dp_mode mode)
{
	struct dp_attachment a = {
		.ifindex = if_nametoindex(ifname),
		.egress = egress,
		.mode = DP_MODE_TCX,
		.link_fd = dp_pin_open(dir, link_pin),
		.prog_fd = dp_pin_open(dir,
				       egress ? "prog_egress" : "prog_ingress"),
		.handle =
			handle ? json_integer_value(json_array_get(handle, 0)) :
				 DP_TC_HANDLE,
		.prio = handle ? json_integer_value(json_array_get(handle, 1)) :
				 DP_TC_PRIO,
	};
	int err = 0;

	/* Without its interface the hook is gone, unless a link holds it. */
	if (a.ifindex || a.link_fd >= 0)
		err = detach_hook(&a, mode);
	if (a.link_fd >= 0)
		close(a.link_fd);
	if (a.prog_fd >= 0)
		close(a.prog_fd);
	if (!err || dp_hook_gone(err))
		return 0;
	p_err("detach %s: %s", ifname, strerror(-err));
	return err;
}
