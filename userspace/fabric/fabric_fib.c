// SPDX-License-Identifier: GPL-2.0
/* Every switch's FIB through the inventory; see fabric_fib.h. */
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

/* Run prog words on h and parse its output into f. */
static int ask(const struct fabric_host *h, const char *prog,
	       const char *const *words, const char *what, parse_fn *parse,
	       int family, struct fib *f)
{
	struct fabric_run res;
	char file[300];
	int rc;

	if (fabric_run_prog(h, prog, words, &res)) {
		p_err("%s: %s: %s", h->name, what, res.err);
		return EXIT_RUNTIME;
	}
	if (res.status) {
		p_err("%s: %s exited with %d%s%s", h->name, what, res.status,
		      res.err[0] ? ": " : "", res.err);
		fabric_run_free(&res);
		return EXIT_RUNTIME;
	}
	snprintf(file, sizeof(file), "%s: %s", h->name, what);
	rc = parse(file, res.out, res.len, family, f);
	fabric_run_free(&res);
	return rc;
}

static int netlink(const struct fabric_host *h, struct fib *f)
{
	static const char *const v4[] = { "-j",	   "route", "show",
					  "table", "main",  NULL };
	static const char *const v6[] = { "-j",	   "-6",   "route", "show",
					  "table", "main", NULL };

	return ask(h, "ip", v4, "ip -j route", fib_iproute_parse, 4, f) ?:
		       ask(h, "ip", v6, "ip -j -6 route", fib_iproute_parse, 6,
			   f);
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
static int frr(const struct fabric_host *h, bool hosts, struct fib *f)
{
	static const char *const cmds[3][2] = {
		{ "show ip route json", "'show ip route json'" },
		{ "show ipv6 route json", "'show ipv6 route json'" },
		{ "show interface json", "'show interface json'" },
	};
	const char *words[6], *prog = h->vtysh ?: "vtysh";
	int n = 0, k, rc = 0;
	char what[64];

	if (h->vty_socket) {
		words[n++] = "--vty_socket";
		words[n++] = h->vty_socket;
	}
	words[n++] = "-c";
	words[n + 1] = NULL;
	for (k = 0; k < 3 && !rc; k++) {
		if (k == 2 && !hosts)
			break;
		words[n] = cmds[k][h->transport == FABRIC_SSH];
		snprintf(what, sizeof(what), "vtysh %s", cmds[k][0]);
		rc = ask(h, prog, words, what,
			 k == 2 ? frr_ifaces : fib_frr_routes_parse,
			 k == 1 ? 6 : 4, f);
	}
	return rc;
}

int fabric_fib_read(const struct fabric_inv *inv, const struct topo *t,
		    enum fib_source source, struct fib ***out)
{
	struct fib **fibs = xcalloc(t->nnodes + 1, sizeof(*fibs));
	int k, n, rc = 0;

	*out = NULL;
	for (k = 0; k < inv->n; k++) {
		n = topo_find_node(t, inv->h[k].sw);
		if (n < 0 || !topo_is_switch(t, n)) {
			input_err(inv->path, inv->h[k].line,
				  "switch %s is not a switch of %s",
				  inv->h[k].sw, t->file);
			rc = EXIT_USAGE;
			goto out;
		}
	}
	for (k = 0; k < inv->n && !rc; k++) {
		n = topo_find_node(t, inv->h[k].sw);
		if (fibs[n])
			continue; /* two inventory names for one switch */
		fibs[n] = fib_new();
		rc = source == FIB_SOURCE_FRR ?
			     frr(&inv->h[k], has_hosts(t, n), fibs[n]) :
			     netlink(&inv->h[k], fibs[n]);
	}
out:
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
