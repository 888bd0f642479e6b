// SPDX-License-Identifier: GPL-2.0
/* The pause agent's standby; see pfc_standby.h. */
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib/log.h"
#include "pfc/pfc_loop.h"
#include "pfc/pfc_standby.h"

static int pidfd_of(int pid)
{
	int fd = syscall(SYS_pidfd_open, pid, 0);

	return fd < 0 ? -errno : fd;
}

/* The child: wait for the agent to end, then take over or leave. */
static void __attribute__((noreturn))
standby_main(struct agent *a, int agent_fd)
{
	struct pollfd p = { .fd = agent_fd, .events = POLLIN };

	prctl(PR_SET_NAME, "tagger-standby");
	a->standby_pid = 0;
	a->standby_fd = -1;
	/* The agent's keeper thread is not ours (a copy, maybe locked). */
	memset(&a->keeper, 0, sizeof(a->keeper));
	while (poll(&p, 1, -1) < 0 && errno == EINTR)
		;
	close(agent_fd);
	_exit(pfc_agent_takeover(a));
}

int pfc_standby_spawn(struct agent *a)
{
	int self = pidfd_of(getpid()), pid, fd;

	if (self < 0)
		return self;
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		close(self);
		return -errno;
	}
	if (!pid)
		standby_main(a, self);
	close(self);
	fd = pidfd_of(pid);
	if (fd < 0) {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		return fd;
	}
	a->standby_pid = pid;
	a->standby_fd = fd;
	/* One aligned store: may be inside or outside the loop's update. */
	__atomic_store_n(&a->st->standby_pid, pid, __ATOMIC_RELEASE);
	return 0;
}

int pfc_standby_died(struct agent *a)
{
	waitpid(a->standby_pid, NULL, WNOHANG);
	close(a->standby_fd);
	a->standby_fd = -1;
	a->standby_pid = 0;
	pr_warn("%s: the standby of the pause agent died; starting another\n",
		a->cfg->node);
	return pfc_standby_spawn(a);
}
