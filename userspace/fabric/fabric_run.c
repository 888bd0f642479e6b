// SPDX-License-Identifier: GPL-2.0
/* tagger on a switch, through its transport; see fabric_run.h. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fabric/fabric_run.h"
#include "lib/util.h"

/* What the child could not do, through the exec pipe: stage and errno. */
struct child_err {
	int stage; /* 0: enter the namespace, 1: exec */
	int err;
};

static void child_fail(int fd, int stage)
{
	struct child_err ce = { stage, errno };

	if (write(fd, &ce, sizeof(ce)) < 0)
		_exit(127);
	_exit(127);
}

static void child(const struct fabric_host *h, const char *prog, char **argv,
		  int out, int err, int ep)
{
	char path[300];
	int fd = open("/dev/null", O_RDONLY);

	setpgid(0, 0); /* killed as a group on a timeout (ssh's children) */
	if (fd < 0 || dup2(fd, 0) < 0 || dup2(out, 1) < 0 || dup2(err, 2) < 0)
		child_fail(ep, 1);
	if (h->transport == FABRIC_NETNS) {
		snprintf(path, sizeof(path), "/run/netns/%s", h->netns);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0 || setns(fd, CLONE_NEWNET))
			child_fail(ep, 0);
		if (prog)
			execvp(prog, argv);
		else /* this very binary, even if it was replaced since */
			execv(h->tagger ?: "/proc/self/exe", argv);
	} else {
		execvp("ssh", argv);
	}
	child_fail(ep, 1);
}

/* argv of the child: the transport's words, then the program's. */
static char **make_argv(const struct fabric_host *h, const char *prog,
			const char *const *words, char *timeout, char *port)
{
	char **a = xcalloc(FABRIC_RUN_MAX_WORDS + 16, sizeof(char *));
	int n = 0, k;

	if (h->transport == FABRIC_SSH) {
		a[n++] = "ssh";
		a[n++] = "-o";
		a[n++] = "BatchMode=yes";
		a[n++] = "-o";
		a[n++] = timeout;
		if (h->user) {
			a[n++] = "-l";
			a[n++] = h->user;
		}
		if (h->port) {
			snprintf(port, 8, "%d", h->port);
			a[n++] = "-p";
			a[n++] = port;
		}
		a[n++] = "--";
		a[n++] = h->host;
	}
	a[n++] = (char *)(prog ?: h->tagger ?: "tagger");
	for (k = 0; words[k] && k < FABRIC_RUN_MAX_WORDS; k++)
		a[n++] = (char *)words[k];
	return a;
}

/* The last non-empty line of s (stderr), into buf. */
static void last_line(const char *s, size_t len, char *buf, size_t size)
{
	const char *end = s + len, *start;

	while (end > s && (end[-1] == '\n' || end[-1] == '\r'))
		end--;
	for (start = end; start > s && start[-1] != '\n'; start--)
		;
	snprintf(buf, size, "%.*s", (int)(end - start), start);
}

struct sink {
	int fd;
	char *buf;
	size_t len, cap, max;
	bool over;
};

/* Read what is there; false at the end of the stream. */
static bool drain(struct sink *s)
{
	char chunk[65536];
	ssize_t got = read(s->fd, chunk, sizeof(chunk));

	if (got < 0 && (errno == EINTR || errno == EAGAIN))
		return true;
	if (got <= 0)
		return false;
	if (s->len + got > s->max) {
		s->over = true;
		return true; /* read on, keep nothing more */
	}
	if (s->len + got + 1 > s->cap) {
		s->cap = (s->len + got + 1) * 2;
		s->buf = xrealloc(s->buf, s->cap);
	}
	memcpy(s->buf + s->len, chunk, got);
	s->len += got;
	s->buf[s->len] = '\0';
	return true;
}

static int ms_left(int64_t deadline)
{
	int64_t left = (deadline - (int64_t)now_ns()) / 1000000;

	return left < 0 ? 0 : left > 1000 ? 1000 : (int)left;
}

