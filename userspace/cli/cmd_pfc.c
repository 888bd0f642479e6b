// SPDX-License-Identifier: GPL-2.0
/*
 * tagger pfc: the PFC-like pause for ports without hardware PFC.
 *
 *   tagger pfc agent NAME PORT[=IFNAME]... [OPTIONS]   run, foreground
 *   tagger [-j] pfc show NAME                          counters
 *   tagger pfc stop NAME                               stop, clean up
 *   tagger pfc send IFNAME PRIOS QUANTA [--count N]    one PFC frame
 *   tagger [-j] pfc headroom [--rate R] [--mtu N] ...  the buffer model
 *
 * Options are "--opt V" or "--opt=V".
 */
#include <errno.h>
#include <inttypes.h>
#include <net/if.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cmd.h"
#include "lib/log.h"
#include "cli/opts.h"
#include "pfc/pfc_agent.h"
#include "cli/cmd_pfc.h"
#include "pfc/pfc_config.h"
#include "pfc/pfc_frame.h"
#include "pfc/pfc_port.h"
#include "pfc/pfc_state.h"
#include "lib/util.h"

static int do_help(int argc, char **argv)
{
	fprintf(stderr,
		"Usage: %1$s pfc agent NAME PORT[=IFNAME][@RATE]... [OPTIONS]\n"
		"       %1$s [-j] pfc show NAME [--dir DIR]\n"
		"       %1$s pfc stop NAME [--dir DIR]\n"
		"       %1$s pfc send IFNAME PRIOS QUANTA [--count N]\n"
		"       %1$s [-j] pfc headroom [--rate RATE] [{ --mtu BYTES | --frame BYTES }]\n"
		"                    [LINK...] [--lossless PRIOS] [--ports N [--buffer B]]\n"
		"       %1$s pfc help\n"
		"where  OPTIONS := { --rate RATE | --lossless PRIOS | --xoff B |\n"
		"                    --xon B | --headroom B | --quanta Q | LINK |\n"
		"                    --sched { wrr | strict } | --weights W0,...,W7 |\n"
		"                    --watchdog-ms MS | --watchdog-restore-ms MS |\n"
		"                    --watchdog-action { report | ignore | drop } |\n"
		"                    --backend { auto | mqprio | htb | dcb } |\n"
		"                    --dscp-map DSCP:PRIO,... | --lossless-limit B |\n"
		"                    --lossy-limit B | --keep-offloads | --slow-pause |\n"
		"                    --rt-prio N | --cpu-latency { US | none } |\n"
		"                    --trace FILE | --dir DIR }\n"
		"       LINK := { --cable METERS | --t-pro { TIME | Nq } | --t-resp TIME }\n"
		"       RATE := tc rate (100mbit, 1gbit); B := bytes (64k) or\n"
		"               PRIO:BYTES,... per priority; PRIOS := 3,4 | 0-7 | none\n"
		"       TIME := microseconds (1.5) or with a unit (768ns, 1ms)\n"
		"       Every option is --opt V or --opt=V.\n"
		"\n"
		"The agent manages the ports of node NAME in the current network\n"
		"namespace until SIGINT/SIGTERM or `pfc stop`; its state is in\n"
		"$TAGGER_PFC_DIR/NAME (default /run/tagger/pfc/NAME).\n"
		"Defaults: rate 100mbit, lossless 3,4, quanta 65535, DSCP d -> prio\n"
		"d/8, wrr, watchdog 200 ms report, rt-prio 10, cpu-latency 0;\n"
		"XOFF, XON and headroom from the buffer model (see `%1$s pfc\n"
		"headroom`). --cpu-latency 0 keeps idle CPUs polling while the agent\n"
		"runs (a PM QoS request): pause reaction in tens of microseconds, at\n"
		"the cost of idle CPUs never sleeping; --cpu-latency none opts out.\n"
		"\n"
		"The buffer model is the Tagger draft's equation (1), plus a response\n"
		"time: headroom = 2 (s_MTU + s_PFC + r t_wire) + r t_pro + r t_resp,\n"
		"s_MTU the largest frame (--mtu + 18, or --frame), s_PFC 64 B, r the\n"
		"rate, t_wire = --cable x 5 ns/m (the draft's copper figure), t_pro the\n"
		"sender's PAUSE processing (--t-pro; Nq: N quanta, hardware is capped\n"
		"at 60q), t_resp the receiver's XOFF-to-PAUSE time (--t-resp).\n"
		"Defaults: --cable 0 (veth), --t-pro 1ms (the software agent),\n"
		"--t-resp 0. The draft's 40G example, about 22 KB:\n"
		"  %1$s pfc headroom --rate 40gbit --frame 1500 --cable 300 --t-pro 60q\n"
		"--ports N prints N x lossless priorities x headroom, the switch's\n"
		"total, and with --buffer B whether that fits in B.\n",
		bin_name);
	return 0;
}

