/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The /metrics endpoint of tagger metrics serve: a small HTTP/1.x server
 * that serves its connections together (one thread, non-blocking, in
 * metrics_http_serve.c), each answered and closed. Every connection has a
 * budget of its own that never holds another up: METRICS_HTTP_TIMEOUT_MS
 * and METRICS_HTTP_MAX_REQUEST bytes for its request to arrive whole,
 * METRICS_HTTP_TIMEOUT_MS for the answer to leave, METRICS_HTTP_LINGER_MS
 * to read what it sends after the answer. At most max_conns are open:
 * one more closes the oldest idle one (no whole request yet) first.
 * GET or HEAD /metrics: 200 with the body, collected once for all the
 * requests waiting at that moment (metrics_http_collect.h); another path:
 * 404; another method: 405; anything malformed: 400 as soon as it is seen
 * (metrics_http_req.h), or 431 when too long; a collection that fails or
 * takes over METRICS_HTTP_COLLECT_MS: 500.
 *
 * API:
 *   metrics_http_addr(s, &ss, &len)  "ADDR:PORT" ("[V6]:PORT", or ADDR
 *                                    only: port METRICS_HTTP_PORT), port 0:
 *                                    any free one; 0 or -EINVAL
 *   metrics_http_listen(&ss, len, bound, n)  socket listening there; bound:
 *                                    the address it got; fd or -errno
 *   metrics_http_serve(fd, max_conns, body, arg)  answer requests until
 *                                    SIGTERM or SIGINT; body(arg, f), run
 *                                    in a child process, writes the
 *                                    exposition to f, 0 or -1 (500);
 *                                    0 or -errno
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
#define METRICS_HTTP_MAX_CONNS 512 /* the default of --max-connections */
#define METRICS_HTTP_MAX_CONNS_LIMIT 65536
#define METRICS_HTTP_SPARE_FDS 32 /* stdio, listener, a collection... */

int metrics_http_addr(const char *s, struct sockaddr_storage *ss,
		      socklen_t *len);
int metrics_http_listen(const struct sockaddr_storage *ss, socklen_t len,
			char *bound, size_t n);
int metrics_http_serve(int fd, int max_conns, int (*body)(void *arg, FILE *f),
		       void *arg);

#endif /* __TAGGER_METRICS_HTTP_H */
