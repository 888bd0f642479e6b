// SPDX-License-Identifier: GPL-2.0
/* The RDMA CM's RoCE ToS and the NIC's DCB on host attach; see dp_rdma.h. */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dataplane/dp_rdma.h"
#include "lib/dcb.h"

#define DEF_CONFIGFS "/sys/kernel/config"

static const char *sysfs_root(void)
{
	return getenv("TAGGER_SYSFS") ?: "/sys";
}

static const char *configfs_root(void)
{
	return getenv("TAGGER_CONFIGFS") ?: DEF_CONFIGFS;
}

/* The first line of a small file, without its newline; -errno. */
static int read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	int err = 0;

	if (!f)
		return -errno;
	if (!fgets(buf, len, f))
		err = ferror(f) ? -EIO : -ENODATA;
	fclose(f);
	if (!err)
		buf[strcspn(buf, "\n")] = '\0';
	return err;
}

static int write_int(const char *path, int v)
{
	FILE *f = fopen(path, "w");
	int err;

	if (!f)
		return -errno;
	fprintf(f, "%d\n", v);
	err = fclose(f) ? -errno : 0; /* configfs answers on the flush */
	return err;
}

static int read_int(const char *path, int *v)
{
	char buf[32], *end;
	int err = read_line(path, buf, sizeof(buf));

	if (err)
		return err;
	*v = strtol(buf, &end, 0);
	return end == buf ? -EINVAL : 0;
}

/* Does port dir (.../ports/N) have a GID on ifname? */
static bool port_on(const char *port_dir, const char *ifname)
{
	char path[PATH_MAX], name[64];
	struct dirent *e;
	bool hit = false;
	DIR *d;

	snprintf(path, sizeof(path), "%.3000s/gid_attrs/ndevs", port_dir);
	d = opendir(path);
	if (!d)
		return false;
	while (!hit && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%.3000s/gid_attrs/ndevs/%.255s",
			 port_dir, e->d_name);
		/* An unused GID entry reads as an error: skipped. */
		hit = !read_line(path, name, sizeof(name)) &&
		      !strcmp(name, ifname);
	}
	closedir(d);
	return hit;
}

/*
 * RoCE GIDs name their netdev (gid_attrs/ndevs), for soft devices such as
 * rxe too; a NIC's own device also shows as device/infiniband of its
 * netdev, port 1 then.
 */
int dp_rdma_find(const char *ifname, char *ibdev, size_t len, int *port)
{
	char path[PATH_MAX];
	struct dirent *e, *p;
	DIR *d, *pd;
	int found = 0;

	snprintf(path, sizeof(path), "%s/class/infiniband", sysfs_root());
	d = opendir(path);
	while (d && !found && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/class/infiniband/%s/ports",
			 sysfs_root(), e->d_name);
		pd = opendir(path);
		while (pd && !found && (p = readdir(pd))) {
			char dir[PATH_MAX];

			if (p->d_name[0] == '.')
				continue;
			snprintf(dir, sizeof(dir), "%.3000s/%s", path,
				 p->d_name);
			if (port_on(dir, ifname)) {
				snprintf(ibdev, len, "%s", e->d_name);
				*port = atoi(p->d_name);
				found = 1;
			}
		}
		if (pd)
			closedir(pd);
	}
	if (d)
		closedir(d);
	if (found)
		return 1;
	snprintf(path, sizeof(path), "%s/class/net/%s/device/infiniband",
		 sysfs_root(), ifname);
	d = opendir(path);
	while (d && !found && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(ibdev, len, "%s", e->d_name);
		*port = 1;
		found = 1;
	}
	if (d)
		closedir(d);
	return found;
}

/* configfs/rdma_cm, mounting configfs at its usual place if need be. */
static int cm_dir(char *buf, size_t len)
{
	struct stat st;

	snprintf(buf, len, "%s/rdma_cm", configfs_root());
	if (!stat(buf, &st))
		return 0;
	if (!getenv("TAGGER_CONFIGFS") && !stat(DEF_CONFIGFS, &st) &&
	    !mount("configfs", DEF_CONFIGFS, "configfs", 0, NULL) &&
	    !stat(buf, &st))
		return 0;
	return -ENOENT;
}

