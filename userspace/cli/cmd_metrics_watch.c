// SPDX-License-Identifier: GPL-2.0
/* The routing checked on every route change; see cmd_metrics_watch.h. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <sys/socket.h>

#include "cli/cmd_metrics_watch.h"
#include "compile/compile.h"
#include "fabric/fabric_fib.h"
#include "fabric/fabric_inv.h"
#include "fabric/fib_check.h"
#include "fabric/fib_walk.h"
#include "lib/log.h"
#include "lib/util.h"
#include "model/rules.h"
#include "model/topo.h"

struct fib_watch {
	struct fib_watch_opts o;
	struct rules *r;
	struct topo *t;
	struct fabric_inv inv;
	struct compile_opts co;
	struct pollfd *fds; /* one netlink socket per netns switch */
	int nfds;
	bool ssh; /* a switch only a poll sees */
	int64_t checks, events, failed;
	json_t *snap; /* the last check; swapped whole (see the header) */
};

/* The routing's paths and what they need, as the snapshot scrapes read. */
static json_t *check_once(struct fib_watch *w)
{
	struct fib_walk_in in = { .t = w->t };
	struct fib_check c = { 0 };
	struct fib_walk_out out;
	struct fib **fibs;
	double t0 = now_seconds();
	json_t *s;
	int rc;

	rc = fabric_fib_read(&w->inv, w->t, w->o.source, &fibs);
	if (rc)
		return NULL;
	in.fib = fibs;
	fib_walk(&in, &out);
	fabric_fib_free(fibs, w->t->nnodes);
	rc = fib_check(w->t, out.e, w->r, &w->co, &c);
	if (rc) {
		fib_walk_free(&out);
		return NULL;
	}
	s = json_pack("{s:i,s:I,s:i,s:O,s:O,s:i,s:i,s:f,s:f}", "paths",
		      out.e->npaths, "not_lossless", (json_int_t)c.walks,
		      "lossy", c.lossy, "not_lossless_paths", c.not_lossless,
		      "priorities", c.prios, "loops", out.loops, "black_holes",
		      out.holes, "seconds", now_seconds() - t0, "time",
		      (double)time(NULL));
	pr_info("check-fib: %d paths, %lld not kept lossless, %d need more "
		"priorities (%.0f ms)\n",
		out.e->npaths, (long long)c.walks, c.lossy,
		1000 * (now_seconds() - t0));
	fib_check_free(&c);
	fib_walk_free(&out);
	return s;
}

/* Run a check and publish it; a failed one keeps the last paths. */
static void check_publish(struct fib_watch *w)
{
	json_t *s = check_once(w), *old = w->snap;

	w->checks++;
	if (!s) {
		w->failed++;
		s = old ? json_deep_copy(old) : json_object();
		json_object_set_new(s, "failed", json_true());
	}
	json_object_set_new(s, "checks", json_integer(w->checks));
	json_object_set_new(s, "failures", json_integer(w->failed));
	json_object_set_new(s, "events", json_integer(w->events));
	__atomic_store_n(&w->snap, s, __ATOMIC_RELEASE);
	json_decref(old);
}

/* Read what a socket has; the number of messages (an overrun counts). */
static int drain(int fd)
{
	char buf[16384];
	int n = 0;
	ssize_t r;

	for (;;) {
		r = recv(fd, buf, sizeof(buf), MSG_DONTWAIT);
		if (r > 0) {
			struct nlmsghdr *h = (struct nlmsghdr *)buf;
			int len = r;

			for (; NLMSG_OK(h, len); h = NLMSG_NEXT(h, len))
				n++;
			continue;
		}
		if (r < 0 && errno == ENOBUFS) {
			n++; /* lost some: something changed */
			continue;
		}
		return n;
	}
}

static double ms_since(double t, double now)
{
	return (now - t) * 1000;
}

