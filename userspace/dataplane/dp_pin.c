// SPDX-License-Identifier: GPL-2.0
/* The data plane's bpffs directory and lock; see dp_pin.h. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <sys/file.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include <bpf/bpf.h>

#include "dataplane/dp_namelock.h"
#include "dataplane/dp_netlock.h"
#include "dataplane/dp_pin.h"
#include "dataplane/dp_pin_path.h"
#include "dataplane/dp_record.h"
#include "lib/log.h"
#include "lib/util.h"

#define BPF_FS_MAGIC_ 0xcafe4a11

static const char *root_opt;
static bool root_private;
static int netns_lock = -1;
static int root_lock = -1;
static char *locked_name;

void dp_root_set(const char *dir)
{
	root_opt = dir;
}

const char *dp_root(void)
{
	const char *env = getenv("TAGGER_BPF_ROOT");

	if (root_opt)
		return root_opt;
	return env && *env ? env : DP_DEFAULT_ROOT;
}

bool dp_root_private(void)
{
	return root_private;
}

static bool on_bpffs(const char *dir)
{
	struct statfs sfs;

	return !statfs(dir, &sfs) && sfs.f_type == BPF_FS_MAGIC_;
}

/*
 * No bpffs at /sys/fs/bpf (none mounted, or "ip netns exec" remounted
 * /sys): one of our own in a mount namespace of our own, as bpftool
 * mounts one where none is, but gone with this process: the kernel holds
 * what must last (dp_anchor.h). Slave first, so nothing propagates back.
 */
int dp_root_prepare(void)
{
	const char *env = getenv("TAGGER_BPF_ROOT");
	char *parent;
	int ok;

	if (root_private || root_opt || (env && *env))
		return 0;
	parent = xstrdup(DP_DEFAULT_ROOT);
	*strrchr(parent, '/') = '\0';
	ok = on_bpffs(parent);
	if (!ok && (unshare(CLONE_NEWNS) ||
		    mount(NULL, "/", NULL, MS_SLAVE | MS_REC, NULL) ||
		    mount("bpf", parent, "bpf", 0, "mode=0700"))) {
		p_err("no bpffs at %s, and none can be mounted privately there: "
		      "%s (mount one: mount -t bpf bpf %s, or set TAGGER_BPF_ROOT "
		      "to a directory on one)",
		      parent, strerror(errno), parent);
		free(parent);
		return -1;
	}
	root_private = !ok;
	free(parent);
	return 0;
}

int dp_path(char *buf, const char *name, const char *sub)
{
	int n;

	if (sub)
		n = snprintf(buf, PATH_MAX, "%s/%s/%s", dp_root(), name, sub);
	else
		n = snprintf(buf, PATH_MAX, "%s/%s", dp_root(), name);
	return n < PATH_MAX ? 0 : -ENAMETOOLONG;
}

static int mkdir_p(const char *dir)
{
	char *p, *d = xstrdup(dir);
	int err = 0;

	for (p = d + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(d, 0700) && errno != EEXIST)
			err = -errno;
		*p = '/';
	}
	if (!err && mkdir(d, 0700) && errno != EEXIST)
		err = -errno;
	free(d);
	return err;
}

/*
 * Every directory above the root must be one only root can change, or a
 * sticky one (a fresh bpffs is 1777): else its owner could swap the root.
 */
static int parents_trusted(const char *root)
{
	char *d = xstrdup(root), *p;
	struct stat st;
	int ok = 1;

	while (ok && (p = strrchr(d, '/'))) {
		p[p == d] = '\0'; /* "/a/b" -> "/a", "/a" -> "/" */
		if (stat(d, &st)) {
			p_err("%s: %s", d, strerror(errno));
			ok = 0;
		} else if ((st.st_uid && st.st_uid != geteuid()) ||
			   ((st.st_mode & 022) && !(st.st_mode & S_ISVTX))) {
			p_err("%s is owned by uid %u with mode %04o: another user "
			      "could replace %s; tagger refuses it",
			      d, (unsigned)st.st_uid,
			      (unsigned)(st.st_mode & 07777), root);
			ok = 0;
		}
		if (p == d)
			break;
	}
	free(d);
	return ok;
}

/* The root itself: a directory (no symlink) of ours, closed to others. */
int dp_root_open(void)
{
	const char *root = dp_root();
	struct statfs sfs;
	struct stat st;
	int fd;

	if (!parents_trusted(root))
		return -1;
	fd = open(root, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		p_err("cannot open %s: %s%s", root, strerror(errno),
		      errno == ELOOP || errno == ENOTDIR ?
			      " (a symlink or file: "
			      "tagger takes only a directory of its own)" :
			      "");
		return -1;
	}
	if (fstatfs(fd, &sfs) || sfs.f_type != BPF_FS_MAGIC_) {
		p_err("%s is not on a bpffs: set TAGGER_BPF_ROOT to a directory "
		      "on one (mount -t bpf bpf DIR), or unset it and let the "
		      "kernel hold the programs and their state",
		      root);
		goto err;
	}
	if (fstat(fd, &st) || st.st_uid != geteuid() || (st.st_mode & 077)) {
		p_err("%s is owned by uid %u with mode %04o: the tagger root must "
		      "be owned by root and 0700 (another user may have made it "
		      "first); remove it and let tagger create it",
		      root, (unsigned)st.st_uid,
		      (unsigned)(st.st_mode & 07777));
		goto err;
	}
	return fd;
err:
	close(fd);
	return -1;
}

