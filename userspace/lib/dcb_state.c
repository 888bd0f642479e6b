// SPDX-License-Identifier: GPL-2.0
/* A port's DCB state as JSON, and the difference of two; see dcb_state.h. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "lib/dcb_state.h"

static json_t *u8s(const uint8_t *v, int n)
{
	json_t *a = json_array();
	int i;

	for (i = 0; i < n; i++)
		json_array_append_new(a, json_integer(v[i]));
	return a;
}

static json_t *pairs(const struct dcb_state *s, int table)
{
	struct dcb_app apps[DCB_ENTRIES_MAX];
	int n = dcb_state_apps(s, table, apps, DCB_ENTRIES_MAX), i;
	bool rewr = table == DCB_NL_REWR_TABLE;
	json_t *a = json_array();

	for (i = 0; i < n; i++)
		json_array_append_new(a,
				      rewr ? json_pack("[ii]", apps[i].priority,
						       apps[i].protocol) :
					     json_pack("[ii]", apps[i].protocol,
						       apps[i].priority));
	return a;
}

json_t *dcb_state_json(const struct dcb_state *s)
{
	json_t *j = json_pack("{s:s, s:o, s:i}", "ifname", s->ifname,
			      "dscp_prio", pairs(s, DCB_ATTR_IEEE_APP_TABLE),
			      "other_apps", s->app_other);
	const struct ieee_ets *e = &s->ets;
	json_t *a;
	int i;

	if (!j)
		return NULL;
	if (s->has & DCB_HAS_PFC) {
		a = json_array();
		for (i = 0; i < DCB_PRIOS; i++)
			if (s->pfc.pfc_en >> i & 1)
				json_array_append_new(a, json_integer(i));
		json_object_set_new(j, "pfc",
				    json_pack("{s:i, s:o, s:i, s:i}", "cap",
					      s->pfc.pfc_cap, "enabled", a,
					      "mbc", s->pfc.mbc, "delay",
					      s->pfc.delay));
	}
	if (s->has & DCB_HAS_ETS)
		json_object_set_new(
			j, "ets",
			json_pack("{s:i, s:i, s:i, s:o, s:o, s:o, s:o, s:o, "
				  "s:o, s:o}",
				  "willing", e->willing, "ets_cap", e->ets_cap,
				  "cbs", e->cbs, "tc_tx_bw",
				  u8s(e->tc_tx_bw, 8), "tc_rx_bw",
				  u8s(e->tc_rx_bw, 8), "tc_tsa",
				  u8s(e->tc_tsa, 8), "prio_tc",
				  u8s(e->prio_tc, 8), "tc_reco_bw",
				  u8s(e->tc_reco_bw, 8), "tc_reco_tsa",
				  u8s(e->tc_reco_tsa, 8), "reco_prio_tc",
				  u8s(e->reco_prio_tc, 8)));
	if (s->has & DCB_HAS_BUFFER) {
		a = json_array();
		for (i = 0; i < DCB_PRIOS; i++)
			json_array_append_new(
				a, json_integer(s->buffer.buffer_size[i]));
		json_object_set_new(
			j, "buffer",
			json_pack("{s:o, s:o, s:I}", "prio_buffer",
				  u8s(s->buffer.prio2buffer, 8), "buffer_size",
				  a, "total_size",
				  (json_int_t)s->buffer.total_size));
	}
	if (s->has & DCB_HAS_REWR) {
		json_object_set_new(j, "prio_dscp",
				    pairs(s, DCB_NL_REWR_TABLE));
		json_object_set_new(j, "other_rewr",
				    json_integer(s->rewr_other));
	}
	return j;
}

/* Reading: every error names the key, as "pfc.delay: ...". */
struct rd {
	char *err;
	size_t len;
	const char *sect; /* "pfc.", or "" at the top */
};

