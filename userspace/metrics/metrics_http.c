// SPDX-License-Identifier: GPL-2.0
/* The /metrics endpoint; see metrics_http.h. */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "lib/log.h"
#include "metrics/metrics_http.h"
#include "metrics/prom.h"
#include "lib/util.h"

int metrics_http_addr(const char *s, struct sockaddr_storage *ss,
		      socklen_t *len)
{
	struct sockaddr_in *in = (struct sockaddr_in *)ss;
	struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)ss;
	char host[INET6_ADDRSTRLEN + 1];
	const char *port = NULL, *end;
	unsigned long v = METRICS_HTTP_PORT;
	size_t n;

	if (s[0] == '[') {
		end = strchr(s, ']');
		if (!end || (end[1] && end[1] != ':'))
			return -EINVAL;
		n = end - s - 1;
		port = end[1] ? end + 2 : NULL;
		s++;
	} else {
		end = strchr(s, ':');
		if (end && strchr(end + 1, ':'))
			return -EINVAL; /* IPv6 needs its brackets */
		n = end ? (size_t)(end - s) : strlen(s);
		port = end ? end + 1 : NULL;
	}
	if (!n || n >= sizeof(host) || (port && !parse_uint(port, 65535, &v)))
		return -EINVAL;
	memcpy(host, s, n);
	host[n] = '\0';
	memset(ss, 0, sizeof(*ss));
	if (inet_pton(AF_INET, host, &in->sin_addr) == 1) {
		in->sin_family = AF_INET;
		in->sin_port = htons(v);
		*len = sizeof(*in);
	} else if (inet_pton(AF_INET6, host, &in6->sin6_addr) == 1) {
		in6->sin6_family = AF_INET6;
		in6->sin6_port = htons(v);
		*len = sizeof(*in6);
	} else {
		return -EINVAL;
	}
	return 0;
}

static void addr_str(const struct sockaddr_storage *ss, char *out, size_t n)
{
	const struct sockaddr_in *in = (const void *)ss;
	const struct sockaddr_in6 *in6 = (const void *)ss;
	char host[INET6_ADDRSTRLEN];

	if (ss->ss_family == AF_INET6) {
		inet_ntop(AF_INET6, &in6->sin6_addr, host, sizeof(host));
		snprintf(out, n, "[%s]:%u", host, ntohs(in6->sin6_port));
	} else {
		inet_ntop(AF_INET, &in->sin_addr, host, sizeof(host));
		snprintf(out, n, "%s:%u", host, ntohs(in->sin_port));
	}
}

int metrics_http_listen(const struct sockaddr_storage *ss, socklen_t len,
			char *bound, size_t n)
{
	struct sockaddr_storage got;
	socklen_t glen = sizeof(got);
	int fd, one = 1, err;

	fd = socket(ss->ss_family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK,
		    0);
	if (fd < 0)
		return -errno;
	/* A restarted server must not wait for the old one's TIME_WAITs. */
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(fd, (const struct sockaddr *)ss, len) || listen(fd, 16) ||
	    getsockname(fd, (struct sockaddr *)&got, &glen)) {
		err = -errno;
		close(fd);
		return err;
	}
	addr_str(&got, bound, n);
	return fd;
}

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

/* Wait for fd to be ready for ev until deadline: false on timeout. */
static bool wait_fd(int fd, short ev, int64_t deadline)
{
	struct pollfd p = { fd, ev, 0 };
	int64_t left;

	while ((left = deadline - now_ms()) > 0) {
		int r = poll(&p, 1, left);

		if (r > 0)
			return true;
		if (r < 0 && errno != EINTR)
			return false;
	}
	return false;
}

static bool send_all(int fd, const char *buf, size_t len, int64_t deadline)
{
	while (len) {
		ssize_t w = send(fd, buf, len, MSG_NOSIGNAL);

		if (w < 0 && (errno == EAGAIN || errno == EINTR)) {
			if (!wait_fd(fd, POLLOUT, deadline))
				return false;
			continue;
		}
		if (w <= 0)
			return false;
		buf += w;
		len -= w;
	}
	return true;
}

/*
 * The request's head, NUL-terminated in buf: its length, 0 if the client
 * went away or was too slow, -1 if it is too long.
 */
static int read_head(int fd, char *buf, int64_t deadline)
{
	size_t len = 0;

	while (len < METRICS_HTTP_MAX_REQUEST) {
		ssize_t r =
			recv(fd, buf + len, METRICS_HTTP_MAX_REQUEST - len, 0);

		if (r < 0 && (errno == EAGAIN || errno == EINTR)) {
			if (!wait_fd(fd, POLLIN, deadline))
				return 0;
			continue;
		}
		if (r <= 0)
			return 0;
		len += r;
		buf[len] = '\0';
		if (strstr(buf, "\r\n\r\n") || strstr(buf, "\n\n"))
			return len;
	}
	return -1;
}

