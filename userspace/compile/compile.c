// SPDX-License-Identifier: GPL-2.0
/* Tags to DSCP and priorities, lossy paths, per-switch rules; see compile.h. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "compile/compile.h"
#include "lib/log.h"
#include "model/rules.h"
#include "lib/util.h"

#define LOSSY_LIST_MAX 20

/*
 * The portfolio: the order-based algorithm is better than the paper's
 * greedy on Clos and fat-trees with bounces and on most random graphs,
 * but one global order cannot express everything per-tag merging can
 * (BCube with both digit orders is an example), so both run and the one
 * with fewer priorities wins (then fewer lossy paths, then fewer rules).
 * The result is never worse than the paper's greedy.
 */
const struct tag_algo tag_algo_best = {
	.name = "best",
};

static const struct tag_algo *portfolio[] = {
	&tag_algo_order,
	&tag_algo_greedy,
};

static const struct tag_algo *algos[] = {
	&tag_algo_best,	  &tag_algo_order, &tag_algo_brute,
	&tag_algo_greedy, &tag_algo_clos,
};

const struct tag_algo *compile_find_algo(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(algos); i++)
		if (!strcmp(algos[i]->name, name))
			return algos[i];
	return NULL;
}

/*
 * Defaults: 7 lossless priorities 1..7 and lossy priority 0 (the paper's
 * switch model: up to 7 lossless queues and one lossy), tag i on the wire
 * as DSCP i+1 and the lossy tag as DSCP 0 (best effort). Operators with
 * two usable lossless priorities say --priorities 3,4.
 */
void compile_opts_init(struct compile_opts *o)
{
	int i;

	memset(o, 0, sizeof(*o));
	o->algo = &tag_algo_best;
	o->nclasses = 1;
	o->nprios = 7;
	for (i = 0; i < TAG_MAX; i++) {
		o->prios[i] = i < 7 ? i + 1 : 0;
		o->dscp[i] = i + 1;
	}
	o->ndscp = TAG_MAX;
	o->lossy_prio = 0;
	o->lossy_dscp = 0;
	o->cnp_dscp = o->cnp_prio = -1;
	o->two_orders = true;
}

