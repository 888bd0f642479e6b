/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One collection of the metrics for metrics serve, in a child process: the
 * server's loop never waits for it (reading BPF maps and waking agents may
 * take a while, a hung agent longer), it is killed when its time is up or
 * the server stops, and the one result serves every request that waited
 * for it (metrics_http_serve starts the next one only for those that came
 * later), so many clients cannot multiply its cost.
 *
 * API:
 *   struct http_collect c = { .pid = 0 };
 *   http_collect_start(&c, body, arg, close_fds, ctx)  fork the child:
 *            it closes what close_fds(ctx) closes (the server's sockets),
 *            runs body(arg, f) into a pipe and exits; 0 or -errno
 *   http_collect_fds(&c, pfd)    its pollfds (pipe and pidfd): how many
 *   http_collect_events(&c, pfd) after poll: 1 when it has ended, then
 *            c.ok and c.buf/c.len hold its result (the caller takes buf)
 *   http_collect_stop(&c)        kill it and reap it (a timeout, a stop)
 */
#ifndef __TAGGER_METRICS_HTTP_COLLECT_H
#define __TAGGER_METRICS_HTTP_COLLECT_H

#include <poll.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

/* A collection bigger than this is an error, not a reason to run out. */
#define METRICS_HTTP_MAX_BODY (64u << 20)
#define METRICS_HTTP_COLLECT_MS 10000
#define METRICS_HTTP_REAP_MS 500 /* for a killed one to end */

struct http_collect {
	pid_t pid; /* 0: none running */
	int pipe, pidfd; /* -1 once closed */
	bool exited, ok;
	int64_t deadline;
	char *buf;
	size_t len, cap;
};

int http_collect_start(struct http_collect *c, int (*body)(void *, FILE *),
		       void *arg, void (*close_fds)(void *), void *ctx);
int http_collect_fds(const struct http_collect *c, struct pollfd *pfd);
int http_collect_events(struct http_collect *c, const struct pollfd *pfd);
void http_collect_stop(struct http_collect *c);

#endif /* __TAGGER_METRICS_HTTP_COLLECT_H */
