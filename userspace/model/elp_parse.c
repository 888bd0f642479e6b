// SPDX-License-Identifier: GPL-2.0
/*
 * Parser of ELP files: one path a line, node names from source to
 * destination, a hop optionally written node:port to name the port it
 * leaves by (required where parallel links make it ambiguous).
 *
 * Each hop costs two hash lookups, so millions of paths parse in linear
 * time; a large file parses in two threads, one per half. Every problem is
 * "file:line: message"; the caller exits 2.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "model/elp.h"
#include "lib/log.h"
#include "lib/util.h"

/* The same limit and message as the topology parser's. */
static bool name_too_long(struct lines *lr, const char *s)
{
	if (!s || strlen(s) <= NAME_MAX_LEN)
		return false;
	input_err(lr->name, lr->line,
		  "name \"%.32s...\" is longer than %d bytes", s, NAME_MAX_LEN);
	return true;
}

static int node_of(const struct topo *t, struct lines *lr, const char *name)
{
	int n = topo_find_node(t, name);

	if (n < 0)
		input_err(lr->name, lr->line, "unknown node \"%s\"", name);
	return n;
}

/* The port a hop leaves `from` by to reach `to`, or -1 after a message. */
static int hop_port(const struct topo *t, struct lines *lr, int from,
		    const char *port, int to)
{
	int p;

	if (port) {
		p = topo_find_port(t, from, port);
		if (p < 0) {
			input_err(lr->name, lr->line,
				  "node \"%s\" has no port \"%s\"",
				  t->nodes[from].name, port);
			return -1;
		}
		if (port_peer_node(t, p) != to) {
			input_err(lr->name, lr->line,
				  "port %s:%s leads to \"%s\", not \"%s\"",
				  t->nodes[from].name, port,
				  t->nodes[port_peer_node(t, p)].name,
				  t->nodes[to].name);
			return -1;
		}
		return p;
	}
	p = topo_port_toward(t, from, to);
	if (p == PORT_NONE)
		input_err(lr->name, lr->line,
			  "no link between \"%s\" and \"%s\"",
			  t->nodes[from].name, t->nodes[to].name);
	else if (p == PORT_AMBIGUOUS)
		input_err(
			lr->name, lr->line,
			"hop \"%s\" -> \"%s\" is ambiguous (parallel links): write %s:<port>",
			t->nodes[from].name, t->nodes[to].name,
			t->nodes[from].name);
	return p < 0 ? -1 : p;
}

static int parse_path(const struct topo *t, struct lines *lr, struct elp *e,
		      int32_t **hops, int *cap)
{
	int k, n = lr->ntok, prev = -1;
	char *prev_port = NULL;

	if (n < 2) {
		input_err(lr->name, lr->line,
			  "a path needs at least two nodes");
		return -1;
	}
	if (n - 1 > *cap) {
		*cap = n * 2;
		*hops = xrealloc(*hops, *cap * sizeof(**hops));
	}
	for (k = 0; k < n; k++) {
		char *tok = lr->tok[k], *colon = strchr(tok, ':');
		int node;

		if (colon) {
			*colon = '\0';
			if (k == n - 1) {
				input_err(
					lr->name, lr->line,
					"the last node \"%s\" leaves by no port",
					tok);
				return -1;
			}
		}
		if (name_too_long(lr, tok) ||
		    name_too_long(lr, colon ? colon + 1 : NULL))
			return -1;
		node = node_of(t, lr, tok);
		if (node < 0)
			return -1;
		if (k > 0) {
			int p = hop_port(t, lr, prev, prev_port, node);

			if (p < 0)
				return -1;
			(*hops)[k - 1] = p;
		}
		prev = node;
		prev_port = colon ? colon + 1 : NULL;
	}
	elp_add(e, *hops, n - 1, lr->line);
	return 0;
}

