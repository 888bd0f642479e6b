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
#include "pfc/pfc_wd_config.h"

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
int pfc_t_pro_opt(const struct opt *o, const char *v)
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

int pfc_cable_opt(const struct opt *o, const char *v)
{
	return pfc_parse_meters(v, o->out) ? 0 : -1;
}

int pfc_port_model(struct pfc_config *c, uint64_t rate_bps, int mtu)
{
	uint32_t cable = c->cable_m, q = c->t_pro_quanta;
	uint64_t ns = c->t_pro_ns;

	pfc_config_init(c);
	c->cable_m = cable;
	c->t_pro_ns = ns;
	c->t_pro_quanta = q;
	c->rate_bps = rate_bps;
	c->frame = mtu + 18;
	c->nports = 1;
	return pfc_config_finish(c);
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
#define PFC_NCOMMON 5
#define PFC_COMMON_OPTS(c, rate_word)                                       \
	OPT_RATE("--rate", &(c)->rate_bps, 0, "RATE",                       \
		 "link rate of every port (default 100mbit)",               \
		 .deprecated = rate_word),                                  \
		OPT_FUNC("--lossless", lossless_opt, &(c)->lossless_mask,   \
			 "PRIOS", "the lossless priorities (default 3,4)"), \
		OPT_FUNC("--cable", pfc_cable_opt, &(c)->cable_m, "METERS", \
			 "cable length, 5 ns/m (default 0)"),               \
		OPT_FUNC("--t-pro", pfc_t_pro_opt, (c), "{ TIME | Nq }",    \
			 "the sender's PAUSE processing (default 1ms)"),    \
		OPT_FUNC("--t-resp", t_resp_opt, &(c)->t_resp_ns, "TIME",   \
			 "the receiver's XOFF-to-PAUSE time (default 0)")

static int per_prio_opt(const struct opt *o, const char *v)
{
	return per_prio(v, o->out);
}

/* --ecn-pmax: a percentage 0..100 for every priority, or "3:10,4:5". */
static int pmax_opt(const struct opt *o, const char *v)
{
	uint32_t *pmax = o->out;
	char *dup = xstrdup(v), *save = NULL, *tok, *c;
	unsigned long pct, prio;
	int r = 0, p;

	if (!strchr(v, ':')) {
		if (!parse_uint(v, 100, &pct))
			r = -1;
		for (p = 0; !r && p < PFC_PRIOS; p++)
			pmax[p] = pct;
		free(dup);
		return r;
	}
	for (tok = strtok_r(dup, ",", &save); tok && !r;
	     tok = strtok_r(NULL, ",", &save)) {
		c = strchr(tok, ':');
		if (!c)
			r = -1;
		else {
			*c = '\0';
			if (!parse_uint(tok, 7, &prio) ||
			    !parse_uint(c + 1, 100, &pct))
				r = -1;
			else
				pmax[prio] = pct;
		}
	}
	free(dup);
	return r;
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

/* SONiC pfcwd's names, and the two of before (report, ignore). */
static const struct opt_enum wd_action_names[] = {
	{ "alert", PFC_WD_ALERT },    { "forward", PFC_WD_FORWARD },
	{ "drop", PFC_WD_DROP },      { "report", PFC_WD_ALERT },
	{ "ignore", PFC_WD_FORWARD }, { NULL }
};

/* --watchdog PORT:PRIO:...: kept until the ports are known. */
static int wd_spec_opt(const struct opt *o, const char *v)
{
	struct pfc_config *c = o->out;

	if (c->wd_nspecs >= PFC_WD_MAX_SPECS) {
		p_err("--watchdog: more than %d", PFC_WD_MAX_SPECS);
		return 1;
	}
	c->wd_spec[c->wd_nspecs++] = v;
	return 0;
}

static const struct opt_enum on_off[] = { { "on", 1 }, { "off", 0 }, { NULL } };

/* --big-red-switch on|off. */
static int brs_opt(const struct opt *o, const char *v)
{
	if (strcmp(v, "on") && strcmp(v, "off"))
		return -1;
	*(bool *)o->out = !strcmp(v, "on");
	return 0;
}

static const struct opt_enum backend_names[] = { { "auto", PFC_BACKEND_AUTO },
						 { "mqprio",
						   PFC_BACKEND_MQPRIO },
						 { "htb", PFC_BACKEND_HTB },
						 { "dcb", PFC_BACKEND_DCB },
						 { NULL } };

/* The agent's options, into c, *trace and *dir; t ends with { 0 }. */
#define AGENT_NOPTS 32
static void agent_opts(struct opt t[AGENT_NOPTS + 1], struct pfc_config *c,
		       const char **trace, const char **dir)
{
	const struct opt opts[] = {
		PFC_COMMON_OPTS(c, NULL),
		OPT_FUNC("--xoff", per_prio_opt, c->xoff, "B",
			 "XOFF threshold (default: the buffer model)"),
		OPT_FUNC("--xon", per_prio_opt, c->xon, "B",
			 "XON threshold (default: the buffer model)"),
		OPT_FUNC("--headroom", per_prio_opt, c->headroom, "B",
			 "headroom (default: the buffer model)"),
		OPT_FUNC("--ecn-kmin", per_prio_opt, c->ecn_kmin, "B",
			 "ECN: mark CE above this occupancy (default 0)"),
		OPT_FUNC("--ecn-kmax", per_prio_opt, c->ecn_kmax, "B",
			 "ECN: ... with Pmax here, always above (off)"),
		OPT_FUNC("--ecn-pmax", pmax_opt, c->ecn_pmax, "PCT",
			 "ECN: marking probability at Kmax (default 100)"),
		OPT_INT("--quanta", &c->quanta, 1, PFC_QUANTA_MAX, "Q",
			"pause time of a PFC frame (default 65535)"),
		OPT_ENUM("--sched", &c->sched, sched_names,
			 "scheduling between priorities (default wrr)"),
		OPT_FUNC("--weights", weights_opt, c->weight, "W0,...,W7",
			 "WRR weights of the 8 priorities, 1 to 1000"),
		OPT_INT("--watchdog-ms", &c->wd_detect_ms, 1, PFC_WD_MAX_MS,
			"MS", "storm: a queue paused this long (default 200)"),
		OPT_INT("--watchdog-restore-ms", &c->wd_restore_ms, 1,
			PFC_WD_MAX_MS, "MS",
			"restored after this long without PAUSE (200)"),
		OPT_ENUM("--watchdog-action", &c->wd_action, wd_action_names,
			 "what the watchdog does (default alert)"),
		OPT_FUNC("--watchdog", wd_spec_opt, c,
			 "PORT:PRIO:DETECT_MS:RESTORE_MS:ACTION",
			 "one queue's watchdog (PORT * : every port)"),
		OPT_FUNC("--big-red-switch", brs_opt, &c->big_red_switch,
			 "on|off", "every lossless queue drops (default off)",
			 .names = on_off),
		OPT_ENUM("--backend", &c->backend, backend_names,
			 "the queues (default auto: dcb, mqprio, htb)"),
		OPT_STR("--rules", &c->dcb_rules_file, "RULES",
			"dcb: each port's maps from these compiled rules"),
		OPT_STR("--switch", &c->dcb_switch, "NAME",
			"... of this switch (default: NAME, the node's)"),
		OPT_FUNC("--dscp-map", dscp_map_opt, c->dscp_prio,
			 "DSCP:PRIO,...",
			 "over the default DSCP d -> prio d/8"),
		OPT_SIZE("--lossless-limit", &c->lossless_limit, 0, "B",
			 "lossless queue limit"),
		OPT_SIZE("--lossy-limit", &c->lossy_limit, 0, "B",
			 "lossy queues drop beyond this"),
		OPT_FLAG("--keep-offloads", &c->keep_offloads,
			 "leave GRO, TSO and GSO as they are"),
		OPT_FLAG("--slow-pause", &c->slow_pause,
			 "the agent sends XOFF, not the BPF program"),
		OPT_INT("--rt-prio", &c->rt_prio, 0, 99, "N",
			"SCHED_FIFO priority (default 10, 0: off)"),
		OPT_FUNC("--cpu-latency", cpu_latency_opt, &c->cpu_latency_us,
			 "{ US | none }",
			 "PM QoS request while it runs (default 0)"),
		OPT_INT("--busy-poll", &c->busy_poll_us, 0, 1000000, "US",
			"poll around each expected resume (default 2000)"),
		OPT_STR("--trace", trace, "FILE", "a trace of pause events"),
		OPT_STR("--dir", dir, "DIR",
			"state directory (default /run/tagger/pfc)"),
		{ 0 }
	};

	_Static_assert(ARRAY_SIZE(opts) == AGENT_NOPTS + 1, "AGENT_NOPTS");
	memcpy(t, opts, sizeof(opts));
}

/* The headroom's options, into c and h; t ends with { 0 }. */
#define HEADROOM_NOPTS 9
static void headroom_opts(struct opt t[HEADROOM_NOPTS + 1],
			  struct pfc_config *c, struct pfc_headroom_args *h)
{
	const struct opt opts[] = {
		PFC_COMMON_OPTS(c, "rate"),
		OPT_INT("--mtu", &h->mtu, 68, 65535, "BYTES",
			"the MTU: s_MTU = BYTES + 18 (default 1500)",
			.deprecated = "mtu"),
		OPT_INT("--frame", &h->frame, 64, 65535, "BYTES",
			"the largest frame s_MTU, instead of --mtu"),
		OPT_INT("--ports", &h->ports, 1, 4096, "N",
			"also print the total of N ports"),
		OPT_SIZE("--buffer", &h->buffer, 0, "B",
			 "with --ports: does the total fit in B?"),
		{ 0 }
	};

	_Static_assert(ARRAY_SIZE(opts) == HEADROOM_NOPTS + 1,
		       "HEADROOM_NOPTS");
	memcpy(t, opts, sizeof(opts));
}

void pfc_options_usage(FILE *f, bool headroom)
{
	static struct pfc_config c;
	struct pfc_headroom_args h;
	struct opt t[AGENT_NOPTS + 1];
	const char *trace, *dir;

	if (headroom)
		headroom_opts(t, &c, &h);
	else
		agent_opts(t, &c, &trace, &dir);
	/* headroom's own, after the 5 it shares with the agent */
	opts_usage(f, headroom ? t + PFC_NCOMMON : t);
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
	struct opt opts[HEADROOM_NOPTS + 1];

	headroom_opts(opts, c, h);
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
	struct opt opts[AGENT_NOPTS + 1];
	char why[PFC_WD_WHY_LEN];
	int r, got;

	agent_opts(opts, c, trace, dir);
	r = opts_parse(opts, argc, argv, pos, argc + 1, &got) ?
		    usage_help(pfc_help) :
		    agent_node(c, pos, got);
	free(pos);
	if (!r && c->dcb_switch && !c->dcb_rules_file)
		r = usage_err(pfc_help, "--switch: needs --rules RULES");
	if (!r && c->dcb_rules_file)
		r = pfc_rules_maps(c);
	if (!r && pfc_wd_specs_apply(c, why, sizeof(why)))
		r = usage_err(pfc_help, "%s", why);
	return r;
}
