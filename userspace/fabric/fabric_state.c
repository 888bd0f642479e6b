// SPDX-License-Identifier: GPL-2.0
/* A fabric's state and the union of its versions; see fabric_state.h. */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dataplane/dp_state.h"
#include "fabric/fabric_run.h"
#include "fabric/fabric_state.h"
#include "lib/log.h"
#include "lib/util.h"
#include "model/rules_bin.h"
#include "model/topo.h"

static const char *const status_names[] = {
	[FABRIC_SW_OK] = "ok",
	[FABRIC_SW_REFUSED] = "refused",
	[FABRIC_SW_FAILED] = "failed",
	[FABRIC_SW_UNREACHABLE] = "unreachable",
};

/* tagger -j WORDS... on s's switch (with its --bpf-root); its document. */
static json_t *remote_json(struct fabric_sw *s, const char **words, int n)
{
	const char *argv[FABRIC_RUN_MAX_WORDS + 1];
	struct fabric_run res;
	json_error_t e;
	json_t *doc;
	int k, a = 0;

	argv[a++] = "-j";
	for (k = 0; k < n; k++)
		argv[a++] = words[k];
	argv[a] = NULL;
	if (fabric_run(s->h, argv, &res)) {
		s->status = FABRIC_SW_UNREACHABLE;
		snprintf(s->err, sizeof(s->err), "%s", res.err);
		return NULL;
	}
	doc = json_loadb(res.out, res.len, 0, &e);
	if (res.status || !json_is_object(doc) ||
	    json_object_get(doc, "error")) {
		s->status = res.status == EXIT_USAGE ? FABRIC_SW_REFUSED :
						       FABRIC_SW_FAILED;
		snprintf(s->err, sizeof(s->err), "%s (exit %d)",
			 json_string_value(json_object_get(doc, "error")) ?:
				 res.err[0] ? res.err :
					      "no JSON document",
			 res.status);
		json_decref(doc);
		doc = NULL;
	}
	fabric_run_free(&res);
	return doc;
}

/* The words of "switch show SW [--packed] [--bpf-root DIR]". */
static int show_words(const struct fabric_host *h, bool packed, const char **w)
{
	int n = 0;

	w[n++] = "switch";
	w[n++] = "show";
	w[n++] = h->sw;
	if (packed)
		w[n++] = "--packed";
	if (h->bpf_root) {
		w[n++] = "--bpf-root";
		w[n++] = h->bpf_root;
	}
	return n;
}

/* What show says of the switch: generation, digest; the rest kept. */
static void take_show(struct fabric_sw *s, json_t *doc)
{
	const char *d = json_string_value(json_object_get(doc, "rules_digest"));
	json_t *gen = json_object_get(doc, "generation");

	if (!d || strlen(d) != DIGEST_STR - 1 || !json_is_integer(gen)) {
		s->status = FABRIC_SW_FAILED;
		snprintf(s->err, sizeof(s->err),
			 "switch show gave no rules_digest or generation (a "
			 "tagger without them there?)");
		return;
	}
	s->status = FABRIC_SW_OK;
	s->err[0] = '\0';
	snprintf(s->digest, sizeof(s->digest), "%s", d);
	s->generation = json_integer_value(gen);
	json_decref(s->show);
	s->show = json_pack(
		"{s:O,s:O,s:O,s:i}", "mode",
		json_object_get(doc, "mode") ?: json_null(), "table",
		json_object_get(doc, "table") ?: json_null(), "rules_file",
		json_object_get(doc, "rules_file") ?: json_null(), "ports",
		(int)json_array_size(json_object_get(doc, "ports")));
}

static void show_one(struct fabric_sw *s)
{
	const char *w[8];
	int n = show_words(s->h, false, w);
	json_t *doc = remote_json(s, w, n);

	if (doc)
		take_show(s, doc);
	json_decref(doc);
}

static void agent_one(struct fabric_sw *s)
{
	const char *w[] = { "pfc", "show", s->h->pfc };
	struct fabric_sw tmp = { .h = s->h };
	json_t *doc = remote_json(&tmp, w, 3), *hb;
	bool running, stalled;
	const char *status;

	if (!doc) {
		s->agent = json_pack("{s:s,s:s,s:b,s:s}", "node", s->h->pfc,
				     "status", status_names[tmp.status],
				     "healthy", 0, "error", tmp.err);
		s->agent_bad = true;
		return;
	}
	hb = json_object_get(doc, "heartbeat");
	running = json_is_true(json_object_get(doc, "running"));
	stalled = json_is_true(json_object_get(hb, "stalled"));
	status = json_string_value(json_object_get(doc, "status")) ?: "unknown";
	s->agent = json_pack("{s:s,s:s,s:b,s:b}", "node", s->h->pfc, "status",
			     stalled ? "stalled" : status, "running", running,
			     "healthy", running && !stalled);
	s->agent_bad = !running || stalled;
	json_decref(doc);
}

