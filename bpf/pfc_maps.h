/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The ABI between the pause machinery's BPF programs (bpf/pfc.bpf.c) and
 * the agent (userspace/pfc/pfc_agent.c): map layouts, event records, and the
 * XOFF/XON threshold rule both sides evaluate.
 *
 * API:
 *   PFC_MAX_PORTS, PFC_SLOT(slot, prio)     index into the "pp" array map
 *   struct pfc_pp                          per (port, priority) counters
 *   struct pfc_event, PFC_EV_*             ring buffer records to the agent
 *   pfc_xoff_next(state, bytes, xoff, xon) the threshold state machine
 *   pfc_xon_near(state, bytes, xon, near)  a paused buffer nearing XON
 *   pfc_ecn_p(bytes, kmin, kmax, pmax)     ECN's marking probability at
 *                                          an occupancy, PFC_ECN_ONE = 1
 *   PFC_RING, pfc_ring_entry(), PFC_RE_*()  the egress queue logs ("ring")
 *   PFC_TC_HANDLE(), PFC_TC_MAJOR, PFC_CLASS_MINOR(prio)  the queues' handles
 *
 * Types are __u32/__u64 with explicit padding so that the layouts are the
 * same for clang -target bpf and gcc; sizes are checked by _Static_assert.
 */
#ifndef __TAGGER_PFC_MAPS_H
#define __TAGGER_PFC_MAPS_H

#include <linux/types.h>

#define PFC_MAX_PORTS 64
#define PFC_PRIOS 8
#define PFC_SLOT(slot, prio) ((slot)*PFC_PRIOS + (prio))

/*
 * The egress queues the agent builds (userspace/pfc/pfc_backend.c) and the
 * programs steer into: HTB root 1:, class 1:10+p for priority p, and 1:0,
 * HTB's direct queue, which goes before every class (PAUSE frames, the
 * agent's kick frames).
 */
#define PFC_TC_HANDLE(maj, min) (((maj) << 16) | (min))
#define PFC_TC_MAJOR 1u
#define PFC_CLASS_MINOR(prio) (0x10u + (prio))

/*
 * One entry per (port, priority). The "in" fields describe the port as an
 * ingress port (the buffer that port's upstream fills, Tagger's ingress
 * counter); the "out" fields describe the port's egress queue.
 */
struct pfc_pp {
	__u64 bytes; /* bytes buffered from this in-port at this prio */
	__u64 peak; /* highest value of bytes (approximate under races) */
	__u64 pkts; /* packets accounted at ingress */
	__u64 drops; /* accounted packets dropped outside a qdisc */
	__u64 xoff_crossings; /* times bytes rose above XOFF */
	__u64 pfc_rx; /* PFC frames received enabling this prio */
	__u64 pfc_rx_resume; /* ... of those, with quanta 0 */
	__u64 underflow; /* returns that found fewer bytes (after a resync) */
	__u32 xoff; /* 1 while above XOFF: the upstream is paused */
	__u32 drop_out; /* watchdog "drop": egress drops this queue */
	__u64 egress_drops; /* packets dropped by drop_out */
	__u64 returned; /* accounted packets that left or were dropped */
	/* Monotonic totals for the agent's exact recount (pfc_recount.c): */
	__u64 in_bytes; /* in: bytes accounted at ingress */
	__u64 queued_bytes; /* in: ... of those, that reached an egress queue */
	__u64 early_drop_bytes; /* in: ... dropped before reaching one */
	__u64 ring_head; /* out: packets logged into this egress queue */
	__u64 failure_drops; /* in: lost to a failure (egress port down or
				 * no route left), not counted in drops */
	__u32 last_drop_reason; /* in: skb_drop_reason of the last of drops */
	__u32 tx_watch; /* out: set by the agent when it opens the gate;
				 * the next packet sent from the queue reports
				 * itself (PFC_EV_SENT) and clears it */
	__u64 xon_at; /* in: bpf_ktime_get_ns() of an XON crossing
				 * whose first packet back has not arrived */
	__u64 ecn_marked; /* in: packets marked CE here (pfc_ecn_p()) */
	__u32 drop_in; /* in: the watchdog's "drop" (or the big red
				 * switch): drop this port's packets of this
				 * priority at ingress, never count them, so
				 * that no PAUSE is sent for it */
	__u32 pad_wd;
	__u64 in_drops; /* in: packets dropped by drop_in */
};

_Static_assert(sizeof(struct pfc_pp) == 168, "pfc_pp layout");

/* How the BPF side files a drop reason (table filled by the agent). */
enum pfc_drop_kind {
	PFC_DROP_OTHER = 0, /* counted in drops */
	PFC_DROP_QDISC = 1, /* in the qdisc's statistics already */
	PFC_DROP_FAILURE = 2, /* no route: counted in failure_drops */
};

/*
 * Every packet entering an egress queue (port, priority) is logged, in
 * order, in that queue's slice of the "ring" array map: which in-port and
 * ingress priority it was counted at (or none) and its length. The queue
 * is FIFO, so the qdisc's own count of packets sent says exactly which
 * logged packets are still queued; the agent recounts each (in-port,
 * priority) buffer from that, without depending on the tracepoints that
 * return bytes on the fast path. An entry carries its log index, so a
 * slot not yet written (or overwritten) is recognised.
 */
