// SPDX-License-Identifier: GPL-2.0
/* Packed storage and writing of path sets; see elp.h. */
#include <stdlib.h>
#include <string.h>

#include "model/elp.h"
#include "lib/util.h"

struct elp *elp_new(const char *file)
{
	struct elp *e = xcalloc(1, sizeof(*e));

	e->file = xstrdup(file ? file : "-");
	e->paths_cap = 64;
	e->off = xmalloc((e->paths_cap + 1) * sizeof(*e->off));
	e->line = xmalloc(e->paths_cap * sizeof(*e->line));
	e->off[0] = 0;
	return e;
}

void elp_free(struct elp *e)
{
	if (!e)
		return;
	free(e->file);
	free(e->off);
	free(e->hops);
	free(e->line);
	free(e);
}

/* Append every path of o to e, in order. */
void elp_append(struct elp *e, const struct elp *o)
{
	int i;

	while (e->npaths + o->npaths > e->paths_cap) {
		e->paths_cap *= 2;
		e->off = xrealloc(e->off, (e->paths_cap + 1) * sizeof(*e->off));
		e->line = xrealloc(e->line, e->paths_cap * sizeof(*e->line));
	}
	while (e->nhops + o->nhops > e->hops_cap) {
		e->hops_cap = e->hops_cap ? 2 * e->hops_cap : 1024;
		e->hops = xrealloc(e->hops, e->hops_cap * sizeof(*e->hops));
	}
	if (o->nhops)
		memcpy(e->hops + e->nhops, o->hops,
		       o->nhops * sizeof(*o->hops));
	for (i = 0; i < o->npaths; i++) {
		e->line[e->npaths + i] = o->line[i];
		e->off[e->npaths + i + 1] = e->nhops + o->off[i + 1];
	}
	e->npaths += o->npaths;
	e->nhops += o->nhops;
}

void elp_add(struct elp *e, const int32_t *hops, int n, int line)
{
	if (e->npaths == e->paths_cap) {
		e->paths_cap *= 2;
		e->off = xrealloc(e->off, (e->paths_cap + 1) * sizeof(*e->off));
		e->line = xrealloc(e->line, e->paths_cap * sizeof(*e->line));
	}
	while (e->nhops + n > e->hops_cap) {
		e->hops_cap = e->hops_cap ? 2 * e->hops_cap : 1024;
		e->hops = xrealloc(e->hops, e->hops_cap * sizeof(*e->hops));
	}
	memcpy(e->hops + e->nhops, hops, n * sizeof(*hops));
	e->nhops += n;
	e->line[e->npaths] = line;
	e->off[++e->npaths] = e->nhops;
}

int elp_max_len(const struct elp *e)
{
	int i, m = 0;

	for (i = 0; i < e->npaths; i++)
		if (elp_len(e, i) > m)
			m = elp_len(e, i);
	return m;
}

/*
 * The nodes that forward, so that have buffers and rules: the switches, and
 * any host a path crosses (BCube's servers relay). The compiler, the bound
 * and the exact search must agree on this set.
 */
bool *elp_forwarding(const struct topo *t, const struct elp *e)
{
	bool *f = xcalloc(t->nnodes, sizeof(bool));
	int i, k;

	for (i = 0; i < t->nnodes; i++)
		f[i] = t->nodes[i].kind == NODE_SWITCH;
	for (i = 0; i < e->npaths; i++)
		for (k = 1; k < elp_len(e, i); k++)
			f[port_node(t, elp_hops(e, i)[k])] = true;
	return f;
}

void elp_write_path(FILE *f, const struct topo *t, const int32_t *hops, int n)
{
	int k;

	for (k = 0; k < n; k++) {
		const struct topo_port *p = &t->ports[hops[k]];
		int peer_node = port_peer_node(t, hops[k]);

		fputs(t->nodes[p->node].name, f);
		/* Name the port only where parallel links make the hop ambiguous. */
		if (topo_port_toward(t, p->node, peer_node) == PORT_AMBIGUOUS)
			fprintf(f, ":%s", p->name);
		fputc(' ', f);
	}
	if (n)
		fputs(t->nodes[port_peer_node(t, hops[n - 1])].name, f);
	fputc('\n', f);
}

/* One path as its file line (without the newline), for messages. */
char *elp_path_text(const struct topo *t, const struct elp *e, int i)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	elp_write_path(f, t, elp_hops(e, i), elp_len(e, i));
	fclose(f);
	if (len && buf[len - 1] == '\n')
		buf[len - 1] = '\0';
	return buf;
}

int elp_write(FILE *f, const struct topo *t, const struct elp *e)
{
	int i;

	for (i = 0; i < e->npaths; i++)
		elp_write_path(f, t, elp_hops(e, i), elp_len(e, i));
	return ferror(f) ? -1 : 0;
}
