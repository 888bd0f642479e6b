// SPDX-License-Identifier: GPL-2.0
/* Pause agent configuration and its buffer model; see pfc_config.h. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pfc/pfc_config.h"
#include "pfc/pfc_frame.h"
#include "lib/util.h"

void pfc_config_init(struct pfc_config *c)
{
	int i;

	memset(c, 0, sizeof(*c));
	c->rate_bps = PFC_DEFAULT_RATE;
	c->lossless_mask = PFC_DEFAULT_LOSSLESS;
	c->frame = 1500 + 18;
	c->t_pro_ns = PFC_T_PRO_NS;
	c->quanta = PFC_QUANTA_MAX;
	c->sched = PFC_SCHED_WRR;
	c->wd_detect_ms = 200;
	c->wd_restore_ms = 200;
	c->wd_action = PFC_WD_ALERT;
	c->backend = PFC_BACKEND_AUTO;
	c->rt_prio = PFC_DEFAULT_RT_PRIO;
	c->cpu_latency_us = PFC_DEFAULT_CPU_LATENCY;
	c->busy_poll_us = PFC_DEFAULT_BUSY_POLL_US;
	for (i = 0; i < PFC_PRIOS; i++) {
		c->weight[i] = 1;
		c->ecn_pmax[i] = 100;
	}
	/* Class selector: DSCP 8p..8p+7 -> priority p (trust-DSCP default). */
	for (i = 0; i < 64; i++)
		c->dscp_prio[i] = i >> 3;
}

uint64_t pfc_port_rate(const struct pfc_config *c, int port)
{
	return c->ports[port].rate_bps ? c->ports[port].rate_bps : c->rate_bps;
}

/* r t in bytes, as (r / 8) t: the order today's numbers were made in. */
static uint64_t rate_bytes(uint64_t rate_bps, uint64_t ns)
{
	return (unsigned __int128)(rate_bps / 8) * ns / 1000000000ull;
}

void pfc_headroom_terms(const struct pfc_config *c,
			struct pfc_headroom_terms *t)
{
	memset(t, 0, sizeof(*t));
	t->rate_bps = c->rate_bps;
	t->frame = c->frame;
	t->pfc = PFC_WIRE_BYTES;
	t->t_wire_ns = (uint64_t)c->cable_m * PFC_NS_PER_M;
	t->t_pro_ns = c->t_pro_quanta ?
			      pfc_quanta_ns(c->t_pro_quanta, c->rate_bps) :
			      c->t_pro_ns;
	t->t_resp_ns = c->t_resp_ns;
	t->wire = rate_bytes(c->rate_bps, t->t_wire_ns);
	/* A quantum is 512 bit times whatever the rate: exact in bytes. */
	t->pro = c->t_pro_quanta ? (uint64_t)c->t_pro_quanta * 64 :
				   rate_bytes(c->rate_bps, t->t_pro_ns);
	t->resp = rate_bytes(c->rate_bps, t->t_resp_ns);
	t->total =
		2 * ((uint64_t)t->frame + t->pfc + t->wire) + t->pro + t->resp;
}

uint64_t pfc_headroom(uint64_t rate_bps, uint32_t frame, uint64_t t_pro_ns)
{
	struct pfc_headroom_terms t;
	struct pfc_config c = { .rate_bps = rate_bps,
				.frame = frame,
				.t_pro_ns = t_pro_ns };

	pfc_headroom_terms(&c, &t);
	return t.total;
}

/*
 * The least rate (bit/s) the kernel's shapers take on a port: every rate
 * handed to HTB or TBF must be at least 1 byte/s, the link's and, under
 * wrr, each priority's share of it (rate x weight / sum of weights).
 */
uint64_t pfc_min_rate(const struct pfc_config *c)
{
	uint64_t wsum = 0, wmin = UINT64_MAX, r;
	int p;

	if (c->sched == PFC_SCHED_STRICT)
		return 8;
	for (p = 0; p < PFC_PRIOS; p++) {
		wsum += c->weight[p];
		if (c->weight[p] && c->weight[p] < wmin)
			wmin = c->weight[p];
	}
	if (!wsum)
		return 8;
	r = (8 * wsum + wmin - 1) / wmin; /* share = r w / wsum >= 8 */
	return r < 8 ? 8 : r;
}

/* The first port whose rate is below pfc_min_rate(), or -1. */
int pfc_rate_too_low(const struct pfc_config *c)
{
	uint64_t min = pfc_min_rate(c);
	int i;

	for (i = 0; i < c->nports; i++)
		if (pfc_port_rate(c, i) < min)
			return i;
	return -1;
}