static int prio_mask(const char *s, uint32_t *mask)
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
		if (!pfc_parse_size(s, &v))
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
			    !pfc_parse_size(c + 1, &v))
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
		return usage_err(do_help, "What is \"%s\"?", arg);
	strcpy(buf, arg);
	/* PORT[=IFNAME][@RATE]: a port may be slower than the node's rate. */
	at = strchr(buf, '@');
	if (at) {
		*at++ = '\0';
		if (!pfc_parse_rate(at, &pc->rate_bps))
			return usage_err(do_help, "bad rate \"%s\"", at);
	}
	eq = strchr(buf, '=');
	n = eq ? (size_t)(eq - buf) : strlen(buf);
	ifname = eq ? eq + 1 : buf;

	if (c->nports >= PFC_MAX_PORTS)
		return usage_err(do_help, "at most %d ports", PFC_MAX_PORTS);
	if (!n || n >= sizeof(pc->name) || strlen(ifname) >= sizeof(pc->ifname))
		return usage_err(do_help, "What is \"%s\"?", arg);
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
	return prio_mask(v, o->out);
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
		{ .name = "--trace", .type = OPT_STR, .out = &a->trace },
		{ .name = "--dir", .type = OPT_STR, .out = &a->dir },
		{ 0 }
	};

	*a = (struct agent_args){ .quanta = c->quanta,
				  .sched = c->sched,
				  .wd_detect_ms = c->wd_detect_ms,
				  .wd_restore_ms = c->wd_restore_ms,
				  .wd_action = c->wd_action,
				  .backend = c->backend };
	if (opts_parse(opts, argc, argv, pos, npos, got))
		return usage_help(do_help);
	c->quanta = a->quanta;
	c->sched = a->sched;
	c->wd_detect_ms = a->wd_detect_ms;
	c->wd_restore_ms = a->wd_restore_ms;
	c->wd_action = a->wd_action;
	c->backend = a->backend;
	return 0;
}

/* NAME and its ports into c. */
static int agent_node(struct pfc_config *c, char **pos, int got)
{
	int i, r;

	if (got < 2)
		return usage_err(do_help, "pfc agent needs NAME and ports");
	if (!valid_name(pos[0]) || strlen(pos[0]) >= sizeof(c->node))
		return usage_err(do_help, "bad node name \"%s\"", pos[0]);
	snprintf(c->node, sizeof(c->node), "%s", pos[0]);
	for (i = 1; i < got; i++) {
		r = parse_port(c, pos[i]);
		if (r)
			return r;
	}
	return 0;
}

static int do_agent(int argc, char **argv)
{
	char *pos[PFC_MAX_PORTS + 2];
	struct agent_args a;
	struct pfc_config *c;
	int i, r, mtu, got;

	if (argc && is_help(argv[0]))
		return do_help(0, NULL);
	c = xcalloc(1, sizeof(*c));
	pfc_config_init(c);
	r = agent_parse(c, &a, argc, argv, pos, PFC_MAX_PORTS + 2, &got);
	if (!r)
		r = agent_node(c, pos, got);
	if (r)
		goto out;
	r = EXIT_USAGE;
	for (i = 0; i < c->nports; i++) {
		mtu = pfc_port_mtu(c->ports[i].ifname);
		if (mtu > 0 && (uint32_t)mtu + 18 > c->frame)
			c->frame = mtu + 18;
	}
	if (pfc_config_finish(c)) {
		p_err("XON must be below XOFF");
		goto out;
	}
	if (a.dir)
		snprintf(c->dir, sizeof(c->dir), "%s/%s", a.dir, c->node);
	else if (pfc_dir(c->node, c->dir, sizeof(c->dir))) {
		p_err("state directory name too long");
		goto out;
	}
	r = pfc_agent_run(c, a.trace);
out:
	free(c);
	return r;
}