struct elp *elp_parse_lines(const struct topo *t, struct lines *lr)
{
	struct elp *e = elp_new(lr->name);
	int32_t *hops = NULL;
	int cap = 0, n;

	while ((n = lines_next(lr)) > 0) {
		if (parse_path(t, lr, e, &hops, &cap)) {
			free(hops);
			elp_free(e);
			return NULL;
		}
	}
	free(hops);
	if (n == LINES_ERR) {
		elp_free(e);
		return NULL;
	}
	if (!e->npaths) {
		input_err(lr->name, 0, "no paths");
		elp_free(e);
		return NULL;
	}
	return e;
}

/* Files from this size on parse in two threads. */
#define SPLIT_BYTES (8UL << 20)

struct half {
	const struct topo *t;
	struct lines lr;
	struct elp *e;
	int rc;
};

static void *parse_half(void *arg)
{
	struct half *h = arg;
	int32_t *hops = NULL;
	int cap = 0, n;

	h->e = elp_new(h->lr.name);
	while ((n = lines_next(&h->lr)) > 0)
		if (parse_path(h->t, &h->lr, h->e, &hops, &cap))
			break;
	h->rc = n == -1 ? 0 : -1; /* the end, not an error or a bad path */
	free(hops);
	return NULL;
}

/*
 * The two halves of lr (split after a newline) in two threads, silently;
 * NULL if either failed, and the caller then parses a copy in one thread
 * for the very messages, and only the first, a single pass would print.
 */
static struct elp *parse_halves(const struct topo *t, struct lines *lr)
{
	struct half a = { .t = t, .lr = *lr }, b = { .t = t, .lr = *lr };
	const char *nl = memchr(lr->buf + lr->len / 2, '\n', lr->len / 2);
	bool quiet = log_quiet;
	pthread_t tid;
	size_t split;
	const char *q;
	int started;

	if (!nl)
		return NULL;
	split = nl - lr->buf + 1;
	a.lr.len = split;
	b.lr.pos = split;
	b.lr.tok = NULL;
	b.lr.tok_cap = 0;
	for (q = lr->buf; (q = memchr(q, '\n', lr->buf + split - q)); q++)
		b.lr.line++;
	log_quiet = true;
	started = !pthread_create(&tid, NULL, parse_half, &b);
	parse_half(&a);
	if (started)
		pthread_join(tid, NULL);
	else
		parse_half(&b);
	log_quiet = quiet;
	lr->tok = a.lr.tok; /* freed by lines_close() */
	free(b.lr.tok);
	if (!a.rc && !b.rc)
		elp_append(a.e, b.e);
	elp_free(b.e);
	if (a.rc || b.rc) {
		elp_free(a.e);
		return NULL;
	}
	return a.e;
}

struct elp *elp_parse(const struct topo *t, const char *path)
{
	struct lines lr, again;
	struct elp *e = NULL;
	char *copy;

	if (lines_open(&lr, path))
		return NULL;
	if (lr.len < SPLIT_BYTES || sysconf(_SC_NPROCESSORS_ONLN) < 2) {
		e = elp_parse_lines(t, &lr);
		lines_close(&lr);
		return e;
	}
	copy = xmalloc(lr.len);
	memcpy(copy, lr.buf, lr.len);
	e = parse_halves(t, &lr);
	if (e && !e->npaths) {
		input_err(lr.name, 0, "no paths");
		elp_free(e);
		e = NULL;
	} else if (!e) {
		lines_open_mem(&again, lr.name, copy, lr.len);
		e = elp_parse_lines(t, &again);
		lines_close(&again);
	}
	free(copy);
	lines_close(&lr);
	return e;
}

struct elp *elp_parse_files(const char *topo_path, const char *elp_path,
			    struct topo **t)
{
	struct elp *e;

	*t = topo_parse(topo_path);
	if (!*t)
		return NULL;
	e = elp_parse(*t, elp_path);
	if (!e) {
		topo_free(*t);
		*t = NULL;
	}
	return e;
}