int pfc_config_finish(struct pfc_config *c)
{
	struct pfc_headroom_terms t;
	uint64_t worst = 0;
	int p;

	pfc_headroom_terms(c, &t);
	for (p = 0; p < PFC_PRIOS; p++) {
		uint64_t drain = t.pro;

		if (!c->headroom[p])
			c->headroom[p] = t.total;
		if (!c->xon[p])
			c->xon[p] =
				c->xoff[p] && c->xoff[p] < drain + c->frame ?
					c->xoff[p] / 2 :
					drain;
		if (!c->xoff[p])
			c->xoff[p] = c->xon[p] + c->headroom[p];
		if (c->xon[p] >= c->xoff[p])
			return -1;
		if (c->xoff[p] + c->headroom[p] > worst)
			worst = c->xoff[p] + c->headroom[p];
	}
	/*
	 * A lossless egress queue holds at most XOFF + headroom from each
	 * in-port; local senders are held back by their socket buffers, which
	 * the minimum covers.
	 */
	if (!c->lossless_limit) {
		c->lossless_limit = worst * (c->nports ? c->nports : 1);
		if (c->lossless_limit < PFC_MIN_LOSSLESS_LIMIT)
			c->lossless_limit = PFC_MIN_LOSSLESS_LIMIT;
	}
	if (!c->lossy_limit)
		c->lossy_limit = worst;
	return 0;
}

uint32_t pfc_ecn_mask(const struct pfc_config *c)
{
	uint32_t m = 0;
	int p;

	for (p = 0; p < PFC_PRIOS; p++)
		if (((c->lossless_mask >> p) & 1) && c->ecn_kmax[p])
			m |= 1u << p;
	return m;
}

/*
 * Marks must come before pauses: Kmin <= Kmax < XOFF on every priority
 * that marks (the lossless ones with a Kmax), and Kmax within what
 * pfc_ecn_p() computes with. A Kmin without a Kmax marks nothing: an
 * error too. (Pmax above 100 is refused by the option itself.)
 */
const char *pfc_ecn_bad(const struct pfc_config *c, char *buf, size_t len)
{
	int p;

	for (p = 0; p < PFC_PRIOS; p++) {
		if (!((c->lossless_mask >> p) & 1))
			continue;
		if (c->ecn_kmin[p] && !c->ecn_kmax[p])
			snprintf(buf, len,
				 "--ecn-kmin: priority %d has no --ecn-kmax",
				 p);
		else if (!c->ecn_kmax[p])
			continue;
		else if (c->ecn_kmin[p] > c->ecn_kmax[p])
			snprintf(
				buf, len,
				"--ecn-kmin: %llu B is above --ecn-kmax %llu B "
				"(priority %d)",
				(unsigned long long)c->ecn_kmin[p],
				(unsigned long long)c->ecn_kmax[p], p);
		else if (c->ecn_kmax[p] >= c->xoff[p])
			snprintf(buf, len,
				 "--ecn-kmax: %llu B is not below XOFF %llu B "
				 "(priority %d): marks must come before pauses",
				 (unsigned long long)c->ecn_kmax[p],
				 (unsigned long long)c->xoff[p], p);
		else if (c->ecn_kmax[p] > PFC_ECN_KMAX_MAX)
			snprintf(
				buf, len,
				"--ecn-kmax: %llu B is above 4 GiB (priority %d)",
				(unsigned long long)c->ecn_kmax[p], p);
		else
			continue;
		return buf;
	}
	return NULL;
}

/*
 * A time: a decimal number with an optional unit ns, us, ms or s; a bare
 * number is in unit. 0 to PFC_MAX_TIME_NS.
 */
bool pfc_parse_time(const char *s, const char *unit, uint64_t *ns)
{
	static const char *const u[] = { "ns", "us", "ms", "s", NULL };
	static const double m[] = { 1, 1e3, 1e6, 1e9 };
	char *end;
	double v;
	int i;

	if (!s || !isdigit((unsigned char)*s))
		return false;
	v = strtod(s, &end);
	if (!*end)
		end = (char *)unit;
	for (i = 0; u[i]; i++) {
		if (!strcmp(end, u[i])) {
			v *= m[i];
			if (v > PFC_MAX_TIME_NS)
				return false;
			*ns = (uint64_t)(v + 0.5);
			return true;
		}
	}
	return false;
}

/* A cable length in whole meters (with an optional "m"), 0..100 km. */
bool pfc_parse_meters(const char *s, uint32_t *m)
{
	char buf[16];
	size_t n = s ? strlen(s) : 0;
	unsigned long v;

	if (!n || n >= sizeof(buf))
		return false;
	memcpy(buf, s, n + 1);
	if (buf[n - 1] == 'm')
		buf[n - 1] = '\0';
	if (!parse_uint(buf, PFC_MAX_CABLE_M, &v))
		return false;
	*m = v;
	return true;
}

/* "26:3,48:6": DSCP:PRIO pairs over the default map. -1 on bad input. */
int pfc_parse_dscp_map(const char *s, uint8_t map[64])
{
	char *dup = xstrdup(s), *save = NULL, *tok;
	int r = 0;

	for (tok = strtok_r(dup, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		char *colon = strchr(tok, ':');
		unsigned long d, p;

		if (!colon) {
			r = -1;
			break;
		}
		*colon = '\0';
		if (!parse_uint(tok, 63, &d) || !parse_uint(colon + 1, 7, &p)) {
			r = -1;
			break;
		}
		map[d] = p;
	}
	free(dup);
	return r;
}

const char *pfc_wd_action_name(enum pfc_wd_action a)
{
	return a == PFC_WD_DROP	   ? "drop" :
	       a == PFC_WD_FORWARD ? "forward" :
				     "alert";
}

const char *pfc_sched_name(enum pfc_sched s)
{
	return s == PFC_SCHED_STRICT ? "strict" : "wrr";
}
