// SPDX-License-Identifier: GPL-2.0
/*
 * The DCB form of a switch's rules (dcb_map.h).
 *
 * One pass over the in-ports fills the app tables and sorts the lossless
 * (in-port, DSCP) pairs by priority. Then, per out-port and priority, each
 * pair says what it wants there: to keep a lossless tag (one the next hop
 * classifies into the same priority), to be demoted (a rule's lossy
 * answer, or a tag the next hop classifies lossy), nothing (no rule: off
 * the ELP), or a priority change, which no rewr entry can give. The tag
 * most pairs keep becomes the rewr entry; the pairs that want another
 * tag, or a demotion, are the rules DCB cannot express. A switch of n
 * ports costs 64 n^2 rewrite lookups, as the maps form does.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/log.h"
#include "lib/util.h"
#include "model/dcb_map.h"

/* What a pair wants at an out-port, besides keeping a tag (>= 0). */
#define WANT_DEMOTE (-1) /* a rule demotes it */
#define WANT_NONE (-2) /* no rule: off the ELP */
#define WANT_CHANGE (-3) /* a priority change: reported already */

struct pair {
	int in, tag;
};

static const char *const kind_names[DCB_KINDS] = {
	[DCB_PRIORITY] = "priority",
	[DCB_QUEUE] = "queue",
	[DCB_REWRITE] = "rewrite",
	[DCB_DEMOTE] = "demote",
};

/*
 * Whether compiling differently helps. The maps form (tagger maps) is no
 * way out for DCB: it reproduces the rules' behaviour exactly, and a
 * switch's maps fit DCB iff every class has a priority of its own that it
 * keeps to the next hop, which is conditions (1) to (3) again.
 */
static const char *const remedies[DCB_KINDS] = {
	[DCB_PRIORITY] =
		"compiling differently helps: rules whose lossless priorities "
		"are 0..7 and not the CNP's, and a CNP priority other than "
		"the lossy one, run on DCB",
	[DCB_QUEUE] =
		"compiling as maps does not help: the maps form keeps the "
		"priority change in a class whose egress queue differs from "
		"its ingress priority group (SONiC's TC_TO_QUEUE_MAP and "
		"TC_TO_PRIORITY_GROUP_MAP can hold that, DCB's one priority "
		"cannot); rules of an ELP whose lossless paths keep one "
		"priority (tagger paths updown) run on DCB; --datapath flower "
		"or bpf runs these",
	[DCB_REWRITE] =
		"compiling as maps does not help: the maps form gives these "
		"pairs classes of their own, and on DCB a class is its "
		"priority; rules in which the pairs of one priority leave "
		"each out-port with one tag run on DCB; --datapath flower or "
		"bpf runs these",
	[DCB_DEMOTE] =
		"compiling as maps does not help: DCB has no in-port key to "
		"demote by; rules without lossy exceptions at this switch "
		"(enough priorities for every path, no --compress "
		"exceptions) run on DCB; --datapath flower or bpf runs these",
};

const char *dcb_problem_kind_name(int kind)
{
	return kind >= 0 && kind < DCB_KINDS ? kind_names[kind] : "?";
}

const char *dcb_problem_remedy(int kind)
{
	return kind >= 0 && kind < DCB_KINDS ? remedies[kind] : "";
}

void dcb_map_report(const struct dcb_map *m)
{
	bool seen[DCB_KINDS] = { false };
	int k;

	for (k = 0; k < m->nproblems; k++) {
		p_err("%s", m->problems[k].msg);
		seen[m->problems[k].kind] = true;
	}
	for (k = 0; k < DCB_KINDS; k++)
		if (seen[k])
			pr_warn("%s: %s\n", dcb_problem_kind_name(k),
				dcb_problem_remedy(k));
}

/* "node:port" -> the rules' switch and port, or -1. */
static int endpoint(const struct rules *r, const char *s, int *port)
{
	const char *colon = strchr(s, ':');
	char node[NAME_MAX_LEN + 1];
	size_t len;
	int sw;

	if (!colon || (len = (size_t)(colon - s)) > NAME_MAX_LEN)
		return -1;
	memcpy(node, s, len);
	node[len] = '\0';
	sw = rules_find_switch(r, node);
	if (sw < 0)
		return -1;
	*port = rules_find_port(r, sw, colon + 1);
	return *port < 0 ? -1 : sw;
}

int dcb_peers(const struct rules *r, int sw, char *const *a, char *const *b,
	      int n, struct dcb_peer *peers)
{
	int i, k, pa, pb, sa, sb, found = 0;

	for (k = 0; k < r->sw[sw].nports; k++)
		peers[k] = (struct dcb_peer){ -1, -1 };
	for (i = 0; i < n; i++) {
		sa = endpoint(r, a[i], &pa);
		sb = endpoint(r, b[i], &pb);
		if (sa == sw && sb >= 0 && peers[pa].sw < 0) {
			peers[pa] = (struct dcb_peer){ sb, pb };
			found++;
		}
		if (sb == sw && sa >= 0 && peers[pb].sw < 0) {
			peers[pb] = (struct dcb_peer){ sa, pa };
			found++;
		}
	}
	return found;
}

