// SPDX-License-Identifier: GPL-2.0
/* Constant-rate UDP flows and their receiver; see flow.h. */
#include <arpa/inet.h>
#include <endian.h>
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "lib/util.h"
#include "lab/flow.h"
#include "lib/log.h"

#define CATCH_UP_NS 20000000ull

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	stop = 1;
}

/* No SA_RESTART: a signal must break a send blocked behind a pause. */
static void catch_signals(void)
{
	struct sigaction sa = { .sa_handler = on_signal };

	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

static double wall_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void sleep_until(uint64_t ns)
{
	struct timespec ts = { ns / 1000000000ull, ns % 1000000000ull };

	clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
}

/*
 * One JSON line per record, reals to three decimals (milliseconds, kbit/s)
 * as the lab scripts have always read them.
 */
static void emit_line(FILE *out, json_t *o)
{
	json_dumpf(o, out, JSON_COMPACT | JSON_REAL_PRECISION(15));
	fputc('\n', out);
	fflush(out);
	json_decref(o);
}

static json_t *real3(double v)
{
	return json_real(round(v * 1000) / 1000);
}

static int open_sender(const struct flow_send_opts *o)
{
	struct sockaddr_in a = { .sin_family = AF_INET,
				 .sin_port = htons(o->port) };
	int tos = o->dscp << 2, fd;

	if (inet_pton(AF_INET, o->dst, &a.sin_addr) != 1) {
		p_err("\"%s\" is not an IPv4 address", o->dst);
		return -EXIT_USAGE;
	}
	fd = socket(AF_INET, SOCK_DGRAM, 0);
	if (fd < 0 || setsockopt(fd, IPPROTO_IP, IP_TOS, &tos, sizeof(tos)) ||
	    (o->prio >= 0 && setsockopt(fd, SOL_SOCKET, SO_PRIORITY, &o->prio,
					sizeof(o->prio))) ||
	    connect(fd, (struct sockaddr *)&a, sizeof(a))) {
		p_err("socket to %s:%d: %s", o->dst, o->port, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -EXIT_RUNTIME;
	}
	return fd;
}

int flow_send(const struct flow_send_opts *o)
{
	uint64_t gap = (uint64_t)(o->size * 8e3 / o->mbit), t0, next, end;
	uint64_t sent = 0, bytes = 0, errs = 0;
	char buf[65536] = { 0 };
	struct flow_hdr *h = (struct flow_hdr *)buf;
	int fd = open_sender(o);

	if (fd < 0)
		return -fd;
	catch_signals();
	h->magic = htobe32(FLOW_MAGIC);
	h->flow = htobe32(o->flow);
	t0 = next = now_ns();
	end = o->seconds > 0 ? t0 + (uint64_t)(o->seconds * 1e9) : UINT64_MAX;
	while (!stop && next < end) {
		uint64_t now;

		sleep_until(next);
		h->seq = htobe64(sent);
		h->send_ns = htobe64(now_ns());
		if (send(fd, buf, o->size, 0) == o->size) {
			sent++;
			bytes += o->size;
		} else if (errno != EINTR) {
			errs++;
		}
		/*
		 * Late wake-ups (shared cores) are made up by sending back to
		 * back, up to 20 ms worth; a longer stall (a pause) is not:
		 * the flow resumes at its rate, as a paused NIC does.
		 */
		now = now_ns();
		next += gap;
		if (next + CATCH_UP_NS < now)
			next = now - CATCH_UP_NS;
	}
	emit_line(o->out,
		  json_pack("{s:I,s:I,s:I,s:I,s:o,s:o}", "flow",
			    (json_int_t)o->flow, "sent_pkts", (json_int_t)sent,
			    "sent_bytes", (json_int_t)bytes, "send_errors",
			    (json_int_t)errs, "seconds",
			    real3((now_ns() - t0) / 1e9), "end",
			    real3(wall_s())));
	close(fd);
	return EXIT_OK;
}

struct flow_rx {
	uint32_t id;
	uint64_t next_seq; /* one past the highest sequence seen */
	uint64_t pkts, bytes, lost, late;
	uint64_t last_pkts, last_bytes;
};

static struct flow_rx *rx_find(struct flow_rx *f, int *n, uint32_t id)
{
	int i;

	for (i = 0; i < *n; i++)
		if (f[i].id == id)
			return &f[i];
	if (*n == FLOW_MAX)
		return NULL;
	memset(&f[*n], 0, sizeof(f[*n]));
	f[*n].id = id;
	return &f[(*n)++];
}

static void rx_account(struct flow_rx *f, uint64_t seq, ssize_t len)
{
	f->pkts++;
	f->bytes += len;
	if (seq >= f->next_seq) {
		f->lost += seq - f->next_seq;
		f->next_seq = seq + 1;
	} else if (f->lost) {
		f->lost--;
		f->late++;
	}
}

static void rx_sample(FILE *out, struct flow_rx *f, int n, double t, double dt)
{
	int i;

	for (i = 0; i < n; i++) {
		uint64_t b = f[i].bytes - f[i].last_bytes;

		emit_line(out,
			  json_pack("{s:o,s:I,s:I,s:I,s:o,s:I,s:I}", "t",
				    real3(t), "flow", (json_int_t)f[i].id,
				    "pkts",
				    (json_int_t)(f[i].pkts - f[i].last_pkts),
				    "bytes", (json_int_t)b, "mbps",
				    real3(b * 8 / dt / 1e6), "rx",
				    (json_int_t)f[i].pkts, "lost",
				    (json_int_t)f[i].lost));
		f[i].last_pkts = f[i].pkts;
		f[i].last_bytes = f[i].bytes;
	}
}

static int open_receiver(int port)
{
	struct sockaddr_in a = { .sin_family = AF_INET,
				 .sin_port = htons(port) };
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_NONBLOCK, 0), one = 1;
	int rcvbuf = 8 << 20;

	if (fd < 0 ||
	    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) ||
	    bind(fd, (struct sockaddr *)&a, sizeof(a))) {
		p_err("UDP port %d: %s", port, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	/* Beyond rmem_max needs SO_RCVBUFFORCE (root); fall back quietly. */
	if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &rcvbuf, sizeof(rcvbuf)))
		setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof(rcvbuf));
	return fd;
}