static int sw_index(const struct compile_result *r, int node)
{
	int lo = 0, hi = r->nsw - 1;

	while (lo <= hi) {
		int mid = (lo + hi) / 2;

		if (r->sw[mid].node == node)
			return mid;
		if (r->sw[mid].node < node)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	return -1;
}

static int cmp_cls(const void *a, const void *b)
{
	const struct cls_rule *x = a, *y = b;

	if (x->tag != y->tag)
		return x->tag - y->tag;
	return x->in - y->in;
}

static int cmp_rw(const void *a, const void *b)
{
	const struct rw_rule *x = a, *y = b;

	if (x->tag != y->tag)
		return x->tag - y->tag;
	if (x->in != y->in)
		return x->in - y->in;
	return x->out - y->out;
}

static void collect_rules(const struct topo *t, struct compile_result *r)
{
	const struct tagging *tg = &r->tg;
	struct hmap_entry *it;
	int i;

	for (i = 0; i < t->nnodes; i++) {
		if (!tagging_node_forwards(tg, i))
			continue;
		r->sw = xrealloc(r->sw, (r->nsw + 1) * sizeof(*r->sw));
		memset(&r->sw[r->nsw], 0, sizeof(*r->sw));
		r->sw[r->nsw++].node = i;
	}
	HMAP_FOR_EACH(&tg->nodes, it)
	{
		int port = (int)(it->key >> 8), tag = (int)(it->key & 0xff);
		struct sw_rules *s = &r->sw[sw_index(r, port_node(t, port))];
		struct cls_rule c = { .in = port, .tag = tag, .lossless = 1 };

		if (tag < r->nlossless)
			VEC_PUSH(s->cls, s->ncls, s->cls_cap, c);
	}
	HMAP_FOR_EACH(&tg->rules, it)
	{
		int tag = rule_key_tag(it->key), in = rule_key_in(it->key);
		struct sw_rules *s = &r->sw[sw_index(r, port_node(t, in))];
		struct rw_rule w = { tag, in, rule_key_out(it->key),
				     (int)it->val };

		/* Lossy in or lossy out: no rule, the default is lossy. */
		if (tag >= r->nlossless || it->val == TAG_LOSSY ||
		    (int)it->val >= r->nlossless)
			continue;
		VEC_PUSH(s->rw, s->nrw, s->rw_cap, w);
	}
}

static void count_rules(struct compile_result *r)
{
	int i;

	r->nrules = r->max_switch_rules = 0;
	for (i = 0; i < r->nsw; i++) {
		int n = r->sw[i].ncls + r->sw[i].nrw;

		r->nrules += n;
		if (n > r->max_switch_rules)
			r->max_switch_rules = n;
	}
}

static bool has_node(const struct compile_result *r, int port, int tag)
{
	return tag < r->nlossless &&
	       hmap_get(&r->tg.nodes, node_key(port, tag), NULL);
}

/* Hop index where a packet of class cls on path i turns lossy, or -1. */
static int lossy_hop(const struct topo *t, const struct elp *e,
		     const struct compile_result *r, int i, int cls)
{
	const int32_t *h = elp_hops(e, i);
	int m = elp_len(e, i), tag = cls, j;

	if (tag >= r->nlossless)
		return 0;
	for (j = 1; j <= m; j++) {
		int in = t->ports[h[j - 1]].peer;
		uint64_t v;

		if (tagging_node_forwards(&r->tg, port_node(t, in)) &&
		    !has_node(r, in, tag))
			return j;
		if (j == m)
			break;
		if (!hmap_get(&r->tg.rules, rule_key(tag, in, h[j]), &v) ||
		    v == TAG_LOSSY || (int)v >= r->nlossless)
			return j;
		tag = (int)v;
	}
	return -1;
}

static void find_lossy_paths(const struct topo *t, const struct elp *e,
			     struct compile_result *r, int nclasses)
{
	int i, c;

	for (i = 0; i < e->npaths; i++) {
		for (c = 0; c < nclasses; c++) {
			int hop = lossy_hop(t, e, r, i, c);

			if (hop < 0)
				continue;
			if (r->nlossy_list < LOSSY_LIST_MAX) {
				struct lossy_path lp = { i, c, hop };

				r->lossy_list = xrealloc(r->lossy_list,
							 (r->nlossy_list + 1) *
								 sizeof(lp));
				r->lossy_list[r->nlossy_list++] = lp;
			}
			r->lossy++;
		}
	}
}

static bool better_result(const struct compile_result *a,
			  const struct compile_result *b)
{
	if (a->ntags != b->ntags)
		return a->ntags < b->ntags;
	if (a->lossy != b->lossy)
		return a->lossy < b->lossy;
	return a->nrules < b->nrules;
}

struct candidate {
	const struct topo *t;
	const struct elp *e;
	struct compile_opts o;
	struct compile_result r;
	double cpu; /* CPU seconds of the thread that ran it */
	int rc;
};

static void *run_candidate(void *arg)
{
	struct candidate *c = arg;
	double cpu = cpu_seconds(true);

	c->rc = compile_run(c->t, c->e, &c->o, &c->r);
	c->cpu = cpu_seconds(true) - cpu;
	return NULL;
}

int compile_threads(const struct compile_opts *o)
{
	long n = o->threads > 0 ? o->threads : sysconf(_SC_NPROCESSORS_ONLN);

	return n < 1		       ? 1 :
	       n > COMPILE_THREADS_MAX ? COMPILE_THREADS_MAX :
					 (int)n;
}

/*
 * The algorithms are independent (they share only the read-only topology
 * and ELP), so with threads they run side by side; the choice below looks
 * at the results in portfolio order whatever finished first, so the
 * output is the one a single thread gives.
 */
static int run_portfolio(const struct topo *t, const struct elp *e,
			 const struct compile_opts *o, struct compile_result *r)
{
	struct candidate c[ARRAY_SIZE(portfolio)];
	pthread_t tid[ARRAY_SIZE(portfolio)];
	bool started[ARRAY_SIZE(portfolio)] = { false };
	bool threaded = compile_threads(o) > 1;
	double t0 = now_seconds();
	size_t i, best = 0;
	int rc = 0;

	memset(r, 0, sizeof(*r));
	for (i = 0; i < ARRAY_SIZE(portfolio); i++) {
		c[i] = (struct candidate){ .t = t, .e = e, .o = *o };
		c[i].o.algo = portfolio[i];
	}
	/* the first runs here, the others in their own threads */
	for (i = 1; threaded && i < ARRAY_SIZE(portfolio); i++)
		started[i] =
			!pthread_create(&tid[i], NULL, run_candidate, &c[i]);
	for (i = 0; i < ARRAY_SIZE(portfolio); i++) {
		if (started[i])
			pthread_join(tid[i], NULL);
		else
			run_candidate(&c[i]);
		rc |= c[i].rc;
	}
	for (i = 0; i < ARRAY_SIZE(portfolio); i++) {
		if (c[i].rc)
			continue;
		pr_info("best: %s needs %d tags, %d rules (%.3f s cpu)\n",
			c[i].r.algo->name, c[i].r.ntags, c[i].r.nrules,
			c[i].cpu);
		if (i && better_result(&c[i].r, &c[best].r))
			best = i;
	}
	for (i = 0; i < ARRAY_SIZE(portfolio); i++)
		if (i != best || rc)
			if (!c[i].rc)
				compile_result_free(&c[i].r);
	if (rc)
		return -1;
	*r = c[best].r;
	r->seconds = now_seconds() - t0;
	return 0;
}

/* Does some path cross node (enter and leave it)? Only for the rare big node. */
static bool relays(const struct topo *t, const struct elp *e, int node)
{
	int i, k;

	for (i = 0; i < e->npaths; i++)
		for (k = 1; k < elp_len(e, i); k++)
			if (port_node(t, elp_hops(e, i)[k]) == node)
				return true;
	return false;
}

/*
 * The rules name a port by a 16-bit index: a node that gets rules (every
 * switch, a host that relays) may have RULES_MAX_PORTS ports. Checked
 * before any work, since the tagging of a huge star took seconds and GBs
 * only for the rules to be refused as a compiler bug.
 */
static int check_port_limit(const struct topo *t, const struct elp *e)
{
	int i;

	for (i = 0; i < t->nnodes; i++) {
		const struct topo_node *n = &t->nodes[i];

		if (n->nports <= RULES_MAX_PORTS ||
		    (n->kind == NODE_HOST && !relays(t, e, i)))
			continue;
		input_err(t->file, n->line,
			  "%s \"%s\" has %d ports; rules allow at most %d",
			  n->kind == NODE_HOST ? "relay host" : "switch",
			  n->name, n->nports, RULES_MAX_PORTS);
		return -1;
	}
	return 0;
}

int compile_run(const struct topo *t, const struct elp *e,
		const struct compile_opts *o, struct compile_result *r)
{
	double t0 = now_seconds();
	int i;

	if (check_port_limit(t, e))
		return -1;
	if (o->algo == &tag_algo_best)
		return run_portfolio(t, e, o, r);
	memset(r, 0, sizeof(*r));
	r->algo = o->algo;
	if (tagging_run(&r->tg, t, e, o->nclasses, o->algo))
		return -1;
	pr_debug("%s: tagging %.3f s\n", o->algo->name, now_seconds() - t0);
	r->ntags = r->tg.ntags;
	r->nlossless = r->ntags < o->nprios ? r->ntags : o->nprios;
	if (r->nlossless > o->ndscp)
		r->nlossless = o->ndscp;
	collect_rules(t, r);
	for (i = 0; i < r->nsw; i++) {
		struct sw_rules *s = &r->sw[i];

		qsort(s->cls, s->ncls, sizeof(*s->cls), cmp_cls);
		qsort(s->rw, s->nrw, sizeof(*s->rw), cmp_rw);
		if (o->compress)
			rules_compress(t, s);
	}
	count_rules(r);
	pr_debug("%s: rules %.3f s\n", o->algo->name, now_seconds() - t0);
	/*
	 * Every packet keeps a lossless tag unless some key went lossy or
	 * tags ran past the priorities; only then walk the paths to name them.
	 */
	if (r->tg.lossy_keys || r->tg.overflow || r->ntags > r->nlossless ||
	    o->nclasses > r->nlossless)
		find_lossy_paths(t, e, r, o->nclasses);
	r->seconds = now_seconds() - t0;
	return 0;
}

/*
 * The tagging engine's maps and order (tens of MiB for a million paths)
 * are not needed once the rules are out of them: the rules and the
 * lossy paths are in r->sw and r->lossy_list.
 */
void compile_result_drop_tagging(struct compile_result *r)
{
	tagging_free(&r->tg);
}

void compile_result_free(struct compile_result *r)
{
	int i;

	for (i = 0; i < r->nsw; i++) {
		free(r->sw[i].cls);
		free(r->sw[i].rw);
	}
	free(r->sw);
	free(r->lossy_list);
	tagging_free(&r->tg);
	memset(r, 0, sizeof(*r));
}
