// SPDX-License-Identifier: GPL-2.0
/*
 * The compiled rules as a struct rules (model/rules.h), built straight from
 * the per-switch rule lists: what the verifier checks and what the
 * document is written from (compile_rules_write), without a JSON tree of
 * every rule in between. Jellyfish 1000 with host endpoints (231,000
 * rules): the jansson document took about 105 MiB and the verifier's
 * read-back of it another 70, three copies of the rules at the compile's
 * peak; this form is 6 bytes a rewrite rule and 4 a classify rule plus
 * their lookups.
 *
 * The values are the document's: DSCP codepoints and priorities from the
 * options, ports as indexes into the node's ports in topology order, "*"
 * and explicit lossy answers of compressed rules. The rules then get the
 * lookups and the semantic check every reader's rules get (rules_index,
 * rules_check), so a compile with --cnp-dscp that clashes with a tag is
 * refused with the message the document's reader gives.
 */
#include <stdlib.h>
#include <string.h>

#include "compile/compile.h"
#include "lib/util.h"
#include "model/rules.h"

static int class_tag(const struct compile_result *r,
		     const struct compile_opts *o, int c)
{
	return c < r->nlossless ? o->dscp[c] : o->lossy_dscp;
}

static uint16_t local_port(const int *local, int port)
{
	return port == RULE_ANY ? RULES_ANY : (uint16_t)local[port];
}

/* A node's port names in one block, in topology order. */
static void put_ports(const struct topo *t, const struct topo_node *n,
		      struct rules_switch *s)
{
	size_t total = 1;
	char *p;
	int k;

	for (k = 0; k < n->nports; k++)
		total += strlen(t->ports[n->ports[k]].name) + 1;
	s->nports = n->nports;
	s->ports = xcalloc(n->nports + 1, sizeof(*s->ports));
	p = s->port_buf = xmalloc(total);
	for (k = 0; k < n->nports; k++) {
		size_t len = strlen(t->ports[n->ports[k]].name);

		memcpy(p, t->ports[n->ports[k]].name, len + 1);
		s->ports[k] = p;
		p += len + 1;
	}
}

static void put_switch(const struct topo *t, const struct sw_rules *sr,
		       const struct compile_opts *o, const int *local,
		       struct rules *rules)
{
	const struct topo_node *n = &t->nodes[sr->node];
	struct rules_switch *s = &rules->sw[rules->nsw];
	int k;

	s->name = xstrdup(n->name);
	strmap_add(&rules->sw_names, s->name, rules->nsw);
	rules->nsw++;
	put_ports(t, n, s);
	s->classify = xcalloc(sr->ncls + 1, sizeof(*s->classify));
	for (k = 0; k < sr->ncls; k++) {
		const struct cls_rule *c = &sr->cls[k];

		s->classify[k].in = local_port(local, c->in);
		s->classify[k].tag = (uint8_t)o->dscp[c->tag];
		s->classify[k].prio = (uint8_t)(c->lossless ? o->prios[c->tag] :
							      o->lossy_prio);
	}
	s->nclassify = sr->ncls;
	s->rewrite = xcalloc(sr->nrw + 1, sizeof(*s->rewrite));
	for (k = 0; k < sr->nrw; k++) {
		const struct rw_rule *w = &sr->rw[k];

		s->rewrite[k].tag = (uint8_t)o->dscp[w->tag];
		s->rewrite[k].in = local_port(local, w->in);
		s->rewrite[k].out = local_port(local, w->out);
		s->rewrite[k].new_tag = (uint8_t)(w->new_tag == RULE_LOSSY ?
							  o->lossy_dscp :
							  o->dscp[w->new_tag]);
	}
	s->nrewrite = sr->nrw;
}

static void put_hosts(const struct topo *t, const struct compile_result *r,
		      const struct compile_opts *o, struct rules *rules)
{
	int i, c;

	rules->hosts = xcalloc(t->nnodes + 1, sizeof(*rules->hosts));
	for (i = 0; i < t->nnodes; i++) {
		struct rules_host *h = &rules->hosts[rules->nhosts];

		if (t->nodes[i].kind != NODE_HOST)
			continue;
		h->name = xstrdup(t->nodes[i].name);
		h->tag = class_tag(r, o, 0);
		h->classes = xcalloc(o->nclasses + 1, sizeof(int));
		for (c = 0; c < o->nclasses; c++)
			h->classes[c] = class_tag(r, o, c);
		h->nclasses = o->nclasses;
		strmap_add(&rules->host_names, h->name, rules->nhosts);
		rules->nhosts++;
	}
}

struct rules *compile_rules(const struct topo *t,
			    const struct compile_result *r,
			    const struct compile_opts *o, const char *name)
{
	struct rules *rules = rules_new(name);
	int *local = xcalloc(t->nports + 1, sizeof(int));
	int i, k;

	for (i = 0; i < t->nnodes; i++)
		for (k = 0; k < t->nodes[i].nports; k++)
			local[t->nodes[i].ports[k]] = k;
	rules->lossy_tag = o->lossy_dscp;
	rules->lossy_prio = o->lossy_prio;
	rules->cnp_tag = o->cnp_dscp;
	rules->cnp_prio = o->cnp_prio;
	rules->tags = xcalloc(r->nlossless + 1, sizeof(*rules->tags));
	for (i = 0; i < r->nlossless; i++) {
		rules->tags[i].tag = o->dscp[i];
		rules->tags[i].prio = o->prios[i];
	}
	rules->ntags = r->nlossless;
	rules->class_ids = xcalloc(o->nclasses + 1, sizeof(int));
	rules->class_tags = xcalloc(o->nclasses + 1, sizeof(int));
	for (i = 0; i < o->nclasses; i++) {
		rules->class_ids[i] = i;
		rules->class_tags[i] = class_tag(r, o, i);
	}
	rules->nclasses = o->nclasses;
	put_hosts(t, r, o, rules);
	rules->sw = xcalloc(r->nsw + 1, sizeof(*rules->sw));
	for (i = 0; i < r->nsw; i++)
		put_switch(t, &r->sw[i], o, local, rules);
	free(local);
	rules_index(rules);
	if (!rules_check(rules)) {
		rules_free(rules);
		return NULL;
	}
	return rules;
}