static int bad(struct rd *r, const char *fmt, ...)
{
	va_list ap;

	int n = snprintf(r->err, r->len, "%s", r->sect ? r->sect : "");

	va_start(ap, fmt);
	if (n >= 0 && (size_t)n < r->len)
		vsnprintf(r->err + n, r->len - n, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

static int num(struct rd *r, const json_t *o, const char *key, long long max,
	       long long *v)
{
	const json_t *x = json_object_get(o, key);

	if (!x)
		return bad(r, "%s: missing", key);
	if (!json_is_integer(x) || json_integer_value(x) < 0 ||
	    json_integer_value(x) > max)
		return bad(r, "%s: not an integer 0..%lld", key, max);
	*v = json_integer_value(x);
	return 0;
}

static int num8(struct rd *r, const json_t *o, const char *key, int max,
		uint8_t *v)
{
	long long x;
	int e = num(r, o, key, max, &x);

	*v = x;
	return e;
}

static int arr(struct rd *r, const json_t *o, const char *key, long long max,
	       long long v[DCB_PRIOS])
{
	const json_t *a = json_object_get(o, key), *x;
	size_t i;

	if (!a)
		return bad(r, "%s: missing", key);
	if (!json_is_array(a) || json_array_size(a) != DCB_PRIOS)
		return bad(r, "%s: not an array of %d", key, DCB_PRIOS);
	json_array_foreach(a, i, x) {
		if (!json_is_integer(x) || json_integer_value(x) < 0 ||
		    json_integer_value(x) > max)
			return bad(r, "%s[%zu]: not an integer 0..%lld", key, i,
				   max);
		v[i] = json_integer_value(x);
	}
	return 0;
}

static int arr8(struct rd *r, const json_t *o, const char *key, int max,
		uint8_t *v)
{
	long long x[DCB_PRIOS];
	int i;

	if (arr(r, o, key, max, x))
		return -EINVAL;
	for (i = 0; i < DCB_PRIOS; i++)
		v[i] = x[i];
	return 0;
}

/* Only the keys named: a misspelt key is an error, not a default. */
static int keys(struct rd *r, const json_t *o, const char *what,
		const char *const *known)
{
	const char *k;
	const json_t *v;
	int i;

	const char *sect = r->sect;
	int e = 0;

	r->sect = NULL;
	if (!json_is_object(o))
		e = bad(r, "%s: not an object", what);
	else
		json_object_foreach((json_t *)o, k, v) {
			for (i = 0; known[i] && strcmp(known[i], k); i++)
				;
			if (!known[i]) {
				e = bad(r, "%s: unknown key \"%s\"", what, k);
				break;
			}
		}
	r->sect = sect;
	return e;
}

static int rd_pfc(struct rd *r, const json_t *o, struct ieee_pfc *p)
{
	static const char *const known[] = { "cap", "enabled", "mbc", "delay",
					     NULL };
	const json_t *a, *x;
	long long delay;
	size_t i;

	if (keys(r, o, "pfc", known) || num8(r, o, "cap", 8, &p->pfc_cap) ||
	    num8(r, o, "mbc", 255, &p->mbc) ||
	    num(r, o, "delay", 65535, &delay))
		return -EINVAL;
	p->delay = delay;
	a = json_object_get(o, "enabled");
	if (!json_is_array(a))
		return bad(r, "enabled: not an array of priorities");
	json_array_foreach(a, i, x) {
		if (!json_is_integer(x) || json_integer_value(x) < 0 ||
		    json_integer_value(x) >= DCB_PRIOS)
			return bad(r, "enabled[%zu]: not a priority 0..7", i);
		p->pfc_en |= 1u << json_integer_value(x);
	}
	return 0;
}

static int rd_ets(struct rd *r, const json_t *o, struct ieee_ets *e)
{
	static const char *const known[] = {
		"willing",     "ets_cap",      "cbs",	  "tc_tx_bw",
		"tc_rx_bw",    "tc_tsa",       "prio_tc", "tc_reco_bw",
		"tc_reco_tsa", "reco_prio_tc", NULL
	};

	if (keys(r, o, "ets", known) || num8(r, o, "willing", 1, &e->willing) ||
	    num8(r, o, "ets_cap", 8, &e->ets_cap) ||
	    num8(r, o, "cbs", 1, &e->cbs) ||
	    arr8(r, o, "tc_tx_bw", 100, e->tc_tx_bw) ||
	    arr8(r, o, "tc_rx_bw", 100, e->tc_rx_bw) ||
	    arr8(r, o, "tc_tsa", 255, e->tc_tsa) ||
	    arr8(r, o, "prio_tc", 7, e->prio_tc) ||
	    arr8(r, o, "tc_reco_bw", 100, e->tc_reco_bw) ||
	    arr8(r, o, "tc_reco_tsa", 255, e->tc_reco_tsa) ||
	    arr8(r, o, "reco_prio_tc", 7, e->reco_prio_tc))
		return -EINVAL;
	return 0;
}

static int rd_buffer(struct rd *r, const json_t *o, struct dcbnl_buffer *b)
{
	static const char *const known[] = { "prio_buffer", "buffer_size",
					     "total_size", NULL };
	long long size[DCB_PRIOS], total;
	int i;

	if (keys(r, o, "buffer", known) ||
	    arr8(r, o, "prio_buffer", DCB_PRIOS - 1, b->prio2buffer) ||
	    arr(r, o, "buffer_size", UINT32_MAX, size) ||
	    num(r, o, "total_size", UINT32_MAX, &total))
		return -EINVAL;
	for (i = 0; i < DCB_PRIOS; i++)
		b->buffer_size[i] = size[i];
	b->total_size = total;
	return 0;
}

/* [[key, value], ...]: DSCP : priority, or priority : DSCP for rewr. */
static int rd_pairs(struct rd *r, const json_t *a, const char *key,
		    struct dcb_state *s)
{
	bool rewr = !strcmp(key, "prio_dscp");
	const json_t *x;
	size_t i;

	if (!json_is_array(a))
		return bad(r, "%s: not an array of pairs", key);
	json_array_foreach(a, i, x) {
		const json_t *k = json_array_get(x, 0),
			     *v = json_array_get(x, 1);
		long long kmax = rewr ? DCB_PRIOS - 1 : DCB_DSCPS - 1,
			  vmax = rewr ? DCB_DSCPS - 1 : DCB_PRIOS - 1, kv, vv;

		if (!json_is_array(x) || json_array_size(x) != 2 ||
		    !json_is_integer(k) || !json_is_integer(v))
			return bad(r, "%s[%zu]: not a pair of integers", key,
				   i);
		kv = json_integer_value(k);
		vv = json_integer_value(v);
		if (kv < 0 || kv > kmax || vv < 0 || vv > vmax)
			return bad(r, "%s[%zu]: not %s 0..%lld : %s 0..%lld",
				   key, i, rewr ? "a priority" : "a DSCP", kmax,
				   rewr ? "a DSCP" : "a priority", vmax);
		if (rewr)
			s->rewr[kv] |= 1ull << vv;
		else
			s->app[kv] |= 1u << vv;
	}
	return 0;
}

int dcb_state_from_json(const json_t *j, struct dcb_state *s, char *err,
			size_t len)
{
	static const char *const known[] = {
		"ifname",    "pfc",	   "ets",	 "buffer", "dscp_prio",
		"prio_dscp", "other_apps", "other_rewr", NULL
	};
	struct rd r = { err, len, NULL };
	const json_t *x;
	long long n;
	int e;

	memset(s, 0, sizeof(*s));
	if (keys(&r, j, "dcb state", known))
		return -EINVAL;
	x = json_object_get(j, "ifname");
	if (!json_is_string(x) || !json_string_length(x) ||
	    json_string_length(x) >= sizeof(s->ifname) ||
	    strlen(json_string_value(x)) != json_string_length(x))
		return bad(&r, "ifname: not a device name");
	strcpy(s->ifname, json_string_value(x));
	e = rd_pairs(&r, json_object_get(j, "dscp_prio"), "dscp_prio", s);
	if (!e && (x = json_object_get(j, "pfc"))) {
		s->has |= DCB_HAS_PFC;
		r.sect = "pfc.";
		e = rd_pfc(&r, x, &s->pfc);
		r.sect = NULL;
	}
	if (!e && (x = json_object_get(j, "ets"))) {
		s->has |= DCB_HAS_ETS;
		r.sect = "ets.";
		e = rd_ets(&r, x, &s->ets);
		r.sect = NULL;
	}
	if (!e && (x = json_object_get(j, "buffer"))) {
		s->has |= DCB_HAS_BUFFER;
		r.sect = "buffer.";
		e = rd_buffer(&r, x, &s->buffer);
		r.sect = NULL;
	}
	if (!e && (x = json_object_get(j, "prio_dscp"))) {
		s->has |= DCB_HAS_REWR;
		e = rd_pairs(&r, x, "prio_dscp", s);
	}
	if (!e && json_object_get(j, "other_apps") &&
	    !(e = num(&r, j, "other_apps", DCB_ENTRIES_MAX * 256, &n)))
		s->app_other = n;
	if (!e && json_object_get(j, "other_rewr") && !(s->has & DCB_HAS_REWR))
		e = bad(&r, "other_rewr: without prio_dscp");
	if (!e && json_object_get(j, "other_rewr") &&
	    !(e = num(&r, j, "other_rewr", DCB_ENTRIES_MAX * 256, &n)))
		s->rewr_other = n;
	if (e)
		memset(s, 0, sizeof(*s));
	return e;
}

/* The entries of one table in a and not in b. */
static int only_in(const struct dcb_state *a, const struct dcb_state *b,
		   int table, struct dcb_app *out)
{
	struct dcb_state d = *a;
	int i;

	for (i = 0; i < DCB_DSCPS; i++)
		d.app[i] &= ~b->app[i];
	for (i = 0; i < DCB_PRIOS; i++)
		d.rewr[i] &= ~b->rewr[i];
	return dcb_state_apps(&d, table, out, DCB_ENTRIES_MAX);
}

/* The ETS a driver is told: all but its capability (ets_cap). */
static bool ets_same(const struct ieee_ets *a, const struct ieee_ets *b)
{
	struct ieee_ets x = *a, y = *b;

	x.ets_cap = y.ets_cap = 0;
	return !memcmp(&x, &y, sizeof(x));
}

int dcb_plan(const struct dcb_state *now, const struct dcb_state *want,
	     struct dcb_plan *p)
{
	unsigned int lacks = want->has & ~now->has;

	memset(p, 0, sizeof(*p));
	if (lacks)
		return -EOPNOTSUPP;
	p->n_app_add = only_in(want, now, DCB_ATTR_IEEE_APP_TABLE, p->app_add);
	p->n_app_del = only_in(now, want, DCB_ATTR_IEEE_APP_TABLE, p->app_del);
	if (want->has & DCB_HAS_REWR) {
		p->n_rewr_add =
			only_in(want, now, DCB_NL_REWR_TABLE, p->rewr_add);
		p->n_rewr_del =
			only_in(now, want, DCB_NL_REWR_TABLE, p->rewr_del);
	}
	p->pfc = want->has & DCB_HAS_PFC &&
		 (want->pfc.pfc_en != now->pfc.pfc_en ||
		  want->pfc.mbc != now->pfc.mbc ||
		  want->pfc.delay != now->pfc.delay);
	p->ets = want->has & DCB_HAS_ETS && !ets_same(&want->ets, &now->ets);
	/* total_size is what the port has, not a setting. */
	p->buffer = want->has & DCB_HAS_BUFFER &&
		    (memcmp(want->buffer.prio2buffer, now->buffer.prio2buffer,
			    sizeof(want->buffer.prio2buffer)) ||
		     memcmp(want->buffer.buffer_size, now->buffer.buffer_size,
			    sizeof(want->buffer.buffer_size)));
	return p->n_app_add + p->n_app_del + p->n_rewr_add + p->n_rewr_del +
	       p->pfc + p->ets + p->buffer;
}