/*
 * Set the ToS; rec gets what was there before (prev_tos) and whether the
 * device's group was made here (created), so detach can put both back.
 */
static int set_tos(json_t *rec, const char *ibdev, int port, int tos)
{
	char dev[PATH_MAX], path[PATH_MAX + 64];
	int prev, now, err;
	bool created;

	if (cm_dir(dev, sizeof(dev)))
		return -ENOENT;
	snprintf(dev + strlen(dev), sizeof(dev) - strlen(dev), "/%s", ibdev);
	created = !mkdir(dev, 0755); /* makes ports/ appear, in configfs */
	if (!created && errno != EEXIST)
		return -errno;
	snprintf(path, sizeof(path), "%s/ports/%d/default_roce_tos", dev, port);
	err = read_int(path, &prev);
	if (!err)
		err = write_int(path, tos);
	if (!err)
		err = read_int(path, &now);
	if (!err && now != tos)
		err = -EIO;
	if (err) {
		if (created)
			rmdir(dev);
		return err;
	}
	json_object_set_new(rec, "tos", json_integer(tos));
	json_object_set_new(rec, "prev_tos", json_integer(prev));
	json_object_set_new(rec, "created", json_boolean(created));
	json_object_set_new(rec, "configfs", json_string(path));
	return 0;
}

/* Trust DSCP and PFC on the lossless priorities where the NIC has DCB. */
static json_t *set_dcb(const char *ifname, const struct rules *r)
{
	uint8_t map[64], mask = 0;
	char msg[128], out[160];
	int k, err;

	if (pfc_dcb_probe(ifname, msg, sizeof(msg)) != 1) {
		snprintf(out, sizeof(out), "no DCB (%s)", msg);
		return json_string(out);
	}
	memset(map, r->lossy_prio & 7, sizeof(map));
	for (k = 0; k < r->ntags; k++) {
		map[r->tags[k].tag & 63] = r->tags[k].prio & 7;
		mask |= 1u << (r->tags[k].prio & 7);
	}
	err = pfc_dcb_apply(ifname, mask, map);
	if (err)
		snprintf(out, sizeof(out), "DCB: %s", strerror(-err));
	else
		snprintf(out, sizeof(out), "trust DSCP, PFC on 0x%02x", mask);
	return json_string(out);
}

json_t *dp_rdma_attach(const char *ifname, const struct rules *r, int tag)
{
	char ibdev[64], msg[160];
	json_t *rec;
	int port, err;

	if (dp_rdma_find(ifname, ibdev, sizeof(ibdev), &port) != 1)
		return NULL;
	rec = json_pack("{s:s,s:i}", "ibdev", ibdev, "port", port);
	err = set_tos(rec, ibdev, port, tag << 2);
	if (err) {
		snprintf(msg, sizeof(msg), "default_roce_tos not set: %s%s",
			 strerror(-err),
			 err == -ENOENT ?
				 " (rdma_cm loaded? configfs mounted?)" :
				 "");
		json_object_set_new(rec, "error", json_string(msg));
	}
	json_object_set_new(rec, "dcb", set_dcb(ifname, r));
	return rec;
}

int dp_rdma_detach(const json_t *rec)
{
	const char *path = json_string_value(json_object_get(rec, "configfs"));
	json_t *prev = json_object_get(rec, "prev_tos");
	char dev[PATH_MAX], *cut;
	int err;

	if (!path || !prev)
		return 0; /* nothing was set */
	err = write_int(path, json_integer_value(prev));
	if (err == -ENOENT)
		err = 0; /* the device (or rdma_cm) is gone, and its ToS */
	if (!err && json_is_true(json_object_get(rec, "created"))) {
		snprintf(dev, sizeof(dev), "%s", path);
		cut = strstr(dev, "/ports/");
		if (cut) {
			*cut = '\0';
			rmdir(dev);
		}
	}
	return err;
}