static void *watch_thread(void *arg)
{
	struct fib_watch *w = arg;
	double first = 0, last = 0, next_poll = 0, now;
	bool dirty = false;
	int timeout, k, n;

	next_poll = now_seconds() + w->o.poll;
	for (;;) {
		now = now_seconds();
		timeout = -1;
		if (dirty) {
			double a = FIB_WATCH_QUIET_MS - ms_since(last, now);
			double b = FIB_WATCH_MAX_WAIT_MS - ms_since(first, now);

			timeout = (int)(a < b ? a : b) + 1;
		} else if (w->ssh) {
			timeout = (int)((next_poll - now) * 1000) + 1;
		}
		if (timeout < 0 && (dirty || w->ssh))
			timeout = 0;
		poll(w->fds, w->nfds, timeout);
		now = now_seconds();
		for (k = 0; k < w->nfds; k++) {
			if (!w->fds[k].revents)
				continue;
			n = drain(w->fds[k].fd);
			if (!n)
				continue;
			w->events += n;
			if (!dirty)
				first = now;
			dirty = true;
			last = now;
		}
		if ((dirty &&
		     (ms_since(last, now) >= FIB_WATCH_QUIET_MS ||
		      ms_since(first, now) >= FIB_WATCH_MAX_WAIT_MS)) ||
		    (w->ssh && now >= next_poll)) {
			dirty = false;
			check_publish(w);
			next_poll = now_seconds() + w->o.poll;
		}
	}
	return NULL;
}

/* A netlink socket of route and link changes in netns ns: fd or -errno. */
static int nl_open(const char *ns, int home)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK,
				  .nl_groups = RTMGRP_IPV4_ROUTE |
					       RTMGRP_IPV6_ROUTE |
					       RTMGRP_LINK };
	char path[300];
	int nsfd, fd, err = 0;

	snprintf(path, sizeof(path), "/run/netns/%s", ns);
	nsfd = open(path, O_RDONLY | O_CLOEXEC);
	if (nsfd < 0)
		return -errno;
	if (setns(nsfd, CLONE_NEWNET)) {
		err = -errno;
		close(nsfd);
		return err;
	}
	close(nsfd);
	fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC | SOCK_NONBLOCK,
		    NETLINK_ROUTE);
	if (fd < 0 || bind(fd, (struct sockaddr *)&sa, sizeof(sa)))
		err = -errno;
	if (setns(home, CLONE_NEWNET)) { /* back, or nothing is right */
		p_err("cannot return to the network namespace: %s",
		      strerror(errno));
		abort();
	}
	if (err && fd >= 0)
		close(fd);
	return err ?: fd;
}

static int open_events(struct fib_watch *w)
{
	int home = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC), k, fd;

	if (home < 0) {
		p_err("/proc/self/ns/net: %s", strerror(errno));
		return EXIT_RUNTIME;
	}
	w->fds = xcalloc(w->inv.n + 1, sizeof(*w->fds));
	for (k = 0; k < w->inv.n; k++) {
		const struct fabric_host *h = &w->inv.h[k];

		if (h->transport != FABRIC_NETNS) {
			w->ssh = true;
			continue;
		}
		fd = nl_open(h->netns, home);
		if (fd < 0) {
			p_err("%s: route events of /run/netns/%s: %s", h->name,
			      h->netns, strerror(-fd));
			close(home);
			return EXIT_RUNTIME;
		}
		w->fds[w->nfds++] =
			(struct pollfd){ .fd = fd, .events = POLLIN };
	}
	close(home);
	return EXIT_OK;
}

int fib_watch_start(const struct fib_watch_opts *o, struct fib_watch **out)
{
	struct fib_watch *w = xcalloc(1, sizeof(*w));
	sigset_t all, old;
	pthread_t th;
	int rc;

	w->o = *o;
	w->r = rules_parse(o->rules);
	w->t = w->r ? topo_parse(o->topo) : NULL;
	compile_opts_init(&w->co);
	if (!w->t || fib_check_prios(w->r, NULL, 0, &w->co) ||
	    fabric_inv_load(o->inventory, &w->inv))
		return EXIT_USAGE; /* the process exits: nothing to free */
	rc = open_events(w);
	if (rc)
		return rc;
	/* The first check before serving: a bad inventory stops us here. */
	check_publish(w);
	if (json_is_true(json_object_get(w->snap, "failed")))
		return EXIT_RUNTIME;
	/* Signals are the server's (metrics_http_serve waits for them). */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	rc = pthread_create(&th, NULL, watch_thread, w);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (rc) {
		p_err("cannot start the route watcher: %s", strerror(rc));
		return EXIT_RUNTIME;
	}
	pthread_detach(th);
	*out = w;
	return EXIT_OK;
}

