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
		"                    --busy-poll US | --trace FILE | --dir DIR }\n"
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
		"d/8, wrr, watchdog 200 ms report, rt-prio 10, cpu-latency 0,\n"
		"busy-poll 2000 (the agent polls for up to 2 ms around each\n"
		"expected resume: at most that much CPU per pause, 1/4 of a CPU);\n"
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

/*
 * "--opt=V": the name into name, V returned; "--opt": the name, NULL (the
 * value, if any, is the next argument).
 */
static const char *opt_split(const char *arg, char *name, size_t len)
{
	const char *eq = arg[0] == '-' ? strchr(arg, '=') : NULL;
	size_t n = eq ? (size_t)(eq - arg) : strlen(arg);

	if (n >= len)
		n = len - 1;
	memcpy(name, arg, n);
	name[n] = '\0';
	return eq ? eq + 1 : NULL;
}

/* --t-pro: a time, or Nq, N quanta (512 bit times each, 1..65535). */
static int t_pro_value(struct pfc_config *c, const char *v)
{
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

/*
 * The link terms of the headroom formula, for the agent and `headroom`
 * alike: 0 taken, -1 a bad value, 1 not one of them.
 */
static int link_option(struct pfc_config *c, const char *a, const char *v)
{
	if (!strcmp(a, "--cable"))
		return pfc_parse_meters(v, &c->cable_m) ? 0 : -1;
	if (!strcmp(a, "--t-pro"))
		return t_pro_value(c, v);
	if (!strcmp(a, "--t-resp"))
		return pfc_parse_time(v, "us", &c->t_resp_ns) ? 0 : -1;
	return 1;
}

#define NEED_ARG()                                                        \
	do {                                                              \
		if (i + 1 >= argc)                                        \
			return usage_err(do_help, "%s needs a value", a); \
		v = argv[++i];                                            \
	} while (0)

static int agent_option(struct pfc_config *c, int argc, char **argv, int *ip,
			const char **trace, const char **dir)
{
	int i = *ip, r;
	char name[32];
	const char *a = name, *v = opt_split(argv[i], name, sizeof(name));
	unsigned long u;
	uint64_t x;

	bool *flag = !strcmp(a, "--keep-offloads") ? &c->keep_offloads :
		     !strcmp(a, "--slow-pause")	   ? &c->slow_pause :
						     NULL;

	if (flag) {
		if (v)
			return usage_err(do_help, "%s takes no value", a);
		*flag = true;
		return 0;
	}
	if (!v)
		NEED_ARG();
	*ip = i;
	r = link_option(c, a, v);
	if (r <= 0) {
		if (r)
			goto bad;
	} else if (!strcmp(a, "--rate")) {
		if (!pfc_parse_rate(v, &c->rate_bps))
			goto bad;
	} else if (!strcmp(a, "--lossless")) {
		if (prio_mask(v, &c->lossless_mask))
			goto bad;
	} else if (!strcmp(a, "--xoff")) {
		if (per_prio(v, c->xoff))
			goto bad;
	} else if (!strcmp(a, "--xon")) {
		if (per_prio(v, c->xon))
			goto bad;
	} else if (!strcmp(a, "--headroom")) {
		if (per_prio(v, c->headroom))
			goto bad;
	} else if (!strcmp(a, "--quanta")) {
		if (!parse_uint(v, PFC_QUANTA_MAX, &u) || !u)
			goto bad;
		c->quanta = u;
	} else if (!strcmp(a, "--sched")) {
		if (!strcmp(v, "wrr"))
			c->sched = PFC_SCHED_WRR;
		else if (!strcmp(v, "strict"))
			c->sched = PFC_SCHED_STRICT;
		else
			goto bad;
	} else if (!strcmp(a, "--weights")) {
		int *w, n = split_list(v, 1, 1000, &w), k;

		if (n != PFC_PRIOS) {
			if (n > 0)
				free(w);
			goto bad;
		}
		for (k = 0; k < n; k++)
			c->weight[k] = w[k];
		free(w);
	} else if (!strcmp(a, "--watchdog-ms")) {
		if (!parse_uint(v, 3600000, &u) || !u)
			goto bad;
		c->wd_detect_ms = u;
	} else if (!strcmp(a, "--watchdog-restore-ms")) {
		if (!parse_uint(v, 3600000, &u) || !u)
			goto bad;
		c->wd_restore_ms = u;
	} else if (!strcmp(a, "--watchdog-action")) {
		if (!strcmp(v, "report"))
			c->wd_action = PFC_WD_REPORT;
		else if (!strcmp(v, "ignore"))
			c->wd_action = PFC_WD_IGNORE;
		else if (!strcmp(v, "drop"))
			c->wd_action = PFC_WD_DROP;
		else
			goto bad;
	} else if (!strcmp(a, "--backend")) {
		if (!strcmp(v, "auto"))
			c->backend = PFC_BACKEND_AUTO;
		else if (!strcmp(v, "mqprio"))
			c->backend = PFC_BACKEND_MQPRIO;
		else if (!strcmp(v, "htb"))
			c->backend = PFC_BACKEND_HTB;
		else if (!strcmp(v, "dcb"))
			c->backend = PFC_BACKEND_DCB;
		else
			goto bad;
	} else if (!strcmp(a, "--dscp-map")) {
		if (pfc_parse_dscp_map(v, c->dscp_prio))
			goto bad;
	} else if (!strcmp(a, "--lossless-limit")) {
		if (!pfc_parse_size(v, &x))
			goto bad;
		c->lossless_limit = x;
	} else if (!strcmp(a, "--lossy-limit")) {
		if (!pfc_parse_size(v, &x))
			goto bad;
		c->lossy_limit = x;
	} else if (!strcmp(a, "--rt-prio")) {
		if (!parse_uint(v, 99, &u))
			goto bad;
		c->rt_prio = u;
	} else if (!strcmp(a, "--cpu-latency")) {
		if (!strcmp(v, "none"))
			c->cpu_latency_us = PFC_CPU_LATENCY_NONE;
		else if (!parse_uint(v, 1000000, &u))
			goto bad;
		else
			c->cpu_latency_us = u;
	} else if (!strcmp(a, "--busy-poll")) {
		if (!parse_uint(v, 1000000, &u))
			goto bad;
		c->busy_poll_us = u;
	} else if (!strcmp(a, "--trace")) {
		*trace = v;
	} else if (!strcmp(a, "--dir")) {
		*dir = v;
	} else {
		return usage_err(do_help, "What is \"%s\"?", a);
	}
	return 0;
bad:
	return usage_err(do_help, "%s: bad value \"%s\"", a, v);
}

static int do_agent(int argc, char **argv)
{
	struct pfc_config *c;
	const char *trace = NULL, *dir = NULL;
	int i, r, mtu;

	if (argc < 2 || is_help(argv[0]))
		return argc && is_help(argv[0]) ?
			       do_help(0, NULL) :
			       usage_err(do_help,
					 "pfc agent needs NAME and ports");
	c = xcalloc(1, sizeof(*c));
	pfc_config_init(c);
	if (!valid_name(argv[0]) || strlen(argv[0]) >= sizeof(c->node)) {
		free(c);
		return usage_err(do_help, "bad node name \"%s\"", argv[0]);
	}
	snprintf(c->node, sizeof(c->node), "%s", argv[0]);
	for (i = 1; i < argc; i++) {
		r = argv[i][0] == '-' ?
			    agent_option(c, argc, argv, &i, &trace, &dir) :
			    parse_port(c, argv[i]);
		if (r)
			goto out;
	}
	r = EXIT_USAGE;
	if (!c->nports) {
		usage_err(do_help, "pfc agent needs at least one port");
		goto out;
	}
	for (i = 0; i < c->nports; i++) {
		mtu = pfc_port_mtu(c->ports[i].ifname);
		if (mtu > 0 && (uint32_t)mtu + 18 > c->frame)
			c->frame = mtu + 18;
	}
	if (pfc_config_finish(c)) {
		p_err("XON must be below XOFF");
		goto out;
	}
	if (dir)
		snprintf(c->dir, sizeof(c->dir), "%s/%s", dir, c->node);
	else if (pfc_dir(c->node, c->dir, sizeof(c->dir))) {
		p_err("state directory name too long");
		goto out;
	}
	r = pfc_agent_run(c, trace);
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

/* What `headroom` takes besides the link terms. */
struct headroom_args {
	unsigned long mtu, frame, ports;
	uint64_t buffer;
};

/* 0 taken, -1 a bad value, 1 not one of them; "rate", "mtu": older forms. */
static int headroom_option(struct pfc_config *c, struct headroom_args *h,
			   const char *a, const char *v)
{
	if (!strcmp(a, "--rate") || !strcmp(a, "rate"))
		return pfc_parse_rate(v, &c->rate_bps) ? 0 : -1;
	if (!strcmp(a, "--mtu") || !strcmp(a, "mtu"))
		return parse_uint(v, 65535, &h->mtu) && h->mtu >= 68 ? 0 : -1;
	if (!strcmp(a, "--frame"))
		return parse_uint(v, 65535, &h->frame) && h->frame >= 64 ? 0 :
									   -1;
	if (!strcmp(a, "--lossless"))
		return prio_mask(v, &c->lossless_mask);
	if (!strcmp(a, "--ports"))
		return parse_uint(v, 4096, &h->ports) && h->ports ? 0 : -1;
	if (!strcmp(a, "--buffer"))
		return pfc_parse_size(v, &h->buffer) ? 0 : -1;
	return 1;
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
	const char *a, *v;
	char name[32];
	json_t *j, *sw;
	uint64_t q;
	int i, r;

	pfc_config_init(&c);
	for (i = 0; i < argc; i++) {
		if (is_help(argv[i]))
			return do_help(0, NULL);
		a = name;
		v = opt_split(argv[i], name, sizeof(name));
		if (!v && i + 1 >= argc)
			return usage_err(do_help, "%s needs a value", a);
		if (!v)
			v = argv[++i];
		r = link_option(&c, a, v);
		if (r > 0)
			r = headroom_option(&c, &h, a, v);
		if (r > 0)
			return usage_err(do_help, "What is \"%s\"?", a);
		if (r < 0)
			return usage_err(do_help, "%s: bad value \"%s\"", a, v);
	}
	if (h.buffer && !h.ports)
		return usage_err(do_help, "--buffer: needs --ports N");
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
