// SPDX-License-Identifier: GPL-2.0
/* tagger pfc show and stop: read and end a running agent; see pfc_cmd.h. */
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/cmd.h"
#include "lib/json_get.h"
#include "lib/log.h"
#include "cli/opts.h"
#include "pfc/pfc_agent.h"
#include "cli/cmd_pfc.h"
#include "pfc/pfc_ident.h"
#include "pfc/pfc_tc.h"
#include "pfc/pfc_loop.h"
#include "pfc/pfc_node.h"
#include "pfc/pfc_reasons.h"
#include "pfc/pfc_state.h"
#include "lib/util.h"

static int show_help(int argc, char **argv)
{
	fprintf(stderr,
		"Usage: %1$s [-j] pfc show NAME [--dir DIR]\n"
		"       %1$s pfc stop NAME [--dir DIR]\n"
		"(\"dir DIR\" is deprecated: use --dir DIR)\n",
		bin_name);
	return 0;
}

/* One command per process: the table's target is this one's option. */
static const char *node_dir;
const struct opt pfc_node_opts[] = {
	OPT_STR("--dir", &node_dir, "DIR",
		"show, stop: the node's state directory (default under "
		"/run/tagger/pfc)",
		.deprecated = "dir"),
	{ 0 },
};

int pfc_node_dir(int argc, char **argv, char *buf, size_t len,
		 int (*help)(int argc, char **argv))
{
	char *name;
	int got;

	return pfc_node_dir_words(argc, argv, &name, 1, &got, buf, len, help);
}

int pfc_node_dir_words(int argc, char **argv, char **words, int nwords,
		       int *got, char *buf, size_t len,
		       int (*help)(int argc, char **argv))
{
	char *name;

	node_dir = NULL;
	if (opts_parse(pfc_node_opts, argc, argv, words, nwords, got))
		return usage_help(help);
	if (!*got)
		return usage_err(help, "NAME is missing");
	name = words[0];
	if (!valid_name(name))
		return usage_err(help, "bad node name \"%s\"", name);
	argv[0] = name; /* the callers name the node argv[0] */
	if (node_dir) {
		snprintf(buf, len, "%s/%s", node_dir, name);
		return 0;
	}
	if (pfc_dir(name, buf, len))
		return usage_err(help, "state directory name too long");
	return 0;
}

/* "3,4", or "none": the lossless priorities of the show document. */
static const char *prios_str(const json_t *ll, char *buf, size_t len)
{
	size_t i, n = 0;
	json_t *v;

	buf[0] = '\0';
	json_array_foreach(ll, i, v)
		n += snprintf(buf + n, len - n, "%s%lld", i ? "," : "",
			      json_integer_value(v));
	return n ? buf : "none";
}

static long long jget_at(const json_t *o, const char *key, size_t i)
{
	return json_integer_value(json_array_get(json_object_get(o, key), i));
}

/* A priority shown in plain output: lossless, or anything happened to it. */
static bool active(const json_t *pr)
{
	return jget_bool(pr, "lossless") || jget_int(pr, "packets") ||
	       jget_int(pr, "pfc_rx") || jget_int(pr, "tx_packets") ||
	       jget_int(pr, "queue_drops") || jget_int(pr, "drops");
}

/* Milliseconds since the epoch as local time, "-" for null. */
static const char *when(const json_t *v, char *buf, size_t len)
{
	time_t t = (time_t)(json_number_value(v) / 1000);
	struct tm tm;

	if (!json_is_number(v) || !localtime_r(&t, &tm) ||
	    !strftime(buf, len, "%Y-%m-%d %H:%M:%S", &tm))
		return "-";
	return buf;
}

/* The storm watchdog of a lossless queue, once it saw a storm. */
static void show_storm(const json_t *pr)
{
	const json_t *wd = json_object_get(pr, "watchdog");
	char a[32], b[32];

	if (!jget_int(pr, "storms") && !jget_bool(pr, "storm") &&
	    !jget_int(pr, "watchdog_drops"))
		return;
	printf("                  storm: %s, %lld storm(s), last %s -> %s, "
	       "%s, watchdog drops %lld (flushed %lld, ingress %lld)\n",
	       jget_bool(pr, "storm") ? "IN STORM" : "none now",
	       jget_int(pr, "storms"),
	       when(json_object_get(pr, "storm_start_ms"), a, sizeof(a)),
	       when(json_object_get(pr, "storm_end_ms"), b, sizeof(b)),
	       json_is_object(wd) ? jget_str(wd, "action") : "-",
	       jget_int(pr, "watchdog_drops"), jget_int(pr, "watchdog_flushed"),
	       jget_int(pr, "watchdog_rx_drops"));
}