/* The first w->o.first texts of arr's members (key: a member's field). */
static void paths_metric(struct prom *p, const char *name, const char *help,
			 json_t *arr, const char *key, int first)
{
	struct prom_label l[2];
	char rank[16];
	json_t *v;
	size_t i;

	json_array_foreach(arr, i, v) {
		if ((int)i >= first)
			break;
		snprintf(rank, sizeof(rank), "%zu", i);
		l[0] = (struct prom_label){ "rank", rank };
		l[1] = (struct prom_label){
			"path",
			key ? json_string_value(json_object_get(v, key)) ?: "" :
			json_string_value(v) ?:
					       ""
		};
		prom_add(p, name, PROM_GAUGE, help, l, 2, 1);
	}
}

static double num(json_t *o, const char *key)
{
	return json_number_value(json_object_get(o, key));
}

void fib_watch_metrics(struct fib_watch *w, struct prom *p)
{
	json_t *s = __atomic_load_n(&w->snap, __ATOMIC_ACQUIRE);
	json_t *pr = json_object_get(s, "priorities");
	struct prom_label l[1];

	prom_add(p, "tagger_paths_check_success", PROM_GAUGE,
		 "1 if the last check of the routing's paths ran.", NULL, 0,
		 !json_is_true(json_object_get(s, "failed")));
	prom_add(p, "tagger_paths_checks_total", PROM_COUNTER,
		 "Checks of the routing's paths run.", NULL, 0,
		 num(s, "checks"));
	prom_add(p, "tagger_paths_check_failures_total", PROM_COUNTER,
		 "Checks of the routing's paths that could not read a FIB.",
		 NULL, 0, num(s, "failures"));
	prom_add(p, "tagger_paths_route_events_total", PROM_COUNTER,
		 "Route and link changes seen in the switches' namespaces.",
		 NULL, 0, num(s, "events"));
	if (!json_object_get(s, "paths"))
		return;
	prom_add(p, "tagger_paths_check_timestamp_seconds", PROM_GAUGE,
		 "When the last check of the routing's paths that ran ended.",
		 NULL, 0, num(s, "time"));
	prom_add(p, "tagger_paths_check_duration_seconds", PROM_GAUGE,
		 "How long it took.", NULL, 0, num(s, "seconds"));
	prom_add(p, "tagger_paths_routed", PROM_GAUGE,
		 "Paths between hosts the switches' FIBs give.", NULL, 0,
		 num(s, "paths"));
	prom_add(p, "tagger_paths_not_lossless", PROM_GAUGE,
		 "Routed paths the rules do not keep lossless (off the ELP).",
		 NULL, 0, num(s, "not_lossless"));
	prom_add(p, "tagger_paths_need_priorities", PROM_GAUGE,
		 "Routed paths that would stay lossy for want of priorities.",
		 NULL, 0, num(s, "lossy"));
	prom_add(p, "tagger_paths_priorities_needed", PROM_GAUGE,
		 "Lossless priorities the routed paths need.", NULL, 0,
		 num(pr, "needed"));
	prom_add(p, "tagger_paths_priorities_available", PROM_GAUGE,
		 "Lossless priorities the switches have.", NULL, 0,
		 num(pr, "available"));
	l[0] = (struct prom_label){ "kind", "loop" };
	prom_add(p, "tagger_paths_fib_problems", PROM_GAUGE,
		 "Distinct loops and black holes in the FIBs.", l, 1,
		 num(s, "loops"));
	l[0] = (struct prom_label){ "kind", "black_hole" };
	prom_add(p, "tagger_paths_fib_problems", PROM_GAUGE,
		 "Distinct loops and black holes in the FIBs.", l, 1,
		 num(s, "black_holes"));
	paths_metric(p, "tagger_paths_not_lossless_path",
		     "The first routed paths not kept lossless (always 1).",
		     json_object_get(s, "not_lossless_paths"), "path",
		     w->o.first);
	paths_metric(p, "tagger_paths_need_priorities_path",
		     "The first routed paths that need more priorities "
		     "(always 1).",
		     json_object_get(pr, "first_lossy"), NULL, w->o.first);
}
