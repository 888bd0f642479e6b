// SPDX-License-Identifier: GPL-2.0
/*
 * Parser of the topology text format (Documentation/tagger-formats.7.rst):
 *
 *	switch <name> [layer=<n>]
 *	host <name>
 *	link <node>:<port> <node>:<port>
 *
 * Nodes may be declared after the links that use them, so links are
 * collected first and resolved once every node is known. Every problem is
 * reported as "file:line: message"; the caller exits 2.
 */
#include <stdlib.h>
#include <string.h>

#include "lib/log.h"
#include "model/topo.h"
#include "lib/util.h"

#define MAX_LAYER 64

struct pending_link {
	char *end[2]; /* "node:port", split at resolution */
	int line;
};

static int parse_switch(struct topo *t, struct lines *lr)
{
	unsigned long layer;
	int layer_val = LAYER_NONE, i, prev;

	for (i = 2; i < lr->ntok; i++) {
		const char *a = lr->tok[i];

		if (strncmp(a, "layer=", 6)) {
			input_err(lr->name, lr->line,
				  "unknown switch attribute \"%s\"", a);
			return -1;
		}
		if (layer_val != LAYER_NONE) {
			input_err(lr->name, lr->line, "layer given twice");
			return -1;
		}
		if (!parse_uint(a + 6, MAX_LAYER, &layer)) {
			input_err(
				lr->name, lr->line,
				"layer must be a number from 0 to %d, not \"%s\"",
				MAX_LAYER, a + 6);
			return -1;
		}
		layer_val = (int)layer;
	}
	prev = topo_find_node(t, lr->tok[1]);
	if (prev >= 0) {
		input_err(lr->name, lr->line,
			  "node \"%s\" already declared at line %d", lr->tok[1],
			  t->nodes[prev].line);
		return -1;
	}
	i = topo_add_node(t, lr->tok[1], NODE_SWITCH, layer_val);
	t->nodes[i].line = lr->line;
	return 0;
}

static int parse_host(struct topo *t, struct lines *lr)
{
	int prev, i;

	if (lr->ntok > 2) {
		input_err(lr->name, lr->line,
			  "host takes a name only, not \"%s\"", lr->tok[2]);
		return -1;
	}
	prev = topo_find_node(t, lr->tok[1]);
	if (prev >= 0) {
		input_err(lr->name, lr->line,
			  "node \"%s\" already declared at line %d", lr->tok[1],
			  t->nodes[prev].line);
		return -1;
	}
	i = topo_add_node(t, lr->tok[1], NODE_HOST, LAYER_NONE);
	t->nodes[i].line = lr->line;
	return 0;
}

/* A name over NAME_MAX_LEN gets its own message: the characters may be fine. */
static bool name_too_long(const char *file, int line, const char *s)
{
	if (strlen(s) <= NAME_MAX_LEN)
		return false;
	input_err(file, line, "name \"%.32s...\" is longer than %d bytes", s,
		  NAME_MAX_LEN);
	return true;
}

/* Split "node:port" in place and check both names. */
static int split_end(const char *file, int line, char *s, char **port)
{
	char *colon = strchr(s, ':');

	if (!colon) {
		input_err(file, line,
			  "link end \"%.300s\" must be <node>:<port>", s);
		return -1;
	}
	*colon = '\0';
	*port = colon + 1;
	if (name_too_long(file, line, s) || name_too_long(file, line, *port))
		return -1;
	if (!valid_name(s) || !valid_name(*port)) {
		*colon = ':';
		input_err(file, line,
			  "bad link end \"%s\": names are [A-Za-z0-9_.-]+", s);
		return -1;
	}
	return 0;
}

static int resolve_link(struct topo *t, struct pending_link *pl)
{
	int node[2], i, p;
	char *port[2];

	for (i = 0; i < 2; i++) {
		if (split_end(t->file, pl->line, pl->end[i], &port[i]))
			return -1;
		node[i] = topo_find_node(t, pl->end[i]);
		if (node[i] < 0) {
			input_err(t->file, pl->line, "unknown node \"%s\"",
				  pl->end[i]);
			return -1;
		}
		p = topo_find_port(t, node[i], port[i]);
		if (p >= 0) {
			input_err(t->file, pl->line,
				  "port %s:%s is already linked at line %d",
				  pl->end[i], port[i], t->ports[p].line);
			return -1;
		}
	}
	if (node[0] == node[1]) {
		input_err(t->file, pl->line, "link from \"%s\" to itself",
			  pl->end[0]);
		return -1;
	}
	p = topo_add_link(t, node[0], port[0], node[1], port[1]);
	if (p < 0) {
		/* the checks above should make this unreachable; never index -1 */
		input_err(t->file, pl->line, "cannot link %s:%s to %s:%s",
			  pl->end[0], port[0], pl->end[1], port[1]);
		return -1;
	}
	t->ports[p].line = pl->line;
	t->ports[t->ports[p].peer].line = pl->line;
	return 0;
}

static int parse_statement(struct topo *t, struct lines *lr,
			   struct pending_link **links, int *nlinks, int *cap)
{
	const char *kw = lr->tok[0];

	if (strcmp(kw, "switch") && strcmp(kw, "host") && strcmp(kw, "link")) {
		input_err(lr->name, lr->line,
			  "what is \"%s\"? expected switch, host or link", kw);
		return -1;
	}
	if (!strcmp(kw, "link")) {
		struct pending_link pl = { .line = lr->line };

		if (lr->ntok != 3) {
			input_err(lr->name, lr->line,
				  "link takes two ends <node>:<port>, got %d",
				  lr->ntok - 1);
			return -1;
		}
		pl.end[0] = lr->tok[1];
		pl.end[1] = lr->tok[2];
		VEC_PUSH(*links, *nlinks, *cap, pl);
		return 0;
	}
	if (lr->ntok < 2) {
		input_err(lr->name, lr->line, "%s needs a name", kw);
		return -1;
	}
	if (name_too_long(lr->name, lr->line, lr->tok[1]))
		return -1;
	if (!valid_name(lr->tok[1])) {
		input_err(lr->name, lr->line,
			  "bad name \"%s\": names are [A-Za-z0-9_.-]+",
			  lr->tok[1]);
		return -1;
	}
	return !strcmp(kw, "switch") ? parse_switch(t, lr) : parse_host(t, lr);
}

struct topo *topo_parse_lines(struct lines *lr)
{
	struct topo *t = topo_new(lr->name);
	struct pending_link *links = NULL;
	int nlinks = 0, cap = 0, i, n;

	while ((n = lines_next(lr)) > 0)
		if (parse_statement(t, lr, &links, &nlinks, &cap))
			goto fail;
	if (n == LINES_ERR)
		goto fail;
	if (!t->nnodes) {
		input_err(lr->name, 0, "no switches or hosts declared");
		goto fail;
	}
	for (i = 0; i < nlinks; i++)
		if (resolve_link(t, &links[i]))
			goto fail;
	free(links);
	return t;
fail:
	free(links);
	topo_free(t);
	return NULL;
}

struct topo *topo_parse(const char *path)
{
	struct lines lr;
	struct topo *t;

	if (lines_open(&lr, path))
		return NULL;
	t = topo_parse_lines(&lr);
	lines_close(&lr);
	return t;
}
