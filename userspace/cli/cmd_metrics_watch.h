/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tagger metrics serve --check-fib RULES: tagger paths check-fib kept
 * running inside the metrics server, its findings as metrics.
 *
 * A thread listens to route and link changes (netlink, RTNLGRP_IPV4_ROUTE,
 * RTNLGRP_IPV6_ROUTE, RTNLGRP_LINK) in the network namespace of every
 * netns switch of the inventory, and polls every --poll seconds when
 * the inventory has ssh switches (no events reach here from them). A
 * burst of events is one check: it runs FIB_WATCH_QUIET_MS after the
 * last event, and at most FIB_WATCH_MAX_WAIT_MS after the first one, so
 * a change shows within about a second plus the check's own time. Each
 * check reads every FIB (fabric_fib.h), walks them (fib_walk.h) and
 * checks the paths (fib_check.h).
 *
 * The scrapes run in a child process of the server (metrics_http.h), so
 * a check's result is published as a whole by a pointer swap, never
 * under a lock the child could inherit locked.
 *
 * API:
 *   struct fib_watch_opts            what --check-fib and its options say
 *   fib_watch_start(o, &w)           read RULES, TOPO, INVENTORY, open the
 *                                    event sockets, run the first check and
 *                                    start the thread; EXIT_OK, or an exit
 *                                    code after p_err
 *   fib_watch_metrics(w, p)          the last check's metrics into p
 *   FIB_WATCH_FIRST_MAX              the most paths named (--first)
 */
#ifndef __TAGGER_CMD_METRICS_WATCH_H
#define __TAGGER_CMD_METRICS_WATCH_H

#include "metrics/prom.h"

#define FIB_WATCH_QUIET_MS 200
#define FIB_WATCH_MAX_WAIT_MS 1000
#define FIB_WATCH_POLL_S 10
#define FIB_WATCH_FIRST 10
#define FIB_WATCH_FIRST_MAX 100

struct fib_watch_opts {
	const char *rules, *topo, *inventory;
	int source; /* enum fib_source */
	int poll; /* seconds, ssh switches */
	int first; /* paths named per kind */
};

struct fib_watch;

int fib_watch_start(const struct fib_watch_opts *o, struct fib_watch **w);
void fib_watch_metrics(struct fib_watch *w, struct prom *p);

#endif /* __TAGGER_CMD_METRICS_WATCH_H */