static int do_send(int argc, char **argv)
{
	uint16_t quanta[PFC_PRIOS];
	unsigned long q;
	uint32_t mask;
	uint8_t mac[6];
	int ifindex, fd, i, r = 0, count = 1, got;
	char *pos[3];
	const struct opt opts[] = { { .name = "--count",
				      .type = OPT_INT,
				      .min = 1,
				      .max = 1000000,
				      .out = &count,
				      .deprecated = "count" },
				    { 0 } };

	if (argc && is_help(argv[0]))
		return do_help(0, NULL);
	if (opts_parse(opts, argc, argv, pos, 3, &got))
		return usage_help(do_help);
	if (got != 3)
		return usage_err(do_help, "pfc send needs IFNAME PRIOS QUANTA");
	argv = pos;
	if (prio_mask(argv[1], &mask) || !mask)
		return usage_err(do_help, "bad priorities \"%s\"", argv[1]);
	if (!parse_uint(argv[2], PFC_QUANTA_MAX, &q))
		return usage_err(do_help, "bad quanta \"%s\" (0..65535)",
				 argv[2]);
	ifindex = if_nametoindex(argv[0]);
	if (!ifindex) {
		p_err("%s: no such interface", argv[0]);
		return EXIT_USAGE;
	}
	for (i = 0; i < PFC_PRIOS; i++)
		quanta[i] = q;
	if (pfc_if_mac(ifindex, mac))
		memset(mac, 0, sizeof(mac));
	fd = pfc_sock_open(ifindex, 1, 0);
	if (fd < 0) {
		p_err("%s: %s", argv[0], strerror(-fd));
		return EXIT_RUNTIME;
	}
	for (i = 0; i < count && !r; i++)
		r = pfc_send(fd, ifindex, mac, mask, quanta);
	close(fd);
	if (r) {
		p_err("%s: send: %s", argv[0], strerror(-r));
		return EXIT_RUNTIME;
	}
	if (json_output)
		json_emit(json_pack("{s:s,s:i,s:i,s:i}", "dev", argv[0],
				    "vector", mask, "quanta", (int)q, "frames",
				    count));
	return 0;
}

/* What `headroom` takes besides the common options. */
struct headroom_args {
	int mtu, frame, ports;
	uint64_t buffer;
};

static int headroom_parse(struct pfc_config *c, struct headroom_args *h,
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
		return usage_help(do_help);
	if (h->buffer && !h->ports)
		return usage_err(do_help, "--buffer: needs --ports N");
	return 0;
}

static json_t *terms_json(const struct pfc_config *c,
			  const struct pfc_headroom_terms *t)
{
	return json_pack(
		"{s:I,s:i,s:i,s:i,s:I,s:I,s:i,s:I,s:I,s:I,s:I,s:I}", "rate_bps",
		(json_int_t)t->rate_bps, "frame", (int)t->frame, "pfc_frame",
		(int)t->pfc, "cable_m", (int)c->cable_m, "t_wire_ns",
		(json_int_t)t->t_wire_ns, "t_pro_ns", (json_int_t)t->t_pro_ns,
		"t_pro_quanta", (int)c->t_pro_quanta, "t_resp_ns",
		(json_int_t)t->t_resp_ns, "wire_bytes", (json_int_t)t->wire,
		"pro_bytes", (json_int_t)t->pro, "resp_bytes",
		(json_int_t)t->resp, "headroom", (json_int_t)t->total);
}

static void print_terms(const struct pfc_config *c,
			const struct pfc_headroom_terms *t)
{
	char wire[48], pro[32] = "";

	snprintf(wire, sizeof(wire), "(%u m x %d ns/m)", c->cable_m,
		 PFC_NS_PER_M);
	if (c->t_pro_quanta)
		snprintf(pro, sizeof(pro), "(%u quanta)", c->t_pro_quanta);
	printf("rate %.0f Mbit/s, s_MTU %u B (frame), s_PFC %u B\n",
	       t->rate_bps / 1e6, t->frame, t->pfc);
	printf("t_wire   %10" PRIu64 " ns %-20s r t_wire %" PRIu64 " B\n",
	       t->t_wire_ns, wire, t->wire);
	printf("t_pro    %10" PRIu64 " ns %-20s r t_pro  %" PRIu64 " B\n",
	       t->t_pro_ns, pro, t->pro);
	printf("t_resp   %10" PRIu64 " ns %-20s r t_resp %" PRIu64 " B\n",
	       t->t_resp_ns, "", t->resp);
	printf("headroom %" PRIu64 " B = 2 (%u + %u + %" PRIu64 ") + %" PRIu64
	       " + %" PRIu64 "\n",
	       t->total, t->frame, t->pfc, t->wire, t->pro, t->resp);
}

