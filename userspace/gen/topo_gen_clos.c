// SPDX-License-Identifier: GPL-2.0
/*
 * Clos-family topologies: 3-tier Clos with pods and spine planes, the
 * k-ary fat-tree (a Clos with k/2 planes), and 2-tier leaf-spine.
 *
 * Port numbering follows the usual whitebox layout: a switch's downlinks
 * come first (eth1..), its uplinks after; hosts use eth0.
 */
#include <stdio.h>

#include "gen/gen.h"
#include "lib/log.h"

void clos_defaults(struct clos_opts *o)
{
	/* The Clos of the Tagger paper (figures 5-8): T1-T4, L1-L4, S1-S2. */
	*o = (struct clos_opts){ .pods = 2,
				 .tors = 2,
				 .leaves = 2,
				 .spines = 2,
				 .hosts = 1,
				 .planes = 1 };
}

static int add_named(struct topo *t, const char *prefix, long i,
		     enum node_kind kind, int layer)
{
	char name[32];

	snprintf(name, sizeof(name), "%s%ld", prefix, i);
	return topo_add_node(t, name, kind, layer);
}

static bool sizes_ok(long long nodes, long long links)
{
	if (nodes > GEN_MAX_NODES || 2 * links > GEN_MAX_PORTS) {
		p_err("topology too large: %lld nodes, %lld links (limits %d, %d)",
		      nodes, links, GEN_MAX_NODES, GEN_MAX_PORTS / 2);
		return false;
	}
	return true;
}

static bool clos_valid(const struct clos_opts *o)
{
	long long tors = (long long)o->pods * o->tors;
	long long leaves = (long long)o->pods * o->leaves;
	long long hosts = tors * o->hosts;

	if (o->pods < 1 || o->tors < 1 || o->leaves < 1 || o->spines < 0 ||
	    o->hosts < 0 || o->planes < 1) {
		p_err("clos needs pods, ToRs and leaves >= 1, spines and hosts >= 0, planes >= 1");
		return false;
	}
	if (o->spines % o->planes) {
		p_err("clos: %d spines do not split into %d equal planes",
		      o->spines, o->planes);
		return false;
	}
	if (o->spines && o->leaves < o->planes) {
		p_err("clos: %d leaves per pod cannot reach %d planes",
		      o->leaves, o->planes);
		return false;
	}
	return sizes_ok(tors + leaves + o->spines + hosts,
			hosts + tors * o->leaves +
				leaves * (o->spines / o->planes));
}

struct topo *topo_gen_clos(const struct clos_opts *o)
{
	int npods = o->pods, per_plane, p, i, j;
	int tor0, leaf0, spine0 = 0;
	struct topo *t;

	if (!clos_valid(o))
		return NULL;
	t = topo_new("-");
	/* Top-down, as the paper draws it. */
	for (i = 0; i < o->spines; i++)
		add_named(t, "S", i + 1, NODE_SWITCH, 2);
	leaf0 = t->nnodes;
	for (i = 0; i < npods * o->leaves; i++)
		add_named(t, "L", i + 1, NODE_SWITCH, 1);
	tor0 = t->nnodes;
	for (i = 0; i < npods * o->tors; i++)
		add_named(t, "T", i + 1, NODE_SWITCH, 0);
	for (i = 0; i < npods * o->tors; i++)
		for (j = 0; j < o->hosts; j++) {
			int h = add_named(t, "h", (long)i * o->hosts + j + 1,
					  NODE_HOST, LAYER_NONE);

			topo_link_auto(t, h, tor0 + i);
		}
	for (p = 0; p < npods; p++)
		for (i = 0; i < o->tors; i++)
			for (j = 0; j < o->leaves; j++)
				topo_link_auto(t, tor0 + p * o->tors + i,
					       leaf0 + p * o->leaves + j);
	per_plane = o->spines / o->planes;
	for (i = 0; i < npods * o->leaves; i++) {
		int plane = (i % o->leaves) % o->planes;

		for (j = 0; j < per_plane; j++)
			topo_link_auto(t, leaf0 + i,
				       spine0 + plane * per_plane + j);
	}
	return t;
}

struct topo *topo_gen_fattree(int k, int hosts)
{
	struct clos_opts o;

	if (k < 2 || k % 2 || k > 4096) {
		p_err("fattree: k must be even, from 2 to 4096, not %d", k);
		return NULL;
	}
	o = (struct clos_opts){ .pods = k,
				.tors = k / 2,
				.leaves = k / 2,
				.spines = k / 2 * (k / 2),
				.hosts = hosts,
				.planes = k / 2 };
	return topo_gen_clos(&o);
}

struct topo *topo_gen_leafspine(int leaves, int spines, int hosts)
{
	int i, j, leaf0;
	struct topo *t;

	if (leaves < 1 || spines < 0 || hosts < 0) {
		p_err("leafspine needs leaves >= 1, spines and hosts >= 0");
		return NULL;
	}
	if (!sizes_ok((long long)leaves * (1 + hosts) + spines,
		      (long long)leaves * (hosts + spines)))
		return NULL;
	t = topo_new("-");
	for (i = 0; i < spines; i++)
		add_named(t, "S", i + 1, NODE_SWITCH, 1);
	leaf0 = t->nnodes;
	for (i = 0; i < leaves; i++)
		add_named(t, "L", i + 1, NODE_SWITCH, 0);
	for (i = 0; i < leaves; i++)
		for (j = 0; j < hosts; j++) {
			int h = add_named(t, "h", (long)i * hosts + j + 1,
					  NODE_HOST, LAYER_NONE);

			topo_link_auto(t, h, leaf0 + i);
		}
	for (i = 0; i < leaves; i++)
		for (j = 0; j < spines; j++)
			topo_link_auto(t, leaf0 + i, j);
	return t;
}
