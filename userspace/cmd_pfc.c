// SPDX-License-Identifier: GPL-2.0
/*
 * tagger pfc: the PFC-like pause for ports without hardware PFC.
 *
 *   tagger pfc agent NAME PORT[=IFNAME]... [OPTIONS]   run, foreground
 *   tagger [-j] pfc show NAME                          counters
 *   tagger pfc stop NAME                               stop, clean up
 *   tagger pfc send IFNAME PRIOS QUANTA [count N]      one PFC frame
 *   tagger [-j] pfc headroom [rate R] [mtu N]          the buffer model
 */
#include <errno.h>
#include <inttypes.h>
#include <net/if.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"
#include "log.h"
#include "pfc_agent.h"
#include "pfc_cmd.h"
#include "pfc_config.h"
#include "pfc_frame.h"
#include "pfc_port.h"
#include "pfc_state.h"
#include "util.h"

static int do_help(int argc, char **argv)
{
	if (json_output) {
		json_emit(json_null());
		return 0;
	}
	fprintf(stderr,
		"Usage: %1$s pfc agent NAME PORT[=IFNAME][@RATE]... [OPTIONS]\n"
		"       %1$s [-j] pfc show NAME [dir DIR]\n"
		"       %1$s pfc stop NAME [dir DIR]\n"
		"       %1$s pfc send IFNAME PRIOS QUANTA [count N]\n"
		"       %1$s [-j] pfc headroom [rate RATE] [mtu BYTES]\n"
		"       %1$s pfc help\n"
		"where  OPTIONS := { --rate RATE | --lossless PRIOS | --xoff B |\n"
		"                    --xon B | --headroom B | --quanta Q |\n"
		"                    --sched { wrr | strict } | --weights W0,...,W7 |\n"
		"                    --watchdog-ms MS | --watchdog-restore-ms MS |\n"
		"                    --watchdog-action { report | ignore | drop } |\n"
		"                    --backend { auto | mqprio | htb | dcb } |\n"
		"                    --dscp-map DSCP:PRIO,... | --lossless-limit B |\n"
		"                    --lossy-limit B | --keep-offloads | --slow-pause |\n"
		"                    --rt-prio N | --cpu-latency { US | none } |\n"
		"                    --trace FILE | --dir DIR }\n"
		"       RATE := tc rate (100mbit, 1gbit); B := bytes (64k) or\n"
		"               PRIO:BYTES,... per priority; PRIOS := 3,4 | 0-7 | none\n"
		"\n"
		"The agent manages the ports of node NAME in the current network\n"
		"namespace until SIGINT/SIGTERM or `pfc stop`; its state is in\n"
		"$TAGGER_PFC_DIR/NAME (default /run/tagger/pfc/NAME).\n"
		"Defaults: rate 100mbit, lossless 3,4, quanta 65535, DSCP d -> prio\n"
		"d/8, wrr, watchdog 200 ms report, rt-prio 10, cpu-latency 0;\n"
		"XOFF, XON and headroom from the buffer model (see `%1$s pfc\n"
		"headroom`). --cpu-latency 0 keeps idle CPUs polling while the agent\n"
		"runs (a PM QoS request): pause reaction in tens of microseconds, at\n"
		"the cost of idle CPUs never sleeping; --cpu-latency none opts out.\n",
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
			if (!parse_uint(tok, 7, &prio) || !pfc_parse_size(c + 1, &v))
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

#define NEED_ARG()                                                          \
	do {                                                                \
		if (i + 1 >= argc)                                          \
			return usage_err(do_help, "%s needs a value", a);   \
		v = argv[++i];                                              \
	} while (0)

static int agent_option(struct pfc_config *c, int argc, char **argv, int *ip,
			const char **trace, const char **dir)
{
	int i = *ip;
	const char *a = argv[i], *v = NULL;
	unsigned long u;
	uint64_t x;

	if (!strcmp(a, "--keep-offloads")) {
		c->keep_offloads = true;
		return 0;
	}
	if (!strcmp(a, "--slow-pause")) {
		c->slow_pause = true;
		return 0;
	}
	NEED_ARG();
	*ip = i;
	if (!strcmp(a, "--rate")) {
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
		return argc && is_help(argv[0]) ? do_help(0, NULL) :
		       usage_err(do_help, "pfc agent needs NAME and ports");
	c = xcalloc(1, sizeof(*c));
	pfc_config_init(c);
	if (!valid_name(argv[0]) || strlen(argv[0]) >= sizeof(c->node)) {
		free(c);
		return usage_err(do_help, "bad node name \"%s\"", argv[0]);
	}
	snprintf(c->node, sizeof(c->node), "%s", argv[0]);
	for (i = 1; i < argc; i++) {
		r = argv[i][0] == '-' ? agent_option(c, argc, argv, &i, &trace, &dir) :
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
	unsigned long q, count = 1;
	uint32_t mask;
	uint8_t mac[6];
	int ifindex, fd, i, r = 0;

	if (argc && is_help(argv[0]))
		return do_help(0, NULL);
	if (argc != 3 && !(argc == 5 && !strcmp(argv[3], "count")))
		return usage_err(do_help, "pfc send needs IFNAME PRIOS QUANTA");
	if (prio_mask(argv[1], &mask) || !mask)
		return usage_err(do_help, "bad priorities \"%s\"", argv[1]);
	if (!parse_uint(argv[2], PFC_QUANTA_MAX, &q))
		return usage_err(do_help, "bad quanta \"%s\" (0..65535)", argv[2]);
	if (argc == 5 && (!parse_uint(argv[4], 1000000, &count) || !count))
		return usage_err(do_help, "bad count \"%s\"", argv[4]);
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
		return EXIT_PROBLEM;
	}
	for (i = 0; i < (int)count && !r; i++)
		r = pfc_send(fd, ifindex, mac, mask, quanta);
	close(fd);
	if (r) {
		p_err("%s: send: %s", argv[0], strerror(-r));
		return EXIT_PROBLEM;
	}
	if (json_output)
		json_emit(json_pack("{s:s,s:i,s:i,s:i}", "dev", argv[0],
				    "vector", mask, "quanta", (int)q,
				    "frames", (int)count));
	return 0;
}

static int do_headroom(int argc, char **argv)
{
	struct pfc_config c;
	uint64_t t;
	unsigned long mtu = 1500;
	int i;

	pfc_config_init(&c);
	for (i = 0; i < argc; i++) {
		if (is_help(argv[i]))
			return do_help(0, NULL);
		if (i + 1 >= argc)
			return usage_err(do_help, "%s needs a value", argv[i]);
		if (!strcmp(argv[i], "rate")) {
			if (!pfc_parse_rate(argv[++i], &c.rate_bps))
				return usage_err(do_help, "bad rate \"%s\"", argv[i]);
		} else if (!strcmp(argv[i], "mtu")) {
			if (!parse_uint(argv[++i], 65535, &mtu) || mtu < 68)
				return usage_err(do_help, "bad mtu \"%s\"", argv[i]);
		} else {
			return usage_err(do_help, "What is \"%s\"?", argv[i]);
		}
	}
	c.frame = mtu + 18;
	c.nports = 1;
	pfc_config_finish(&c);
	t = pfc_quanta_ns(c.quanta, c.rate_bps);
	if (json_output) {
		json_emit(json_pack("{s:I,s:i,s:I,s:I,s:I,s:I,s:i,s:f,s:f}",
				    "rate_bps", (json_int_t)c.rate_bps,
				    "frame", (int)c.frame,
				    "headroom", (json_int_t)c.headroom[0],
				    "xoff", (json_int_t)c.xoff[0],
				    "xon", (json_int_t)c.xon[0],
				    "lossy_limit", (json_int_t)c.lossy_limit,
				    "quanta", (int)c.quanta,
				    "pause_ms", t / 1e6, "refresh_ms", t / 2e6));
		return 0;
	}
	printf("rate %.0f Mbit/s, frame %u B (MTU + 18), t_pro %.1f ms\n",
	       c.rate_bps / 1e6, c.frame, PFC_T_PRO_NS / 1e6);
	printf("headroom %" PRIu64 " B = 2 (%u + %d) + r t_pro\n", c.headroom[0],
	       c.frame, PFC_WIRE_BYTES);
	printf("xon      %" PRIu64 " B = r t_pro\n", c.xon[0]);
	printf("xoff     %" PRIu64 " B = xon + headroom\n", c.xoff[0]);
	printf("per in-port and priority at most xoff + headroom = %" PRIu64 " B\n",
	       c.xoff[0] + c.headroom[0]);
	printf("quanta   %u = %.3f ms pause, refreshed every %.3f ms\n", c.quanta,
	       t / 1e6, t / 2e6);
	return 0;
}

static int do_stop(int argc, char **argv)
{
	char dir[PATH_MAX];
	int r;

	if (argc < 1 || is_help(argv[0]))
		return argc ? do_help(0, NULL) : usage_err(do_help, "pfc stop needs NAME");
	r = pfc_node_dir(argc, argv, dir, sizeof(dir), do_help);
	if (r)
		return r;
	return pfc_stop(argv[0], dir);
}

static const struct cmd pfc_cmds[] = {
	{ "agent", do_agent },
	{ "show", do_pfc_show },
	{ "stop", do_stop },
	{ "detach", do_stop },
	{ "send", do_send },
	{ "headroom", do_headroom },
	{ 0 }
};

int do_pfc(int argc, char **argv)
{
	return cmd_select(pfc_cmds, argc, argv, do_help);
}
