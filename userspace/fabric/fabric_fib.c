// SPDX-License-Identifier: GPL-2.0
/* Every switch's FIB through the inventory; see fabric_fib.h. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabric/fabric_fib.h"
#include "fabric/fabric_run.h"
#include "fabric/fib_frr.h"
#include "fabric/fib_iproute.h"
#include "lib/log.h"
#include "lib/util.h"

typedef int parse_fn(const char *file, const char *buf, size_t len, int family,
		     struct fib *f);

static int frr_ifaces(const char *file, const char *buf, size_t len, int family,
		      struct fib *f)
{
	return fib_frr_ifaces_parse(file, buf, len, f);
}

/* One command on one switch, run by a worker, parsed in order. */
struct task {
	const struct fabric_host *h;
	int node;
	const char *prog;
	const char *words[8];
	char what[64];
	parse_fn *parse;
	int family;
	int run_rc; /* fabric_run_prog's */
	struct fabric_run res;
	bool done;
};

struct pool {
	struct task *t;
	int n, cap;
	int next; /* the next task a worker takes */
	bool stop; /* an error: start no more */
	pthread_mutex_t mu;
	pthread_cond_t cv;
};

static struct task *task_new(struct pool *p, const struct fabric_host *h,
			     int node, const char *prog, const char *what,
			     parse_fn *parse, int family)
{
	struct task t = { .h = h,
			  .node = node,
			  .prog = prog,
			  .parse = parse,
			  .family = family };

	snprintf(t.what, sizeof(t.what), "%s", what);
	VEC_PUSH(p->t, p->n, p->cap, t);
	return &p->t[p->n - 1];
}

static void words(struct task *t, const char *const *w)
{
	int k;

	for (k = 0; w[k] && k < 7; k++)
		t->words[k] = w[k];
	t->words[k] = NULL;
}

static void netlink(struct pool *p, const struct fabric_host *h, int node)
{
	static const char *const v4[] = { "-j",	   "route", "show",
					  "table", "main",  NULL };
	static const char *const v6[] = { "-j",	   "-6",   "route", "show",
					  "table", "main", NULL };

	words(task_new(p, h, node, "ip", "ip -j route", fib_iproute_parse, 4),
	      v4);
	words(task_new(p, h, node, "ip", "ip -j -6 route", fib_iproute_parse,
		       6),
	      v6);
}

/* Has switch node n a host among its neighbours? */
static bool has_hosts(const struct topo *t, int n)
{
	int i;

	for (i = 0; i < t->nodes[n].nports; i++)
		if (!topo_is_switch(t, port_peer_node(t, t->nodes[n].ports[i])))
			return true;
	return false;
}

/*
 * vtysh's words. ssh's remote shell joins them: the command, one vtysh
 * word, goes quoted (a fixed text, no quote in it).
 */
static void frr(struct pool *p, const struct fabric_host *h, int node,
		bool hosts)
{
	static const char *const cmds[3][2] = {
		{ "show ip route json", "'show ip route json'" },
		{ "show ipv6 route json", "'show ipv6 route json'" },
		{ "show interface json", "'show interface json'" },
	};
	const char *w[6];
	char what[64];
	int n = 0, k;

	if (h->vty_socket) {
		w[n++] = "--vty_socket";
		w[n++] = h->vty_socket;
	}
	w[n++] = "-c";
	w[n + 1] = NULL;
	for (k = 0; k < (hosts ? 3 : 2); k++) {
		w[n] = cmds[k][h->transport == FABRIC_SSH];
		snprintf(what, sizeof(what), "vtysh %s", cmds[k][0]);
		words(task_new(p, h, node, h->vtysh ?: "vtysh", what,
			       k == 2 ? frr_ifaces : fib_frr_routes_parse,
			       k == 1 ? 6 : 4),
		      w);
	}
}

static void *worker(void *arg)
{
	struct pool *p = arg;
	struct task *t;
	int i;

	for (;;) {
		pthread_mutex_lock(&p->mu);
		i = p->stop ? p->n : p->next++;
		pthread_mutex_unlock(&p->mu);
		if (i >= p->n)
			return NULL;
		t = &p->t[i];
		t->run_rc = fabric_run_prog(t->h, t->prog, t->words, &t->res);
		pthread_mutex_lock(&p->mu);
		t->done = true;
		pthread_cond_broadcast(&p->cv);
		pthread_mutex_unlock(&p->mu);
	}
}

