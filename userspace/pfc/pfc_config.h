/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Configuration of one node's pause agent and the buffer model its
 * defaults come from (Tagger draft, section 3.3, equation 1):
 *
 *   b_hr = r (t_snd + t_wire + t_rev + t_pro + t_stop + t_wire)
 *        = 2 (s_MTU + s_PFC + r t_wire) + r t_pro            (1)
 *
 * t_snd = (s_MTU + s_PFC) / r: the PAUSE waits behind a frame in flight;
 * t_rev = s_PFC / r: receiving it; t_stop = s_MTU / r: the sender stops at
 * a frame boundary; t_wire twice: the PAUSE travels up the cable and the
 * bytes already on it drain. Terms:
 *   s_MTU   the largest frame on the port (the agent: MTU + 18)
 *   s_PFC   64 bytes (PFC_WIRE_BYTES)
 *   r       the line rate
 *   t_wire  cable propagation: length x PFC_NS_PER_M, the draft's "every
 *           100 meters ... about 500 ns" (copper; fibre is ~4.9 ns/m)
 *   t_pro   the sender's processing of a PAUSE; hardware is capped at 60
 *           quanta (r t_pro = 30720 bits), the software loop here takes
 *           up to 1 ms (p99, PFC frame in -> gate closed)
 *   t_resp  ours, added to (1): the receiver's response, XOFF crossed ->
 *           PAUSE handed to the port; the draft takes it as 0
 * so headroom = 2 (s_MTU + s_PFC + r t_wire) + r t_pro + r t_resp. The
 * draft's example (40 Gbit/s, 1500, 300 m, 60 quanta, t_resp 0) is 21968
 * bytes; the defaults (t_wire 0 for veth, t_pro 1 ms, t_resp 0) are
 * today's model. XON = r t_pro keeps the egress busy while a resume
 * travels; XOFF = XON + headroom gives one headroom of hysteresis, so
 * that a pause cycle moves many frames rather than one.
 *
 * API:
 *   struct pfc_config, pfc_config_init(c)    empty config, fixed defaults
 *   pfc_config_finish(c)                     fill rate-dependent defaults
 *   pfc_min_rate(c)                          the least port rate (bit/s)
 *                                            the kernel's shapers take
 *   pfc_rate_too_low(c)                      a port below it, or -1
 *   pfc_headroom_terms(c, &t)                equation (1), term by term
 *   pfc_headroom(rate, frame, t_pro_ns)      (1) without cable or t_resp
 *   pfc_parse_time("1.5us", "us", &ns)       a time, bare numbers in unit
 *   pfc_parse_meters("300", &m)              a cable length
 *   pfc_ecn_mask(c)                          the lossless priorities ECN
 *                                            marks on
 *   pfc_ecn_bad(c, buf, len)                 NULL, or what is wrong with
 *                                            the ECN settings once the
 *                                            defaults are filled in
 *                                            (naming the option), in buf
 */
#ifndef __TAGGER_PFC_CONFIG_H
#define __TAGGER_PFC_CONFIG_H

#include <limits.h>
#include <net/if.h>
#include <stdbool.h>
#include <stdint.h>

#include "pfc_maps.h"

#define PFC_T_PRO_NS 1000000ull /* software PFC processing budget */
#define PFC_NS_PER_M 5 /* cable propagation, the draft's */
#define PFC_MAX_TIME_NS 1000000000ull /* t_pro, t_resp: at most 1 s */
#define PFC_MAX_CABLE_M 100000 /* 100 km: t_wire 500 us */
#define PFC_DEFAULT_RATE 100000000ull /* 100 Mbit/s */
#define PFC_DEFAULT_LOSSLESS 0x18 /* priorities 3 and 4 */
#define PFC_MIN_LOSSLESS_LIMIT (4u << 20)
#define PFC_DEFAULT_RT_PRIO 10 /* a PFC engine must not wait for a CPU */
#define PFC_CPU_LATENCY_NONE (-1) /* no PM QoS request */
/*
 * Idle CPUs poll while an agent runs, like cyclictest's default: waking a
 * halted CPU (in a VM, a hypervisor round trip) took 40-80 us of the
 * 100 us pause budget. The cost, idle CPUs never sleeping, is said in
 * `pfc help`; --cpu-latency none opts out.
 */
#define PFC_DEFAULT_CPU_LATENCY 0
/*
 * Poll, rather than sleep, for up to this long around each expected
 * resume (pfc_poll.h): at most this much CPU per pause episode.
 */
#define PFC_DEFAULT_BUSY_POLL_US 2000
/* ECN's kmax must fit pfc_ecn_p()'s arithmetic: below 4 GiB. */
#define PFC_ECN_KMAX_MAX 0xffffffffull

enum pfc_sched { PFC_SCHED_WRR, PFC_SCHED_STRICT };
/*
 * The watchdog's actions, SONiC pfcwd's: alert only counts a storm;
 * forward ignores the upstream's PAUSEs; drop also flushes the queue,
 * drops its new packets and the port's ingress at that priority, and
 * sends no PAUSE for it. The values are those the state has always
 * recorded (report, ignore, drop before).
 */
enum pfc_wd_action { PFC_WD_ALERT, PFC_WD_FORWARD, PFC_WD_DROP };
#define PFC_WD_MAX_MS 3600000u /* detection and restoration: 1 h at most */
#define PFC_WD_MAX_SPECS 512 /* --watchdog options an agent takes */

