// SPDX-License-Identifier: GPL-2.0
/* A node's state held by its programs, found from the kernel; see dp_anchor.h. */
#include <errno.h>
#include <stdbool.h>
#include <limits.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "dataplane/dp_anchor.h"
#include "dataplane/dp_attach.h"
#include "dataplane/dp_pin.h"
#include "dataplane/dp_pin_path.h"
#include "dataplane/dp_record.h"
#include "dataplane/dp_table.h"
#include "lib/log.h"
#include "tagger_maps.h"

#define MAX_IDS 64

/* The maps a node's directory pins, by the names libbpf pins them under. */
static const char *const map_pins[] = {
	tagger_str(TAGGER_IFSLOT),
	tagger_str(TAGGER_RULES_OUTER),
	tagger_str(TAGGER_GEN),
	tagger_str(TAGGER_COUNTERS),
	tagger_str(TAGGER_PORT_STATS),
	tagger_str(TAGGER_SAMPLES),
	tagger_str(TAGGER_SAMPLE_GATE),
	tagger_str(TAGGER_HOST_TAGS),
	tagger_str(TAGGER_HOST_CFG),
	tagger_str(TAGGER_HOST_COUNTERS),
	NULL,
};

struct want {
	const char *kind, *name, *ifname;
};

struct found {
	int anchor; /* fd, or -1 */
	int prog[2]; /* ingress, egress */
	uint32_t prog_id[2];
	uint32_t map_ids[MAX_IDS];
	uint32_t nmaps;
	int denied; /* -EPERM or -EACCES: a query the kernel refused */
};

/*
 * A query the kernel refused (no CAP_SYS_ADMIN or CAP_BPF, a seccomp
 * filter): the search saw less than there is, so "not found" would be a
 * guess, and a wrong one removes a running node's pins.
 */
static void note_denied(struct found *f)
{
	if (errno == EPERM || errno == EACCES)
		f->denied = -errno;
}

int dp_anchor_create(const char *dir, const int *progs, int n)
{
	LIBBPF_OPTS(bpf_map_create_opts, io, .map_flags = BPF_F_INNER_MAP);
	char path[PATH_MAX + 64];
	int tmpl, a, st, i, err = 0;
	uint32_t zero = 0;

	/* Inner maps of any size: a state map is as long as its record. */
	tmpl = bpf_map_create(BPF_MAP_TYPE_ARRAY, "tagger_state",
			      sizeof(uint32_t), DP_STATE_CHUNK, 1, &io);
	if (tmpl < 0)
		return -errno;
	LIBBPF_OPTS(bpf_map_create_opts, ao, .inner_map_fd = tmpl);
	a = bpf_map_create(BPF_MAP_TYPE_ARRAY_OF_MAPS, DP_ANCHOR_NAME,
			   sizeof(uint32_t), sizeof(uint32_t), 2, &ao);
	err = a < 0 ? -errno : 0;
	close(tmpl);
	for (i = 0; !err && i < n; i++)
		if (bpf_prog_bind_map(progs[i], a, NULL))
			err = -errno;
	if (!err)
		err = dp_pin_path(path, sizeof(path), dir, DP_ANCHOR_PIN);
	if (!err && bpf_obj_pin(a, path))
		err = -errno;
	if (!err) {
		st = dp_pin_open(dir, DP_STATE_CUR);
		if (st >= 0 && bpf_map_update_elem(a, &zero, &st, BPF_ANY))
			err = -errno;
		if (st >= 0)
			close(st);
	}
	if (a >= 0)
		close(a);
	return err;
}

/* The generation of the record in slot k, -1 if none or none there. */
static int64_t slot_gen(int a, uint32_t k)
{
	uint32_t id;
	int64_t g = -1;
	json_t *s;
	int fd;

	if (bpf_map_lookup_elem(a, &k, &id))
		return -1;
	fd = bpf_map_get_fd_by_id(id);
	if (fd < 0)
		return -1;
	s = dp_record_peek_fd(fd, (const char *const[]){ "generation", NULL });
	close(fd);
	if (s)
		g = dp_record_gen(s);
	json_decref(s);
	return g;
}

/*
 * The slot of the record the programs run: the one of the kernel's
 * generation (after an update, either slot), else slot 0 (legacy:
 * slot-0 anchors, dp_state.h; or no generation yet).
 */
static uint32_t live_slot(const char *dir, int a)
{
	int64_t g = dp_table_gen(dir);

	return g >= 0 && slot_gen(a, 0) != g && slot_gen(a, 1) == g;
}

