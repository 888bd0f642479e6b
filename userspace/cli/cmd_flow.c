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

static int help(int argc, char **argv)
{
	fprintf(stderr,
		"Usage: %s flow send DST [--port N] [--id N] [--rate MBIT] [--size BYTES]\n"
		"                       [--dscp D] [--prio P] [--seconds S] [-o FILE]\n"
		"       %s flow recv [--port N] [--interval MS] [--seconds S] [-o FILE]\n"
		"\n"
		"send: constant-rate UDP to DST (IPv4), datagrams of SIZE payload bytes\n"
		"      (default 1000) at RATE Mbit/s of payload (default 100), DSCP D\n"
		"      (default 0), socket priority P; blocks while the host is paused.\n"
		"      Ends after S seconds or on SIGINT/SIGTERM with a JSON summary.\n"
		"recv: per flow id, one JSON line each INTERVAL ms (default 100):\n"
		"      {t, flow, pkts, bytes, mbps, rx, lost}; a summary line per flow\n"
		"      ({final, flow, rx, rx_bytes, lost, late}) when it ends.\n"
		"Default port %d (RoCEv2's). The bare words of old (port N, out FILE)\n"
		"still work for a release, with a warning.\n",
		bin_name, bin_name, FLOW_PORT);
	return 0;
}

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

#define NUM_OPT(opt, word, num)                                             \
	{                                                                   \
		.name = opt, .type = OPT_FUNC, .out = num, .func = num_opt, \
		.deprecated = word                                          \
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
	struct num port = { FLOW_PORT, 1, 65535 }, id = { 1, 0, 4294967295.0 };
	struct num rate = { 100, 0.001, 100000 };
	struct num size = { 1000, sizeof(struct flow_hdr), 65000 };
	struct num dscp = { 0, 0, 63 }, prio = { -1, 0, 15 },
		   secs = { 0, 0, 1e6 };
	const char *out = NULL;
	const struct opt opts[] = { NUM_OPT("--port", "port", &port),
				    NUM_OPT("--id", "id", &id),
				    NUM_OPT("--rate", "rate", &rate),
				    NUM_OPT("--size", "size", &size),
				    NUM_OPT("--dscp", "dscp", &dscp),
				    NUM_OPT("--prio", "prio", &prio),
				    NUM_OPT("--seconds", "seconds", &secs),
				    { .name = "-o",
				      .type = OPT_STR,
				      .out = &out,
				      .deprecated = "out" },
				    { 0 } };
	struct flow_send_opts o;
	char *dst;
	int rc, got;

	if (argc >= 1 && is_help(argv[0]))
		return help(0, NULL);
	if (opts_parse(opts, argc, argv, &dst, 1, &got))
		return usage_help(help);
	if (!got)
		return usage_err(help, "send takes DST");
	o = (struct flow_send_opts){ .dst = dst,
				     .port = (int)port.v,
				     .flow = (uint32_t)id.v,
				     .mbit = rate.v,
				     .size = (int)size.v,
				     .dscp = (int)dscp.v,
				     .prio = (int)prio.v,
				     .seconds = secs.v,
				     .out = open_out(out) };
	if (!o.out)
		return EXIT_USAGE;
	rc = flow_send(&o);
	if (out)
		fclose(o.out);
	return rc;
}

static int do_recv(int argc, char **argv)
{
	struct num port = { FLOW_PORT, 1, 65535 }, interval = { 100, 1, 60000 };
	struct num secs = { 0, 0, 1e6 };
	const char *out = NULL;
	const struct opt opts[] = { NUM_OPT("--port", "port", &port),
				    NUM_OPT("--interval", "interval",
					    &interval),
				    NUM_OPT("--seconds", "seconds", &secs),
				    { .name = "-o",
				      .type = OPT_STR,
				      .out = &out,
				      .deprecated = "out" },
				    { 0 } };
	struct flow_recv_opts o;
	int rc;

	if (argc >= 1 && is_help(argv[0]))
		return help(0, NULL);
	if (opts_parse(opts, argc, argv, NULL, 0, NULL))
		return usage_help(help);
	o = (struct flow_recv_opts){ .port = (int)port.v,
				     .interval_ms = (int)interval.v,
				     .seconds = secs.v,
				     .out = open_out(out) };
	if (!o.out)
		return EXIT_USAGE;
	rc = flow_recv(&o);
	if (out)
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
