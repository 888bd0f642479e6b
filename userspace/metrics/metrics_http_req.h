/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The head of a request to metrics serve, judged byte by byte as it
 * arrives, so that a malformed one is answered the moment it is known to
 * be malformed, not when the client stops sending or its time is up.
 *
 *   400  a NUL byte anywhere, a CR not followed by LF, a request line that
 *        is not "METHOD TARGET HTTP/1.x" (as soon as that line ends)
 *   431  METRICS_HTTP_MAX_REQUEST bytes and the head has not ended
 *   405  a method other than GET and HEAD    } once the head has ended
 *   404  a target other than /metrics[?...]  } (an empty line, after
 *   200  GET or HEAD /metrics                } CRLF or bare LF ends)
 *
 * API:
 *   struct http_req r = { 0 };    then, each time buf has grown to len:
 *   http_req_scan(&r, buf, len)   0: more bytes needed; else the status
 *                                 above (r.head: the method was HEAD). Only
 *                                 the bytes after those already judged are
 *                                 read again.
 */
#ifndef __TAGGER_METRICS_HTTP_REQ_H
#define __TAGGER_METRICS_HTTP_REQ_H

#include <stdbool.h>
#include <stddef.h>

struct http_req {
	size_t pos; /* bytes judged */
	size_t line; /* where the current line starts */
	int status; /* of the request line, once it has ended (0: not yet) */
	bool head;
};

int http_req_scan(struct http_req *r, const char *buf, size_t len);

#endif /* __TAGGER_METRICS_HTTP_REQ_H */