int dp_anchor_set(const char *dir, bool pending, int map_fd)
{
	int a = dp_pin_open(dir, DP_ANCHOR_PIN), err = 0;
	uint32_t k;

	if (a < 0)
		return a == -ENOENT ? 0 : a;
	k = live_slot(dir, a) ^ pending;
	if (map_fd >= 0 ? bpf_map_update_elem(a, &k, &map_fd, BPF_ANY) :
			  bpf_map_delete_elem(a, &k) && errno != ENOENT)
		err = -errno;
	close(a);
	return err;
}

int dp_anchor_idle_fd(const char *dir)
{
	int a = dp_pin_open(dir, DP_ANCHOR_PIN), fd;
	uint32_t live, idle, id, live_id;

	if (a < 0)
		return a;
	live = live_slot(dir, a);
	idle = !live;
	if (bpf_map_lookup_elem(a, &idle, &id))
		fd = -errno;
	/* One map in both slots (legacy: a slot-0 anchor's commit killed). */
	else if (!bpf_map_lookup_elem(a, &live, &live_id) && live_id == id)
		fd = -EBUSY;
	else if ((fd = bpf_map_get_fd_by_id(id)) < 0)
		fd = -errno;
	close(a);
	return fd;
}

/*
 * Whose node the record an anchor holds is (the committed one, else the
 * pending one): its "kind", "name" and "ifname".
 */
static json_t *anchor_state(int a)
{
	uint32_t k, id;
	json_t *s;
	int fd;

	for (k = 0; k < 2; k++) {
		if (bpf_map_lookup_elem(a, &k, &id))
			continue;
		fd = bpf_map_get_fd_by_id(id);
		if (fd < 0)
			continue;
		s = dp_record_peek_fd(fd,
				      (const char *const[]){ "kind", "name",
							     "ifname", NULL });
		close(fd);
		if (s)
			return s;
	}
	return NULL;
}

static bool is_node(json_t *s, const struct want *w)
{
	const char *kind = json_string_value(json_object_get(s, "kind")) ?: "";
	const char *name = json_string_value(json_object_get(s, "name")) ?: "";
	const char *ifname =
		json_string_value(json_object_get(s, "ifname")) ?: "";

	return !strcmp(kind, w->kind) && !strcmp(name, w->name) &&
	       (!w->ifname || !strcmp(ifname, w->ifname));
}

static uint32_t obj_id(int fd)
{
	struct {
		__u32 type, id;
	} info = { 0 }; /* prog and map info alike */
	__u32 len = sizeof(info);

	return bpf_obj_get_info_by_fd(fd, &info, &len) ? 0 : info.id;
}

/* The anchor among a program's maps, or -1. */
static int anchor_of(const uint32_t *ids, uint32_t n)
{
	struct bpf_map_info mi;
	__u32 len;
	uint32_t i;
	int fd;

	for (i = 0; i < n; i++) {
		fd = bpf_map_get_fd_by_id(ids[i]);
		if (fd < 0)
			continue;
		memset(&mi, 0, sizeof(mi));
		len = sizeof(mi);
		if (!bpf_obj_get_info_by_fd(fd, &mi, &len) &&
		    mi.type == BPF_MAP_TYPE_ARRAY_OF_MAPS &&
		    !strcmp(mi.name, DP_ANCHOR_NAME))
			return fd;
		close(fd);
	}
	return -1;
}

/* The map ids of a node's second program that its first one lacks. */
static void add_ids(struct found *f, const uint32_t *ids, uint32_t n)
{
	uint32_t i, k;

	for (i = 0; i < n && f->nmaps < MAX_IDS; i++) {
		for (k = 0; k < f->nmaps && f->map_ids[k] != ids[i]; k++)
			;
		if (k == f->nmaps)
			f->map_ids[f->nmaps++] = ids[i];
	}
}

/* Keep program id if it is one of the wanted node's; first one found decides. */
static void try_prog(uint32_t id, const struct want *w, struct found *f)
{
	uint32_t ids[MAX_IDS];
	struct bpf_prog_info pi = { .nr_map_ids = MAX_IDS,
				    .map_ids = (__u64)(unsigned long)ids };
	__u32 len = sizeof(pi);
	int fd, a, slot;
	json_t *s;

	if (!id || id == f->prog_id[0] || id == f->prog_id[1])
		return;
	fd = bpf_prog_get_fd_by_id(id);
	if (fd < 0) {
		note_denied(f);
		return;
	}
	if (bpf_obj_get_info_by_fd(fd, &pi, &len))
		goto out;
	slot = strstr(pi.name, "ingress") ? 0 : 1;
	a = anchor_of(ids, pi.nr_map_ids < MAX_IDS ? pi.nr_map_ids : MAX_IDS);
	if (a < 0 || f->prog[slot] >= 0)
		goto out_anchor;
	if (f->anchor >= 0) {
		if (obj_id(a) != obj_id(f->anchor))
			goto out_anchor; /* another node's program */
		close(a);
		/* Egress has maps ingress does not (the samples' ring). */
		add_ids(f, ids,
			pi.nr_map_ids < MAX_IDS ? pi.nr_map_ids : MAX_IDS);
	} else {
		s = anchor_state(a);
		if (!s || !is_node(s, w)) {
			json_decref(s);
			goto out_anchor;
		}
		json_decref(s);
		f->anchor = a;
		f->nmaps = pi.nr_map_ids < MAX_IDS ? pi.nr_map_ids : MAX_IDS;
		memcpy(f->map_ids, ids, f->nmaps * sizeof(ids[0]));
	}
	f->prog[slot] = fd;
	f->prog_id[slot] = id;
	return;
out_anchor:
	if (a >= 0)
		close(a);
out:
	close(fd);
}

