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

int pfc_node_dir(int argc, char **argv, char *buf, size_t len,
		 int (*help)(int argc, char **argv))
{
	const char *dir = NULL;
	char *name;
	int got;
	const struct opt opts[] = { { .name = "--dir",
				      .type = OPT_STR,
				      .out = &dir,
				      .deprecated = "dir" },
				    { 0 } };

	if (opts_parse(opts, argc, argv, &name, 1, &got))
		return usage_help(help);
	if (!got)
		return usage_err(help, "NAME is missing");
	if (!valid_name(name))
		return usage_err(help, "bad node name \"%s\"", name);
	argv[0] = name; /* the callers name the node argv[0] */
	if (dir) {
		snprintf(buf, len, "%s/%s", dir, name);
		return 0;
	}
	if (pfc_dir(name, buf, len))
		return usage_err(help, "state directory name too long");
	return 0;
}

static const char *mask_str(uint32_t m, char *buf)
{
	char *p = buf;
	int i;

	*p = '\0';
	for (i = 0; i < PFC_PRIOS; i++)
		if ((m >> i) & 1)
			p += sprintf(p, "%s%d", p == buf ? "" : ",", i);
	if (p == buf)
		strcpy(buf, "none");
	return buf;
}

static bool active(const struct pfc_state *st, int p,
		   const struct pfc_state_prio *s)
{
	return ((st->lossless_mask >> p) & 1) || s->pkts || s->pfc_rx ||
	       s->q_packets || s->q_drops || s->drops;
}

static void show_plain(const struct pfc_state *st, enum pfc_agent_status as,
		       uint64_t now)
{
	struct pfc_totals t = { 0 };
	char buf[32];
	uint32_t i, p;

	printf("node %s: %s, backend %s, rate %.0f Mbit/s, lossless %s, %s\n",
	       st->node,
	       as == PFC_AGENT_DIED ? "DIED without stopping" :
				      pfc_status_name(as),
	       st->backend, st->rate_bps / 1e6,
	       mask_str(st->lossless_mask, buf), pfc_sched_name(st->sched));
	printf("  xoff %" PRIu64 " xon %" PRIu64 " headroom %" PRIu64
	       " quanta %u watchdog %u ms %s, %" PRIu64 " events\n",
	       st->xoff[3], st->xon[3], st->headroom[3], st->quanta,
	       st->wd_detect_ms, pfc_wd_action_name(st->wd_action),
	       st->wd_events);
	if (as == PFC_AGENT_RUNNING)
		printf("  pid %u, standby %u, %u takeover(s)\n", st->pid,
		       st->standby_pid, st->takeovers);
	if (st->cpu_latency_us < 0)
		printf("  rt-prio %u, cpu-latency none\n", st->rt_prio);
	else
		printf("  rt-prio %u, cpu-latency %d us\n", st->rt_prio,
		       st->cpu_latency_us);
	for (i = 0; i < st->nports && i < PFC_MAX_PORTS; i++) {
		const struct pfc_state_port *sp = &st->ports[i];

		printf("port %s (%s), %.0f Mbit/s, dcb %s\n", sp->name,
		       sp->ifname, sp->rate_bps / 1e6, sp->dcb);
		for (p = 0; p < PFC_PRIOS; p++) {
			const struct pfc_state_prio *s = &sp->prio[p];

			pfc_add_totals(&t, st, p, s, now);
			if (!active(st, p, s))
				continue;
			printf("  prio %u %-8s in: %" PRIu64
			       " B buffered (peak %" PRIu64 "), %" PRIu64
			       "/%" PRIu64 " pkts in/out, %" PRIu64
			       " xoff, pfc tx %" PRIu64 "/%" PRIu64
			       " resume, %" PRIu64 " drops\n",
			       p,
			       (st->lossless_mask >> p) & 1 ? "lossless" :
							      "lossy",
			       s->bytes, s->peak, s->pkts, s->returned,
			       s->xoff_crossings, s->pfc_tx, s->pfc_tx_resume,
			       s->drops);
			if (s->resumes)
				printf("                  resumed %" PRIu64
				       " times, first"
				       " packet back after XON: avg %.1f us, max"
				       " %.1f us\n",
				       s->resumes, pfc_resume_avg_us(s),
				       s->resume_max_ns / 1e3);
			printf("                  out: %s, %" PRIu64
			       " pauses, %.1f ms paused,"
			       " pfc rx %" PRIu64 "/%" PRIu64
			       " resume, queue %" PRIu64 " B/%" PRIu64
			       " pkts, %" PRIu64 " drops, watchdog %" PRIu64
			       "\n",
			       s->paused_since ? "PAUSED" : "running",
			       s->pauses, pfc_paused_ns(s, now) / 1e6,
			       s->pfc_rx, s->pfc_rx_resume, s->q_backlog,
			       s->q_qlen, s->q_drops, s->wd_events);
		}
	}
	printf("totals: pfc tx %" PRIu64 " rx %" PRIu64 ", xoff %" PRIu64
	       ", buffered %" PRIu64 " B, lossless drops %" PRIu64
	       ", lossy drops %" PRIu64 ", lost to failures %" PRIu64
	       ", paused %.1f ms\n",
	       t.pfc_tx, t.pfc_rx, t.xoff, t.buffered, t.ll_drops,
	       t.lossy_drops, t.failure_drops, t.paused_ns / 1e6);
	if (st->note[0])
		printf("note: %s\n", st->note);
}

int do_pfc_show(int argc, char **argv)
{
	char dir[PATH_MAX];
	struct pfc_state *copy;
	enum pfc_agent_status as;
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
	if (json_output)
		json_emit(pfc_node_json(copy, as, now_ns()));
	else
		show_plain(copy, as, now_ns());
	free(copy);
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