int flow_recv(const struct flow_recv_opts *o)
{
	static struct flow_rx flows[FLOW_MAX];
	uint64_t iv = (uint64_t)o->interval_ms * 1000000ull, t0, next, end;
	char buf[65536];
	int fd = open_receiver(o->port), n = 0, i;
	double last;

	if (fd < 0)
		return EXIT_RUNTIME; /* socket or bind failed */
	catch_signals();
	t0 = now_ns();
	next = t0 + iv;
	end = o->seconds > 0 ? t0 + (uint64_t)(o->seconds * 1e9) : UINT64_MAX;
	last = wall_s();
	while (!stop && now_ns() < end) {
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		uint64_t now = now_ns();
		ssize_t len;

		if (now >= next) {
			double w = wall_s();

			rx_sample(o->out, flows, n, w, w - last);
			last = w;
			next += iv;
			continue;
		}
		if (poll(&pfd, 1, (int)((next - now) / 1000000 + 1)) <= 0)
			continue;
		while ((len = recv(fd, buf, sizeof(buf), 0)) >=
		       (ssize_t)sizeof(struct flow_hdr)) {
			struct flow_hdr *h = (struct flow_hdr *)buf;
			struct flow_rx *f;

			if (be32toh(h->magic) != FLOW_MAGIC)
				continue;
			f = rx_find(flows, &n, be32toh(h->flow));
			if (f)
				rx_account(f, be64toh(h->seq), len);
		}
	}
	for (i = 0; i < n; i++)
		emit_line(o->out,
			  json_pack("{s:b,s:I,s:I,s:I,s:I,s:I,s:o}", "final", 1,
				    "flow", (json_int_t)flows[i].id, "rx",
				    (json_int_t)flows[i].pkts, "rx_bytes",
				    (json_int_t)flows[i].bytes, "lost",
				    (json_int_t)flows[i].lost, "late",
				    (json_int_t)flows[i].late, "end",
				    real3(wall_s())));
	fflush(o->out);
	close(fd);
	return EXIT_OK;
}
