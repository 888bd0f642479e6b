// SPDX-License-Identifier: GPL-2.0
/*
 * metrics serve's HTTP side: a request head judged byte by byte (400 the
 * moment it is malformed), and the loop with a slow collection: one
 * collection answers every request waiting for it, other connections are
 * answered meanwhile, SIGTERM does not wait for it, and one that hangs is
 * answered 500 when its time is up.
 */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "metrics/metrics_http.h"
#include "metrics/metrics_http_collect.h"
#include "metrics/metrics_http_req.h"
#include "lib/util.h"

/* The status of s, given whole and given one byte at a time. */
static int judge(const char *s, size_t len, bool *head)
{
	struct http_req whole = { 0 }, bytes = { 0 };
	int a = http_req_scan(&whole, s, len), b = 0;
	size_t i;

	for (i = 1; i <= len && !b; i++)
		b = http_req_scan(&bytes, s, i);
	ck_assert_msg(a == b, "%.*s: %d whole, %d byte by byte", (int)len, s, a,
		      b);
	*head = whole.head;
	return a;
}

#define JUDGE(lit, want) \
	ck_assert_int_eq(judge(lit, sizeof(lit) - 1, &head), want)

START_TEST(request_heads)
{
	char big[METRICS_HTTP_MAX_REQUEST + 16];
	bool head;
	int n;

	JUDGE("GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n", 200);
	ck_assert(!head);
	JUDGE("HEAD /metrics?x=1 HTTP/1.0\r\n\r\n", 200);
	ck_assert(head);
	JUDGE("GET /metrics HTTP/1.1\n\n", 200); /* bare LF ends: tolerated */
	JUDGE("GET /metrics HTTP/1.1\r\nX: y\n\r\n", 200);
	JUDGE("GET / HTTP/1.1\r\n\r\n", 404);
	JUDGE("GET /metricsx HTTP/1.1\r\n\r\n", 404);
	JUDGE("POST /metrics HTTP/1.1\r\n\r\n", 405);
	JUDGE("hello\r\n\r\n", 400);
	JUDGE("GET  /metrics HTTP/1.1\r\n\r\n", 400);
	JUDGE("GET /metrics HTTP/2\r\n\r\n", 400);
	JUDGE("\r\nGET /metrics HTTP/1.1\r\n\r\n", 400);
	/* At once: nothing after them needed. */
	JUDGE("GET /metrics HTTP/1.1\r\nX: \0", 400);
	JUDGE("GE\0", 400);
	JUDGE("GET /metrics HTTP/1.1\rX", 400);
	JUDGE("GET /metrics HTTP/1.1\r\nX:\ry", 400);
	JUDGE("bad\r\n", 400);
	/* Not yet: a CR at the end may be followed by its LF. */
	JUDGE("GET /metrics HTTP/1.1\r", 0);
	JUDGE("GET /metrics HTTP/1.1\r\nX: y\r\n", 0);
	/* A NUL after a good request line is still a 400, not a 200. */
	JUDGE("GET /metrics HTTP/1.1\r\nA: \0\r\n\r\n", 400);
	n = snprintf(big, sizeof(big), "GET /metrics HTTP/1.1\r\nX: ");
	memset(big + n, 'a', sizeof(big) - n);
	ck_assert_int_eq(judge(big, METRICS_HTTP_MAX_REQUEST - 1, &head), 0);
	ck_assert_int_eq(judge(big, METRICS_HTTP_MAX_REQUEST, &head), 431);
}
END_TEST

static int64_t ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

/*
 * The slow collection: a byte to the test per call, then a pause, then
 * "x 1" and pad_bytes of comment lines.
 */
static int count_fd, pause_ms;
static size_t pad_bytes;

static int slow_body(void *arg, FILE *f)
{
	size_t i;

	if (write(count_fd, "c", 1) != 1)
		return -1;
	poll(NULL, 0, pause_ms);
	fputs("x 1\n", f);
	for (i = 0; i + 64 <= pad_bytes; i += 64)
		fprintf(f, "# %061zu\n", i);
	return 0;
}