/* Task t's output into fibs[t->node], with its messages. */
static int take(struct task *t, struct fib **fibs)
{
	const struct fabric_host *h = t->h;
	char file[300];

	if (t->run_rc) {
		p_err("%s: %s: %s", h->name, t->what, t->res.err);
		return EXIT_RUNTIME;
	}
	if (t->res.status) {
		p_err("%s: %s exited with %d%s%s", h->name, t->what,
		      t->res.status, t->res.err[0] ? ": " : "", t->res.err);
		return EXIT_RUNTIME;
	}
	if (!fibs[t->node])
		fibs[t->node] = fib_new();
	snprintf(file, sizeof(file), "%s: %s", h->name, t->what);
	return t->parse(file, t->res.out, t->res.len, t->family, fibs[t->node]);
}

/*
 * Run the tasks FABRIC_FIB_JOBS at a time (a switch's commands wait on
 * its answers: ssh round trips, vtysh), and read their outputs in task
 * order, so messages and the first error do not depend on timing.
 */
static int run_all(struct pool *p, struct fib **fibs)
{
	pthread_t tid[FABRIC_FIB_JOBS];
	bool started[FABRIC_FIB_JOBS] = { false };
	int nt = p->n < FABRIC_FIB_JOBS ? p->n : FABRIC_FIB_JOBS, i, rc = 0;

	pthread_mutex_init(&p->mu, NULL);
	pthread_cond_init(&p->cv, NULL);
	for (i = 0; i < nt; i++)
		started[i] = !pthread_create(&tid[i], NULL, worker, p);
	if (nt && !started[0])
		worker(p); /* no thread: this one does it all */
	for (i = 0; i < p->n; i++) {
		pthread_mutex_lock(&p->mu);
		while (!p->t[i].done && !(p->stop && i >= p->next))
			pthread_cond_wait(&p->cv, &p->mu);
		pthread_mutex_unlock(&p->mu);
		if (!rc && p->t[i].done) {
			rc = take(&p->t[i], fibs);
			if (rc) {
				pthread_mutex_lock(&p->mu);
				p->stop = true;
				pthread_mutex_unlock(&p->mu);
			}
		}
	}
	for (i = 0; i < nt; i++)
		if (started[i])
			pthread_join(tid[i], NULL);
	for (i = 0; i < p->n; i++)
		if (p->t[i].done && !p->t[i].run_rc)
			fabric_run_free(&p->t[i].res);
	pthread_cond_destroy(&p->cv);
	pthread_mutex_destroy(&p->mu);
	return rc;
}

int fabric_fib_read(const struct fabric_inv *inv, const struct topo *t,
		    enum fib_source source, struct fib ***out)
{
	struct fib **fibs = xcalloc(t->nnodes + 1, sizeof(*fibs));
	bool *asked = xcalloc(t->nnodes + 1, sizeof(bool));
	struct pool p = { 0 };
	int k, n, rc = 0;

	*out = NULL;
	for (k = 0; k < inv->n && !rc; k++) {
		n = topo_find_node(t, inv->h[k].sw);
		if (n < 0 || !topo_is_switch(t, n)) {
			input_err(inv->path, inv->h[k].line,
				  "switch %s is not a switch of %s",
				  inv->h[k].sw, t->file);
			rc = EXIT_USAGE;
		} else if (!asked[n]) { /* two inventory names, one switch */
			asked[n] = true;
			if (source == FIB_SOURCE_FRR)
				frr(&p, &inv->h[k], n, has_hosts(t, n));
			else
				netlink(&p, &inv->h[k], n);
		}
	}
	if (!rc)
		rc = run_all(&p, fibs);
	free(p.t);
	free(asked);
	if (rc) {
		fabric_fib_free(fibs, t->nnodes);
		return rc;
	}
	*out = fibs;
	return EXIT_OK;
}

void fabric_fib_free(struct fib **fibs, int n)
{
	int k;

	if (!fibs)
		return;
	for (k = 0; k < n; k++)
		fib_free(fibs[k]);
	free(fibs);
}