/* The programs on one hook: tcx's, our cls_bpf filter's, a holder's. */
static void scan_hook(int ifindex, bool egress, const struct want *w,
		      struct found *f)
{
	LIBBPF_OPTS(bpf_tc_hook, hook, .ifindex = ifindex,
		    .attach_point = egress ? BPF_TC_EGRESS : BPF_TC_INGRESS);
	LIBBPF_OPTS(bpf_tc_opts, tc, .handle = DP_TC_HANDLE,
		    .priority = DP_TC_PRIO);
	uint32_t ids[MAX_IDS], i;
	LIBBPF_OPTS(bpf_prog_query_opts, q, .prog_ids = ids,
		    .prog_cnt = MAX_IDS);

	if (!bpf_prog_query_opts(ifindex,
				 (enum bpf_attach_type)dp_tcx_type(egress), &q))
		for (i = 0; i < q.prog_cnt && i < MAX_IDS; i++)
			try_prog(ids[i], w, f);
	else
		note_denied(f);
	if (!bpf_tc_query(&hook, &tc))
		try_prog(tc.prog_id, w, f);
	else
		note_denied(f);
	/* A flower switch's holder (dp_flower.h), behind its filters. */
	tc.priority = DP_HOLD_PRIO;
	tc.prog_id = 0;
	if (f->prog[egress] < 0 && !bpf_tc_query(&hook, &tc))
		try_prog(tc.prog_id, w, f);
}

static void find(const struct want *w, struct found *f)
{
	struct if_nameindex *ifs = if_nameindex(), *i;

	/* Both programs found: the other interfaces can tell nothing more. */
	for (i = ifs; i && i->if_index && (f->prog[0] < 0 || f->prog[1] < 0);
	     i++) {
		scan_hook(i->if_index, false, w, f);
		scan_hook(i->if_index, true, w, f);
	}
	if (ifs)
		if_freenameindex(ifs);
}

/* Pin fd as dir/name unless that pin is fd's object already. */
static int mirror(const char *dir, const char *name, int fd)
{
	char path[PATH_MAX + 64], tmp[PATH_MAX + 80];
	int cur, same;

	if (dp_pin_path(path, sizeof(path), dir, name))
		return -ENAMETOOLONG;
	cur = bpf_obj_get(path);
	if (cur >= 0) {
		same = obj_id(cur) == obj_id(fd);
		close(cur);
		if (same)
			return 0;
	}
	/* Renamed over the old pin: a reader sees one or the other. */
	snprintf(tmp, sizeof(tmp), "%s_sync", path);
	unlink(tmp);
	if (bpf_obj_pin(fd, tmp) || rename(tmp, path))
		return -errno;
	return 0;
}

static int mirror_id(const char *dir, const char *name, uint32_t id, bool map)
{
	int fd = map ? bpf_map_get_fd_by_id(id) : bpf_prog_get_fd_by_id(id),
	    err;

	if (fd < 0)
		return -errno;
	err = mirror(dir, name, fd);
	close(fd);
	return err;
}

static int mirror_maps(const char *dir, const struct found *f)
{
	struct bpf_map_info mi;
	__u32 len;
	uint32_t i;
	int fd, k, err = 0;

	for (i = 0; !err && i < f->nmaps; i++) {
		fd = bpf_map_get_fd_by_id(f->map_ids[i]);
		if (fd < 0)
			continue;
		memset(&mi, 0, sizeof(mi));
		len = sizeof(mi);
		/* The kernel keeps BPF_OBJ_NAME_LEN - 1 characters of a name. */
		if (bpf_obj_get_info_by_fd(fd, &mi, &len))
			mi.name[0] = '\0';
		for (k = 0; mi.name[0] && map_pins[k]; k++)
			if (!strncmp(mi.name, map_pins[k],
				     BPF_OBJ_NAME_LEN - 1)) {
				err = mirror(dir, map_pins[k], fd);
				break;
			}
		close(fd);
	}
	return err;
}