static void show_prio(const json_t *pr)
{
	printf("  prio %lld %-8s in: %lld B buffered (peak %lld), %lld/%lld "
	       "pkts in/out, %lld xoff, pfc tx %lld/%lld resume, %lld drops\n",
	       jget_int(pr, "prio"),
	       jget_bool(pr, "lossless") ? "lossless" : "lossy",
	       jget_int(pr, "buffered_bytes"), jget_int(pr, "peak_bytes"),
	       jget_int(pr, "packets"), jget_int(pr, "returned"),
	       jget_int(pr, "xoff_crossings"), jget_int(pr, "pfc_tx"),
	       jget_int(pr, "pfc_tx_resume"), jget_int(pr, "drops"));
	if (jget_int(pr, "ecn_marked"))
		printf("                  ecn: %lld packets marked CE\n",
		       jget_int(pr, "ecn_marked"));
	if (jget_int(pr, "resumes"))
		printf("                  resumed %lld times, first packet back "
		       "after XON: avg %.1f us, max %.1f us\n",
		       jget_int(pr, "resumes"), jget_real(pr, "resume_avg_us"),
		       jget_real(pr, "resume_max_us"));
	printf("                  out: %s, %lld pauses, %.1f ms paused, pfc rx "
	       "%lld/%lld resume, queue %lld B/%lld pkts, %lld drops, "
	       "watchdog %lld\n",
	       jget_bool(pr, "paused") ? "PAUSED" : "running",
	       jget_int(pr, "pauses"), jget_real(pr, "paused_ms"),
	       jget_int(pr, "pfc_rx"), jget_int(pr, "pfc_rx_resume"),
	       jget_int(pr, "queue_bytes"), jget_int(pr, "queue_packets"),
	       jget_int(pr, "queue_drops"), jget_int(pr, "watchdog_events"));
	show_storm(pr);
}

/* Idle agents sleep without a tick (pfc_idle.h). */
static void show_idle(const json_t *o)
{
	const json_t *idle = json_object_get(o, "idle"), *nl;

	if (!json_is_object(idle))
		return;
	printf("  %s, %lld tick(s), %lld idle sleep(s)\n",
	       jget_bool(idle, "asleep") ? "idle (asleep, no tick)" : "ticking",
	       jget_int(idle, "ticks"), jget_int(idle, "sleeps"));
	nl = json_object_get(o, "netlink");
	if (json_is_object(nl) && jget_int(nl, "slow"))
		printf("  netlink: %lld request(s) over 100 ms, longest %.1f ms; "
		       "%lld PAUSE refresh(es) by the keeper\n",
		       jget_int(nl, "slow"), jget_real(nl, "max_ms"),
		       jget_int(nl, "keeper_refreshes"));
}

/* ECN's settings per priority that marks. */
static void show_ecn(const json_t *o)
{
	json_t *e;
	size_t i;

	json_array_foreach(json_object_get(o, "ecn"), i, e)
		printf("  ecn prio %lld: kmin %lld kmax %lld pmax %lld %%\n",
		       jget_int(e, "prio"), jget_int(e, "kmin"),
		       jget_int(e, "kmax"), jget_int(e, "pmax"));
}

/* Heartbeats (pfc_standby.h): how long since the agent made progress. */
static void show_heartbeat(const json_t *o)
{
	const json_t *hb = json_object_get(o, "heartbeat");

	if (!json_is_object(hb) || !jget_bool(o, "running"))
		return;
	if (jget_bool(hb, "stalled"))
		printf("  STALLED: no progress for %.0f ms (deadline %.0f ms) "
		       "with work pending\n",
		       jget_real(hb, "age_ms"), jget_real(hb, "deadline_ms"));
	printf("  heartbeat %.0f ms ago, standby's %.0f ms ago, %lld hung "
	       "agent(s) and %lld hung standby(s) replaced, gates late by at "
	       "most %.1f ms, %lld XOFF refresh(es) by BPF\n",
	       jget_real(hb, "age_ms"), jget_real(hb, "standby_age_ms"),
	       jget_int(hb, "stalls"), jget_int(hb, "standby_stalls"),
	       jget_real(hb, "gate_late_max_ms"),
	       jget_int(hb, "bpf_refreshes"));
}

