// SPDX-License-Identifier: GPL-2.0
/*
 * The loop of metrics serve; see metrics_http.h. One thread polls the
 * listening socket, every connection (non-blocking, each with a deadline
 * of its own) and the collection under way: no client waits for another,
 * and SIGTERM or SIGINT ends it at the next wake-up.
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "lib/log.h"
#include "lib/util.h"
#include "metrics/metrics_http.h"
#include "metrics/metrics_http_collect.h"
#include "metrics/metrics_http_req.h"
#include "metrics/prom.h"

/* The states of a connection, in their order. */
enum conn_state {
	C_READ, /* its request has not arrived whole: an idle one */
	C_WAIT, /* for a collection */
	C_WRITE, /* the answer */
	C_LINGER, /* answered: reading what it still sends */
};

/* One collection's output, shared by the answers that send it. */
struct shared_body {
	int refs;
	size_t len;
	char *buf;
};

struct conn {
	int fd;
	enum conn_state st;
	uint64_t seq; /* order of arrival: the smallest is the oldest */
	int64_t deadline;
	char *in;
	size_t in_len;
	struct http_req req;
	unsigned int batch; /* the collection it waits for; 0: the next */
	char out[384]; /* the status line and headers (a short body too) */
	size_t out_len, sent;
	struct shared_body *body;
	size_t drained;
};

struct server {
	int lfd, max_conns, n;
	struct conn *c;
	uint64_t seq;
	int64_t listen_pause; /* out of files: accept again after this */
	struct http_collect col;
	unsigned int batch; /* the collection under way, if any */
	int (*body)(void *arg, FILE *f);
	void *arg;
};

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

static void body_put(struct shared_body *b)
{
	if (b && !--b->refs) {
		free(b->buf);
		free(b);
	}
}

static void conn_close(struct server *s, int i)
{
	struct conn *c = &s->c[i];

	close(c->fd);
	free(c->in);
	body_put(c->body);
	s->c[i] = s->c[--s->n];
}

/* The child of a collection keeps none of the server's sockets. */
static void close_fds(void *ctx)
{
	struct server *s = ctx;
	int i;

	close(s->lfd);
	for (i = 0; i < s->n; i++)
		close(s->c[i].fd);
}

static void send_out(struct server *s, int i);

static void answer(struct server *s, int i, const char *status,
		   struct shared_body *b, bool head)
{
	struct conn *c = &s->c[i];
	const char *type = b ? PROM_CONTENT_TYPE : "text/plain; charset=utf-8";
	size_t len = b ? b->len : strlen(status) + 1;
	int n;

	n = snprintf(c->out, sizeof(c->out),
		     "HTTP/1.1 %s\r\nContent-Type: %s\r\n"
		     "Content-Length: %zu\r\n%sConnection: close\r\n\r\n",
		     status, type, len,
		     strncmp(status, "405", 3) ? "" : "Allow: GET, HEAD\r\n");
	if (!b && !head)
		n += snprintf(c->out + n, sizeof(c->out) - n, "%s\n", status);
	c->out_len = n;
	if (b && !head) {
		c->body = b;
		b->refs++;
	}
	c->sent = 0;
	c->st = C_WRITE;
	c->deadline = now_ms() + METRICS_HTTP_TIMEOUT_MS;
	send_out(s, i);
}

static const char *status_text(int status)
{
	switch (status) {
	case 404:
		return "404 Not Found";
	case 405:
		return "405 Method Not Allowed";
	case 431:
		return "431 Request Header Fields Too Large";
	default:
		return "400 Bad Request";
	}
}

/*
 * Answered: say so, then read what the client still sends, briefly and
 * boundedly. Closing with unread input makes the kernel send a reset,
 * which may destroy the answer (a 431, say) before the client reads it.
 */
static void linger(struct server *s, int i)
{
	struct conn *c = &s->c[i];

	shutdown(c->fd, SHUT_WR);
	body_put(c->body);
	c->body = NULL;
	free(c->in);
	c->in = NULL;
	c->st = C_LINGER;
	c->deadline = now_ms() + METRICS_HTTP_LINGER_MS;
}

static void send_out(struct server *s, int i)
{
	struct conn *c = &s->c[i];
	size_t total = c->out_len + (c->body ? c->body->len : 0);

	while (c->sent < total) {
		const char *p = c->sent < c->out_len ?
					c->out + c->sent :
					c->body->buf + c->sent - c->out_len;
		size_t left = c->sent < c->out_len ? c->out_len - c->sent :
						     total - c->sent;
		ssize_t w = send(c->fd, p, left, MSG_NOSIGNAL);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0 && errno == EAGAIN)
			return; /* POLLOUT will say when */
		if (w <= 0) {
			conn_close(s, i);
			return;
		}
		c->sent += w;
	}
	linger(s, i);
}

