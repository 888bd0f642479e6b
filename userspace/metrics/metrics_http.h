/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The /metrics endpoint of tagger metrics serve: a small HTTP/1.x server,
 * one connection at a time, each answered and closed. A request has
 * METRICS_HTTP_TIMEOUT_MS and METRICS_HTTP_MAX_REQUEST bytes to arrive
 * whole (a slow or endless client cannot hold the scrapes up for longer).
 * What a client sends after the answer is read for METRICS_HTTP_LINGER_MS.
 * GET or HEAD /metrics: 200 with the body; another path: 404; another
 * method: 405; anything unreadable: 400, or 431 when too long.
 *
 * API:
 *   metrics_http_addr(s, &ss, &len)  "ADDR:PORT" ("[V6]:PORT", or ADDR
 *                                    only: port METRICS_HTTP_PORT), port 0:
 *                                    any free one; 0 or -EINVAL
 *   metrics_http_listen(&ss, len, bound, n)  socket listening there; bound:
 *                                    the address it got; fd or -errno
 *   metrics_http_serve(fd, body, arg)  answer requests until SIGTERM or
 *                                    SIGINT; body(arg, &f) writes the
 *                                    exposition to f, 0 or -1 (500)
 */
#ifndef __TAGGER_METRICS_HTTP_H
#define __TAGGER_METRICS_HTTP_H

#include <stddef.h>
#include <stdio.h>
#include <sys/socket.h>

#define METRICS_HTTP_PORT 9427
#define METRICS_HTTP_MAX_REQUEST 8192
#define METRICS_HTTP_TIMEOUT_MS 5000
#define METRICS_HTTP_LINGER_MS 500 /* reading what follows an answer */

int metrics_http_addr(const char *s, struct sockaddr_storage *ss,
		      socklen_t *len);
int metrics_http_listen(const struct sockaddr_storage *ss, socklen_t len,
			char *bound, size_t n);
int metrics_http_serve(int fd, int (*body)(void *arg, FILE *f), void *arg);

#endif /* __TAGGER_METRICS_HTTP_H */