/* --ports: n ports x k lossless priorities x headroom, against --buffer. */
static json_t *switch_total(const struct pfc_config *c,
			    const struct headroom_args *h)
{
	int k = __builtin_popcount(c->lossless_mask);
	uint64_t total = h->ports * k * c->headroom[0];
	json_t *j;

	j = json_pack("{s:i,s:i,s:I}", "ports", (int)h->ports,
		      "lossless_priorities", k, "switch_headroom",
		      (json_int_t)total);
	if (h->buffer) {
		json_object_set_new(j, "buffer", json_integer(h->buffer));
		json_object_set_new(j, "fits",
				    json_boolean(total <= h->buffer));
	}
	return j;
}

static void print_switch(const json_t *sw, uint64_t headroom)
{
	uint64_t total =
		json_integer_value(json_object_get(sw, "switch_headroom"));
	uint64_t buffer = json_integer_value(json_object_get(sw, "buffer"));

	printf("switch   %" PRIu64
	       " B = %lld ports x %lld lossless priorities x %" PRIu64 " B\n",
	       total, json_integer_value(json_object_get(sw, "ports")),
	       json_integer_value(json_object_get(sw, "lossless_priorities")),
	       headroom);
	if (buffer && total <= buffer)
		printf("buffer   %" PRIu64
		       " B: fits, headroom is %.1f %% of it\n",
		       buffer, 100.0 * total / buffer);
	else if (buffer)
		printf("buffer   %" PRIu64 " B: does not fit, %" PRIu64
		       " B short\n",
		       buffer, total - buffer);
}

static int do_headroom(int argc, char **argv)
{
	struct headroom_args h = { .mtu = 1500 };
	struct pfc_headroom_terms t;
	struct pfc_config c;
	json_t *j, *sw;
	uint64_t q;
	int i, r;

	for (i = 0; i < argc; i++)
		if (is_help(argv[i]))
			return do_help(0, NULL);
	pfc_config_init(&c);
	r = headroom_parse(&c, &h, argc, argv);
	if (r)
		return r;
	c.frame = h.frame ? h.frame : h.mtu + 18;
	c.nports = h.ports ? h.ports : 1;
	pfc_config_finish(&c);
	pfc_headroom_terms(&c, &t);
	q = pfc_quanta_ns(c.quanta, c.rate_bps);
	sw = h.ports ? switch_total(&c, &h) : NULL;
	if (json_output) {
		j = terms_json(&c, &t);
		json_object_update_new(
			j, json_pack("{s:I,s:I,s:I,s:i,s:f,s:f}", "xoff",
				     (json_int_t)c.xoff[0], "xon",
				     (json_int_t)c.xon[0], "lossy_limit",
				     (json_int_t)c.lossy_limit, "quanta",
				     (int)c.quanta, "pause_ms", q / 1e6,
				     "refresh_ms", q / 2e6));
		if (sw)
			json_object_update_new(j, sw);
		json_emit(j);
		return 0;
	}
	print_terms(&c, &t);
	printf("xon      %" PRIu64 " B = r t_pro\n", c.xon[0]);
	printf("xoff     %" PRIu64 " B = xon + headroom\n", c.xoff[0]);
	printf("per in-port and priority at most xoff + headroom = %" PRIu64
	       " B\n",
	       c.xoff[0] + c.headroom[0]);
	printf("quanta   %u = %.3f ms pause, refreshed every %.3f ms\n",
	       c.quanta, q / 1e6, q / 2e6);
	if (sw)
		print_switch(sw, c.headroom[0]);
	json_decref(sw);
	return 0;
}

static int do_stop(int argc, char **argv)
{
	char dir[PATH_MAX];
	int r;

	if (argc < 1 || is_help(argv[0]))
		return argc ? do_help(0, NULL) :
			      usage_err(do_help, "pfc stop needs NAME");
	r = pfc_node_dir(argc, argv, dir, sizeof(dir), do_help);
	if (r)
		return r;
	return pfc_stop(argv[0], dir);
}

static const struct cmd pfc_cmds[] = { { "agent", do_agent },
				       { "show", do_pfc_show },
				       { "stop", do_stop },
				       { "detach", do_stop },
				       { "send", do_send },
				       { "headroom", do_headroom },
				       { 0 } };

int do_pfc(int argc, char **argv)
{
	return cmd_select(pfc_cmds, argc, argv, do_help);
}
