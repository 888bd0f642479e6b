// SPDX-License-Identifier: GPL-2.0
/*
 * Where generated paths go: into a struct elp, into a file (ELP text,
 * formatted from per-port labels prepared once, through one large buffer,
 * so a million paths cost no allocation and no printf), or only counted.
 */
#include <stdlib.h>
#include <string.h>

#include "gen/gen.h"
#include "lib/util.h"

static void emit_elp(struct path_sink *s, const int32_t *hops, int n)
{
	elp_add(s->ctx, hops, n, 0);
}

void sink_elp(struct path_sink *s, struct elp *e)
{
	*s = (struct path_sink){ .emit = emit_elp, .ctx = e };
}

void sink_count(struct path_sink *s)
{
	*s = (struct path_sink){ 0 };
}

#define WBUF (1 << 20)

struct writer {
	const struct topo *t;
	FILE *f;
	char **label; /* per port: "node " or "node:port " */
	int *label_len;
	char *buf;
	size_t len;
	int err;
};

static void flush(struct writer *w)
{
	if (w->len && fwrite(w->buf, 1, w->len, w->f) != w->len)
		w->err = 1;
	w->len = 0;
}

static void put(struct writer *w, const char *s, size_t n)
{
	if (w->len + n > WBUF)
		flush(w);
	if (n > WBUF) { /* absurd name lengths: straight through */
		w->err |= fwrite(s, 1, n, w->f) != n;
		return;
	}
	memcpy(w->buf + w->len, s, n);
	w->len += n;
}

static void emit_file(struct path_sink *s, const int32_t *hops, int n)
{
	struct writer *w = s->ctx;
	const char *last;
	int k;

	for (k = 0; k < n; k++)
		put(w, w->label[hops[k]], w->label_len[hops[k]]);
	if (n) {
		last = w->t->nodes[port_peer_node(w->t, hops[n - 1])].name;
		put(w, last, strlen(last));
	}
	put(w, "\n", 1);
}

/* Same text as elp_write_path(): a port is named only where parallel links need it. */
static void make_labels(struct writer *w)
{
	const struct topo *t = w->t;
	int p;

	w->label = xmalloc((t->nports + 1) * sizeof(*w->label));
	w->label_len = xmalloc((t->nports + 1) * sizeof(*w->label_len));
	for (p = 0; p < t->nports; p++) {
		const struct topo_port *q = &t->ports[p];
		const char *node = t->nodes[q->node].name;
		bool named =
			topo_port_toward(t, q->node, port_peer_node(t, p)) ==
			PORT_AMBIGUOUS;
		size_t len =
			strlen(node) + (named ? strlen(q->name) + 1 : 0) + 2;

		w->label[p] = xmalloc(len);
		if (named)
			snprintf(w->label[p], len, "%s:%s ", node, q->name);
		else
			snprintf(w->label[p], len, "%s ", node);
		w->label_len[p] = (int)strlen(w->label[p]);
	}
}

void sink_writer_open(struct path_sink *s, const struct topo *t, FILE *f)
{
	struct writer *w = xcalloc(1, sizeof(*w));

	w->t = t;
	w->f = f;
	w->buf = xmalloc(WBUF);
	make_labels(w);
	*s = (struct path_sink){ .emit = emit_file, .ctx = w };
}

/* Flushes and frees the writer (not the FILE); -1 on a write error. */
int sink_writer_close(struct path_sink *s)
{
	struct writer *w = s->ctx;
	int p, err;

	flush(w);
	err = w->err || fflush(w->f) || ferror(w->f);
	for (p = 0; p < w->t->nports; p++)
		free(w->label[p]);
	free(w->label);
	free(w->label_len);
	free(w->buf);
	free(w);
	s->ctx = NULL;
	return err ? -1 : 0;
}
