// SPDX-License-Identifier: GPL-2.0
/* The agent's shared state file; see pfc_state.h. */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pfc_state.h"

int pfc_dir(const char *node, char *buf, size_t len)
{
	const char *base = getenv("TAGGER_PFC_DIR");
	int n;

	n = snprintf(buf, len, "%s/%s", base && *base ? base : "/run/tagger/pfc",
		     node);
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

static int mkdir_p(const char *dir)
{
	char tmp[PATH_MAX];
	char *p;

	snprintf(tmp, sizeof(tmp), "%s", dir);
	for (p = tmp + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(tmp, 0755) < 0 && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	if (mkdir(tmp, 0755) < 0 && errno != EEXIST)
		return -errno;
	return 0;
}

int pfc_state_create(const char *dir, struct pfc_state **st)
{
	char path[PATH_MAX];
	void *m;
	int fd, r;

	r = mkdir_p(dir);
	if (r)
		return r;
	snprintf(path, sizeof(path), "%s/state", dir);
	fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0)
		return -errno;
	if (ftruncate(fd, 0) < 0 || ftruncate(fd, sizeof(**st)) < 0) {
		r = -errno;
		close(fd);
		return r;
	}
	m = mmap(NULL, sizeof(**st), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	r = m == MAP_FAILED ? -errno : 0;
	close(fd);
	if (r)
		return r;
	*st = m;
	return 0;
}

int pfc_state_open(const char *dir, struct pfc_state **st)
{
	char path[PATH_MAX];
	struct stat sb;
	void *m;
	int fd, r = 0;

	snprintf(path, sizeof(path), "%s/state", dir);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &sb) < 0 || sb.st_size != sizeof(**st))
		r = -EPROTO;
	m = r ? MAP_FAILED : mmap(NULL, sizeof(**st), PROT_READ, MAP_SHARED, fd, 0);
	if (!r && m == MAP_FAILED)
		r = -errno;
	close(fd);
	if (r)
		return r;
	*st = m;
	if ((*st)->magic != PFC_STATE_MAGIC || (*st)->version != PFC_STATE_VERSION) {
		pfc_state_unmap(*st);
		return -EPROTO;
	}
	return 0;
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
