// SPDX-License-Identifier: GPL-2.0
/* tagger flow send|recv: the lab's lossless-class test traffic (flow.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cmd.h"
#include "lab/flow.h"
#include "lib/log.h"
#include "cli/opts.h"
#include "lib/util.h"

/* A number option of a flow, within [lo, hi] (fractions allowed). */
struct num {
	double v, lo, hi;
};

static int num_opt(const struct opt *o, const char *s)
{
	struct num *n = o->out;
	char *end;
	double v = strtod(s, &end);

	if (end == s || *end || v < n->lo || v > n->hi) {
		p_err("%s wants a number from %g to %g, not \"%s\"", o->name,
		      n->lo, n->hi, s);
		return 1;
	}
	n->v = v;
	return 0;
}

/* The options of send and recv; do_send and do_recv reset them first. */
static struct {
	struct num port, id, rate, size, dscp, prio, secs, interval;
	const char *out;
} arg;

#define NUM_OPT(opt, word, num, mv, h) \
	OPT_FUNC(opt, num_opt, &arg.num, mv, h, .deprecated = word)
#define PORT_OPT NUM_OPT("--port", "port", port, "N", "UDP port")
#define SECS_OPT                                   \
	NUM_OPT("--seconds", "seconds", secs, "S", \
		"stop after S seconds (default 0: at SIGINT or SIGTERM)")
#define OUT_OPT                                                               \
	OPT_STR("-o", &arg.out, "FILE", "the JSON lines to FILE, not stdout", \
		.deprecated = "out")

static const struct opt send_opts[] = {
	PORT_OPT,
	NUM_OPT("--id", "id", id, "N", "flow id of every datagram (default 1)"),
	NUM_OPT("--rate", "rate", rate, "MBIT",
		"payload rate, Mbit/s (default 100)"),
	NUM_OPT("--size", "size", size, "BYTES",
		"payload per datagram (default 1000)"),
	NUM_OPT("--dscp", "dscp", dscp, "D", "DSCP codepoint (default 0)"),
	NUM_OPT("--prio", "prio", prio, "P",
		"socket priority, 0 to 15 (default: not set)"),
	SECS_OPT,
	OUT_OPT,
	{ 0 }
};

static const struct opt recv_opts[] = {
	PORT_OPT,
	NUM_OPT("--interval", "interval", interval, "MS",
		"milliseconds between samples (default 100)"),
	SECS_OPT,
	OUT_OPT,
	{ 0 }
};

static int help(int argc, char **argv)
{
	fprintf(stderr, "Usage: %s flow send DST", bin_name);
	opts_synopsis(stderr, send_opts);
	fprintf(stderr, "\n       %s flow recv", bin_name);
	opts_synopsis(stderr, recv_opts);
	fprintf(stderr,
		"\n"
		"\n"
		"send: constant-rate UDP to DST (IPv4), datagrams of SIZE payload bytes\n"
		"      (default 1000) at RATE Mbit/s of payload (default 100), DSCP D\n"
		"      (default 0), socket priority P; blocks while the host is paused.\n"
		"      Ends after S seconds or on SIGINT/SIGTERM with a JSON summary.\n"
		"recv: per flow id, one JSON line each INTERVAL ms (default 100):\n"
		"      {t, flow, pkts, bytes, mbps, rx, lost}; a summary line per flow\n"
		"      ({final, flow, rx, rx_bytes, lost, late}) when it ends.\n"
		"Default port %d (RoCEv2's). The bare words of old (port N, out FILE)\n"
		"still work for a release, with a warning.\n"
		"\n"
		"OPTIONS of send:\n",
		FLOW_PORT);
	opts_usage(stderr, send_opts);
	fprintf(stderr, "OPTIONS of recv:\n");
	opts_usage(stderr, recv_opts);
	return 0;
}

/* Defaults and limits of every number option. */
static void reset_args(void)
{
	arg.port = (struct num){ FLOW_PORT, 1, 65535 };
	arg.id = (struct num){ 1, 0, 4294967295.0 };
	arg.rate = (struct num){ 100, 0.001, 100000 };
	arg.size = (struct num){ 1000, sizeof(struct flow_hdr), 65000 };
	arg.dscp = (struct num){ 0, 0, 63 };
	arg.prio = (struct num){ -1, 0, 15 };
	arg.secs = (struct num){ 0, 0, 1e6 };
	arg.interval = (struct num){ 100, 1, 60000 };
	arg.out = NULL;
}

static FILE *open_out(const char *path)
{
	FILE *f = path ? fopen(path, "w") : stdout;

	if (!f)
		p_err("cannot write %s: %m", path);
	return f;
}

static int do_send(int argc, char **argv)
{
	struct flow_send_opts o;
	char *dst;
	int rc, got;

	if (argc >= 1 && is_help(argv[0]))
		return help(0, NULL);
	reset_args();
	if (opts_parse(send_opts, argc, argv, &dst, 1, &got))
		return usage_help(help);
	if (!got)
		return usage_err(help, "send takes DST");
	o = (struct flow_send_opts){ .dst = dst,
				     .port = (int)arg.port.v,
				     .flow = (uint32_t)arg.id.v,
				     .mbit = arg.rate.v,
				     .size = (int)arg.size.v,
				     .dscp = (int)arg.dscp.v,
				     .prio = (int)arg.prio.v,
				     .seconds = arg.secs.v,
				     .out = open_out(arg.out) };
	if (!o.out)
		return EXIT_USAGE;
	rc = flow_send(&o);
	if (arg.out)
		fclose(o.out);
	return rc;
}

static int do_recv(int argc, char **argv)
{
	struct flow_recv_opts o;
	int rc;

	if (argc >= 1 && is_help(argv[0]))
		return help(0, NULL);
	reset_args();
	if (opts_parse(recv_opts, argc, argv, NULL, 0, NULL))
		return usage_help(help);
	o = (struct flow_recv_opts){ .port = (int)arg.port.v,
				     .interval_ms = (int)arg.interval.v,
				     .seconds = arg.secs.v,
				     .out = open_out(arg.out) };
	if (!o.out)
		return EXIT_USAGE;
	rc = flow_recv(&o);
	if (arg.out)
		fclose(o.out);
	return rc;
}

int do_flow(int argc, char **argv)
{
	static const struct cmd cmds[] = { { "send", do_send },
					   { "recv", do_recv },
					   { 0 } };

	return cmd_select(cmds, argc, argv, help);
}