/* Its request so far, judged as it grows: answered at once if bad. */
static void read_in(struct server *s, int i)
{
	struct conn *c = &s->c[i];
	int status;
	ssize_t r;

	if (!c->in)
		c->in = xmalloc(METRICS_HTTP_MAX_REQUEST);
	do {
		r = recv(c->fd, c->in + c->in_len,
			 METRICS_HTTP_MAX_REQUEST - c->in_len, 0);
	} while (r < 0 && errno == EINTR);
	if (r < 0 && errno == EAGAIN)
		return;
	if (r <= 0) {
		conn_close(s, i); /* gone before asking anything */
		return;
	}
	c->in_len += r;
	status = http_req_scan(&c->req, c->in, c->in_len);
	if (status == 200) {
		c->st = C_WAIT;
		c->batch = 0;
		c->deadline = INT64_MAX; /* the collection's is enough */
	} else if (status) {
		answer(s, i, status_text(status), NULL,
		       status == 404 && c->req.head);
	}
}

/* Answered: what it still sends is read and dropped, up to a bound. */
static void drain(struct server *s, int i)
{
	struct conn *c = &s->c[i];
	char buf[4096];
	ssize_t r;

	while (c->drained < 16 * sizeof(buf)) {
		r = recv(c->fd, buf, sizeof(buf), 0);
		if (r > 0)
			c->drained += r;
		if (r > 0 || (r < 0 && errno == EINTR))
			continue;
		if (r < 0 && errno == EAGAIN)
			return;
		break;
	}
	conn_close(s, i); /* its end, an error, or enough */
}

/* Which goes first to make room: idle, then answered, then the rest. */
static int evict_rank(const struct conn *c)
{
	return c->st == C_READ ? 0 : c->st == C_LINGER ? 1 : 2;
}

/* Make room: the oldest of the first rank that has any. */
static void evict(struct server *s)
{
	int i, r, best = -1, best_r = 3;

	for (i = 0; i < s->n; i++) {
		r = evict_rank(&s->c[i]);
		if (r < best_r ||
		    (r == best_r && s->c[i].seq < s->c[best].seq)) {
			best = i;
			best_r = r;
		}
	}
	if (best >= 0)
		conn_close(s, best);
}

