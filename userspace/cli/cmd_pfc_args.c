// SPDX-License-Identifier: GPL-2.0
/*
 * The options of `tagger pfc agent` and `tagger pfc headroom`, from tables
 * (opts.h), and the PORT[=IFNAME][@RATE] words of the agent; see cmd_pfc.h.
 */
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cmd.h"
#include "cli/cmd_pfc.h"
#include "cli/opts.h"
#include "lib/log.h"
#include "lib/units.h"
#include "lib/util.h"
#include "pfc/pfc_config.h"
#include "pfc/pfc_frame.h"

int pfc_prio_mask(const char *s, uint32_t *mask)
{
	int *v, n, i;

	*mask = 0;
	if (!strcmp(s, "none"))
		return 0;
	n = split_list(s, 0, 7, &v);
	if (n < 0)
		return -1;
	for (i = 0; i < n; i++)
		*mask |= 1u << v[i];
	free(v);
	return 0;
}

/* "64k" for every priority, or "3:64k,4:32k". */
static int per_prio(const char *s, uint64_t out[PFC_PRIOS])
{
	char *dup, *save = NULL, *tok;
	uint64_t v;
	int r = 0, p;

	if (!strchr(s, ':')) {
		if (!parse_size(s, &v))
			return -1;
		for (p = 0; p < PFC_PRIOS; p++)
			out[p] = v;
		return 0;
	}
	dup = xstrdup(s);
	for (tok = strtok_r(dup, ",", &save); tok && !r;
	     tok = strtok_r(NULL, ",", &save)) {
		char *c = strchr(tok, ':');
		unsigned long prio;

		if (!c)
			r = -1;
		else {
			*c = '\0';
			if (!parse_uint(tok, 7, &prio) ||
			    !parse_size(c + 1, &v))
				r = -1;
			else
				out[prio] = v;
		}
	}
	free(dup);
	return r;
}

static int parse_port(struct pfc_config *c, const char *arg)
{
	struct pfc_port_cfg *pc = &c->ports[c->nports];
	char buf[64], *at;
	const char *eq, *ifname;
	size_t n;
	int i;

	if (strlen(arg) >= sizeof(buf))
		return usage_err(pfc_help, "What is \"%s\"?", arg);
	strcpy(buf, arg);
	/* PORT[=IFNAME][@RATE]: a port may be slower than the node's rate. */
	at = strchr(buf, '@');
	if (at) {
		*at++ = '\0';
		if (!parse_rate(at, &pc->rate_bps))
			return usage_err(pfc_help, "bad rate \"%s\"", at);
	}
	eq = strchr(buf, '=');
	n = eq ? (size_t)(eq - buf) : strlen(buf);
	ifname = eq ? eq + 1 : buf;

	if (c->nports >= PFC_MAX_PORTS)
		return usage_err(pfc_help, "at most %d ports", PFC_MAX_PORTS);
	if (!n || n >= sizeof(pc->name) || strlen(ifname) >= sizeof(pc->ifname))
		return usage_err(pfc_help, "What is \"%s\"?", arg);
	memcpy(pc->name, buf, n);
	pc->name[n] = '\0';
	snprintf(pc->ifname, sizeof(pc->ifname), "%s", ifname);
	pc->ifindex = if_nametoindex(ifname);
	if (!pc->ifindex) {
		p_err("%s: no such interface in this namespace", ifname);
		return EXIT_USAGE;
	}
	for (i = 0; i < c->nports; i++)
		if (c->ports[i].ifindex == pc->ifindex) {
			p_err("%s: given twice", ifname);
			return EXIT_USAGE;
		}
	c->nports++;
	return 0;
}

/* --t-pro: a time, or Nq, N quanta (512 bit times each, 1..65535). */
static int t_pro_opt(const struct opt *o, const char *v)
{
	struct pfc_config *c = o->out;
	size_t n = strlen(v);
	unsigned long q;
	char buf[16];

	if (n > 1 && n < sizeof(buf) && v[n - 1] == 'q') {
		memcpy(buf, v, n - 1);
		buf[n - 1] = '\0';
		if (!parse_uint(buf, PFC_QUANTA_MAX, &q) || !q)
			return -1;
		c->t_pro_quanta = q;
		return 0;
	}
	if (!pfc_parse_time(v, "us", &c->t_pro_ns) || !c->t_pro_ns)
		return -1;
	c->t_pro_quanta = 0;
	return 0;
}

static int cable_opt(const struct opt *o, const char *v)
{
	return pfc_parse_meters(v, o->out) ? 0 : -1;
}

static int t_resp_opt(const struct opt *o, const char *v)
{
	return pfc_parse_time(v, "us", o->out) ? 0 : -1;
}

