// SPDX-License-Identifier: GPL-2.0
/* One collection in a child process; see metrics_http_collect.h. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "lib/util.h"
#include "metrics/metrics_http_collect.h"

static int64_t mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

/*
 * The child: default signals (the server blocks and catches SIGTERM), no
 * life beyond the server's, none of its sockets (a connection the server
 * closed must not stay open in here), the exposition into the pipe.
 */
static void child(int out, int (*body)(void *, FILE *), void *arg)
{
	sigset_t none;
	FILE *f;
	int r;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGINT, SIG_DFL);
	signal(SIGPIPE, SIG_DFL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	f = fdopen(out, "w");
	if (!f)
		_exit(1);
	r = body(arg, f);
	_exit(fclose(f) || r ? 1 : 0);
}

int http_collect_start(struct http_collect *c, int (*body)(void *, FILE *),
		       void *arg, void (*close_fds)(void *), void *ctx)
{
	pid_t parent = getpid();
	int p[2], err;

	if (pipe2(p, O_CLOEXEC))
		return -errno;
	c->pid = fork();
	if (c->pid < 0) {
		err = -errno;
		close(p[0]);
		close(p[1]);
		c->pid = 0;
		return err;
	}
	if (!c->pid) {
		close(p[0]);
		close_fds(ctx);
		if (getppid() != parent)
			_exit(1); /* the server died before PDEATHSIG was set */
		child(p[1], body, arg);
	}
	close(p[1]);
	fcntl(p[0], F_SETFL, O_NONBLOCK);
	c->pipe = p[0];
	/* Its end as an event: never a blocking waitpid in the loop. */
	c->pidfd = syscall(SYS_pidfd_open, c->pid, 0);
	c->exited = false;
	c->ok = false;
	c->buf = NULL;
	c->len = c->cap = 0;
	c->deadline = mono_ms() + METRICS_HTTP_COLLECT_MS;
	if (c->pidfd < 0) {
		err = -errno;
		http_collect_stop(c);
		return err;
	}
	return 0;
}

int http_collect_fds(const struct http_collect *c, struct pollfd *pfd)
{
	int n = 0;

	if (c->pipe >= 0)
		pfd[n++] = (struct pollfd){ c->pipe, POLLIN, 0 };
	if (!c->exited)
		pfd[n++] = (struct pollfd){ c->pidfd, POLLIN, 0 };
	return n;
}

/* What the pipe holds now; false when it has ended (or grew too big). */
static bool read_pipe(struct http_collect *c)
{
	for (;;) {
		ssize_t r;

		if (c->len == c->cap) {
			if (c->cap >= METRICS_HTTP_MAX_BODY)
				return false;
			c->cap = c->cap ? 2 * c->cap : 65536;
			c->buf = xrealloc(c->buf, c->cap);
		}
		r = read(c->pipe, c->buf + c->len, c->cap - c->len);
		if (r > 0)
			c->len += r;
		else if (r < 0 && errno == EINTR)
			continue;
		else
			return r < 0 && errno == EAGAIN;
	}
}

static void reap(struct http_collect *c)
{
	int st;

	if (waitpid(c->pid, &st, WNOHANG) != c->pid)
		return;
	c->exited = true;
	c->ok = WIFEXITED(st) && !WEXITSTATUS(st);
	close(c->pidfd);
	c->pidfd = -1;
}

int http_collect_events(struct http_collect *c, const struct pollfd *pfd)
{
	int i = 0;

	if (c->pipe >= 0 && pfd[i++].revents && !read_pipe(c)) {
		close(c->pipe);
		c->pipe = -1;
		if (c->len >= METRICS_HTTP_MAX_BODY)
			kill(c->pid, SIGKILL); /* ok stays false */
	}
	if (!c->exited && pfd[i].revents)
		reap(c);
	if (c->pipe >= 0 || !c->exited)
		return 0;
	if (c->len >= METRICS_HTTP_MAX_BODY)
		c->ok = false;
	c->pid = 0;
	return 1;
}

/*
 * SIGKILL ends it wherever it is (it has not been reaped, so the pid is
 * still its own). A child the kernel holds in an uninterruptible sleep
 * dies when it wakes: it is waited for METRICS_HTTP_REAP_MS at most, so
 * that a stop stays prompt, and left to init after that.
 */
void http_collect_stop(struct http_collect *c)
{
	struct pollfd p = { c->pidfd, POLLIN, 0 };

	if (!c->pid)
		return;
	kill(c->pid, SIGKILL);
	if (c->pidfd < 0 || poll(&p, 1, METRICS_HTTP_REAP_MS) > 0)
		waitpid(c->pid, NULL, 0);
	else
		waitpid(c->pid, NULL, WNOHANG);
	if (c->pipe >= 0)
		close(c->pipe);
	if (c->pidfd >= 0)
		close(c->pidfd);
	free(c->buf);
	c->buf = NULL;
	c->pipe = c->pidfd = -1;
	c->pid = 0;
}