/* A server on a free loopback port, in a child: its pid; *port. */
static pid_t server(int *port, int *count)
{
	struct sockaddr_storage ss;
	struct sockaddr_in *in = (void *)&ss;
	char bound[80];
	socklen_t len;
	int fd, p[2];
	pid_t pid;

	ck_assert_int_eq(metrics_http_addr("127.0.0.1:0", &ss, &len), 0);
	fd = metrics_http_listen(&ss, len, bound, sizeof(bound));
	ck_assert_int_ge(fd, 0);
	len = sizeof(ss);
	ck_assert_int_eq(getsockname(fd, (void *)&ss, &len), 0);
	*port = ntohs(in->sin_port);
	ck_assert_int_eq(pipe2(p, O_CLOEXEC), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (!pid) {
		close(p[0]);
		count_fd = p[1];
		_exit(metrics_http_serve(fd, 64, slow_body, NULL) ? 1 : 0);
	}
	close(p[1]);
	close(fd);
	*count = p[0];
	return pid;
}

static int client(int port, const char *req)
{
	struct sockaddr_in a = { .sin_family = AF_INET,
				 .sin_port = htons(port),
				 .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(connect(fd, (void *)&a, sizeof(a)), 0);
	ck_assert_int_eq(send(fd, req, strlen(req), MSG_NOSIGNAL),
			 (ssize_t)strlen(req));
	return fd;
}

/* The answer on fd, whole (the server closes): its status; body. */
static int answer_of(int fd, char *buf, size_t n, const char **body)
{
	size_t len = 0;
	ssize_t r;
	int status = 0;

	while (len < n - 1 && (r = recv(fd, buf + len, n - 1 - len, 0)) > 0)
		len += r;
	buf[len] = '\0';
	close(fd);
	sscanf(buf, "HTTP/1.1 %d", &status);
	*body = strstr(buf, "\r\n\r\n") ? strstr(buf, "\r\n\r\n") + 4 : "";
	return status;
}

/* Bytes readable on fd within wait_ms (-1: it reached its end). */
static int count(int fd, int wait_ms)
{
	struct pollfd p = { fd, POLLIN, 0 };
	char buf[64];
	int n = 0;
	ssize_t r;

	while (poll(&p, 1, n ? 0 : wait_ms) > 0) {
		r = read(fd, buf, sizeof(buf));
		if (r <= 0)
			return n ? n : -1;
		n += r;
	}
	return n;
}

static int stop(pid_t pid, int64_t *took)
{
	int64_t t0 = ms();
	int st;

	kill(pid, SIGTERM);
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	*took = ms() - t0;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

START_TEST(one_collection_for_those_waiting)
{
	const char *get = "GET /metrics HTTP/1.1\r\n\r\n", *body;
	int fds[10], port, cnt, i, n, other;
	char buf[4096];
	int64_t t0, t404, took;
	pid_t pid;

	pause_ms = 3000; /* long beside a busy machine's delays */
	pid = server(&port, &cnt);
	for (i = 0; i < 10; i++)
		fds[i] = client(port, get);
	/* Meanwhile, the others are answered: the loop does not wait. */
	t0 = ms();
	other = client(port, "GET /other HTTP/1.1\r\n\r\n");
	ck_assert_int_eq(answer_of(other, buf, sizeof(buf), &body), 404);
	t404 = ms() - t0;
	for (i = 0; i < 10; i++) {
		ck_assert_int_eq(answer_of(fds[i], buf, sizeof(buf), &body),
				 200);
		ck_assert_str_eq(body, "x 1\n");
	}
	n = count(cnt, 0);
	printf("10 scrapes of a 3 s collection: %d collections; a 404 meanwhile after %lld ms\n",
	       n, (long long)t404);
	/* The first may start before the other 9 requests have arrived. */
	ck_assert_int_ge(n, 1);
	ck_assert_int_le(n, 2);
	ck_assert_int_lt(t404, pause_ms);
	ck_assert_int_eq(stop(pid, &took), 0);
	close(cnt);
}
END_TEST

START_TEST(sigterm_during_a_collection)
{
	const char *body;
	int64_t took;
	char buf[256];
	int port, cnt, fd;
	pid_t pid;

	pause_ms = 20000;
	pid = server(&port, &cnt);
	fd = client(port, "GET /metrics HTTP/1.1\r\n\r\n");
	ck_assert_int_eq(count(cnt, 5000), 1); /* it is collecting */
	ck_assert_int_eq(stop(pid, &took), 0);
	printf("SIGTERM during a 20 s collection: exit after %lld ms\n",
	       (long long)took);
	ck_assert_int_lt(took, 3000);
	/* The collection went with it: nothing holds the pipe any more. */
	ck_assert_int_eq(count(cnt, 3000), -1);
	ck_assert_int_eq(answer_of(fd, buf, sizeof(buf), &body), 0);
	close(cnt);
}
END_TEST

/* A collection that hangs (a stopped agent, say): 500 when its time is
 * up, and the next request gets a collection of its own. */
START_TEST(a_hung_collection)
{
	const char *body;
	int64_t t0, took;
	char buf[256];
	int port, cnt, fd;
	pid_t pid;

	pause_ms = 60000;
	pid = server(&port, &cnt);
	t0 = ms();
	fd = client(port, "GET /metrics HTTP/1.1\r\n\r\n");
	ck_assert_int_eq(answer_of(fd, buf, sizeof(buf), &body), 500);
	took = ms() - t0;
	printf("a hung collection: 500 after %lld ms\n", (long long)took);
	ck_assert_int_ge(took, METRICS_HTTP_COLLECT_MS - 100);
	ck_assert_int_lt(took, METRICS_HTTP_COLLECT_MS + 5000);
	ck_assert_int_eq(count(cnt, 0), 1);
	fd = client(port, "GET /metrics HTTP/1.1\r\n\r\n");
	ck_assert_int_eq(count(cnt, 5000), 1);
	ck_assert_int_eq(stop(pid, &took), 0);
	close(fd);
	close(cnt);
}
END_TEST

/* A client that asks for 8 MB and does not read holds nobody else up. */
START_TEST(a_client_that_does_not_read)
{
	const char *get = "GET /metrics HTTP/1.1\r\n\r\n";
	size_t n = 8 << 20, len = 0;
	int port, cnt, a, b;
	int64_t t0, took;
	char *buf;
	ssize_t r;
	pid_t pid;

	pause_ms = 0;
	pad_bytes = n;
	pid = server(&port, &cnt);
	a = client(port, get);
	ck_assert_int_eq(count(cnt, 5000), 1);
	t0 = ms();
	b = client(port, get);
	buf = xmalloc(n + 4096);
	while ((r = recv(b, buf,
			 n + 4096 - len > 65536 ? 65536 : n + 4096 - len, 0)) >
	       0)
		len += r;
	took = ms() - t0;
	printf("8 MB beside a client that does not read them: %zu bytes after %lld ms\n",
	       len, (long long)took);
	ck_assert_uint_gt(len, n);
	/* One at a time, it would wait for the other's budget to run out. */
	ck_assert_int_lt(took, METRICS_HTTP_TIMEOUT_MS);
	ck_assert_int_eq(stop(pid, &took), 0);
	free(buf);
	close(a);
	close(b);
	close(cnt);
}
END_TEST

Suite *metrics_http_suite(void)
{
	Suite *s = suite_create("metrics_http");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, request_heads);
	tcase_add_test(tc, one_collection_for_those_waiting);
	tcase_add_test(tc, sigterm_during_a_collection);
	tcase_add_test(tc, a_hung_collection);
	tcase_add_test(tc, a_client_that_does_not_read);
	suite_add_tcase(s, tc);
	return s;
}
