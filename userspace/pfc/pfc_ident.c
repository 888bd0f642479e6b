// SPDX-License-Identifier: GPL-2.0
/* Identity of a pause agent's namespace and process; see pfc_ident.h. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "pfc/pfc_ident.h"

static int netns_of(const char *path, struct pfc_netns *ns)
{
	struct stat sb;

	if (stat(path, &sb) < 0)
		return -errno;
	ns->dev = sb.st_dev;
	ns->ino = sb.st_ino;
	return 0;
}

int pfc_netns_self(struct pfc_netns *ns)
{
	return netns_of("/proc/self/ns/net", ns);
}

bool pfc_netns_eq(const struct pfc_netns *a, const struct pfc_netns *b)
{
	return a->dev == b->dev && a->ino == b->ino;
}

static bool dir_has_netns(const char *dir, const char *suffix,
			  const struct pfc_netns *ns)
{
	char path[512];
	struct pfc_netns x = { 0 };
	struct dirent *d;
	bool found = false;
	DIR *dp = opendir(dir);

	if (!dp)
		return false;
	while (!found && (d = readdir(dp))) {
		if (d->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s%s", dir, d->d_name, suffix);
		found = !netns_of(path, &x) && pfc_netns_eq(&x, ns);
	}
	closedir(dp);
	return found;
}

/*
 * A namespace lives while a process is in it or a file (ip netns's names
 * under /run/netns) holds it. Only a namespace that no longer exists makes
 * a record stale; one we cannot see (another mount namespace's names) is
 * taken as existing.
 */
bool pfc_netns_exists(const struct pfc_netns *ns)
{
	return dir_has_netns("/run/netns", "", ns) ||
	       dir_has_netns("/proc", "/ns/net", ns);
}

const char *pfc_netns_str(const struct pfc_netns *ns, char *buf, size_t len)
{
	snprintf(buf, len, "net:[%llu]", (unsigned long long)ns->ino);
	return buf;
}

/* Field 22 of /proc/PID/stat; the command name (2) may hold spaces. */
uint64_t pfc_proc_start(int pid)
{
	char path[64], buf[1024], *p;
	unsigned long long start = 0;
	ssize_t n;
	int fd, i;

	if (pid <= 0)
		return 0;
	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	p = strrchr(buf, ')');
	if (!p)
		return 0;
	/* After ") ": field 3 (state) ... field 22 is the 20th token. */
	for (i = 0; i < 20 && p; i++)
		p = strchr(p + 1, ' ');
	if (!p || sscanf(p + 1, "%llu", &start) != 1)
		return 0;
	/* A zombie still has its start time, but no longer runs. */
	if (strstr(buf, ") Z ") || strstr(buf, ") X "))
		return 0;
	return start;
}

/*
 * A pidfd names one process for good: check its start time after opening
 * it, and a pid reused meanwhile cannot receive the signal.
 */
int pfc_proc_signal(int pid, uint64_t start, int sig)
{
	int fd, r = 0;

	if (pid <= 0 || !start)
		return -ESRCH;
	fd = syscall(SYS_pidfd_open, pid, 0);
	if (fd < 0)
		return -errno;
	if (pfc_proc_start(pid) != start)
		r = -ESRCH;
	else if (syscall(SYS_pidfd_send_signal, fd, sig, NULL, 0) < 0)
		r = -errno;
	close(fd);
	return r;
}
