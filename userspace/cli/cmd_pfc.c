// SPDX-License-Identifier: GPL-2.0
/*
 * tagger pfc: the PFC-like pause for ports without hardware PFC.
 *
 *   tagger pfc agent NAME PORT[=IFNAME]... [OPTIONS]   run, foreground
 *   tagger [-j] pfc show NAME                          counters
 *   tagger pfc stop NAME                               stop, clean up
 *   tagger pfc send IFNAME PRIOS QUANTA [--count N]    one PFC frame
 *   tagger pfc watchdog NAME big-red-switch on|off     on a running agent
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
#include "lib/json_get.h"
#include "lib/log.h"
#include "cli/opts.h"
#include "pfc/pfc_agent.h"
#include "cli/cmd_pfc.h"
#include "pfc/pfc_config.h"
#include "pfc/pfc_frame.h"
#include "pfc/pfc_node.h"
#include "pfc/pfc_port.h"
#include "pfc/pfc_state.h"
#include "lib/util.h"

/* One command per process: the table's target is this one's option. */
static int send_count;
static const struct opt send_opts[] = {
	OPT_INT("--count", &send_count, 1, 1000000, "N",
		"send: frames to send (1)", .deprecated = "count"),
	{ 0 },
};

int pfc_help(int argc, char **argv)
{
	fprintf(stderr,
		"Usage: %1$s pfc agent NAME PORT[=IFNAME][@RATE]... [OPTIONS]\n"
		"       %1$s [-j] pfc show NAME [--dir DIR]\n"
		"       %1$s pfc stop NAME [--dir DIR]\n"
		"       %1$s pfc send IFNAME PRIOS QUANTA [--count N]\n"
		"       %1$s [-j] pfc watchdog NAME big-red-switch { on | off } [--dir DIR]\n"
		"       %1$s [-j] pfc headroom [--rate RATE] [{ --mtu BYTES | --frame BYTES }]\n"
		"                    [LINK...] [--lossless PRIOS] [--ports N [--buffer B]]\n"
		"       %1$s pfc help\n"
		"where  LINK := { --cable METERS | --t-pro { TIME | Nq } | --t-resp TIME }\n"
		"       RATE := tc rate (100mbit, 1gbit); B := bytes (64k) or\n"
		"               PRIO:BYTES,... per priority; PRIOS := 3,4 | 0-7 | none\n"
		"       TIME := microseconds (1.5) or with a unit (768ns, 1ms)\n"
		"       Every option is --opt V or --opt=V.\n"
		"\n"
		"OPTIONS of the agent:\n",
		bin_name);
	pfc_options_usage(stderr, false);
	fprintf(stderr, "headroom takes --rate, --lossless and LINK, and:\n");
	pfc_options_usage(stderr, true);
	fprintf(stderr, "show, stop and send:\n");
	opts_usage_with(stderr, pfc_node_opts, send_opts);
	fprintf(stderr,
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
		"A start that fails removes what it set up before it exits (2: bad\n"
		"input, such as a rate below what the kernel's shapers take, 64bit\n"
		"with the default weights; 3: a runtime failure).\n"
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

static int do_agent(int argc, char **argv)
{
	const char *trace = NULL, *dir = NULL;
	struct pfc_config *c;
	char why[160];
	int i, r, mtu;

	if (argc && is_help(argv[0]))
		return pfc_help(0, NULL);
	c = xcalloc(1, sizeof(*c));
	pfc_config_init(c);
	r = pfc_agent_args(c, argc, argv, &trace, &dir);
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
	if (pfc_ecn_bad(c, why, sizeof(why))) {
		p_err("%s", why);
		goto out;
	}
	i = pfc_rate_too_low(c);
	if (i >= 0) {
		p_err("%s (%s): rate %" PRIu64
		      " bit/s is too low: the kernel's "
		      "shaper needs at least %" PRIu64 " bit/s here (1 byte/s "
		      "for every priority's share)",
		      c->ports[i].name, c->ports[i].ifname, pfc_port_rate(c, i),
		      pfc_min_rate(c));
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
	int ifindex, fd, i, r = 0, got;
	char *pos[3];

	if (argc && is_help(argv[0]))
		return pfc_help(0, NULL);
	send_count = 1;
	if (opts_parse(send_opts, argc, argv, pos, 3, &got))
		return usage_help(pfc_help);
	if (got != 3)
		return usage_err(pfc_help,
				 "pfc send needs IFNAME PRIOS QUANTA");
	argv = pos;
	if (pfc_prio_mask(argv[1], &mask) || !mask)
		return usage_err(pfc_help, "bad priorities \"%s\"", argv[1]);
	if (!parse_uint(argv[2], PFC_QUANTA_MAX, &q))
		return usage_err(pfc_help, "bad quanta \"%s\" (0..65535)",
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
	for (i = 0; i < send_count && !r; i++)
		r = pfc_send(fd, ifindex, mac, mask, quanta);
	close(fd);
	if (r) {
		p_err("%s: send: %s", argv[0], strerror(-r));
		return EXIT_RUNTIME;
	}
	if (json_output)
		json_emit(json_pack("{s:s,s:i,s:i,s:i}", "dev", argv[0],
				    "vector", mask, "quanta", (int)q, "frames",
				    send_count));
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

/* The terms of the formula, from terms_json()'s object. */
static void print_terms(const json_t *j)
{
	char wire[48], pro[32] = "";

	snprintf(wire, sizeof(wire), "(%lld m x %d ns/m)",
		 jget_int(j, "cable_m"), PFC_NS_PER_M);
	if (jget_int(j, "t_pro_quanta"))
		snprintf(pro, sizeof(pro), "(%lld quanta)",
			 jget_int(j, "t_pro_quanta"));
	printf("rate %.0f Mbit/s, s_MTU %lld B (frame), s_PFC %lld B\n",
	       jget_int(j, "rate_bps") / 1e6, jget_int(j, "frame"),
	       jget_int(j, "pfc_frame"));
	printf("t_wire   %10lld ns %-20s r t_wire %lld B\n",
	       jget_int(j, "t_wire_ns"), wire, jget_int(j, "wire_bytes"));
	printf("t_pro    %10lld ns %-20s r t_pro  %lld B\n",
	       jget_int(j, "t_pro_ns"), pro, jget_int(j, "pro_bytes"));
	printf("t_resp   %10lld ns %-20s r t_resp %lld B\n",
	       jget_int(j, "t_resp_ns"), "", jget_int(j, "resp_bytes"));
	printf("headroom %lld B = 2 (%lld + %lld + %lld) + %lld + %lld\n",
	       jget_int(j, "headroom"), jget_int(j, "frame"),
	       jget_int(j, "pfc_frame"), jget_int(j, "wire_bytes"),
	       jget_int(j, "pro_bytes"), jget_int(j, "resp_bytes"));
}

/* --ports: n ports x k lossless priorities x headroom, against --buffer. */
static json_t *switch_total(const struct pfc_config *c,
			    const struct pfc_headroom_args *h)
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

static void print_switch(const json_t *j)
{
	long long total = jget_int(j, "switch_headroom"),
		  buffer = jget_int(j, "buffer");

	printf("switch   %lld B = %lld ports x %lld lossless priorities x %lld B\n",
	       total, jget_int(j, "ports"), jget_int(j, "lossless_priorities"),
	       jget_int(j, "headroom"));
	if (buffer && total <= buffer)
		printf("buffer   %lld B: fits, headroom is %.1f %% of it\n",
		       buffer, 100.0 * total / buffer);
	else if (buffer)
		printf("buffer   %lld B: does not fit, %lld B short\n", buffer,
		       total - buffer);
}

/* The text of `headroom`, from the object -j prints. */
static void print_headroom(const json_t *j)
{
	print_terms(j);
	printf("xon      %lld B = r t_pro\n", jget_int(j, "xon"));
	printf("xoff     %lld B = xon + headroom\n", jget_int(j, "xoff"));
	printf("per in-port and priority at most xoff + headroom = %lld B\n",
	       jget_int(j, "xoff") + jget_int(j, "headroom"));
	printf("quanta   %lld = %.3f ms pause, refreshed every %.3f ms\n",
	       jget_int(j, "quanta"), jget_real(j, "pause_ms"),
	       jget_real(j, "refresh_ms"));
	if (json_object_get(j, "switch_headroom"))
		print_switch(j);
}

static int do_headroom(int argc, char **argv)
{
	struct pfc_headroom_args h = { .mtu = 1500 };
	struct pfc_headroom_terms t;
	struct pfc_config c;
	json_t *j;
	uint64_t q;
	int i, r;

	for (i = 0; i < argc; i++)
		if (is_help(argv[i]))
			return pfc_help(0, NULL);
	pfc_config_init(&c);
	r = pfc_headroom_args(&c, &h, argc, argv);
	if (r)
		return r;
	c.frame = h.frame ? h.frame : h.mtu + 18;
	c.nports = h.ports ? h.ports : 1;
	pfc_config_finish(&c);
	pfc_headroom_terms(&c, &t);
	q = pfc_quanta_ns(c.quanta, c.rate_bps);
	j = terms_json(&c, &t);
	json_object_update_new(j, json_pack("{s:I,s:I,s:I,s:i,s:f,s:f}", "xoff",
					    (json_int_t)c.xoff[0], "xon",
					    (json_int_t)c.xon[0], "lossy_limit",
					    (json_int_t)c.lossy_limit, "quanta",
					    (int)c.quanta, "pause_ms", q / 1e6,
					    "refresh_ms", q / 2e6));
	if (h.ports)
		json_object_update_new(j, switch_total(&c, &h));
	if (json_output) {
		json_emit(j);
	} else {
		print_headroom(j);
		json_decref(j);
	}
	return 0;
}

static int do_stop(int argc, char **argv)
{
	char dir[PATH_MAX];
	int r;

	if (argc < 1 || is_help(argv[0]))
		return argc ? pfc_help(0, NULL) :
			      usage_err(pfc_help, "pfc stop needs NAME");
	r = pfc_node_dir(argc, argv, dir, sizeof(dir), pfc_help);
	if (r)
		return r;
	return pfc_stop(argv[0], dir);
}

/* pfc watchdog NAME big-red-switch on|off [--dir DIR] */
static int do_watchdog(int argc, char **argv)
{
	char dir[PATH_MAX], *w[4];
	int r, got;
	bool on;

	if (argc < 1 || is_help(argv[0]))
		return argc ? pfc_help(0, NULL) :
			      usage_err(pfc_help, "pfc watchdog needs NAME");
	r = pfc_node_dir_words(argc, argv, w, 4, &got, dir, sizeof(dir),
			       pfc_help);
	if (r)
		return r;
	if (got != 3 || strcmp(w[1], "big-red-switch"))
		return usage_err(pfc_help, "pfc watchdog NAME big-red-switch "
					   "{ on | off }");
	if (strcmp(w[2], "on") && strcmp(w[2], "off"))
		return usage_err(pfc_help, "big-red-switch: \"%s\": on or off",
				 w[2]);
	on = !strcmp(w[2], "on");
	r = pfc_node_brs(w[0], dir, on);
	if (r)
		return r;
	if (json_output)
		json_emit(json_pack("{s:s,s:b}", "node", w[0], "big_red_switch",
				    on));
	else
		pr_info("%s: big red switch %s\n", w[0], on ? "on" : "off");
	return 0;
}

static const struct cmd pfc_cmds[] = {
	{ "agent", do_agent },	     { "watchdog", do_watchdog },
	{ "show", do_pfc_show },     { "stop", do_stop },
	{ "detach", do_stop },	     { "send", do_send },
	{ "headroom", do_headroom }, { 0 }
};

int do_pfc(int argc, char **argv)
{
	return cmd_select(pfc_cmds, argc, argv, pfc_help);
}
