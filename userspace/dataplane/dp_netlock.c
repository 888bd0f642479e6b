// SPDX-License-Identifier: GPL-2.0
/* The network namespaces' lock files and their sweep; see dp_netlock.h. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dataplane/dp_netlock.h"
#include "lib/log.h"
#include "lib/util.h"

/*
 * A sweep, or holders removing their node's lock directory, removing the
 * lock on every try cannot starve us forever.
 */
#define TAKE_TRIES 1000

static double lock_timeout(void)
{
	const char *env = getenv("TAGGER_LOCK_TIMEOUT");
	double t = env && *env ? atof(env) : DP_LOCK_TIMEOUT;

	return t > 0 ? t : DP_LOCK_TIMEOUT;
}

int dp_flock_wait(int fd, const char *what, int op)
{
	double deadline = now_seconds() + lock_timeout();
	useconds_t nap = 250;

	/* Not forever: a stuck holder gets named instead. */
	while (flock(fd, op | LOCK_NB)) {
		if (errno != EWOULDBLOCK && errno != EINTR) {
			p_err("cannot lock %s: %s", what, strerror(errno));
			return -1;
		}
		if (now_seconds() > deadline) {
			p_err("another tagger holds the lock on %s (waited %g s): "
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

static void lock_name(char *buf, size_t len, unsigned long long ino)
{
	snprintf(buf, len, "net-%llu.lock", ino);
}

/* The inode of a lock file's name; only names lock_name() writes. */
static bool lock_name_ino(const char *name, unsigned long long *ino)
{
	char again[64];
	char *end;

	if (strncmp(name, "net-", 4) || name[4] < '1' || name[4] > '9')
		return false;
	errno = 0;
	*ino = strtoull(name + 4, &end, 10);
	if (errno || strcmp(end, ".lock"))
		return false;
	lock_name(again, sizeof(again), *ino);
	return !strcmp(again, name);
}

bool dp_still_at(int dirfd, const char *name, int fd)
{
	struct stat a, b;

	return !fstat(fd, &a) &&
	       !fstatat(dirfd, name, &b, AT_SYMLINK_NOFOLLOW) &&
	       (a.st_mode & S_IFMT) == (b.st_mode & S_IFMT) &&
	       a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

/* The lock file (or directory) at dirfd/name, made if missing: fd, -1. */
static int open_lock(int dirfd, const char *name, const char *path, bool dir)
{
	int fd;

	if (dir && mkdirat(dirfd, name, 0700) && errno != EEXIST) {
		p_err("cannot create %s: %s", path, strerror(errno));
		return -1;
	}
	fd = dir ? openat(dirfd, name,
			  O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC) :
		   openat(dirfd, name,
			  O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (dir && fd < 0 && errno == ENOENT)
		return -ENOENT; /* its holder removed the directory since */
	if (fd < 0)
		p_err("cannot open %s: %s", path, strerror(errno));
	return fd;
}

int dp_lock_at(int dirfd, const char *name, const char *path, bool dir)
{
	int fd, tries;

	for (tries = 0; tries < TAKE_TRIES; tries++) {
		fd = open_lock(dirfd, name, path, dir);
		if (fd == -ENOENT)
			continue;
		if (fd < 0)
			return -1;
		if (dp_flock_wait(fd, path, LOCK_EX)) {
			close(fd);
			return -1;
		}
		/*
		 * The file may have been removed between our open and our
		 * flock (a sweep, or the holder we waited for, whose node is
		 * gone): then we hold a lock nobody else can see, and the
		 * next command would create and lock a new one. Only the
		 * file at the path counts: take that one.
		 */
		if (dp_still_at(dirfd, name, fd))
			return fd;
		close(fd);
	}
	p_err("%s was removed under us %d times: try again", path, tries);
	return -1;
}

int dp_netlock_take(int dirfd, const char *dir, unsigned long long ino)
{
	char name[64], path[PATH_MAX];

	lock_name(name, sizeof(name), ino);
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return dp_lock_at(dirfd, name, path, false);
}

static void mark(const unsigned long long *ino, bool *live, int n,
		 unsigned long long v)
{
	int i;

	for (i = 0; i < n; i++)
		if (ino[i] == v)
			live[i] = true;
}

/* The network namespaces of every task of process dir (a /proc/PID). */
static void mark_tasks(int procfd, const char *pid,
		       const unsigned long long *ino, bool *live, int n)
{
	char path[64];
	struct dirent *de;
	struct stat st;
	DIR *tasks;
	int fd;

	snprintf(path, sizeof(path), "%.20s/task", pid);
	fd = openat(procfd, path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return;
	tasks = fdopendir(fd);
	if (!tasks) {
		close(fd);
		return;
	}
	while ((de = readdir(tasks))) {
		if (de->d_name[0] < '0' || de->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "%.20s/ns/net", de->d_name);
		if (!fstatat(fd, path, &st, 0))
			mark(ino, live, n, st.st_ino);
	}
	closedir(tasks);
}

/*
 * nsfs mounts ("ip netns add" binds them at /run/netns/NAME); true if
 * they alone make every namespace of ino live.
 */
static bool mark_mounts(const unsigned long long *ino, bool *live, int n)
{
	FILE *f = fopen("/proc/self/mountinfo", "re");
	unsigned long long v;
	char *line = NULL;
	size_t cap = 0;
	int i;

	if (!f)
		return false;
	while (getline(&line, &cap, f) > 0)
		if (sscanf(line, "%*s %*s %*s net:[%llu]", &v) == 1)
			mark(ino, live, n, v);
	free(line);
	fclose(f);
	for (i = 0; i < n; i++)
		if (!live[i])
			return false;
	return true;
}

/*
 * A namespace is live while a task is in it or an nsfs mount holds it.
 * Not seen: tasks of other PID namespaces or that we may not inspect
 * (a unit's bounded capabilities), mounts of other mount namespaces, and
 * open fds; and an inode number can be reused by a new
 * namespace. None of these can break the lock: a sweep removes only a
 * file nobody holds, while holding it, and a taker only keeps a file that
 * still is at the path once flocked. A wrong "gone" costs at worst one
 * file created again by the namespace's next command.
 */
void dp_netns_live(const unsigned long long *ino, bool *live, int n)
{
	struct dirent *de;
	DIR *proc;

	/* Tasks can only add to what is live: the walk of every task of
	 * /proc (milliseconds on a busy host) only where mounts left some. */
	if (mark_mounts(ino, live, n))
		return;
	proc = opendir("/proc");
	if (!proc)
		return;
	while ((de = readdir(proc)))
		if (de->d_name[0] >= '1' && de->d_name[0] <= '9')
			mark_tasks(dirfd(proc), de->d_name, ino, live, n);
	closedir(proc);
}

struct stale {
	unsigned long long ino[DP_SWEEP_MAX];
	int fd[DP_SWEEP_MAX];
	bool live[DP_SWEEP_MAX];
	int n;
};

/* Lock the file if nobody holds it and it is at its path; keep it. */
static void hold(struct stale *s, int dirfd, const char *name,
		 unsigned long long ino)
{
	int fd = openat(dirfd, name,
			O_RDWR | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);

	if (fd < 0)
		return;
	if (flock(fd, LOCK_EX | LOCK_NB) || !dp_still_at(dirfd, name, fd)) {
		close(fd);
		return;
	}
	s->ino[s->n] = ino;
	s->fd[s->n] = fd;
	s->live[s->n] = false;
	s->n++;
}

int dp_netlock_sweep(int dirfd, unsigned long long keep, dp_live_fn live)
{
	struct stale s = { .n = 0 };
	unsigned long long ino;
	struct dirent *de;
	int fd, i, removed = 0;
	char name[64];
	DIR *dir;

	fd = openat(dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	dir = fd >= 0 ? fdopendir(fd) : NULL;
	if (!dir) {
		if (fd >= 0)
			close(fd);
		return 0;
	}
	while (s.n < DP_SWEEP_MAX && (de = readdir(dir)))
		if (lock_name_ino(de->d_name, &ino) && ino != keep)
			hold(&s, dirfd, de->d_name, ino);
	closedir(dir);
	/* Looked up after locking: a namespace that gets a command after
	 * this finds its file held and waits, then takes a new one. */
	if (s.n)
		live(s.ino, s.live, s.n);
	for (i = 0; i < s.n; i++) {
		lock_name(name, sizeof(name), s.ino[i]);
		/* Unlinked while held, so nobody can be holding it. */
		if (!s.live[i] && dp_still_at(dirfd, name, s.fd[i]) &&
		    !unlinkat(dirfd, name, 0))
			removed++;
		close(s.fd[i]);
	}
	if (removed)
		pr_debug("removed %d lock file(s) of gone network namespaces\n",
			 removed);
	return removed;
}