/*
 * The lock every command of this network namespace takes, whatever its
 * mount namespace: /run is the same under nsenter and "ip netns exec"
 * (which remounts /sys only), and the kernel-held nodes are per network
 * namespace. A directory of root's, 0700, as the bpffs root.
 */
static int netns_lock_take(void)
{
	struct stat st, dst;
	int dirfd, fd;

	if (stat("/proc/self/ns/net", &st)) {
		p_err("/proc/self/ns/net: %s", strerror(errno));
		return -EXIT_RUNTIME;
	}
	if (mkdir(DP_LOCK_DIR, 0700) && errno != EEXIST) {
		p_err("cannot create %s: %s", DP_LOCK_DIR, strerror(errno));
		return -EXIT_RUNTIME;
	}
	dirfd = open(DP_LOCK_DIR,
		     O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (dirfd < 0) {
		p_err("cannot open %s: %s", DP_LOCK_DIR, strerror(errno));
		return -EXIT_USAGE;
	}
	if (!parents_trusted(DP_LOCK_DIR) || fstat(dirfd, &dst) ||
	    dst.st_uid != geteuid() || (dst.st_mode & 077)) {
		p_err("%s must be a directory owned by root with mode 0700: "
		      "remove it and let tagger create it",
		      DP_LOCK_DIR);
		close(dirfd);
		return -EXIT_USAGE;
	}
	fd = dp_netlock_take(dirfd, DP_LOCK_DIR, st.st_ino);
	/* The files of namespaces that are gone, not one per namespace ever
	 * used (a lab host churns through thousands). */
	if (fd >= 0)
		dp_netlock_sweep(dirfd, st.st_ino, dp_netns_live);
	close(dirfd);
	return fd >= 0 ? fd : -EXIT_RUNTIME;
}

/*
 * Three locks, always in this order: the network namespace's (its
 * kernel-held nodes and sysctls, whatever the mount namespace), the root
 * shared (a tagger that locks the whole root, as every one did before
 * the names' locks, still excludes us), and the name's (dp_namelock.h):
 * commands on other names under the same root run meanwhile.
 */
int dp_lock(const char *name)
{
	const char *root = dp_root();
	int fd, err, ret = -EXIT_USAGE;

	if (dp_root_prepare())
		return -EXIT_RUNTIME;
	netns_lock = netns_lock_take();
	if (netns_lock < 0)
		return netns_lock;
	err = mkdir_p(root);
	if (err) {
		p_err("cannot create %s: %s (set TAGGER_BPF_ROOT to a directory "
		      "on a bpffs, or unset it and let the kernel hold the "
		      "programs)",
		      root, strerror(-err));
		goto err;
	}
	root_lock = dp_root_open();
	if (root_lock < 0)
		goto err;
	ret = -EXIT_RUNTIME;
	if (dp_flock_wait(root_lock, root, LOCK_SH))
		goto err;
	fd = dp_namelock_take(root_lock, root, name);
	if (fd < 0)
		goto err;
	locked_name = xstrdup(name);
	return fd;
err:
	if (root_lock >= 0)
		close(root_lock);
	root_lock = -1;
	close(netns_lock);
	netns_lock = -1;
	return ret;
}

void dp_unlock(int fd)
{
	if (fd >= 0 && locked_name)
		dp_namelock_release(root_lock, locked_name, fd);
	else if (fd >= 0)
		close(fd);
	free(locked_name);
	locked_name = NULL;
	if (root_lock >= 0)
		close(root_lock); /* releases the flock */
	root_lock = -1;
	if (netns_lock >= 0)
		close(netns_lock);
	netns_lock = -1;
}

/* The state record goes last: a removal killed half way stays visible. */
int dp_remove(const char *dir)
{
	char path[PATH_MAX + 64];
	struct dirent *de;
	DIR *d = opendir(dir);
	struct stat st;
	int err = 0;

	if (!d)
		return errno == ENOENT ? 0 : -errno;
	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, "..") ||
		    !strcmp(de->d_name, DP_STATE_CUR))
			continue;
		if (dp_pin_path(path, sizeof(path), dir, de->d_name))
			err = -ENAMETOOLONG;
		else if (!lstat(path, &st) && S_ISDIR(st.st_mode))
			err = dp_remove(path) ?: err;
		else if (unlink(path))
			err = -errno;
	}
	closedir(d);
	if (dp_pin_path(path, sizeof(path), dir, DP_STATE_CUR))
		err = -ENAMETOOLONG;
	else if (unlink(path) && errno != ENOENT)
		err = -errno;
	if (rmdir(dir) && !err)
		err = -errno;
	return err;
}
