// SPDX-License-Identifier: GPL-2.0
/* Per-priority egress queues and their gates; see pfc_backend.h. */
#include <errno.h>
#include <linux/pkt_sched.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "lib/util.h"
#include "lib/log.h"
#include "pfc/pfc_backend.h"
#include "pfc/pfc_frame.h"

/* An open gate must never be the bottleneck: the link shaper is. */
#define OPEN_RATE_BPS (100ull * 1000 * 1000 * 1000)
#define OPEN_BURST (256u << 10)

static uint32_t queue_limit(const struct pfc_config *c, int prio)
{
	uint64_t l = (c->lossless_mask >> prio) & 1 ? c->lossless_limit :
						      c->lossy_limit;

	return l > 0xffffffffull ? 0xffffffffu : (uint32_t)l;
}

static uint32_t link_burst(const struct pfc_config *c, uint64_t rate)
{
	uint64_t b = rate / 8 / 1000; /* 1 ms at the link rate */

	return b < 2 * c->frame ? 2 * c->frame : (uint32_t)b;
}

/* A closed gate: 1 byte/s, a burst of one frame (the t_stop leak). */
static int tbf_gate(struct pfc_queues *q, int ifindex, uint32_t parent,
		    int prio, bool closed, bool create)
{
	const struct pfc_config *c = q->cfg;

	return tc_tbf(&q->tc, ifindex, parent, PFC_GATE_HANDLE(prio),
		      closed ? 1 : OPEN_RATE_BPS / 8,
		      closed ? c->frame : OPEN_BURST, queue_limit(c, prio),
		      create);
}

static int htb_setup(struct pfc_queues *q, int port)
{
	const struct pfc_config *c = q->cfg;
	int ifindex = c->ports[port].ifindex, p, r;
	uint64_t link = pfc_port_rate(c, port);
	uint32_t burst = link_burst(c, link), wsum = 0;

	for (p = 0; p < PFC_PRIOS; p++)
		wsum += c->weight[p];
	r = tc_htb_root(&q->tc, ifindex, PFC_ROOT_HANDLE);
	if (!r)
		q->made[port] = true;
	if (!r)
		r = tc_htb_class(&q->tc, ifindex, PFC_ROOT_HANDLE,
				 PFC_ROOT_HANDLE | 1, link, link, c->frame, 0,
				 burst);
	for (p = 0; !r && p < PFC_PRIOS; p++) {
		uint64_t rate;
		uint32_t prio, quantum;

		if (c->sched == PFC_SCHED_STRICT) {
			/* Tiny guarantees, then borrowing by HTB prio. */
			rate = link / 1000 > 8000 ? link / 1000 : 8000;
			prio = 7 - p; /* 802.1p 7 first */
			quantum = c->frame;
		} else {
			/* Guarantees and DRR quanta in proportion to weight. */
			rate = link * c->weight[p] / wsum;
			prio = 0;
			quantum = c->frame * c->weight[p];
		}
		r = tc_htb_class(&q->tc, ifindex, PFC_ROOT_HANDLE | 1,
				 PFC_HTB_CLASS(p), rate ? rate : 8000, link,
				 quantum, prio, burst);
		if (!r)
			r = tbf_gate(q, ifindex, PFC_HTB_CLASS(p), p, false,
				     true);
	}
	if (!r) {
		/* Kick frames go to HTB's direct queue (priority == 1:0). */
		q->kick_fd[port] = pfc_sock_open(ifindex, 0, PFC_ROOT_HANDLE);
		if (q->kick_fd[port] < 0)
			r = q->kick_fd[port];
	}
	return r;
}

static int htb_gate(struct pfc_queues *q, int port, int prio, bool closed)
{
	int ifindex = q->cfg->ports[port].ifindex;
	static const uint16_t zero[8];
	int r;

	r = tbf_gate(q, ifindex, PFC_HTB_CLASS(prio), prio, closed, false);
	q->changed_ns = now_ns();
	/*
	 * A TBF change does not reschedule the device: with nothing else
	 * arriving, the queue would wait for HTB's next timer. A no-op PFC
	 * frame (no class enabled, which receivers ignore) through the direct
	 * queue runs the qdisc now.
	 */
	if (!r && !closed && q->kick_fd[port] >= 0)
		pfc_send(q->kick_fd[port], ifindex, q->mac[port], 0, zero);
	return r;
}

static int mqprio_setup(struct pfc_queues *q, int port)
{
	const struct pfc_config *c = q->cfg;
	int ifindex = c->ports[port].ifindex, p, r;

	r = tc_mqprio(&q->tc, ifindex, PFC_ROOT_HANDLE, PFC_PRIOS);
	if (!r)
		q->made[port] = true;
	for (p = 0; !r && p < PFC_PRIOS; p++) {
		uint32_t tbf = (0x30u + p) << 16;

		/* The link rate per queue: mqprio itself has no shaper. */
		r = tc_tbf(&q->tc, ifindex, PFC_ROOT_HANDLE | (p + 1), tbf,
			   pfc_port_rate(c, port) / 8,
			   link_burst(c, pfc_port_rate(c, port)),
			   queue_limit(c, p), true);
		if (!r)
			r = tc_plug(&q->tc, ifindex, tbf | 1,
				    PFC_GATE_HANDLE(p), TCQ_PLUG_LIMIT,
				    queue_limit(c, p), true);
		/* A new plug holds everything: open it. */
		if (!r)
			r = tc_plug(&q->tc, ifindex, tbf | 1,
				    PFC_GATE_HANDLE(p),
				    TCQ_PLUG_RELEASE_INDEFINITE, 0, false);
	}
	return r;
}

