// SPDX-License-Identifier: GPL-2.0
/*
 * A switch's rules as compact JSON text; see rules_text.h. The layout is
 * rules_switch_json()'s, key for key: "ports", "classify" with "in",
 * "tag", "priority", "rewrite" with "tag", "in", "out", "new_tag".
 * tests/unit/model/test_rules_text.c compares the two byte for byte.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "model/rules_text.h"

/* name as a JSON string, quotes included (jansson's escaping), or NULL. */
static char *quoted(const char *name)
{
	json_t *s = json_string(name);
	char *q = s ? json_dumps(s, JSON_COMPACT | JSON_ENCODE_ANY) : NULL;

	json_decref(s);
	return q;
}

/* A rule's port as q holds it; NULL past the switch's ports. */
static const char *port_of(char *const *q, const struct rules_switch *s,
			   int port)
{
	if (port == RULES_ANY)
		return q[s->nports];
	return port < s->nports ? q[port] : NULL;
}

static void free_names(char **q, int n)
{
	int k;

	for (k = 0; k < n; k++)
		free(q[k]);
	free(q);
}

int rules_switch_write(FILE *f, const struct rules *r, int sw)
{
	const struct rules_switch *s = &r->sw[sw];
	/* q[k]: port k quoted; q[nports]: "*" */
	char **q = calloc(s->nports + 1, sizeof(*q));
	bool ok = true;
	int k;

	if (!q)
		return -1;
	for (k = 0; k < s->nports; k++)
		if (!(q[k] = quoted(s->ports[k]))) {
			free_names(q, k);
			return -1;
		}
	q[s->nports] = strdup("\"*\"");
	if (!q[s->nports]) {
		free_names(q, s->nports);
		return -1;
	}
	fputs("{\"ports\":[", f);
	for (k = 0; k < s->nports; k++)
		fprintf(f, "%s%s", k ? "," : "", q[k]);
	fputs("],\"classify\":[", f);
	for (k = 0; ok && k < s->nclassify; k++) {
		const struct rules_classify *c = &s->classify[k];
		const char *in = port_of(q, s, c->in);

		ok = in &&
		     fprintf(f, "%s{\"in\":%s,\"tag\":%d,\"priority\":%d}",
			     k ? "," : "", in, c->tag, c->prio) > 0;
	}
	fputs("],\"rewrite\":[", f);
	for (k = 0; ok && k < s->nrewrite; k++) {
		const struct rules_rewrite *w = &s->rewrite[k];
		const char *in = port_of(q, s, w->in),
			   *out = port_of(q, s, w->out);

		ok = in && out &&
		     fprintf(f,
			     "%s{\"tag\":%d,\"in\":%s,\"out\":%s,\"new_tag\":%d}",
			     k ? "," : "", w->tag, in, out, w->new_tag) > 0;
	}
	fputs("]}", f);
	free_names(q, s->nports + 1);
	return ok && !ferror(f) ? 0 : -1;
}