static int version_of(struct fabric_state *st, const char *digest)
{
	int k;

	for (k = 0; k < st->nv; k++)
		if (!strcmp(st->v[k].digest, digest))
			return k;
	st->v = xrealloc(st->v, (st->nv + 1) * sizeof(*st->v));
	memset(&st->v[st->nv], 0, sizeof(*st->v));
	snprintf(st->v[st->nv].digest, DIGEST_STR, "%s", digest);
	return st->nv++;
}

/*
 * s's rules, packed: its version gets them if their digest is what show
 * said (else s changed since, and is taken as it is now). The bytes are
 * checked against the digest they came with, then read as switch pack's
 * files are (rules_bin_read: CRC, bounds, rules_check).
 */
static void fetch_one(struct fabric_state *st, struct fabric_sw *s)
{
	const char *w[8], *b64;
	int n = show_words(s->h, true, w), v;
	json_t *doc = remote_json(s, w, n), *links = NULL;
	char got[DIGEST_STR], what[300];
	void *buf = NULL;
	size_t len = 0;
	struct rules *r;

	s->fetched = true;
	if (!doc)
		return;
	take_show(s, doc);
	if (s->status != FABRIC_SW_OK)
		goto out;
	b64 = json_string_value(json_object_get(doc, "packed"));
	buf = b64 ? base64_decode(b64, &len) : NULL;
	if (!buf || digest_sha256(buf, len, got) || strcmp(got, s->digest)) {
		s->status = FABRIC_SW_FAILED;
		snprintf(s->err, sizeof(s->err), "switch show --packed: %s",
			 !b64 ? "no rules" :
			 !buf ? "not base64" :
				"rules not of their digest");
		goto out;
	}
	snprintf(what, sizeof(what), "%s: switch %s's rules", s->h->name,
		 s->h->sw);
	r = rules_bin_read(buf, len, what, &links);
	if (!r) {
		s->status = FABRIC_SW_FAILED;
		snprintf(s->err, sizeof(s->err), "its rules cannot be read");
		goto out;
	}
	v = version_of(st, s->digest);
	if (st->v[v].r) { /* changed into a version read already */
		rules_free(r);
		json_decref(links);
	} else {
		st->v[v].r = r;
		st->v[v].doc = links;
	}
out:
	free(buf);
	json_decref(doc);
}

static void state_digest(struct fabric_state *st)
{
	char *text = NULL, line[1024];
	size_t len = 0, n;
	int k;

	for (k = 0; k < st->inv->n; k++) {
		const struct fabric_sw *s = &st->sw[k];

		n = snprintf(line, sizeof(line), "%s %s %lld %s\n", s->h->name,
			     s->h->sw, s->status ? -1LL : s->generation,
			     s->status ? status_names[s->status] : s->digest);
		text = xrealloc(text, len + n + 1);
		memcpy(text + len, line, n + 1);
		len += n;
	}
	digest_sha256(text ?: "", len, st->digest);
	free(text);
}

/* The switches not asked yet: the next one's index. */
struct asking {
	struct fabric_state *st;
	pthread_mutex_t mu;
	int next;
};

static void *ask_worker(void *arg)
{
	struct asking *a = arg;
	struct fabric_sw *s;
	int k;

	for (;;) {
		pthread_mutex_lock(&a->mu);
		k = a->next++;
		pthread_mutex_unlock(&a->mu);
		if (k >= a->st->inv->n)
			return NULL;
		s = &a->st->sw[k];
		show_one(s);
		if (s->h->pfc)
			agent_one(s);
	}
}

/*
 * Every switch's show (and agent), FABRIC_GATHER_JOBS switches at a time:
 * each waits on its transport (an ssh round trip, a remote tagger), and
 * one after another 80 switches by ssh took most of a minute. Each
 * writes only its own fabric_sw; what they say is read in inventory
 * order afterwards, so nothing depends on which answered first.
 */
static void ask_all(struct fabric_state *st)
{
	struct asking a = { .st = st, .next = 0 };
	pthread_t tid[FABRIC_GATHER_JOBS];
	int nt = st->inv->n < FABRIC_GATHER_JOBS ? st->inv->n :
						   FABRIC_GATHER_JOBS,
	    started = 0, k;

	pthread_mutex_init(&a.mu, NULL);
	for (k = 0; k < nt; k++)
		if (!pthread_create(&tid[started], NULL, ask_worker, &a))
			started++;
	if (!started) /* no thread: this one asks them all */
		ask_worker(&a);
	for (k = 0; k < started; k++)
		pthread_join(tid[k], NULL);
	pthread_mutex_destroy(&a.mu);
}