static void problem(struct dcb_map *m, int kind, int in, int tag, int out,
		    const char *fmt, ...) __attribute__((format(printf, 6, 7)));

static void problem(struct dcb_map *m, int kind, int in, int tag, int out,
		    const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (m->nproblems == m->cap) {
		m->cap = m->cap ? 2 * m->cap : 16;
		m->problems =
			xrealloc(m->problems, m->cap * sizeof(*m->problems));
	}
	m->problems[m->nproblems++] =
		(struct dcb_problem){ .kind = kind,
				      .in = in,
				      .tag = tag,
				      .out = out,
				      .msg = xstrdup(buf) };
}

static bool lossless(const struct rules *r, int prio)
{
	return prio >= 0 && prio != r->lossy_prio;
}

/* The priority the next hop across out classifies tag into; -1: lossy. */
static int next_prio(const struct dcb_map *m, const struct dcb_peer *peers,
		     int out, int tag)
{
	const struct rules *r = m->r;
	int p;

	if (!peers || peers[out].sw < 0)
		return rules_tag_prio(r, tag);
	p = rules_classify(r, peers[out].sw, peers[out].port, tag, NULL);
	return lossless(r, p) ? p : -1;
}

static const char *port(const struct dcb_map *m, int p)
{
	return m->r->sw[m->sw].ports[p];
}

/* The next hop as a message names it. */
static void next_name(const struct dcb_map *m, const struct dcb_peer *peers,
		      int out, char *buf, size_t len)
{
	const struct rules *r = m->r;

	if (peers && peers[out].sw >= 0)
		snprintf(buf, len, "the next hop %s (port %s)",
			 r->sw[peers[out].sw].name,
			 r->sw[peers[out].sw].ports[peers[out].port]);
	else
		snprintf(buf, len, "the next hop (by \"tags\")");
}

/*
 * App tables, and the lossless pairs by priority into by[p] (nby[p] of
 * them); pairs DCB cannot hold at all are reported here and left out.
 */
static void fill_app(struct dcb_map *m, struct pair **by, int *nby)
{
	const struct rules *r = m->r;
	const char *name = r->sw[m->sw].name;
	int in, d, p;

	for (in = 0; in < m->nports; in++) {
		for (d = 0; d < RULES_NTAGS; d++) {
			p = rules_classify(r, m->sw, in, d, NULL);
			if (!lossless(r, p)) {
				m->app[in * RULES_NTAGS + d] =
					d == r->cnp_tag ? r->cnp_prio :
							  r->lossy_prio;
				continue;
			}
			if (p >= RULES_NPRIOS || p == r->cnp_prio) {
				problem(m, DCB_PRIORITY, in, d, -1,
					"switch %s: classify in %s tag %d -> "
					"priority %d: %s",
					name, port(m, in), d, p,
					p >= RULES_NPRIOS ?
						"DCB has priorities 0..7" :
						"the CNP class's priority, "
						"whose DSCP no rewr entry "
						"may change");
				m->app[in * RULES_NTAGS + d] = r->lossy_prio;
				continue;
			}
			m->app[in * RULES_NTAGS + d] = p;
			m->pfc[in] |= 1u << p;
			by[p][nby[p]++] = (struct pair){ in, d };
		}
	}
	if (r->cnp_tag >= 0 && r->cnp_prio == r->lossy_prio)
		problem(m, DCB_PRIORITY, -1, r->cnp_tag, -1,
			"switch %s: the CNP class shares the lossy priority "
			"%d: rewr would give CNPs the lossy tag %d, or leave "
			"lossy packets their lossless tags",
			name, r->lossy_prio, r->lossy_tag);
}

/* What pair q of priority p wants at out (reports a priority change). */
static int want(struct dcb_map *m, const struct dcb_peer *peers, int p,
		struct pair q, int out)
{
	const struct rules *r = m->r;
	char nb[160];
	int nt, rule, np;

	nt = rules_rewrite(r, m->sw, q.tag, q.in, out, &rule);
	if (rule < 0)
		return WANT_NONE;
	if (!rules_tag_lossless(r, nt))
		return WANT_DEMOTE;
	np = next_prio(m, peers, out, nt);
	if (np < 0)
		return WANT_DEMOTE;
	if (np == p)
		return nt;
	next_name(m, peers, out, nb, sizeof(nb));
	problem(m, DCB_QUEUE, q.in, q.tag, out,
		"switch %s: rewrite tag %d in %s out %s -> tag %d: priority %d "
		"here, but %s classifies tag %d into priority %d; on DCB the "
		"packet waits in queue %d, which that PAUSE does not stop",
		r->sw[m->sw].name, q.tag, port(m, q.in), port(m, out), nt, p,
		nb, nt, np, p);
	return WANT_CHANGE;
}

