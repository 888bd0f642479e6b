// SPDX-License-Identifier: GPL-2.0
/* The head of a request to metrics serve; see metrics_http_req.h. */
#include <string.h>

#include "metrics/metrics_http.h"
#include "metrics/metrics_http_req.h"

/*
 * "METHOD TARGET HTTP/1.x", exactly two spaces: the status it asks for
 * (200, 400, 404 or 405). The line holds no NUL (the scan refused those).
 */
static int request_line(struct http_req *r, const char *s, size_t len)
{
	const char *sp1 = memchr(s, ' ', len), *sp2;
	size_t mlen, tlen;

	if (!sp1)
		return 400;
	sp2 = memchr(sp1 + 1, ' ', s + len - sp1 - 1);
	if (!sp2 || memchr(sp2 + 1, ' ', s + len - sp2 - 1) ||
	    s + len - sp2 - 1 < 7 || memcmp(sp2 + 1, "HTTP/1.", 7))
		return 400;
	mlen = sp1 - s;
	r->head = mlen == 4 && !memcmp(s, "HEAD", 4);
	if (!r->head && !(mlen == 3 && !memcmp(s, "GET", 3)))
		return 405;
	tlen = sp2 - sp1 - 1; /* the query is ignored */
	if (memchr(sp1 + 1, '?', tlen))
		tlen = (const char *)memchr(sp1 + 1, '?', tlen) - sp1 - 1;
	if (tlen != 8 || memcmp(sp1 + 1, "/metrics", 8))
		return 404;
	return 200;
}

/* A line ended at the LF at end (a CR before it is not part of it). */
static int line_end(struct http_req *r, const char *buf, size_t end)
{
	size_t len = end - r->line;

	if (len && buf[end - 1] == '\r')
		len--;
	if (!r->status) {
		r->status = len ? request_line(r, buf + r->line, len) : 400;
		if (r->status == 400)
			return 400; /* at once: nothing after it can mend it */
	} else if (!len) {
		return r->status; /* the empty line: the head is whole */
	}
	r->line = end + 1;
	return 0;
}

int http_req_scan(struct http_req *r, const char *buf, size_t len)
{
	int ret;

	for (; r->pos < len; r->pos++) {
		char c = buf[r->pos];

		if (!c)
			return 400;
		if (c == '\r' && r->pos + 1 == len)
			break; /* its LF may be in the next read */
		if (c == '\r' && buf[r->pos + 1] != '\n')
			return 400;
		if (c == '\n' && (ret = line_end(r, buf, r->pos))) {
			r->pos++;
			return ret;
		}
	}
	return len >= METRICS_HTTP_MAX_REQUEST ? 431 : 0;
}
