// SPDX-License-Identifier: GPL-2.0
/*
 * The network namespaces' lock files (userspace/dataplane/dp_netlock.c)
 * under the worst sweep: one that takes every namespace for gone, so it
 * unlinks the lock file whenever nobody holds it, while workers take and
 * release the lock of one namespace. Each worker, holding the lock,
 * creates a marker with O_EXCL: a second holder at the same time fails
 * it. Without the taker's check that the flocked file still is at the
 * path, a worker that opened the file just before a sweep unlinked it
 * holds a lock nobody else sees, and overlaps follow.
 */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "dataplane/dp_netlock.h"
#include "lib/util.h"

#define WORKERS 4
#define SWEEPERS 2
/* Run until the race was run this often (or give up after MAX_SECONDS). */
#define MIN_ENTRIES 500
#define MIN_REMOVED 50
#define MAX_SECONDS 30.0
#define NS_INO 4242ULL

struct counts {
	long entries, overlaps, removed, errors;
};

static bool enough(const struct counts *c, double end)
{
	return now_seconds() > end ||
	       (__atomic_load_n(&c->entries, __ATOMIC_RELAXED) >= MIN_ENTRIES &&
		__atomic_load_n(&c->removed, __ATOMIC_RELAXED) >= MIN_REMOVED);
}

static void none_live(const unsigned long long *ino, bool *live, int n)
{
	(void)ino;
	(void)live;
	(void)n;
}

static void worker(int dirfd, const char *dir, struct counts *c)
{
	double end = now_seconds() + MAX_SECONDS;
	int fd, m;

	srand(getpid());
	while (!enough(c, end)) {
		fd = dp_netlock_take(dirfd, dir, NS_INO);
		if (fd < 0) {
			__atomic_add_fetch(&c->errors, 1, __ATOMIC_RELAXED);
			continue;
		}
		m = openat(dirfd, "held", O_CREAT | O_EXCL | O_WRONLY, 0600);
		if (m < 0) {
			__atomic_add_fetch(&c->overlaps, 1, __ATOMIC_RELAXED);
		} else {
			sched_yield();
			close(m);
			unlinkat(dirfd, "held", 0);
		}
		__atomic_add_fetch(&c->entries, 1, __ATOMIC_RELAXED);
		close(fd);
		/* Let the lock be free now and then, or no sweep gets it. */
		usleep(rand() % 300);
	}
}

static void sweeper(int dirfd, struct counts *c)
{
	double end = now_seconds() + MAX_SECONDS;
	int n;

	while (!enough(c, end)) {
		n = dp_netlock_sweep(dirfd, 0, none_live);
		__atomic_add_fetch(&c->removed, n, __ATOMIC_RELAXED);
		usleep(50);
	}
}

START_TEST(no_two_holders_while_a_sweep_unlinks)
{
	char dir[] = "/tmp/netlock.XXXXXX";
	pid_t pid[WORKERS + SWEEPERS];
	struct counts *c;
	int dirfd, i, st;

	c = mmap(NULL, sizeof(*c), PROT_READ | PROT_WRITE,
		 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ck_assert_ptr_ne(c, MAP_FAILED);
	ck_assert_ptr_nonnull(mkdtemp(dir));
	dirfd = open(dir, O_RDONLY | O_DIRECTORY);
	ck_assert_int_ge(dirfd, 0);
	for (i = 0; i < WORKERS + SWEEPERS; i++) {
		pid[i] = fork();
		ck_assert_int_ge(pid[i], 0);
		if (!pid[i]) {
			if (i < WORKERS)
				worker(dirfd, dir, c);
			else
				sweeper(dirfd, c);
			_exit(0);
		}
	}
	for (i = 0; i < WORKERS + SWEEPERS; i++) {
		ck_assert_int_eq(waitpid(pid[i], &st, 0), pid[i]);
		ck_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	}
	unlinkat(dirfd, "held", 0);
	unlinkat(dirfd, "net-4242.lock", 0);
	close(dirfd);
	rmdir(dir);
	ck_assert_msg(c->overlaps == 0,
		      "%ld of %ld lock holdings overlapped another "
		      "(%ld files swept)",
		      c->overlaps, c->entries, c->removed);
	ck_assert_int_eq(c->errors, 0);
	/* The race was run, not avoided: the file went many times. */
	ck_assert_msg(c->entries >= MIN_ENTRIES && c->removed >= MIN_REMOVED,
		      "only %ld holdings and %ld removals", c->entries,
		      c->removed);
	munmap(c, sizeof(*c));
}
END_TEST

/* A live namespace's file, one held by somebody, and names that are not
 * lock files stay; the rest go. */
static void live_4243(const unsigned long long *ino, bool *live, int n)
{
	int i;

	for (i = 0; i < n; i++)
		live[i] = ino[i] == 4243;
}

START_TEST(the_sweep_removes_only_free_files_of_gone_namespaces)
{
	static const char *const keep[] = { "net-4243.lock",   "net-4244.lock",
					    "net-4245.lock",   "net-04246.lock",
					    "net-4247.lock.x", "other" };
	char dir[] = "/tmp/netlock.XXXXXX";
	int dirfd, held, i;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	dirfd = open(dir, O_RDONLY | O_DIRECTORY);
	ck_assert_int_ge(dirfd, 0);
	for (i = 0; i < 6; i++)
		close(openat(dirfd, keep[i], O_CREAT | O_WRONLY, 0600));
	close(openat(dirfd, "net-4246.lock", O_CREAT | O_WRONLY, 0600));
	close(openat(dirfd, "net-4248.lock", O_CREAT | O_WRONLY, 0600));
	held = dp_netlock_take(dirfd, dir, 4244);
	ck_assert_int_ge(held, 0);
	/* 4243 live, 4244 held, 4245 ours: only 4246 and 4248 go. */
	ck_assert_int_eq(dp_netlock_sweep(dirfd, 4245, live_4243), 2);
	for (i = 0; i < 6; i++)
		ck_assert_msg(!faccessat(dirfd, keep[i], F_OK, 0), "%s gone",
			      keep[i]);
	ck_assert(faccessat(dirfd, "net-4246.lock", F_OK, 0));
	ck_assert(faccessat(dirfd, "net-4248.lock", F_OK, 0));
	close(held);
	for (i = 0; i < 6; i++)
		unlinkat(dirfd, keep[i], 0);
	close(dirfd);
	ck_assert_int_eq(rmdir(dir), 0);
}
END_TEST

Suite *dp_netlock_suite(void)
{
	Suite *s = suite_create("dp_netlock");
	TCase *tc = tcase_create("netlock");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, no_two_holders_while_a_sweep_unlinks);
	tcase_add_test(tc,
		       the_sweep_removes_only_free_files_of_gone_namespaces);
	suite_add_tcase(s, tc);
	return s;
}