int fabric_gather(const struct fabric_inv *inv, struct fabric_state *st)
{
	int k, j, v;
	bool again = true;

	memset(st, 0, sizeof(*st));
	st->inv = inv;
	st->sw = xcalloc(inv->n, sizeof(*st->sw));
	for (k = 0; k < inv->n; k++) {
		st->sw[k].h = &inv->h[k];
		st->sw[k].version = -1;
	}
	ask_all(st);
	/* Each version's rules from one of its switches (see the header). */
	while (again) {
		again = false;
		for (k = 0; k < inv->n; k++) {
			struct fabric_sw *s = &st->sw[k];

			if (s->status || s->fetched)
				continue;
			v = version_of(st, s->digest);
			if (st->v[v].r)
				continue;
			fetch_one(st, s);
			again = true;
		}
	}
	/* Versions no switch runs any more (changed meanwhile) go. */
	for (k = 0, j = 0; k < st->nv; k++) {
		bool used = false;
		int i;

		for (i = 0; i < inv->n; i++)
			used |= !st->sw[i].status &&
				!strcmp(st->sw[i].digest, st->v[k].digest);
		if (used && st->v[k].r)
			st->v[j++] = st->v[k];
		else
			fabric_version_free(&st->v[k]);
	}
	st->nv = j;
	for (k = 0; k < inv->n; k++)
		for (v = 0; v < st->nv && !st->sw[k].status; v++)
			if (!strcmp(st->sw[k].digest, st->v[v].digest))
				st->sw[k].version = v;
	state_digest(st);
	return 0;
}

int fabric_state_versions(const struct fabric_state *st,
			  const struct fabric_version ***vs)
{
	int k;

	*vs = xcalloc(st->nv + 1, sizeof(**vs));
	for (k = 0; k < st->nv; k++)
		(*vs)[k] = &st->v[k];
	return st->nv;
}

static int union_links(const struct fabric_version *const *vs, int n,
		       const char *topo, struct dp_links *l)
{
	struct topo *t;
	int k, first = -1;

	if (topo) {
		t = topo_parse(topo);
		if (!t)
			return -1;
		dp_links_from_topo(t, l);
		topo_free(t);
		return 0;
	}
	for (k = 0; k < n; k++) {
		if (!json_is_array(json_object_get(vs[k]->doc, "links")))
			continue;
		if (first < 0)
			first = k;
		else if (dp_links_same(vs[first]->doc, vs[k]->doc) != 1) {
			p_err("versions %s and %s have other \"links\": rules "
			      "of two topologies (give --topo FILE to check "
			      "them over one)",
			      vs[first]->digest, vs[k]->digest);
			return -1;
		}
	}
	if (first < 0) {
		p_err("no version has \"links\" for the union check: give "
		      "--topo FILE");
		return -1;
	}
	return dp_links_from_json(vs[first]->doc, vs[first]->digest, l) < 0 ?
		       -1 :
		       0;
}

int fabric_union(const struct fabric_version *const *vs, int n,
		 const char *topo, struct fabric_union *u)
{
	const struct rules *rs[DP_UNION_MAX_SETS];
	struct dp_links l;
	int k;

	memset(u, 0, sizeof(*u));
	u->acyclic = -1;
	if (n < 1)
		return -1;
	u->vs = xmalloc(n * sizeof(*vs)); /* the caller's array may go */
	memcpy(u->vs, vs, n * sizeof(*vs));
	u->n = n;
	if (n > DP_UNION_MAX_SETS) {
		p_err("%d versions: the union check takes at most %d", n,
		      DP_UNION_MAX_SETS);
		return -1;
	}
	if (union_links(vs, n, topo, &l))
		return -1;
	for (k = 0; k < n; k++)
		rs[k] = vs[k]->r;
	u->acyclic = dp_union_check_sets(rs, n, &l, &u->res);
	dp_links_free(&l);
	return u->acyclic;
}

