// SPDX-License-Identifier: GPL-2.0
/* Link dependency graph and its cycle; see cbd.h. */
#include <stdlib.h>
#include <string.h>

#include "analyze/cbd.h"
#include "graph/digraph.h"
#include "lib/hmap.h"
#include "lib/util.h"

int cbd_check(const struct topo *t, const struct elp *e, struct cbd_witness *w)
{
	struct hmap deps, used;
	struct hmap_entry *it;
	int *src, *dst, *path, i, k;
	struct digraph g;
	int64_t m = 0, *cyc;

	memset(w, 0, sizeof(*w));
	hmap_init(&deps, 1024);
	hmap_init(&used, 1024);
	for (i = 0; i < e->npaths; i++) {
		const int32_t *h = elp_hops(e, i);
		int n = elp_len(e, i);

		for (k = 0; k < n; k++) {
			hmap_put(&used, (uint64_t)h[k], 1);
			if (k + 1 < n) {
				bool fresh;
				uint64_t *v = hmap_slot(
					&deps, key2(h[k], h[k + 1]), &fresh);

				if (fresh)
					*v = (uint64_t)
						i; /* first path: the witness */
			}
		}
	}
	src = xmalloc((deps.n + 1) * sizeof(*src));
	dst = xmalloc((deps.n + 1) * sizeof(*dst));
	path = xmalloc((deps.n + 1) * sizeof(*path));
	HMAP_FOR_EACH(&deps, it)
	{
		src[m] = (int)(it->key >> 32);
		dst[m] = (int)(uint32_t)it->key;
		path[m++] = (int)it->val;
	}
	digraph_build(&g, t->nports, src, dst, m);
	w->len = digraph_find_cycle(&g, &cyc);
	w->links = used.n;
	w->deps = m;
	if (w->len) {
		w->cycle = xmalloc(w->len * sizeof(*w->cycle));
		for (k = 0; k < w->len; k++) {
			w->cycle[k].from = src[cyc[k]];
			w->cycle[k].to = dst[cyc[k]];
			w->cycle[k].path = path[cyc[k]];
		}
		free(cyc);
	}
	digraph_free(&g);
	free(src);
	free(dst);
	free(path);
	hmap_free(&deps);
	hmap_free(&used);
	return w->len > 0;
}

void cbd_witness_free(struct cbd_witness *w)
{
	free(w->cycle);
	memset(w, 0, sizeof(*w));
}

/* "A:p->B:q" for the directed link that leaves by port p. */
char *port_label(const struct topo *t, int port)
{
	const struct topo_port *p = &t->ports[port], *q = &t->ports[p->peer];
	char *s;

	if (asprintf(&s, "%s:%s->%s:%s", t->nodes[p->node].name, p->name,
		     t->nodes[q->node].name, q->name) < 0)
		abort();
	return s;
}

json_t *cbd_witness_json(const struct topo *t, const struct elp *e,
			 const struct cbd_witness *w)
{
	json_t *arr = json_array();
	int k;

	for (k = 0; k < w->len; k++) {
		char *a = port_label(t, w->cycle[k].from);
		char *b = port_label(t, w->cycle[k].to);
		char *p = elp_path_text(t, e, w->cycle[k].path);

		json_array_append_new(
			arr, json_pack("{s:s,s:s,s:s,s:i}", "link", a,
				       "waits_on", b, "path", p, "line",
				       e->line[w->cycle[k].path]));
		free(a);
		free(b);
		free(p);
	}
	return arr;
}

void cbd_witness_print(FILE *f, const struct topo *t, const struct elp *e,
		       const struct cbd_witness *w)
{
	int k;

	for (k = 0; k < w->len; k++) {
		char *a = port_label(t, w->cycle[k].from);
		char *b = port_label(t, w->cycle[k].to);
		char *p = elp_path_text(t, e, w->cycle[k].path);
		int line = e->line[w->cycle[k].path];

		fprintf(f, "  %s waits on %s\n      by path %s", a, b, p);
		if (line)
			fprintf(f, " (%s:%d)", e->file, line);
		fputc('\n', f);
		free(a);
		free(b);
		free(p);
	}
}