/* The rewr entry of priority p at out, and the pairs it fails. */
static void fill_rewr(struct dcb_map *m, const struct dcb_peer *peers, int p,
		      const struct pair *pairs, int n, int out, int *w)
{
	const struct rules *r = m->r;
	const char *name = r->sw[m->sw].name;
	int count[RULES_NTAGS] = { 0 };
	int i, keep = -1, first = -1;

	for (i = 0; i < n; i++) {
		w[i] = want(m, peers, p, pairs[i], out);
		if (w[i] >= 0 && ++count[w[i]] > (keep < 0 ? 0 : count[keep]))
			keep = w[i];
	}
	m->rewr_set[out] |= 1u << p;
	m->rewr[out * RULES_NPRIOS + p] = keep >= 0 ? keep : r->lossy_tag;
	if (keep < 0)
		return; /* every pair demoted, or refused already */
	m->pfc[out] |= 1u << p;
	for (i = 0; i < n && first < 0; i++)
		if (w[i] == keep)
			first = i;
	for (i = 0; i < n; i++) {
		const struct pair *q = &pairs[i], *f = &pairs[first];

		if (w[i] >= 0 && w[i] != keep)
			problem(m, DCB_REWRITE, q->in, q->tag, out,
				"switch %s: rewrite tag %d in %s out %s -> "
				"tag %d, but in %s tag %d of the same priority "
				"%d leaves %s as tag %d; DCB rewrites by "
				"(priority, out-port) alone",
				name, q->tag, port(m, q->in), port(m, out),
				w[i], port(m, f->in), f->tag, p, port(m, out),
				keep);
		else if (w[i] == WANT_DEMOTE)
			problem(m, DCB_DEMOTE, q->in, q->tag, out,
				"switch %s: rewrite tag %d in %s out %s "
				"demotes it to lossy, but in %s tag %d of the "
				"same priority %d leaves %s lossless as tag "
				"%d; DCB cannot demote by in-port",
				name, q->tag, port(m, q->in), port(m, out),
				port(m, f->in), f->tag, p, port(m, out), keep);
		else if (w[i] == WANT_NONE) {
			/* The example: one not sent back out its in-port. */
			m->off_elp_total++;
			if (m->off_in < 0 ||
			    (m->off_in == m->off_out && q->in != out)) {
				m->off_in = q->in;
				m->off_tag = q->tag;
				m->off_out = out;
			}
			m->off_elp[out]++;
		}
	}
}

int dcb_map_build(const struct rules *r, int sw, const struct dcb_peer *peers,
		  struct dcb_map *m)
{
	int n = r->sw[sw].nports, alloc = n ? n : 1, p, out;
	struct pair *by[RULES_NPRIOS];
	int nby[RULES_NPRIOS] = { 0 }, *w;

	memset(m, 0, sizeof(*m));
	m->r = r;
	m->sw = sw;
	m->nports = n;
	m->off_in = m->off_tag = m->off_out = -1;
	m->app = xcalloc((size_t)alloc * RULES_NTAGS, 1);
	m->rewr = xcalloc((size_t)alloc * RULES_NPRIOS, 1);
	m->rewr_set = xcalloc(alloc, 1);
	m->pfc = xcalloc(alloc, 1);
	m->off_elp = xcalloc(alloc, sizeof(*m->off_elp));
	for (p = 0; p < RULES_NPRIOS; p++)
		by[p] = xmalloc((size_t)alloc * RULES_NTAGS * sizeof(*by[p]));
	w = xmalloc((size_t)alloc * RULES_NTAGS * sizeof(*w));
	fill_app(m, by, nby);
	for (out = 0; out < n; out++) {
		/* Lossy packets leave with the lossy tag, as on the data plane. */
		if (r->cnp_prio != r->lossy_prio) {
			m->rewr_set[out] |= 1u << r->lossy_prio;
			m->rewr[out * RULES_NPRIOS + r->lossy_prio] =
				r->lossy_tag;
		}
		for (p = 0; p < RULES_NPRIOS; p++)
			if (nby[p])
				fill_rewr(m, peers, p, by[p], nby[p], out, w);
	}
	for (out = 0; out < n; out++)
		m->pfc_any |= m->pfc[out];
	for (p = 0; p < RULES_NPRIOS; p++)
		free(by[p]);
	free(w);
	return m->nproblems ? 1 : 0;
}

void dcb_map_free(struct dcb_map *m)
{
	int i;

	for (i = 0; i < m->nproblems; i++)
		free(m->problems[i].msg);
	free(m->problems);
	free(m->app);
	free(m->rewr);
	free(m->rewr_set);
	free(m->pfc);
	free(m->off_elp);
	memset(m, 0, sizeof(*m));
}