static void reply(int fd, const char *status, const char *type,
		  const char *body, size_t len, bool head)
{
	char hdr[256];
	int64_t deadline = now_ms() + METRICS_HTTP_TIMEOUT_MS;
	int n;

	n = snprintf(hdr, sizeof(hdr),
		     "HTTP/1.1 %s\r\nContent-Type: %s\r\n"
		     "Content-Length: %zu\r\n%sConnection: close\r\n\r\n",
		     status, type, len,
		     strncmp(status, "405", 3) ? "" : "Allow: GET, HEAD\r\n");
	if (send_all(fd, hdr, n, deadline) && !head)
		send_all(fd, body, len, deadline);
}

static void reply_text(int fd, const char *status, bool head)
{
	char body[64];

	snprintf(body, sizeof(body), "%s\n", status);
	reply(fd, status, "text/plain; charset=utf-8", body, strlen(body),
	      head);
}

static void answer(int fd, char *req, int (*body)(void *arg, FILE *f),
		   void *arg)
{
	char *method = req, *target, *version, *eol = strpbrk(req, "\r\n");
	char *buf = NULL;
	size_t len = 0;
	FILE *f;
	bool head;
	int r;

	*eol = '\0';
	target = strchr(method, ' ');
	version = target ? strchr(target + 1, ' ') : NULL;
	if (!version || strchr(version + 1, ' ') ||
	    strncmp(version + 1, "HTTP/1.", 7)) {
		reply_text(fd, "400 Bad Request", false);
		return;
	}
	*target++ = *version++ = '\0';
	head = !strcmp(method, "HEAD");
	if (!head && strcmp(method, "GET")) {
		reply_text(fd, "405 Method Not Allowed", false);
		return;
	}
	target[strcspn(target, "?")] = '\0';
	if (strcmp(target, "/metrics")) {
		reply_text(fd, "404 Not Found", head);
		return;
	}
	f = open_memstream(&buf, &len);
	r = body(arg, f);
	if (fclose(f) || r)
		reply_text(fd, "500 Internal Server Error", head);
	else
		reply(fd, "200 OK", PROM_CONTENT_TYPE, buf, len, head);
	free(buf);
}

static void handle(int fd, int (*body)(void *arg, FILE *f), void *arg)
{
	char *req = xmalloc(METRICS_HTTP_MAX_REQUEST + 1);
	int n = read_head(fd, req, now_ms() + METRICS_HTTP_TIMEOUT_MS);

	if (n < 0)
		reply_text(fd, "431 Request Header Fields Too Large", false);
	else if (n > 0)
		answer(fd, req, body, arg);
	free(req);
}

/*
 * Closing with unread input makes the kernel send a reset, which may
 * destroy our answer (a 431, say) before the client reads it: say we are
 * done, then read what it still sends, briefly and boundedly.
 */
static void drain(int fd)
{
	int64_t deadline = now_ms() + METRICS_HTTP_LINGER_MS;
	char buf[4096];
	size_t total = 0;

	shutdown(fd, SHUT_WR);
	while (total < 16 * sizeof(buf)) {
		ssize_t r = recv(fd, buf, sizeof(buf), 0);

		if (r < 0 && (errno == EAGAIN || errno == EINTR)) {
			if (!wait_fd(fd, POLLIN, deadline))
				return;
			continue;
		}
		if (r <= 0)
			return;
		total += r;
	}
}

static volatile sig_atomic_t stop_sig;

static void on_signal(int sig)
{
	stop_sig = sig;
}

/*
 * SIGTERM and SIGINT are blocked but while waiting for a connection
 * (ppoll unblocks them atomically): a request under way is answered, and
 * one arriving between the check and the wait is not missed.
 */
int metrics_http_serve(int fd, int (*body)(void *arg, FILE *f), void *arg)
{
	struct sigaction sa = { .sa_handler = on_signal };
	struct pollfd p = { fd, POLLIN, 0 };
	sigset_t block, old, wait;
	int ret = 0;

	sigemptyset(&block);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGINT);
	sigprocmask(SIG_BLOCK, &block, &old);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	wait = old;
	sigdelset(&wait, SIGTERM);
	sigdelset(&wait, SIGINT);
	while (!stop_sig) {
		int c, r = ppoll(&p, 1, NULL, &wait);

		if (r < 0 && errno != EINTR) {
			ret = -errno;
			break;
		}
		if (r <= 0)
			continue;
		c = accept4(fd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
		if (c < 0 && (errno == EMFILE || errno == ENFILE))
			poll(NULL, 0, 100); /* out of files: not a busy loop */
		if (c < 0)
			continue;
		handle(c, body, arg);
		drain(c);
		close(c);
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	return ret;
}