static void show_header(const json_t *o)
{
	const json_t *wd = json_object_get(o, "watchdog");
	const char *status = jget_str(o, "status");
	char buf[32];

	printf("node %s: %s, backend %s, rate %.0f Mbit/s, lossless %s, %s\n",
	       jget_str(o, "node"),
	       strcmp(status, "died") ? status : "DIED without stopping",
	       jget_str(o, "backend"), jget_int(o, "rate_bps") / 1e6,
	       prios_str(json_object_get(o, "lossless"), buf, sizeof(buf)),
	       jget_str(o, "sched"));
	printf("  xoff %lld xon %lld headroom %lld quanta %lld watchdog %lld ms "
	       "%s, restore %lld ms, %lld events%s\n",
	       jget_at(o, "xoff", 3), jget_at(o, "xon", 3),
	       jget_at(o, "headroom", 3), jget_int(o, "quanta"),
	       jget_int(wd, "detect_ms"), jget_str(wd, "action"),
	       jget_int(wd, "restore_ms"), jget_int(wd, "events"),
	       jget_bool(wd, "big_red_switch") ?
		       ", BIG RED SWITCH ON (every lossless queue drops)" :
		       "");
	if (jget_bool(o, "running"))
		printf("  pid %lld, standby %lld, %lld takeover(s)\n",
		       jget_int(o, "pid"), jget_int(o, "standby_pid"),
		       jget_int(o, "takeovers"));
	show_heartbeat(o);
	printf("  rt-prio %lld", jget_int(o, "rt_prio"));
	if (json_is_null(json_object_get(o, "cpu_latency_us")))
		printf(", cpu-latency none");
	else
		printf(", cpu-latency %lld us", jget_int(o, "cpu_latency_us"));
	if (json_is_null(json_object_get(o, "busy_poll_us")))
		printf(", busy-poll unknown (an older agent)\n");
	else
		printf(", busy-poll %lld us\n", jget_int(o, "busy_poll_us"));
	show_ecn(o);
	show_idle(o);
}

/* Plain output, rendered from the document -j prints. */
static void show_plain(const json_t *o)
{
	const json_t *t = json_object_get(o, "totals");
	json_t *port, *pr;
	size_t i, p;

	show_header(o);
	json_array_foreach(json_object_get(o, "ports"), i, port) {
		printf("port %s (%s), %.0f Mbit/s, dcb %s\n",
		       jget_str(port, "name"), jget_str(port, "ifname"),
		       jget_int(port, "rate_bps") / 1e6, jget_str(port, "dcb"));
		json_array_foreach(json_object_get(port, "prios"), p, pr)
			if (active(pr))
				show_prio(pr);
	}
	printf("totals: pfc tx %lld rx %lld, xoff %lld, buffered %lld B, "
	       "lossless drops %lld, lossy drops %lld, lost to failures %lld, "
	       "paused %.1f ms\n",
	       jget_int(t, "pfc_tx"), jget_int(t, "pfc_rx"),
	       jget_int(t, "xoff_crossings"), jget_int(t, "buffered_bytes"),
	       jget_int(t, "lossless_drops"), jget_int(t, "lossy_drops"),
	       jget_int(t, "failure_drops"), jget_real(t, "paused_ms"));
	if (jget_int(t, "ecn_marked"))
		printf("totals: ecn %lld packets marked CE\n",
		       jget_int(t, "ecn_marked"));
	if (jget_str(o, "note")[0])
		printf("note: %s\n", jget_str(o, "note"));
}

int do_pfc_show(int argc, char **argv)
{
	char dir[PATH_MAX];
	struct pfc_state *copy;
	enum pfc_agent_status as;
	json_t *doc;
	int r;

	if (argc < 1 || is_help(argv[0]))
		return argc ? show_help(0, NULL) :
			      usage_err(show_help, "pfc show needs NAME");
	r = pfc_node_dir(argc, argv, dir, sizeof(dir), show_help);
	if (r)
		return r;
	r = pfc_node_read(argv[0], dir, &copy, &as);
	if (r)
		return r;
	doc = pfc_node_json(copy, as, now_ns());
	free(copy);
	if (json_output) {
		json_emit(doc);
		return 0;
	}
	show_plain(doc);
	json_decref(doc);
	return 0;
}

int pfc_stop(const char *node, const char *dir)
{
	int pid, r = pfc_node_stop(node, dir, &pid);

	if (r)
		return r;
	if (json_output)
		json_emit(json_pack("{s:s,s:b}", "node", node, "stopped",
				    pid != 0));
	else if (pid)
		pr_info("stopped the pause agent of %s (pid %d)\n", node, pid);
	return 0;
}