static void accept_new(struct server *s)
{
	int k, fd;

	for (k = 0; k < 64; k++) { /* a flood does not starve the others */
		fd = accept4(s->lfd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
		if (fd < 0 && (errno == EMFILE || errno == ENFILE) && s->n) {
			evict(s); /* out of files anyway: the cap's rule */
			continue;
		}
		if (fd < 0 && (errno == EMFILE || errno == ENFILE))
			s->listen_pause = now_ms() + 100; /* not a busy loop */
		if (fd < 0 && errno == EINTR)
			continue;
		if (fd < 0)
			return;
		if (s->n == s->max_conns)
			evict(s);
		s->c[s->n] = (struct conn){
			.fd = fd,
			.st = C_READ,
			.seq = ++s->seq,
			.deadline = now_ms() + METRICS_HTTP_TIMEOUT_MS,
		};
		s->n++;
	}
}

/* The result of the collection under way, to those that waited for it. */
static void collected(struct server *s, bool ok)
{
	struct shared_body *b = NULL;
	int i;

	if (ok) {
		b = xmalloc(sizeof(*b));
		*b = (struct shared_body){ 1, s->col.len, s->col.buf };
	} else {
		free(s->col.buf);
	}
	s->col.buf = NULL;
	for (i = s->n - 1; i >= 0; i--)
		if (s->c[i].st == C_WAIT && s->c[i].batch == s->batch)
			answer(s, i,
			       ok ? "200 OK" : "500 Internal Server Error", b,
			       s->c[i].req.head);
	body_put(b);
}

/*
 * One collection for every request waiting now; those that arrive while
 * it runs wait for the next, which starts when it ends.
 */
static void collect_start(struct server *s)
{
	int i, err;

	if (s->col.pid)
		return;
	for (i = 0; i < s->n; i++)
		if (s->c[i].st == C_WAIT && !s->c[i].batch)
			break;
	if (i == s->n)
		return;
	s->batch = s->batch + 1 ?: 1;
	for (i = 0; i < s->n; i++)
		if (s->c[i].st == C_WAIT && !s->c[i].batch)
			s->c[i].batch = s->batch;
	err = http_collect_start(&s->col, s->body, s->arg, close_fds, s);
	if (err)
		collected(s, false); /* no process: 500, not a wait */
}

static void conn_events(struct server *s, int i, short rev)
{
	switch (s->c[i].st) {
	case C_READ:
		read_in(s, i);
		break;
	case C_WRITE:
		send_out(s, i);
		break;
	case C_LINGER:
		drain(s, i);
		break;
	case C_WAIT:
		if (rev & (POLLERR | POLLHUP))
			conn_close(s, i);
		break;
	}
}

static const short conn_poll[] = {
	[C_READ] = POLLIN,
	[C_WAIT] = 0,
	[C_WRITE] = POLLOUT,
	[C_LINGER] = POLLIN,
};

/* The pollfds: listening socket, collection, connections; the timeout. */
static int poll_set(struct server *s, struct pollfd *pfd, int *ncol,
		    int64_t *wake)
{
	int64_t now = now_ms();
	int i, n = 1;

	pfd[0] = (struct pollfd){ now >= s->listen_pause ? s->lfd : -1, POLLIN,
				  0 };
	*wake = now < s->listen_pause ? s->listen_pause : INT64_MAX;
	*ncol = s->col.pid ? http_collect_fds(&s->col, pfd + 1) : 0;
	if (s->col.pid && s->col.deadline < *wake)
		*wake = s->col.deadline;
	n += *ncol;
	for (i = 0; i < s->n; i++) {
		pfd[n + i] =
			(struct pollfd){ s->c[i].fd, conn_poll[s->c[i].st], 0 };
		if (s->c[i].deadline < *wake)
			*wake = s->c[i].deadline;
	}
	return n;
}

/* One wake-up's work, each part bounded: events, deadlines, accepts. */
static void step(struct server *s, struct pollfd *pfd, int base, int ncol,
		 int nconn)
{
	int64_t now = now_ms();
	int i;

	/* Downwards: a closed one's place is taken by one already seen. */
	for (i = nconn - 1; i >= 0; i--)
		if (pfd[base + i].revents)
			conn_events(s, i, pfd[base + i].revents);
	if (ncol && http_collect_events(&s->col, pfd + 1))
		collected(s, s->col.ok);
	if (s->col.pid && now >= s->col.deadline) {
		http_collect_stop(&s->col);
		collected(s, false);
	}
	for (i = s->n - 1; i >= 0; i--)
		if (now >= s->c[i].deadline)
			conn_close(s, i);
	collect_start(s);
	if (pfd[0].revents)
		accept_new(s);
}

/*
 * Room for max_conns sockets besides the few the server needs anyway (a
 * collection takes 3): the open file limit raised as far as allowed, the
 * cap lowered to what fits under it.
 */
static int fit_nofile(int max_conns)
{
	struct rlimit rl;
	rlim_t want = (rlim_t)max_conns + METRICS_HTTP_SPARE_FDS;

	if (getrlimit(RLIMIT_NOFILE, &rl))
		return max_conns;
	if (rl.rlim_cur < want) {
		rl.rlim_cur = rl.rlim_max < want ? rl.rlim_max : want;
		if (setrlimit(RLIMIT_NOFILE, &rl))
			getrlimit(RLIMIT_NOFILE, &rl);
	}
	if (rl.rlim_cur >= want)
		return max_conns;
	want = rl.rlim_cur > 2 * METRICS_HTTP_SPARE_FDS ?
		       rl.rlim_cur - METRICS_HTTP_SPARE_FDS :
		       rl.rlim_cur / 2;
	pr_warn("open file limit %llu: at most %llu connections, not %d\n",
		(unsigned long long)rl.rlim_cur, (unsigned long long)want,
		max_conns);
	return want ? want : 1;
}

static volatile sig_atomic_t stop_sig;

static void on_signal(int sig)
{
	stop_sig = sig;
}

static int serve_loop(struct server *s, const sigset_t *wait)
{
	struct pollfd *pfd = xcalloc(s->max_conns + 3, sizeof(*pfd));
	int base, ncol, nconn, r, ret = 0;
	struct timespec ts;
	int64_t wake, left;

	while (!stop_sig) {
		base = poll_set(s, pfd, &ncol, &wake);
		nconn = s->n;
		left = wake - now_ms();
		left = left < 0 ? 0 : left;
		ts = (struct timespec){ left / 1000, left % 1000 * 1000000 };
		r = ppoll(pfd, base + nconn, wake == INT64_MAX ? NULL : &ts,
			  wait);
		if (r < 0 && errno != EINTR) {
			ret = -errno;
			break;
		}
		if (r < 0 || stop_sig)
			continue;
		step(s, pfd, base, ncol, nconn);
	}
	free(pfd);
	return ret;
}

/*
 * SIGTERM and SIGINT are blocked but while the loop waits (ppoll unblocks
 * them atomically): one arriving between the check and the wait is not
 * missed, and no wait is longer than the next deadline or event, each
 * wake-up's work is bounded, so a stop is prompt whatever clients do.
 */
int metrics_http_serve(int fd, int max_conns, int (*body)(void *arg, FILE *f),
		       void *arg)
{
	struct sigaction sa = { .sa_handler = on_signal };
	struct server s = {
		.lfd = fd, .max_conns = max_conns, .body = body, .arg = arg
	};
	sigset_t block, old, wait;
	int ret;

	s.max_conns = fit_nofile(max_conns);
	s.c = xcalloc(s.max_conns, sizeof(*s.c));
	sigemptyset(&block);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGINT);
	sigprocmask(SIG_BLOCK, &block, &old);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	wait = old;
	sigdelset(&wait, SIGTERM);
	sigdelset(&wait, SIGINT);
	ret = serve_loop(&s, &wait);
	http_collect_stop(&s.col);
	while (s.n)
		conn_close(&s, s.n - 1);
	free(s.c);
	sigprocmask(SIG_SETMASK, &old, NULL);
	return ret;
}