static int lossless_opt(const struct opt *o, const char *v)
{
	return pfc_prio_mask(v, o->out);
}

/*
 * Options of the agent and of `headroom` alike: the node's rate, its
 * lossless priorities and the link terms of the headroom formula.
 */
#define PFC_COMMON_OPTS(c, rate_word)                                         \
	{ .name = "--rate",                                                   \
	  .type = OPT_RATE,                                                   \
	  .out = &(c)->rate_bps,                                              \
	  .deprecated = rate_word },                                          \
		{ .name = "--lossless",                                       \
		  .type = OPT_FUNC,                                           \
		  .out = &(c)->lossless_mask,                                 \
		  .func = lossless_opt },                                     \
		{ .name = "--cable",                                          \
		  .type = OPT_FUNC,                                           \
		  .out = &(c)->cable_m,                                       \
		  .func = cable_opt },                                        \
		{ .name = "--t-pro",                                          \
		  .type = OPT_FUNC,                                           \
		  .out = (c),                                                 \
		  .func = t_pro_opt },                                        \
	{                                                                     \
		.name = "--t-resp", .type = OPT_FUNC, .out = &(c)->t_resp_ns, \
		.func = t_resp_opt                                            \
	}

static int per_prio_opt(const struct opt *o, const char *v)
{
	return per_prio(v, o->out);
}

/* --weights: one weight per priority, 1..1000 each. */
static int weights_opt(const struct opt *o, const char *v)
{
	uint32_t *weight = o->out;
	int *w, n = split_list(v, 1, 1000, &w), k;

	if (n != PFC_PRIOS) {
		if (n > 0)
			free(w);
		return -1;
	}
	for (k = 0; k < n; k++)
		weight[k] = w[k];
	free(w);
	return 0;
}

static int dscp_map_opt(const struct opt *o, const char *v)
{
	return pfc_parse_dscp_map(v, o->out) ? -1 : 0;
}

/* --cpu-latency: microseconds (0..1000000) or none. */
static int cpu_latency_opt(const struct opt *o, const char *v)
{
	unsigned long u;

	if (!strcmp(v, "none"))
		u = PFC_CPU_LATENCY_NONE;
	else if (!parse_uint(v, 1000000, &u))
		return -1;
	*(int *)o->out = (int)u;
	return 0;
}

static const struct opt_enum sched_names[] = { { "wrr", PFC_SCHED_WRR },
					       { "strict", PFC_SCHED_STRICT },
					       { NULL } };

static const struct opt_enum wd_action_names[] = { { "report", PFC_WD_REPORT },
						   { "ignore", PFC_WD_IGNORE },
						   { "drop", PFC_WD_DROP },
						   { NULL } };

static const struct opt_enum backend_names[] = { { "auto", PFC_BACKEND_AUTO },
						 { "mqprio",
						   PFC_BACKEND_MQPRIO },
						 { "htb", PFC_BACKEND_HTB },
						 { "dcb", PFC_BACKEND_DCB },
						 { NULL } };

/* Agent settings held in ints for the table, copied into the config. */
struct agent_args {
	int quanta, sched, wd_detect_ms, wd_restore_ms, wd_action, backend;
	int busy_poll_us;
	const char *trace, *dir;
};

