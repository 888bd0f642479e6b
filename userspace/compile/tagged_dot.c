// SPDX-License-Identifier: GPL-2.0
/*
 * Graphviz picture of the tagged graph: one node per (switch:in-port, tag),
 * grouped in one cluster per tag, an edge per rewrite between forwarding
 * nodes. Same-tag edges are solid, edges that raise the tag dashed: the
 * picture shows at a glance that each cluster is acyclic and that edges
 * only go up.
 */
#include "compile/compile.h"

static const char *colors[] = {
	"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd",
	"#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf",
};

static void node_id(FILE *f, const struct topo *t, int port, int tag)
{
	fprintf(f, "\"%s:%s/%d\"", t->nodes[port_node(t, port)].name,
		t->ports[port].name, tag);
}

int tagged_write_dot(FILE *f, const struct topo *t,
		     const struct compile_result *r,
		     const struct compile_opts *o)
{
	const struct tagging *tg = &r->tg;
	struct hmap_entry *it;
	int tag;

	fprintf(f,
		"digraph tagged {\n  rankdir=LR;\n  node [shape=box, fontsize=10];\n");
	for (tag = 0; tag < r->nlossless; tag++) {
		fprintf(f,
			"  subgraph cluster_%d {\n    label=\"tag %d (DSCP %d, priority %d)\";\n"
			"    color=\"%s\";\n",
			tag, tag, o->dscp[tag], o->prios[tag],
			colors[tag % 10]);
		HMAP_FOR_EACH(&tg->nodes, it)
		{
			int port = (int)(it->key >> 8);

			if ((int)(it->key & 0xff) != tag)
				continue;
			fprintf(f, "    ");
			node_id(f, t, port, tag);
			fprintf(f, " [color=\"%s\"];\n", colors[tag % 10]);
		}
		fprintf(f, "  }\n");
	}
	HMAP_FOR_EACH(&tg->rules, it)
	{
		int a = rule_key_tag(it->key), in = rule_key_in(it->key);
		int next = t->ports[rule_key_out(it->key)].peer,
		    b = (int)it->val;

		if (a >= r->nlossless || it->val == TAG_LOSSY ||
		    b >= r->nlossless ||
		    !tagging_node_forwards(tg, port_node(t, next)))
			continue;
		fprintf(f, "  ");
		node_id(f, t, in, a);
		fprintf(f, " -> ");
		node_id(f, t, next, b);
		fprintf(f, a == b ? ";\n" : " [style=dashed];\n");
	}
	fprintf(f, "}\n");
	return ferror(f) ? -1 : 0;
}
