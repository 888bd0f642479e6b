// SPDX-License-Identifier: GPL-2.0
/*
 * The node names' locks (userspace/dataplane/dp_namelock.c). Workers take
 * and release the lock of one name whose node never exists, so every
 * release removes the lock's directory while others wait on it: the
 * worst case for a waiter that opened the directory before it went. Each
 * worker, holding the lock, creates a marker with O_EXCL: a second holder
 * at the same time fails it. Without the taker's check that the flocked
 * directory still is the one at the path, overlaps follow. Then: another
 * name is not held up by a held one, the same name is (from another
 * process), a holder killed lets go, and a lock stays while its node's
 * directory does.
 */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "dataplane/dp_namelock.h"
#include "lib/util.h"

#define WORKERS 4
#define MIN_ENTRIES 1000
#define MAX_SECONDS 30.0

struct counts {
	long entries, overlaps, errors, recreated;
};

static void worker(int rootfd, const char *root, struct counts *c)
{
	double end = now_seconds() + MAX_SECONDS;
	struct stat st;
	ino_t last = 0;
	int fd, m;

	srand(getpid());
	while (now_seconds() < end &&
	       __atomic_load_n(&c->entries, __ATOMIC_RELAXED) < MIN_ENTRIES) {
		fd = dp_namelock_take(rootfd, root, "S1");
		if (fd < 0) {
			__atomic_add_fetch(&c->errors, 1, __ATOMIC_RELAXED);
			continue;
		}
		if (!fstat(fd, &st) && last && st.st_ino != last)
			__atomic_add_fetch(&c->recreated, 1, __ATOMIC_RELAXED);
		last = st.st_ino;
		m = openat(rootfd, "held", O_CREAT | O_EXCL | O_WRONLY, 0600);
		if (m < 0) {
			__atomic_add_fetch(&c->overlaps, 1, __ATOMIC_RELAXED);
		} else {
			sched_yield();
			close(m);
			unlinkat(rootfd, "held", 0);
		}
		__atomic_add_fetch(&c->entries, 1, __ATOMIC_RELAXED);
		/* No directory "S1": the release removes the lock's. */
		dp_namelock_release(rootfd, "S1", fd);
		usleep(rand() % 200);
	}
}

#define ROOT_PREFIX "/tmp/namelock."
#define ROOT_LEN (sizeof(ROOT_PREFIX) + 6)

/* A fresh directory in dir (ROOT_LEN bytes): mkdtemp fills 6 placeholders. */
static int make_root(char *dir)
{
	int fd;

	memcpy(dir, ROOT_PREFIX, sizeof(ROOT_PREFIX) - 1);
	memset(dir + sizeof(ROOT_PREFIX) - 1, 'X', 6);
	dir[ROOT_LEN - 1] = '\0';
	ck_assert_ptr_nonnull(mkdtemp(dir));
	fd = open(dir, O_RDONLY | O_DIRECTORY);
	ck_assert_int_ge(fd, 0);
	return fd;
}

START_TEST(no_two_holders_while_holders_remove_the_lock)
{
	char dir[ROOT_LEN];
	pid_t pid[WORKERS];
	struct counts *c;
	int rootfd, i, st;

	c = mmap(NULL, sizeof(*c), PROT_READ | PROT_WRITE,
		 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ck_assert_ptr_ne(c, MAP_FAILED);
	rootfd = make_root(dir);
	for (i = 0; i < WORKERS; i++) {
		pid[i] = fork();
		ck_assert_int_ge(pid[i], 0);
		if (!pid[i]) {
			worker(rootfd, dir, c);
			_exit(0);
		}
	}
	for (i = 0; i < WORKERS; i++) {
		ck_assert_int_eq(waitpid(pid[i], &st, 0), pid[i]);
		ck_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	}
	unlinkat(rootfd, "held", 0);
	/* Every holder removed it: nothing is left behind. */
	ck_assert_int_ne(faccessat(rootfd, "lock@S1", F_OK, 0), 0);
	close(rootfd);
	ck_assert_int_eq(rmdir(dir), 0);
	ck_assert_msg(c->overlaps == 0,
		      "%ld of %ld lock holdings overlapped another",
		      c->overlaps, c->entries);
	ck_assert_int_eq(c->errors, 0);
	/* The race was run, not avoided: the lock came and went. */
	ck_assert_msg(c->entries >= MIN_ENTRIES && c->recreated > 0,
		      "only %ld holdings, %ld on a new directory", c->entries,
		      c->recreated);
	munmap(c, sizeof(*c));
}
END_TEST

/* A child that holds name's lock until killed; returns once it does. */
static pid_t holder(int rootfd, const char *root, const char *name)
{
	int p[2];
	pid_t pid;
	char b;

	ck_assert_int_eq(pipe(p), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (!pid) {
		close(p[0]);
		if (dp_namelock_take(rootfd, root, name) < 0)
			_exit(1);
		if (write(p[1], "x", 1) != 1)
			_exit(1);
		pause();
		_exit(0);
	}
	close(p[1]);
	ck_assert_int_eq(read(p[0], &b, 1), 1);
	close(p[0]);
	return pid;
}

START_TEST(names_exclude_only_themselves)
{
	char dir[ROOT_LEN];
	int rootfd, fd, st;
	pid_t pid;

	rootfd = make_root(dir);
	/* A node "S1" is attached: its lock stays with it. */
	ck_assert_int_eq(mkdirat(rootfd, "S1", 0700), 0);
	setenv("TAGGER_LOCK_TIMEOUT", "0.3", 1);
	pid = holder(rootfd, dir, "S1");
	fd = dp_namelock_take(rootfd, dir, "S2");
	ck_assert_msg(fd >= 0, "S2 waited for S1's holder");
	dp_namelock_release(rootfd, "S2", fd);
	ck_assert_int_ne(faccessat(rootfd, "lock@S2", F_OK, 0), 0);
	ck_assert_msg(dp_namelock_take(rootfd, dir, "S1") < 0,
		      "S1 taken while another process holds it");
	/* Killed while holding: the kernel lets go. */
	kill(pid, SIGKILL);
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	fd = dp_namelock_take(rootfd, dir, "S1");
	ck_assert_int_ge(fd, 0);
	dp_namelock_release(rootfd, "S1", fd);
	ck_assert_int_eq(faccessat(rootfd, "lock@S1", F_OK, 0), 0);
	unsetenv("TAGGER_LOCK_TIMEOUT");
	unlinkat(rootfd, "lock@S1", AT_REMOVEDIR);
	unlinkat(rootfd, "S1", AT_REMOVEDIR);
	close(rootfd);
	ck_assert_int_eq(rmdir(dir), 0);
}
END_TEST

Suite *dp_namelock_suite(void)
{
	Suite *s = suite_create("dp_namelock");
	TCase *tc = tcase_create("namelock");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, no_two_holders_while_holders_remove_the_lock);
	tcase_add_test(tc, names_exclude_only_themselves);
	suite_add_tcase(s, tc);
	return s;
}