json_t *fabric_union_json(const struct fabric_union *u)
{
	const struct dp_union_result *res = &u->res;
	json_t *vers = json_array(), *cyc = json_array();
	int k;

	for (k = 0; k < u->n; k++)
		json_array_append_new(vers, json_string(u->vs[k]->digest));
	if (u->acyclic < 0)
		return json_pack("{s:b,s:o}", "checked", 0, "versions", vers);
	for (k = 0; k < res->len; k++) {
		const struct dp_union_edge *e = &res->cycle[k];

		json_array_append_new(
			cyc,
			json_pack("{s:s,s:i,s:s,s:i,s:i,s:i,s:s}", "from",
				  res->port_names[e->from / 8], "from_priority",
				  e->from % 8, "to", res->port_names[e->to / 8],
				  "to_priority", e->to % 8, "tag", e->tag,
				  "new_tag", e->new_tag, "rules",
				  u->vs[e->rules]->digest));
	}
	return json_pack("{s:b,s:b,s:o,s:I,s:I,s:o}", "checked", 1, "acyclic",
			 u->acyclic, "versions", vers, "buffers",
			 (json_int_t)res->buffers, "dependencies",
			 (json_int_t)res->deps, "cycle", cyc);
}

void fabric_union_free(struct fabric_union *u)
{
	if (u->acyclic >= 0)
		dp_union_free(&u->res);
	free(u->vs);
	memset(u, 0, sizeof(*u));
	u->acyclic = -1;
}

int fabric_rules_load(const char *path, struct fabric_version *v)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f;
	int err;

	memset(v, 0, sizeof(*v));
	v->file = path;
	v->r = rules_bin_is(path) ? rules_bin_load(path, &v->doc) :
				    rules_load(path, &v->doc);
	if (!v->r)
		return EXIT_USAGE;
	/* Its digest is that of its packed form, as a switch gives it. */
	f = open_memstream(&buf, &len);
	if (!f)
		return EXIT_RUNTIME;
	err = rules_bin_write(f, v->r, json_object_get(v->doc, "links"));
	if (fclose(f) || err) {
		input_err(path, 0, "its \"links\" cannot be packed");
		free(buf);
		fabric_version_free(v);
		return EXIT_USAGE;
	}
	digest_sha256(buf, len, v->digest);
	free(buf);
	return 0;
}

int fabric_exit(const struct fabric_state *st)
{
	int k, ret = EXIT_OK;

	for (k = 0; k < st->inv->n; k++) {
		const struct fabric_sw *s = &st->sw[k];

		if (s->status == FABRIC_SW_REFUSED && ret < EXIT_USAGE)
			ret = EXIT_USAGE;
		else if (s->status > FABRIC_SW_REFUSED)
			ret = EXIT_RUNTIME;
		else if (s->agent_bad && ret < EXIT_PROBLEM)
			ret = EXIT_PROBLEM;
	}
	return ret;
}

static json_t *transport_json(const struct fabric_host *h)
{
	char buf[600];

	if (h->transport == FABRIC_NETNS)
		snprintf(buf, sizeof(buf), "netns:%s", h->netns);
	else
		snprintf(buf, sizeof(buf), "ssh:%s%s%s", h->user ?: "",
			 h->user ? "@" : "", h->host);
	return json_string(buf);
}

json_t *fabric_state_json(const struct fabric_state *st)
{
	json_t *sws = json_array(), *vers = json_array(), *names;
	int k, i;

	for (k = 0; k < st->inv->n; k++) {
		const struct fabric_sw *s = &st->sw[k];
		json_t *j = json_pack("{s:s,s:s,s:o,s:s}", "name", s->h->name,
				      "switch", s->h->sw, "transport",
				      transport_json(s->h), "status",
				      status_names[s->status]);

		if (s->status) {
			json_object_set_new(j, "error", json_string(s->err));
		} else {
			json_object_set_new(j, "generation",
					    json_integer(s->generation));
			json_object_set_new(j, "rules_digest",
					    json_string(s->digest));
			json_object_set(j, "data_path", s->show);
		}
		json_object_set(j, "agent", s->agent ?: json_null());
		json_array_append_new(sws, j);
	}
	for (k = 0; k < st->nv; k++) {
		names = json_array();
		for (i = 0; i < st->inv->n; i++)
			if (st->sw[i].version == k)
				json_array_append_new(
					names, json_string(st->sw[i].h->name));
		json_array_append_new(vers, json_pack("{s:s,s:o}", "digest",
						      st->v[k].digest,
						      "switches", names));
	}
	return json_pack("{s:s,s:s,s:o,s:o}", "inventory", st->inv->path,
			 "state_digest", st->digest, "switches", sws,
			 "versions", vers);
}

void fabric_version_free(struct fabric_version *v)
{
	rules_free(v->r);
	json_decref(v->doc);
	memset(v, 0, sizeof(*v));
}

void fabric_state_free(struct fabric_state *st)
{
	int k;

	for (k = 0; st->sw && k < st->inv->n; k++) {
		json_decref(st->sw[k].show);
		json_decref(st->sw[k].agent);
	}
	for (k = 0; k < st->nv; k++)
		fabric_version_free(&st->v[k]);
	free(st->sw);
	free(st->v);
	memset(st, 0, sizeof(*st));
}
