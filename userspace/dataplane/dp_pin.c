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

#include "dataplane/dp_pin.h"
#include "dataplane/dp_record.h"
#include "lib/log.h"
#include "lib/util.h"

#define BPF_FS_MAGIC_ 0xcafe4a11

static const char *root_opt;
static bool root_private;
static int netns_lock = -1;

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

static double lock_timeout(void)
{
	const char *env = getenv("TAGGER_LOCK_TIMEOUT");
	double t = env && *env ? atof(env) : DP_LOCK_TIMEOUT;

	return t > 0 ? t : DP_LOCK_TIMEOUT;
}

/* flock fd, at most TAGGER_LOCK_TIMEOUT seconds; 0 or -1 after p_err. */
static int lock_wait(int fd, const char *what)
{
	double deadline = now_seconds() + lock_timeout();
	useconds_t nap = 250;

	/* Not forever: a stuck holder gets named instead. */
	while (flock(fd, LOCK_EX | LOCK_NB)) {
		if (errno != EWOULDBLOCK && errno != EINTR) {
			p_err("cannot lock %s: %s", what, strerror(errno));
			return -1;
		}
		if (now_seconds() > deadline) {
			p_err("another tagger holds the lock on %s (waited %.0f s): "
			      "try again, or find it with: fuser -v %s",
			      what, lock_timeout(), what);
			return -1;
		}
		/*
		 * Short naps first: an update's child holds the lock for the
		 * rest of one grace period (dp_inplace.h), a few ms; then 10 ms.
		 */
		usleep(nap);
		nap = nap < 10000 ? nap * 2 : 10000;
	}
	return 0;
}

/*
 * The lock every command of this network namespace takes, whatever its
 * mount namespace: /run is the same under nsenter and "ip netns exec"
 * (which remounts /sys only), and the kernel-held nodes are per network
 * namespace. A directory of root's, 0700, as the bpffs root.
 */
static int netns_lock_take(void)
{
	char path[PATH_MAX];
	struct stat st;
	int fd;

	if (stat("/proc/self/ns/net", &st)) {
		p_err("/proc/self/ns/net: %s", strerror(errno));
		return -EXIT_RUNTIME;
	}
	if (mkdir(DP_LOCK_DIR, 0700) && errno != EEXIST) {
		p_err("cannot create %s: %s", DP_LOCK_DIR, strerror(errno));
		return -EXIT_RUNTIME;
	}
	fd = open(DP_LOCK_DIR, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0 || !parents_trusted(DP_LOCK_DIR) || fstat(fd, &st) ||
	    st.st_uid != geteuid() || (st.st_mode & 077)) {
		if (fd >= 0)
			p_err("%s must be a directory owned by root with mode 0700: "
			      "remove it and let tagger create it",
			      DP_LOCK_DIR);
		else
			p_err("cannot open %s: %s", DP_LOCK_DIR,
			      strerror(errno));
		if (fd >= 0)
			close(fd);
		return -EXIT_USAGE;
	}
	close(fd);
	stat("/proc/self/ns/net", &st);
	snprintf(path, sizeof(path), "%s/net-%llu.lock", DP_LOCK_DIR,
		 (unsigned long long)st.st_ino);
	fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0) {
		p_err("cannot open %s: %s", path, strerror(errno));
		return -EXIT_RUNTIME;
	}
	if (lock_wait(fd, path)) {
		close(fd);
		return -EXIT_RUNTIME;
	}
	return fd;
}

int dp_lock(void)
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
	fd = dp_root_open();
	if (fd < 0)
		goto err;
	if (lock_wait(fd, root)) {
		close(fd);
		ret = -EXIT_RUNTIME;
		goto err;
	}
	return fd;
err:
	close(netns_lock);
	netns_lock = -1;
	return ret;
}

void dp_unlock(int fd)
{
	if (fd >= 0)
		close(fd); /* releases the flock */
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
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		if (!lstat(path, &st) && S_ISDIR(st.st_mode))
			err = dp_remove(path) ?: err;
		else if (unlink(path))
			err = -errno;
	}
	closedir(d);
	snprintf(path, sizeof(path), "%s/%s", dir, DP_STATE_CUR);
	if (unlink(path) && errno != ENOENT)
		err = -errno;
	if (rmdir(dir) && !err)
		err = -errno;
	return err;
}