/* One queue's watchdog (pfc_wd_config.h); set: not the node's defaults. */
struct pfc_wd_cfg {
	uint32_t detect_ms, restore_ms;
	uint32_t action; /* enum pfc_wd_action */
	uint32_t set;
};
enum pfc_backend_req {
	PFC_BACKEND_AUTO,
	PFC_BACKEND_MQPRIO,
	PFC_BACKEND_HTB,
	PFC_BACKEND_DCB
};

struct pfc_port_cfg {
	char name[IF_NAMESIZE]; /* the node's name for the port */
	char ifname[IF_NAMESIZE]; /* the interface */
	int ifindex;
	uint64_t rate_bps; /* 0: the node's rate */
};

struct pfc_config {
	char node[64];
	char dir[PATH_MAX - 80]; /* state directory of this node */
	int nports;
	struct pfc_port_cfg ports[PFC_MAX_PORTS];
	uint64_t rate_bps;
	uint32_t lossless_mask;
	uint32_t frame; /* largest frame: MTU + 18 */
	uint32_t cable_m; /* t_wire = cable_m x PFC_NS_PER_M */
	uint64_t t_pro_ns; /* unless t_pro_quanta */
	uint32_t t_pro_quanta; /* t_pro in quanta: rate-independent bytes */
	uint64_t t_resp_ns;
	uint64_t headroom[PFC_PRIOS]; /* 0 = from the formula */
	uint64_t xoff[PFC_PRIOS];
	uint64_t xon[PFC_PRIOS];
	uint32_t quanta;
	uint64_t lossless_limit, lossy_limit;
	enum pfc_sched sched;
	uint32_t weight[PFC_PRIOS];
	uint32_t wd_detect_ms, wd_restore_ms; /* the defaults of every */
	enum pfc_wd_action wd_action; /* lossless queue */
	/* --watchdog PORT:PRIO:..., resolved once the ports are known
	 * (pfc_wd_config.h), and the queues' own settings from them */
	const char *wd_spec[PFC_WD_MAX_SPECS];
	int wd_nspecs;
	struct pfc_wd_cfg wd[PFC_MAX_PORTS][PFC_PRIOS];
	bool big_red_switch; /* --big-red-switch on at start */
	enum pfc_backend_req backend;
	uint8_t dscp_prio[64];
	/*
	 * --rules: each port's DCB maps from a switch's compiled rules
	 * (model/dcb_map.h) instead of dscp_prio on every port: DSCP ->
	 * priority (app), priority -> DSCP (rewr, -1: left as found), the
	 * priorities PFC runs on
	 */
	const char *dcb_rules_file, *dcb_switch; /* --rules, --switch */
	bool dcb_rules;
	uint8_t dcb_app[PFC_MAX_PORTS][64];
	int8_t dcb_rewr[PFC_MAX_PORTS][PFC_PRIOS];
	uint8_t dcb_pfc[PFC_MAX_PORTS];
	bool keep_offloads;
	bool slow_pause; /* XOFF PAUSE from the agent only */
	int rt_prio; /* SCHED_FIFO priority, 0: none */
	int cpu_latency_us; /* PM QoS request, or PFC_CPU_LATENCY_NONE */
	uint32_t busy_poll_us; /* poll budget per expected resume, 0: off */
	/* ECN on lossless priorities (pfc_ecn_p() in pfc_maps.h); a
	 * priority marks when its ecn_kmax is not 0 */
	uint64_t ecn_kmin[PFC_PRIOS], ecn_kmax[PFC_PRIOS];
	uint32_t ecn_pmax[PFC_PRIOS]; /* percent, default 100 */
};

/* Equation (1) term by term, in bytes at rate_bps. */
struct pfc_headroom_terms {
	uint64_t rate_bps;
	uint32_t frame; /* s_MTU */
	uint32_t pfc; /* s_PFC */
	uint64_t t_wire_ns, t_pro_ns, t_resp_ns;
	uint64_t wire; /* r t_wire */
	uint64_t pro; /* r t_pro */
	uint64_t resp; /* r t_resp */
	uint64_t total; /* 2 (frame + pfc + wire) + pro + resp */
};

void pfc_config_init(struct pfc_config *c);
void pfc_headroom_terms(const struct pfc_config *c,
			struct pfc_headroom_terms *t);
uint64_t pfc_port_rate(const struct pfc_config *c, int port);
int pfc_config_finish(struct pfc_config *c);
uint64_t pfc_min_rate(const struct pfc_config *c);
int pfc_rate_too_low(const struct pfc_config *c);
uint64_t pfc_headroom(uint64_t rate_bps, uint32_t frame, uint64_t t_pro_ns);
bool pfc_parse_time(const char *s, const char *unit, uint64_t *ns);
bool pfc_parse_meters(const char *s, uint32_t *m);
int pfc_parse_dscp_map(const char *s, uint8_t map[64]);
uint32_t pfc_ecn_mask(const struct pfc_config *c);
const char *pfc_ecn_bad(const struct pfc_config *c, char *buf, size_t len);
const char *pfc_wd_action_name(enum pfc_wd_action a);
const char *pfc_sched_name(enum pfc_sched s);

#endif /* __TAGGER_PFC_CONFIG_H */
