// SPDX-License-Identifier: GPL-2.0
/* The agent's shared state file; see pfc_state.h. */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pfc/pfc_backend.h"
#include "pfc/pfc_state.h"

int pfc_dir(const char *node, char *buf, size_t len)
{
	const char *base = getenv("TAGGER_PFC_DIR");
	int n;

	n = snprintf(buf, len, "%s/%s",
		     base && *base ? base : PFC_RUN_DIR "/pfc", node);
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

/*
 * Every component made here is 0700: /run/tagger is also the data plane's
 * lock directory, which must be root's and 0700 (dp_pin.c), and a 0755
 * one made by the agent first would lock the data plane out.
 */
static int mkdir_p(const char *dir)
{
	char tmp[PATH_MAX];
	char *p;

	snprintf(tmp, sizeof(tmp), "%s", dir);
	for (p = tmp + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(tmp, 0700) < 0 && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	if (mkdir(tmp, 0700) < 0 && errno != EEXIST)
		return -errno;
	return 0;
}

/* Ours, a real directory, and nobody else may write to it. */
static int trusted(const char *path, bool sticky_ok, const char **why)
{
	struct stat sb;

	if (lstat(path, &sb) < 0)
		return -errno;
	if (!S_ISDIR(sb.st_mode)) {
		*why = "not a directory (a symlink?)";
		return -ENOTDIR;
	}
	if (sb.st_uid != geteuid()) {
		*why = "owned by another user";
		return -EPERM;
	}
	if ((sb.st_mode & (S_IWGRP | S_IWOTH)) &&
	    !(sticky_ok && (sb.st_mode & S_ISVTX))) {
		*why = "writable by other users";
		return -EPERM;
	}
	return 0;
}

/*
 * The directory above the agents' directories (/run/tagger by default):
 * whoever may write to it may rename our directory away and plant their
 * own. Root's (or ours) and not writable by others, unless sticky (/tmp);
 * /run/tagger itself as the data plane wants it: 0700.
 */
static int root_trusted(const char *path, char *shown, size_t len,
			const char **why)
{
	struct stat sb;

	snprintf(shown, len, "%s", path);
	if (lstat(path, &sb) < 0)
		return -errno;
	if (!S_ISDIR(sb.st_mode)) {
		*why = "not a directory (a symlink?)";
		return -ENOTDIR;
	}
	if (sb.st_uid != geteuid() && sb.st_uid != 0) {
		*why = "owned by another user";
		return -EPERM;
	}
	if (!strcmp(path, PFC_RUN_DIR) && (sb.st_mode & 077)) {
		*why = "must be a directory owned by root with mode 0700";
		return -EPERM;
	}
	if ((sb.st_mode & (S_IWGRP | S_IWOTH)) && !(sb.st_mode & S_ISVTX)) {
		*why = "writable by other users";
		return -EPERM;
	}
	return 0;
}

/* The directory above dir's parent, checked by root_trusted(). */
int pfc_state_root_check(const char *dir, char *shown, size_t len,
			 const char **why)
{
	char up[PATH_MAX], *slash;
	int i;

	*why = NULL;
	snprintf(up, sizeof(up), "%s", dir);
	for (i = 0; i < 2; i++) {
		slash = strrchr(up, '/');
		if (!slash)
			return 0; /* relative and short: the cwd's business */
		if (slash == up) {
			up[1] = '\0';
			break;
		}
		*slash = '\0';
	}
	if (i < 2)
		return 0; /* "/x/node": the root directory is above */
	return root_trusted(up, shown, len, why);
}

int pfc_state_dir(const char *dir, bool make, const char **why)
{
	char parent[PATH_MAX], *slash;
	int r;

	*why = NULL;
	if (make) {
		r = mkdir_p(dir);
		if (r)
			return r;
	}
	r = trusted(dir, false, why);
	if (r)
		return r;
	snprintf(parent, sizeof(parent), "%s", dir);
	slash = strrchr(parent, '/');
	if (!slash || slash == parent)
		return 0;
	*slash = '\0';
	r = trusted(parent, true, why);
	/* The parent may be root's while we are not (show as a user). */
	if (r == -EPERM && *why && !strcmp(*why, "owned by another user")) {
		struct stat sb;

		if (!lstat(parent, &sb) && sb.st_uid == 0 &&
		    !(sb.st_mode & (S_IWGRP | S_IWOTH)))
			r = 0, *why = NULL;
	}
	return r;
}

static int open_in(const char *dir, const char *name, int flags)
{
	char path[PATH_MAX];
	int fd;

	if (snprintf(path, sizeof(path), "%s/%s", dir, name) >=
	    (int)sizeof(path))
		return -ENAMETOOLONG;
	fd = open(path, flags | O_NOFOLLOW | O_CLOEXEC, 0600);
	return fd < 0 ? -errno : fd;
}

int pfc_state_lock(const char *dir, int *fd)
{
	int i, l = open_in(dir, "lock", O_RDWR | O_CREAT);

	if (l < 0)
		return l;
	/* A reader probing the lock holds it for a moment: try a while. */
	for (i = 0; i < 200; i++) {
		if (!flock(l, LOCK_EX | LOCK_NB)) {
			*fd = l;
			return 0;
		}
		if (errno != EWOULDBLOCK)
			break;
		usleep(1000);
	}
	close(l);
	return -EBUSY;
}

int pfc_state_locked(const char *dir)
{
	int l = open_in(dir, "lock", O_RDONLY), r;

	if (l == -ENOENT)
		return 0;
	if (l < 0)
		return l;
	r = flock(l, LOCK_SH | LOCK_NB) < 0 ?
		    (errno == EWOULDBLOCK ? 1 : -errno) :
		    0;
	close(l);
	return r;
}

static int map_state(int fd, bool write, struct pfc_state **st)
{
	void *m = mmap(NULL, sizeof(**st), PROT_READ | (write ? PROT_WRITE : 0),
		       MAP_SHARED, fd, 0);

	if (m == MAP_FAILED)
		return -errno;
	*st = m;
	return 0;
}

/*
 * The state of version 5 ended where busy_poll_us begins, 6 at beat, 7 at
 * ecn_mask, 8 at brs_req.
 */
#define PFC_STATE_V5_SIZE offsetof(struct pfc_state, busy_poll_us)
#define PFC_STATE_V6_SIZE offsetof(struct pfc_state, beat)
#define PFC_STATE_V7_SIZE offsetof(struct pfc_state, ecn_mask)
#define PFC_STATE_V8_SIZE offsetof(struct pfc_state, brs_req)

/*
 * An agent of the version before (still running through an upgrade): its
 * file is shorter. Mapped over zeroed anonymous memory of the full size,
 * so that the fields it lacks read as 0 and no access runs past the file.
 */
static int map_state_old(int fd, bool write, size_t size, struct pfc_state **st)
{
	int prot = PROT_READ | (write ? PROT_WRITE : 0);
	void *m = mmap(NULL, sizeof(**st), prot, MAP_PRIVATE | MAP_ANONYMOUS,
		       -1, 0);

	if (m == MAP_FAILED)
		return -errno;
	if (mmap(m, size, prot, MAP_SHARED | MAP_FIXED, fd, 0) == MAP_FAILED) {
		int e = errno;

		munmap(m, sizeof(**st));
		return -e;
	}
	*st = m;
	return 0;
}

/*
 * Made whole before it replaces the old file: the space reserved first
 * (a full /run fails here with ENOSPC, not with SIGBUS at the first write
 * to a page tmpfs cannot back), then renamed over "state". Until then the
 * old record (a dead agent's, which a later start or `stop` still needs)
 * stays as it was.
 */
int pfc_state_create(const char *dir, struct pfc_state **st)
{
	char tmp[PATH_MAX], path[PATH_MAX];
	int fd, r;

	if (snprintf(tmp, sizeof(tmp), "%s/state.new", dir) >=
		    (int)sizeof(tmp) ||
	    snprintf(path, sizeof(path), "%s/state", dir) >= (int)sizeof(path))
		return -ENAMETOOLONG;
	unlink(tmp);
	fd = open_in(dir, "state.new", O_RDWR | O_CREAT | O_EXCL);
	if (fd < 0)
		return fd;
	r = fchmod(fd, 0600) < 0 ? -errno : 0;
	if (!r)
		r = -posix_fallocate(fd, 0, sizeof(**st));
	if (!r)
		r = map_state(fd, true, st);
	close(fd);
	if (!r) {
		/* Killed before the agent fills it in: a record of nothing. */
		(*st)->magic = PFC_STATE_MAGIC;
		(*st)->version = PFC_STATE_VERSION;
		(*st)->stopped = 1;
	}
	if (!r && rename(tmp, path) < 0) {
		r = -errno;
		pfc_state_unmap(*st);
	}
	if (r)
		unlink(tmp);
	return r;
}

int pfc_state_open(const char *dir, bool write, struct pfc_state **st)
{
	struct stat sb;
	int fd, r = 0;

	fd = open_in(dir, "state", write ? O_RDWR : O_RDONLY);
	if (fd < 0)
		return fd;
	if (fstat(fd, &sb) < 0)
		r = -errno;
	else if (sb.st_size == sizeof(**st))
		r = map_state(fd, write, st);
	else if (sb.st_size == PFC_STATE_V5_SIZE ||
		 sb.st_size == PFC_STATE_V6_SIZE ||
		 sb.st_size == PFC_STATE_V7_SIZE ||
		 sb.st_size == PFC_STATE_V8_SIZE)
		r = map_state_old(fd, write, sb.st_size, st);
	else
		r = -EPROTO;
	close(fd);
	if (r)
		return r;
	if ((*st)->magic != PFC_STATE_MAGIC ||
	    (*st)->version != (sb.st_size == sizeof(**st) ? PFC_STATE_VERSION :
			       sb.st_size == PFC_STATE_V8_SIZE ? 8 :
			       sb.st_size == PFC_STATE_V7_SIZE ? 7 :
			       sb.st_size == PFC_STATE_V6_SIZE ? 6 :
								 5)) {
		pfc_state_unmap(*st);
		return -EPROTO;
	}
	return 0;
}

/* No writer is alive (we hold the lock): take it as it is. */
int pfc_state_read(const char *dir, struct pfc_state *copy)
{
	struct pfc_state *st;
	int r = pfc_state_open(dir, false, &st);

	if (r)
		return r;
	memcpy(copy, st, sizeof(*copy));
	pfc_state_unmap(st);
	/* Adopting a dead agent's queues and maps: only of this version. */
	return copy->version == PFC_STATE_VERSION ? 0 : -EPROTO;
}

int pfc_state_snapshot(const struct pfc_state *st, struct pfc_state *copy)
{
	int tries;

	for (tries = 0; tries < 1000; tries++) {
		uint32_t s1 = __atomic_load_n(&st->seq, __ATOMIC_ACQUIRE);

		if (!(s1 & 1)) {
			memcpy(copy, st, sizeof(*copy));
			__atomic_thread_fence(__ATOMIC_ACQUIRE);
			if (__atomic_load_n(&st->seq, __ATOMIC_RELAXED) == s1)
				return 0;
		}
		sched_yield();
	}
	return -EAGAIN;
}

void pfc_state_begin(struct pfc_state *st)
{
	__atomic_store_n(&st->seq, st->seq + 1, __ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_RELEASE);
}

void pfc_state_end(struct pfc_state *st)
{
	__atomic_store_n(&st->seq, st->seq + 1, __ATOMIC_RELEASE);
}

void pfc_state_unmap(struct pfc_state *st)
{
	if (st)
		munmap(st, sizeof(*st));
}

void pfc_state_put_qstats(struct pfc_state *st, const struct tc_qstats *s)
{
	uint32_t port, p;

	for (port = 0; port < st->nports && port < PFC_MAX_PORTS; port++) {
		if (st->ports[port].ifindex != s->ifindex)
			continue;
		for (p = 0; p < PFC_PRIOS; p++) {
			struct pfc_state_prio *sp = &st->ports[port].prio[p];

			if (s->handle != PFC_GATE_HANDLE(p))
				continue;
			sp->q_backlog = s->backlog;
			sp->q_qlen = s->qlen;
			sp->q_drops = s->drops;
			sp->q_packets = s->packets;
			sp->q_bytes = s->bytes;
		}
	}
}