#define PFC_RING 512 /* entries per egress queue */
#define PFC_RING_SLOT(slot, prio, idx) \
	((((slot)*PFC_PRIOS + (prio)) * PFC_RING) + ((idx) % PFC_RING))
#define PFC_RE_NONE 0xff /* not accounted: no in-port */

static inline __u64 pfc_ring_entry(__u64 idx, __u32 in_slot, __u32 in_prio,
				   __u32 len)
{
	return ((idx + 1) << 32) | ((__u64)(in_slot & 0xff) << 24) |
	       ((__u64)(in_prio & 7) << 16) | (len > 0xffff ? 0xffff : len);
}

#define PFC_RE_TAG(idx) ((__u32)((idx) + 1)) /* what an entry for idx carries */
#define PFC_RE_IDX_TAG(e) ((__u32)((e) >> 32))
#define PFC_RE_SLOT(e) ((__u32)((e) >> 24) & 0xff)
#define PFC_RE_PRIO(e) ((__u32)((e) >> 16) & 7)
#define PFC_RE_LEN(e) ((__u32)(e)&0xffff)

enum pfc_event_type {
	PFC_EV_XOFF = 1, /* (slot, prio) rose above XOFF: send PAUSE */
	PFC_EV_XON = 2, /* (slot, prio) fell to XON: send quanta 0 */
	PFC_EV_RX = 3, /* a PFC frame arrived on slot */
	PFC_EV_RESUMED = 4, /* (slot, prio): the first packet after XON
				 * arrived (ts), since the crossing (since) */
	PFC_EV_SENT = 5, /* (slot, prio): the first packet sent from a
				 * reopened egress queue left (ts) */
	PFC_EV_XON_NEAR = 6, /* (slot, prio), paused: bytes fell to within
				 * xon_near_bytes of XON; the agent starts
				 * polling for the XON (--busy-poll) */
	PFC_EV_WAKE = 7, /* a packet was counted while the agent slept
				 * (agent_asleep): it ticks again */
};

struct pfc_event {
	__u32 type;
	__u32 slot;
	__u32 prio; /* XOFF/XON: the priority */
	__u32 vector; /* RX: class-enable vector; XOFF: 1 if the
				 * BPF side sent the PAUSE itself; XON and
				 * XON_NEAR: PFC_EV_CPU(the CPU it was seen
				 * on), 0: not said */
	__u16 quanta[PFC_PRIOS]; /* RX: quanta, host byte order */
	__u64 ts; /* bpf_ktime_get_ns() */
	__u64 since; /* RESUMED: the XON crossing's ts */
};

_Static_assert(sizeof(struct pfc_event) == 48, "pfc_event layout");

/* A CPU in an event's vector, and back (-1: not said). */
#define PFC_EV_CPU(cpu) ((__u32)(cpu) + 1)
#define PFC_EV_CPU_OF(vector) ((int)(vector)-1)

/*
 * The threshold rule, shared so that the unit tests run the code the data
 * path runs: above XOFF turns pausing on, at or below XON turns it off, in
 * between nothing changes (hysteresis, so a queue at the threshold does not
 * send a frame per packet). Returns the next state.
 */
static inline __u32 pfc_xoff_next(__u32 state, __u64 bytes, __u64 xoff,
				  __u64 xon)
{
	if (!state && bytes > xoff)
		return 1;
	if (state && bytes <= xon)
		return 0;
	return state;
}

/*
 * Is a paused buffer (state 1) about to fall to XON: above XON, but by no
 * more than near bytes (0: never)? The agent then polls for the XON
 * instead of sleeping through it (pfc_poll.h).
 */
static inline int pfc_xon_near(__u32 state, __u64 bytes, __u64 xon, __u64 near)
{
	return state && near && bytes > xon && bytes <= xon + near;
}

/*
 * ECN on a lossless priority (RED as DCQCN's switches do it, the Kmin,
 * Kmax and Pmax of SONiC's and Cumulus's ECN profiles): the probability
 * of marking CE a packet that finds bytes in its (in-port, priority)
 * buffer, as a fraction of PFC_ECN_ONE (2^32): 0 up to kmin, rising
 * linearly to pmax at kmax, and 1 above kmax. A packet is marked when a
 * uniform 32-bit random number is below it. pmax is in the same units
 * (PFC_ECN_ONE: 100 %); the agent keeps kmax below XOFF (marks come
 * before pauses) and below 2^32, so the product cannot overflow.
 */
#define PFC_ECN_ONE (1ull << 32)

static inline __u64 pfc_ecn_p(__u64 bytes, __u64 kmin, __u64 kmax, __u64 pmax)
{
	if (bytes <= kmin)
		return 0;
	if (bytes > kmax)
		return PFC_ECN_ONE;
	return pmax * (bytes - kmin) / (kmax - kmin);
}

#endif /* __TAGGER_PFC_MAPS_H */