int fabric_run_prog(const struct fabric_host *h, const char *prog,
		    const char *const *words, struct fabric_run *res)
{
	int po[2] = { -1, -1 }, pe[2] = { -1, -1 }, px[2] = { -1, -1 }, k;
	struct sink s[2] = { { .max = FABRIC_RUN_MAX_OUT },
			     { .max = 1 << 20 } };
	struct child_err ce;
	bool timed_out = false, open_[2] = { true, true };
	char timeout[64], port[8], **argv; /* the caller's: threads run this */
	int64_t deadline;
	struct pollfd pfd[2];
	pid_t pid;
	int st = 0, ret = -1;

	memset(res, 0, sizeof(*res));
	snprintf(timeout, sizeof(timeout), "ConnectTimeout=%d", h->timeout);
	argv = make_argv(h, prog, words, timeout, port);
	if (pipe2(po, O_CLOEXEC) || pipe2(pe, O_CLOEXEC) ||
	    pipe2(px, O_CLOEXEC)) {
		snprintf(res->err, sizeof(res->err), "pipe: %s",
			 strerror(errno));
		goto out;
	}
	deadline = now_ns() + (int64_t)h->timeout * 1000000000;
	pid = fork();
	if (pid < 0) {
		snprintf(res->err, sizeof(res->err), "fork: %s",
			 strerror(errno));
		goto out;
	}
	if (!pid)
		child(h, prog, argv, po[1], pe[1], px[1]);
	close(po[1]);
	close(pe[1]);
	close(px[1]);
	po[1] = pe[1] = px[1] = -1;
	s[0].fd = po[0];
	s[1].fd = pe[0];
	while (open_[0] || open_[1]) {
		int n = 0, m;

		for (k = 0; k < 2; k++)
			if (open_[k])
				pfd[n++] =
					(struct pollfd){ s[k].fd, POLLIN, 0 };
		if (!ms_left(deadline)) {
			timed_out = true;
			break;
		}
		m = poll(pfd, n, ms_left(deadline));
		if (m < 0 && errno != EINTR)
			break;
		for (k = 0, n = 0; m > 0 && k < 2; k++) {
			if (!open_[k])
				continue;
			if (pfd[n++].revents && !drain(&s[k]))
				open_[k] = false;
		}
		if (s[0].over)
			break;
	}
	if (open_[0] || open_[1])
		kill(-pid, SIGKILL);
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	if (read(px[0], &ce, sizeof(ce)) == sizeof(ce)) {
		if (ce.stage == 0)
			snprintf(res->err, sizeof(res->err),
				 "cannot enter the network namespace "
				 "/run/netns/%s: %s",
				 h->netns, strerror(ce.err));
		else
			snprintf(res->err, sizeof(res->err),
				 "cannot run %s: %s", argv[0],
				 strerror(ce.err));
	} else if (timed_out) {
		snprintf(res->err, sizeof(res->err),
			 "no answer in %d s (tagger_timeout): killed",
			 h->timeout);
	} else if (s[0].over) {
		snprintf(res->err, sizeof(res->err),
			 "more than %lu bytes of output", FABRIC_RUN_MAX_OUT);
	} else if (!WIFEXITED(st)) {
		snprintf(res->err, sizeof(res->err), "killed by signal %d",
			 WIFSIGNALED(st) ? WTERMSIG(st) : 0);
	} else if (h->transport == FABRIC_SSH && WEXITSTATUS(st) == 255) {
		last_line(s[1].buf ?: "", s[1].len, res->err, sizeof(res->err));
		if (!res->err[0])
			snprintf(res->err, sizeof(res->err), "ssh failed");
	} else {
		res->status = WEXITSTATUS(st);
		res->out = s[0].buf ?: xstrdup("");
		res->len = s[0].len;
		s[0].buf = NULL;
		last_line(s[1].buf ?: "", s[1].len, res->err, sizeof(res->err));
		ret = 0;
	}
out:
	for (k = 0; k < 2; k++) {
		close(po[k]);
		close(pe[k]);
		close(px[k]);
	}
	free(s[0].buf);
	free(s[1].buf);
	free(argv);
	return ret;
}

int fabric_run(const struct fabric_host *h, const char *const *words,
	       struct fabric_run *res)
{
	return fabric_run_prog(h, NULL, words, res);
}

void fabric_run_free(struct fabric_run *res)
{
	free(res->out);
	res->out = NULL;
}
