// SPDX-License-Identifier: GPL-2.0
/* tagger flow send|recv: the lab's lossless-class test traffic (flow.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "flow.h"
#include "log.h"
#include "util.h"

static int help(int argc, char **argv)
{
	fprintf(stderr,
		"Usage: %s flow send DST [port N] [id N] [rate MBIT] [size BYTES]\n"
		"                       [dscp D] [prio P] [seconds S] [out FILE]\n"
		"       %s flow recv [port N] [interval MS] [seconds S] [out FILE]\n"
		"\n"
		"send: constant-rate UDP to DST (IPv4), datagrams of SIZE payload bytes\n"
		"      (default 1000) at RATE Mbit/s of payload (default 100), DSCP D\n"
		"      (default 0), socket priority P; blocks while the host is paused.\n"
		"      Ends after S seconds or on SIGINT/SIGTERM with a JSON summary.\n"
		"recv: per flow id, one JSON line each INTERVAL ms (default 100):\n"
		"      {t, flow, pkts, bytes, mbps, rx, lost}; a summary line per flow\n"
		"      ({final, flow, rx, rx_bytes, lost, late}) when it ends.\n"
		"Default port %d (RoCEv2's).\n",
		bin_name, bin_name, FLOW_PORT);
	return 0;
}

static bool num_arg(const char *s, double lo, double hi, double *out)
{
	char *end;
	double v = strtod(s, &end);

	if (end == s || *end || v < lo || v > hi)
		return false;
	*out = v;
	return true;
}

static FILE *open_out(const char *path)
{
	FILE *f = path ? fopen(path, "w") : stdout;

	if (!f)
		p_err("cannot write %s", path);
	return f;
}

/* Parse "key value" pairs; returns the value slot for key or NULL. */
static int kv_parse(int argc, char **argv, const char *const *keys, double *lo,
		    double *hi, double *vals, const char **outp)
{
	int i, k;

	for (i = 0; i < argc; i += 2) {
		if (i + 1 >= argc)
			return usage_err(help, "\"%s\" needs a value", argv[i]);
		if (!strcmp(argv[i], "out")) {
			*outp = argv[i + 1];
			continue;
		}
		for (k = 0; keys[k] && strcmp(keys[k], argv[i]); k++)
			;
		if (!keys[k])
			return usage_err(help, "What is \"%s\"?", argv[i]);
		if (!num_arg(argv[i + 1], lo[k], hi[k], &vals[k]))
			return usage_err(help, "bad %s \"%s\" (%g..%g)", keys[k],
					 argv[i + 1], lo[k], hi[k]);
	}
	return EXIT_OK;
}

static int do_send(int argc, char **argv)
{
	static const char *const keys[] = { "port", "id", "rate", "size", "dscp",
					    "prio", "seconds", NULL };
	double lo[] = { 1, 0, 0.001, sizeof(struct flow_hdr), 0, 0, 0 };
	double hi[] = { 65535, 4294967295.0, 100000, 65000, 63, 15, 1e6 };
	double v[] = { FLOW_PORT, 1, 100, 1000, 0, -1, 0 };
	const char *out = NULL;
	struct flow_send_opts o;
	int rc;

	if (argc < 1 || is_help(argv[0]))
		return argc < 1 ? usage_err(help, "send takes DST") : help(0, NULL);
	rc = kv_parse(argc - 1, argv + 1, keys, lo, hi, v, &out);
	if (rc)
		return rc;
	o = (struct flow_send_opts){ .dst = argv[0], .port = (int)v[0],
		.flow = (uint32_t)v[1], .mbit = v[2], .size = (int)v[3],
		.dscp = (int)v[4], .prio = (int)v[5], .seconds = v[6],
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
	static const char *const keys[] = { "port", "interval", "seconds", NULL };
	double lo[] = { 1, 1, 0 }, hi[] = { 65535, 60000, 1e6 };
	double v[] = { FLOW_PORT, 100, 0 };
	const char *out = NULL;
	struct flow_recv_opts o;
	int rc;

	if (argc >= 1 && is_help(argv[0]))
		return help(0, NULL);
	rc = kv_parse(argc, argv, keys, lo, hi, v, &out);
	if (rc)
		return rc;
	o = (struct flow_recv_opts){ .port = (int)v[0], .interval_ms = (int)v[1],
		.seconds = v[2], .out = open_out(out) };
	if (!o.out)
		return EXIT_USAGE;
	rc = flow_recv(&o);
	if (out)
		fclose(o.out);
	return rc;
}

int do_flow(int argc, char **argv)
{
	static const struct cmd cmds[] = {
		{ "send", do_send },
		{ "recv", do_recv },
		{ 0 }
	};

	return cmd_select(cmds, argc, argv, help);
}