static int mqprio_gate(struct pfc_queues *q, int port, int prio, bool closed)
{
	int ifindex = q->cfg->ports[port].ifindex;

	int r = tc_plug(&q->tc, ifindex, ((0x30u + prio) << 16) | 1,
			PFC_GATE_HANDLE(prio),
			closed ? TCQ_PLUG_BUFFER : TCQ_PLUG_RELEASE_INDEFINITE,
			0, false);

	q->changed_ns = now_ns();
	return r;
}

/*
 * The packets a TBF gate holds are in its child, a bfifo (TBF's class 1):
 * a fresh one grafted there frees them (the kfree_skb tracepoint returns
 * their bytes). The gate itself stays, with its statistics, so that the
 * recount's alignment of log and queue (pfc_recount.h) only has to be
 * relearned from the next empty queue, as after any drop it did not see.
 */
static int htb_flush(struct pfc_queues *q, int port, int prio)
{
	const uint32_t h[2] = { (0x40u + prio) << 16, (0x48u + prio) << 16 };

	return tc_fifo_graft(&q->tc, q->cfg->ports[port].ifindex,
			     PFC_GATE_HANDLE(prio) | 1, h,
			     queue_limit(q->cfg, prio));
}

/*
 * The plug is the queue and the gate at once, and replacing it would
 * reset the statistics the recount reads: not flushed (the man page says
 * so); the drop action's other parts still hold.
 */
static int mqprio_flush(struct pfc_queues *q, int port, int prio)
{
	(void)q;
	(void)port;
	(void)prio;
	return -EOPNOTSUPP;
}

static const struct pfc_backend htb_backend = {
	.name = "htb-tbf",
	.setup = htb_setup,
	.gate = htb_gate,
	.flush = htb_flush,
};

static const struct pfc_backend mqprio_backend = {
	.name = "mqprio-plug",
	.setup = mqprio_setup,
	.gate = mqprio_gate,
	.flush = mqprio_flush,
};

static int setup_all(struct pfc_queues *q)
{
	int i, r;

	for (i = 0; i < q->cfg->nports; i++) {
		r = q->be->setup(q, i);
		if (r) {
			p_err("%s: %s queues: %s%s%s", q->cfg->ports[i].ifname,
			      q->be->name, strerror(-r),
			      q->tc.err[0] ? ": " : "", q->tc.err);
			return r;
		}
	}
	return 0;
}

int pfc_queues_setup(struct pfc_queues *q, const struct pfc_config *cfg,
		     enum pfc_backend_req want)
{
	int i, r;

	q->cfg = cfg;
	q->why[0] = '\0';
	for (i = 0; i < PFC_MAX_PORTS; i++)
		q->kick_fd[i] = -1;
	for (i = 0; i < cfg->nports; i++)
		pfc_if_mac(cfg->ports[i].ifindex, q->mac[i]);
	r = tc_open(&q->tc);
	if (r) {
		p_err("the queues: netlink: %s", strerror(-r));
		return r;
	}
	if (want != PFC_BACKEND_HTB) {
		/* Detect: the kernel and every port must take mqprio + plug. */
		q->be = &mqprio_backend;
		for (i = 0; i < cfg->nports; i++) {
			r = mqprio_setup(q, i);
			if (r) {
				snprintf(q->why, sizeof(q->why),
					 "mqprio-plug on %s: %s%s%s",
					 cfg->ports[i].ifname, strerror(-r),
					 q->tc.err[0] ? ": " : "", q->tc.err);
				break;
			}
		}
		if (!r)
			return 0;
		if (want == PFC_BACKEND_MQPRIO) {
			p_err("%s", q->why);
			return r;
		}
		pr_info("%s; using htb-tbf\n", q->why);
	}
	q->be = &htb_backend;
	return setup_all(q);
}

/* The queues are there already (pfc_adopt.h): only what is per process. */
int pfc_queues_adopt(struct pfc_queues *q, const struct pfc_config *cfg,
		     const char *backend)
{
	int i, r;

	q->cfg = cfg;
	q->why[0] = '\0';
	q->be = strcmp(backend, mqprio_backend.name) ? &htb_backend :
						       &mqprio_backend;
	for (i = 0; i < PFC_MAX_PORTS; i++)
		q->kick_fd[i] = -1;
	for (i = 0; i < cfg->nports; i++)
		pfc_if_mac(cfg->ports[i].ifindex, q->mac[i]);
	r = tc_open(&q->tc);
	/* A dead agent's queues: ours now, to remove even if this fails. */
	for (i = 0; !r && i < cfg->nports; i++)
		q->made[i] = true;
	for (i = 0; !r && q->be == &htb_backend && i < cfg->nports; i++) {
		q->kick_fd[i] = pfc_sock_open(cfg->ports[i].ifindex, 0,
					      PFC_ROOT_HANDLE);
		if (q->kick_fd[i] < 0)
			r = q->kick_fd[i];
	}
	if (r)
		p_err("adopting the queues: %s", strerror(-r));
	return r;
}

int pfc_gate(struct pfc_queues *q, int port, int prio, bool closed)
{
	return q->be->gate(q, port, prio, closed);
}

int pfc_flush(struct pfc_queues *q, int port, int prio)
{
	return q->be->flush(q, port, prio);
}

void pfc_queues_teardown(struct pfc_queues *q)
{
	int i;

	if (!q->cfg)
		return;
	for (i = 0; i < q->cfg->nports; i++) {
		/* Not ours (a failed start): someone else's, left alone. */
		if (q->made[i])
			tc_qdisc_del_root(&q->tc, q->cfg->ports[i].ifindex);
		q->made[i] = false;
		if (q->kick_fd[i] >= 0)
			close(q->kick_fd[i]);
		q->kick_fd[i] = -1;
	}
	tc_close(&q->tc);
}
