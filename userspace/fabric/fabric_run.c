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
			snprintf(port, 8, "%d",
				 h->port); /* the caller's char[8] */
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

/*
 * One run: the child, its three pipes (stdout, stderr, and the exec pipe
 * that carries a struct child_err if it could not get to its program)
 * and what it wrote.
 */
struct proc {
	int po[2], pe[2], px[2];
	struct sink s[2]; /* stdout, stderr */
	bool open_[2]; /* their pipes not at their end yet */
	bool timed_out;
	pid_t pid;
	int status; /* waitpid's */
};

/* Pipes and the child; false with res->err saying why not. */
static bool spawn(const struct fabric_host *h, const char *prog, char **argv,
		  struct proc *c, struct fabric_run *res)
{
	if (pipe2(c->po, O_CLOEXEC) || pipe2(c->pe, O_CLOEXEC) ||
	    pipe2(c->px, O_CLOEXEC)) {
		snprintf(res->err, sizeof(res->err), "pipe: %s",
			 strerror(errno));
		return false;
	}
	c->pid = fork();
	if (c->pid < 0) {
		snprintf(res->err, sizeof(res->err), "fork: %s",
			 strerror(errno));
		return false;
	}
	if (!c->pid)
		child(h, prog, argv, c->po[1], c->pe[1], c->px[1]);
	close(c->po[1]);
	close(c->pe[1]);
	close(c->px[1]);
	c->po[1] = c->pe[1] = c->px[1] = -1;
	c->s[0].fd = c->po[0];
	c->s[1].fd = c->pe[0];
	return true;
}

/*
 * stdout and stderr read until both end, the deadline passes (timed_out)
 * or stdout overflows; poll waits at most a second at a time.
 */
static void read_output(struct proc *c, int64_t deadline)
{
	struct pollfd pfd[2];
	int k;

	while (c->open_[0] || c->open_[1]) {
		int n = 0, m;

		for (k = 0; k < 2; k++)
			if (c->open_[k])
				pfd[n++] = (struct pollfd){ c->s[k].fd, POLLIN,
							    0 };
		if (!ms_left(deadline)) {
			c->timed_out = true;
			break;
		}
		m = poll(pfd, n, ms_left(deadline));
		if (m < 0 && errno != EINTR)
			break;
		for (k = 0, n = 0; m > 0 && k < 2; k++) {
			if (!c->open_[k])
				continue;
			if (pfd[n++].revents && !drain(&c->s[k]))
				c->open_[k] = false;
		}
		if (c->s[0].over)
			break;
	}
}

/* Its process group killed if it is not done, and the child waited for. */
static void reap(struct proc *c)
{
	if (c->open_[0] || c->open_[1])
		kill(-c->pid, SIGKILL);
	while (waitpid(c->pid, &c->status, 0) < 0 && errno == EINTR)
		;
}

/*
 * The result: 0 with the exit code and stdout if the command ran to its
 * end, else -1 with why it did not: the child's own failure (from the
 * exec pipe) first, then the timeout, the overflow, a signal, ssh's 255.
 */
static int report(const struct fabric_host *h, const char *arg0, struct proc *c,
		  struct fabric_run *res)
{
	struct sink *out = &c->s[0], *err = &c->s[1];
	struct child_err ce;
	int st = c->status;

	if (read(c->px[0], &ce, sizeof(ce)) == sizeof(ce)) {
		if (ce.stage == 0)
			snprintf(res->err, sizeof(res->err),
				 "cannot enter the network namespace "
				 "/run/netns/%s: %s",
				 h->netns, strerror(ce.err));
		else
			snprintf(res->err, sizeof(res->err),
				 "cannot run %s: %s", arg0, strerror(ce.err));
	} else if (c->timed_out) {
		snprintf(res->err, sizeof(res->err),
			 "no answer in %d s (tagger_timeout): killed",
			 h->timeout);
	} else if (out->over) {
		snprintf(res->err, sizeof(res->err),
			 "more than %lu bytes of output", FABRIC_RUN_MAX_OUT);
	} else if (!WIFEXITED(st)) {
		snprintf(res->err, sizeof(res->err), "killed by signal %d",
			 WIFSIGNALED(st) ? WTERMSIG(st) : 0);
	} else if (h->transport == FABRIC_SSH && WEXITSTATUS(st) == 255) {
		last_line(err->buf ?: "", err->len, res->err, sizeof(res->err));
		if (!res->err[0])
			snprintf(res->err, sizeof(res->err), "ssh failed");
	} else {
		res->status = WEXITSTATUS(st);
		res->out = out->buf ?: xstrdup("");
		res->len = out->len;
		out->buf = NULL;
		last_line(err->buf ?: "", err->len, res->err, sizeof(res->err));
		return 0;
	}
	return -1;
}

static void proc_close(struct proc *c)
{
	int k;

	for (k = 0; k < 2; k++) {
		close(c->po[k]);
		close(c->pe[k]);
		close(c->px[k]);
	}
	free(c->s[0].buf);
	free(c->s[1].buf);
}

int fabric_run_prog(const struct fabric_host *h, const char *prog,
		    const char *const *words, struct fabric_run *res)
{
	struct proc c = { .po = { -1, -1 },
			  .pe = { -1, -1 },
			  .px = { -1, -1 },
			  .s = { { .max = FABRIC_RUN_MAX_OUT },
				 { .max = 1 << 20 } },
			  .open_ = { true, true } };
	char timeout[64], port[8], **argv; /* the caller's: threads run this */
	int64_t deadline;
	int ret = -1;

	memset(res, 0, sizeof(*res));
	snprintf(timeout, sizeof(timeout), "ConnectTimeout=%d", h->timeout);
	argv = make_argv(h, prog, words, timeout, port);
	deadline = now_ns() + (int64_t)h->timeout * 1000000000;
	if (spawn(h, prog, argv, &c, res)) {
		read_output(&c, deadline);
		reap(&c);
		ret = report(h, argv[0], &c, res);
	}
	proc_close(&c);
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