/*
 * The live slot's record as "state"; the other slot's as "state_new" only
 * if it is pending (of a generation after the kernel's: dp_state_settle
 * drops it), never the record an update replaced.
 */
static int mirror_state(const char *dir, int a)
{
	char path[PATH_MAX + 64];
	uint32_t live = live_slot(dir, a), other = !live, id;
	int64_t g = dp_table_gen(dir);
	int err = 0;

	if (!bpf_map_lookup_elem(a, &live, &id))
		err = mirror_id(dir, DP_STATE_CUR, id, true);
	if (!err && !bpf_map_lookup_elem(a, &other, &id) &&
	    (g < 0 || slot_gen(a, other) > g))
		return mirror_id(dir, DP_STATE_NEXT, id, true);
	if (!err && !dp_pin_path(path, sizeof(path), dir, DP_STATE_NEXT) &&
	    unlink(path) && errno != ENOENT)
		err = -errno;
	return err;
}

/*
 * Pins of a node that is in no interface's programs, though it recorded
 * itself attached there: another mount namespace detached it (or its
 * interfaces are gone). Only this network namespace's interfaces were
 * searched: another's node is left to dp_state_netns_ok's refusal. A
 * record of a command killed half way is left to dp_state_settle.
 */
static int drop_stale(const char *dir)
{
	char path[PATH_MAX + 64];
	json_t *st;

	if (dp_pin_path(path, sizeof(path), dir, DP_ANCHOR_PIN) ||
	    access(path, F_OK))
		return 0;
	st = dp_record_load(dir);
	if (st && dp_record_netns_here(st) &&
	    !strcmp(dp_record_phase(st), "attached")) {
		pr_warn("%s: no interface runs these programs any more (detached "
			"from another mount namespace): removing the pins\n",
			dir);
		dp_remove(dir);
	}
	json_decref(st);
	return 0;
}

/*
 * The interface the node most likely runs on: a host's own, a switch's
 * first port as its pinned record says; 0 if none. Only a hint: what it
 * finds is checked as any other interface's programs.
 */
static unsigned int hint_ifindex(const char *dir, const char *ifname)
{
	json_t *st, *port;
	unsigned int idx;

	if (ifname)
		return if_nametoindex(ifname);
	st = dp_record_peek(dir, DP_STATE_CUR,
			    (const char *const[]){ "ports[0]", NULL });
	port = json_object_get(st, "ports[0]");
	idx = (unsigned int)json_integer_value(
		json_object_get(port, "ifindex"));
	json_decref(st);
	return idx;
}

int dp_anchor_sync(const char *dir, const char *kind, const char *name,
		   const char *ifname)
{
	struct found f = { .anchor = -1, .prog = { -1, -1 } };
	struct want w = { kind, name, ifname };
	unsigned int hint = hint_ifindex(dir, ifname);
	char parent[PATH_MAX];
	int err = 0, k;

	/* The hinted interface first: one query there, not one everywhere. */
	if (hint) {
		scan_hook((int)hint, false, &w, &f);
		scan_hook((int)hint, true, &w, &f);
	}
	if (f.prog[0] < 0 || f.prog[1] < 0)
		find(&w, &f);
	if (f.anchor < 0 && f.denied) {
		p_err("%s %s: the kernel refused to show the programs of this "
		      "namespace's interfaces (%s): tagger needs CAP_BPF and "
		      "CAP_SYS_ADMIN",
		      kind, name, strerror(-f.denied));
		return f.denied;
	}
	if (f.anchor < 0)
		return drop_stale(dir);
	snprintf(parent, sizeof(parent), "%s", dir);
	if (ifname && strrchr(parent, '/'))
		*strrchr(parent, '/') = '\0';
	if ((mkdir(dp_root(), 0700) && errno != EEXIST) ||
	    (mkdir(parent, 0700) && errno != EEXIST) ||
	    (mkdir(dir, 0700) && errno != EEXIST))
		err = -errno;
	for (k = 0; !err && k < 2; k++)
		if (f.prog[k] >= 0)
			err = mirror(dir, k ? "prog_egress" : "prog_ingress",
				     f.prog[k]);
	if (!err)
		err = mirror_maps(dir, &f);
	if (!err)
		err = mirror(dir, DP_ANCHOR_PIN, f.anchor);
	if (!err)
		err = mirror_state(dir, f.anchor);
	close(f.anchor);
	for (k = 0; k < 2; k++)
		if (f.prog[k] >= 0)
			close(f.prog[k]);
	if (err)
		p_err("%s: pinning what the kernel holds of %s %s: %s", dir,
		      kind, name, strerror(-err));
	return err ? err : 1;
}