/* Options and PORT words; the ports go to pos[1..], NAME to pos[0]. */
static int agent_parse(struct pfc_config *c, struct agent_args *a, int argc,
		       char **argv, char **pos, int npos, int *got)
{
	const struct opt opts[] = {
		PFC_COMMON_OPTS(c, NULL),
		{ .name = "--xoff",
		  .type = OPT_FUNC,
		  .out = c->xoff,
		  .func = per_prio_opt },
		{ .name = "--xon",
		  .type = OPT_FUNC,
		  .out = c->xon,
		  .func = per_prio_opt },
		{ .name = "--headroom",
		  .type = OPT_FUNC,
		  .out = c->headroom,
		  .func = per_prio_opt },
		{ .name = "--quanta",
		  .type = OPT_INT,
		  .min = 1,
		  .max = PFC_QUANTA_MAX,
		  .out = &a->quanta },
		{ .name = "--sched",
		  .type = OPT_ENUM,
		  .out = &a->sched,
		  .names = sched_names },
		{ .name = "--weights",
		  .type = OPT_FUNC,
		  .out = c->weight,
		  .func = weights_opt },
		{ .name = "--watchdog-ms",
		  .type = OPT_INT,
		  .min = 1,
		  .max = 3600000,
		  .out = &a->wd_detect_ms },
		{ .name = "--watchdog-restore-ms",
		  .type = OPT_INT,
		  .min = 1,
		  .max = 3600000,
		  .out = &a->wd_restore_ms },
		{ .name = "--watchdog-action",
		  .type = OPT_ENUM,
		  .out = &a->wd_action,
		  .names = wd_action_names },
		{ .name = "--backend",
		  .type = OPT_ENUM,
		  .out = &a->backend,
		  .names = backend_names },
		{ .name = "--dscp-map",
		  .type = OPT_FUNC,
		  .out = c->dscp_prio,
		  .func = dscp_map_opt },
		{ .name = "--lossless-limit",
		  .type = OPT_SIZE,
		  .out = &c->lossless_limit },
		{ .name = "--lossy-limit",
		  .type = OPT_SIZE,
		  .out = &c->lossy_limit },
		{ .name = "--keep-offloads",
		  .type = OPT_FLAG,
		  .out = &c->keep_offloads },
		{ .name = "--slow-pause",
		  .type = OPT_FLAG,
		  .out = &c->slow_pause },
		{ .name = "--rt-prio",
		  .type = OPT_INT,
		  .min = 0,
		  .max = 99,
		  .out = &c->rt_prio },
		{ .name = "--cpu-latency",
		  .type = OPT_FUNC,
		  .out = &c->cpu_latency_us,
		  .func = cpu_latency_opt },
		{ .name = "--busy-poll",
		  .type = OPT_INT,
		  .min = 0,
		  .max = 1000000,
		  .out = &a->busy_poll_us },
		{ .name = "--trace", .type = OPT_STR, .out = &a->trace },
		{ .name = "--dir", .type = OPT_STR, .out = &a->dir },
		{ 0 }
	};

	*a = (struct agent_args){ .quanta = c->quanta,
				  .sched = c->sched,
				  .wd_detect_ms = c->wd_detect_ms,
				  .wd_restore_ms = c->wd_restore_ms,
				  .wd_action = c->wd_action,
				  .backend = c->backend,
				  .busy_poll_us = c->busy_poll_us };
	if (opts_parse(opts, argc, argv, pos, npos, got))
		return usage_help(pfc_help);
	c->quanta = a->quanta;
	c->sched = a->sched;
	c->wd_detect_ms = a->wd_detect_ms;
	c->wd_restore_ms = a->wd_restore_ms;
	c->wd_action = a->wd_action;
	c->backend = a->backend;
	c->busy_poll_us = a->busy_poll_us;
	return 0;
}

/* NAME and its ports into c. */
static int agent_node(struct pfc_config *c, char **pos, int got)
{
	int i, r;

	if (got < 2)
		return usage_err(pfc_help, "pfc agent needs NAME and ports");
	if (!valid_name(pos[0]) || strlen(pos[0]) >= sizeof(c->node))
		return usage_err(pfc_help, "bad node name \"%s\"", pos[0]);
	snprintf(c->node, sizeof(c->node), "%s", pos[0]);
	for (i = 1; i < got; i++) {
		r = parse_port(c, pos[i]);
		if (r)
			return r;
	}
	return 0;
}

int pfc_headroom_args(struct pfc_config *c, struct pfc_headroom_args *h,
		      int argc, char **argv)
{
	const struct opt opts[] = {
		PFC_COMMON_OPTS(c, "rate"),
		{ .name = "--mtu",
		  .type = OPT_INT,
		  .min = 68,
		  .max = 65535,
		  .out = &h->mtu,
		  .deprecated = "mtu" },
		{ .name = "--frame",
		  .type = OPT_INT,
		  .min = 64,
		  .max = 65535,
		  .out = &h->frame },
		{ .name = "--ports",
		  .type = OPT_INT,
		  .min = 1,
		  .max = 4096,
		  .out = &h->ports },
		{ .name = "--buffer", .type = OPT_SIZE, .out = &h->buffer },
		{ 0 }
	};

	if (opts_parse(opts, argc, argv, NULL, 0, NULL))
		return usage_help(pfc_help);
	if (h->buffer && !h->ports)
		return usage_err(pfc_help, "--buffer: needs --ports N");
	return 0;
}

int pfc_agent_args(struct pfc_config *c, int argc, char **argv,
		   const char **trace, const char **dir)
{
	/* Room for every word, so that a port too many is named as such. */
	char **pos = xcalloc(argc + 1, sizeof(*pos));
	struct agent_args a;
	int r, got;

	r = agent_parse(c, &a, argc, argv, pos, argc + 1, &got);
	if (!r)
		r = agent_node(c, pos, got);
	free(pos);
	*trace = a.trace;
	*dir = a.dir;
	return r;
}
