/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The pause programs' knobs, globals and maps (the layouts are the ABI in
 * bpf/pfc_maps.h), and the lookups every part of them uses. Included once,
 * by bpf/pfc.bpf.c.
 *
 * API:
 *   knobs (rodata, set by the agent before load): netns_ino, lossless_mask,
 *     xoff_bytes[], xon_bytes[], dscp_prio[], drop_kind[], forwarding,
 *     pause_quanta, xon_near_bytes[], ecn_mask, ecn_kmin[], ecn_kmax[],
 *     ecn_pmax[]
 *   globals (bss): fast_pause, tx_watches, emap[], xon_near[], agent_asleep,
 *     xoff_sent_at[], refresh_after_ns[], bpf_refreshes
 *   maps: ports (ifindex -> slot), pp, ring, events
 *   pfc_pp_get(slot, prio), pfc_port_slot(ifindex, &slot)
 *   pfc_emit(type, slot, prio, sent, since)   a record to the agent
 *   pfc_submit(e)                              commit a reserved record
 */
#ifndef __TAGGER_LIB_PFC_GLOBALS_H
#define __TAGGER_LIB_PFC_GLOBALS_H

#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#include "pfc_maps.h"

/* Configuration, fixed when the agent loads the programs. */
const volatile __u32 netns_ino;
const volatile __u32 lossless_mask;
const volatile __u64 xoff_bytes[PFC_PRIOS];
const volatile __u64 xon_bytes[PFC_PRIOS];
const volatile __u8 dscp_prio[64];
const volatile __u8 drop_kind[256]; /* enum pfc_drop_kind by drop reason */
const volatile __u32 forwarding = 1; /* 0: a host, nothing to account */
const volatile __u16 pause_quanta = 0xffff;
/* pfc_xon_near()'s margin per priority (0: the agent does not poll). */
const volatile __u64 xon_near_bytes[PFC_PRIOS];
/* ECN marking (pfc_ecn_p()): the priorities it is on for, and per priority. */
const volatile __u32 ecn_mask;
const volatile __u64 ecn_kmin[PFC_PRIOS];
const volatile __u64 ecn_kmax[PFC_PRIOS];
const volatile __u64 ecn_pmax[PFC_PRIOS]; /* PFC_ECN_ONE: 100 % */

/*
 * Set by the agent where a PAUSE frame can overtake the port's queues from
 * tc egress (HTB's direct queue): XOFF then sends the frame right away
 * instead of waiting for the agent to wake up.
 */
__u32 fast_pause;

/*
 * Egress queues the agent has reopened and whose next packet out it wants
 * to hear of (tx_watch in pfc_pp): so that a transmit looks further only
 * while one is pending.
 */
__u32 tx_watches;

/*
 * 1 while the agent sleeps without a timer (nothing buffered, no pause in
 * force: userspace/pfc/pfc_idle.h). The first packet counted then clears
 * it and wakes the agent (PFC_EV_WAKE), so that it ticks again while
 * anything is buffered.
 */
__u32 agent_asleep;

/*
 * 1 while the agent polls its ring buffer (--busy-poll,
 * userspace/pfc/pfc_poll.h): a record then needs no wake-up, whose
 * irq_work is a self-IPI (in a VM an exit to the host) in the softirq
 * that emits it. The agent clears it, then looks at the ring once more
 * before it sleeps; pfc_emit() reads it again after its commit (a full
 * barrier) and forces a wake-up if it was cleared meanwhile, so a record
 * is either seen by that look or wakes the agent.
 */
__u32 agent_polling;

/*
 * Which egress priorities each ingress priority was queued at (the data
 * plane may change it): the agent's resync needs to know which queues
 * hold an ingress priority's bytes.
 */
__u32 emap[PFC_PRIOS];

/*
 * 1 once a pause episode's PFC_EV_XON_NEAR was sent, so that it is sent
 * once per episode; cleared by the XOFF crossing that begins the next.
 * Not adopted with the maps: a lost flag costs one event at most.
 */
__u8 xon_near[PFC_MAX_PORTS * PFC_PRIOS];

/*
 * The XOFF refresh without the agent (lib/pfc_account.h): when a PAUSE of
 * this node last went out to the upstream of (slot, prio), from BPF or from
 * the agent (bpf_ktime_get_ns(), CLOCK_MONOTONIC), how long one is good for
 * before it is refreshed (per port: half the PAUSE time at its rate; 0:
 * never, until the agent sets it), and how many the BPF side sent. Not
 * adopted with the maps: a new agent's first refresh may come early.
 */
__u64 xoff_sent_at[PFC_MAX_PORTS * PFC_PRIOS];
__u64 refresh_after_ns[PFC_MAX_PORTS];
__u64 bpf_refreshes;

/*
 * The XON-near flag of (slot, prio). The index is masked last, behind a
 * compiler barrier: Debian's 6.1 verifier loses the bounds of the masked
 * operands through the multiply-add and refuses the access ("math between
 * map_value pointer and register with unbounded min value").
 */
static __always_inline __u8 *pfc_xon_near_flag(__u32 slot, __u32 prio)
{
	__u64 i = PFC_SLOT(slot & (PFC_MAX_PORTS - 1), prio & (PFC_PRIOS - 1));

	barrier_var(i);
	return &xon_near[i & (PFC_MAX_PORTS * PFC_PRIOS - 1)];
}

/* xoff_sent_at of (slot, prio), masked as above. */
static __always_inline __u64 *pfc_xoff_sent_at(__u32 slot, __u32 prio)
{
	__u64 i = PFC_SLOT(slot & (PFC_MAX_PORTS - 1), prio & (PFC_PRIOS - 1));

	barrier_var(i);
	return &xoff_sent_at[i & (PFC_MAX_PORTS * PFC_PRIOS - 1)];
}

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, PFC_MAX_PORTS);
	__type(key, __u32); /* ifindex */
	__type(value, __u32); /* slot */
} ports SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, PFC_MAX_PORTS *PFC_PRIOS);
	__uint(map_flags, BPF_F_MMAPABLE);
	__type(key, __u32);
	__type(value, struct pfc_pp);
} pp SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, PFC_MAX_PORTS *PFC_PRIOS *PFC_RING);
	__uint(map_flags, BPF_F_MMAPABLE);
	__type(key, __u32);
	__type(value, __u64);
} ring SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 1 << 18);
} events SEC(".maps");

static __always_inline struct pfc_pp *pfc_pp_get(__u32 slot, __u32 prio)
{
	__u32 k = PFC_SLOT(slot, prio & 7);

	return bpf_map_lookup_elem(&pp, &k);
}

static __always_inline int pfc_port_slot(__u32 ifindex, __u32 *slot)
{
	__u32 *s = bpf_map_lookup_elem(&ports, &ifindex);

	if (!s)
		return -1;
	*slot = *s;
	return 0;
}

/*
 * Commit a reserved record: with no wake-up while the agent polls (see
 * agent_polling), forcing one if it stopped polling meanwhile.
 */
static __always_inline void pfc_submit(void *e)
{
	if (!*(volatile __u32 *)&agent_polling) {
		bpf_ringbuf_submit(e, 0);
		return;
	}
	bpf_ringbuf_submit(e, BPF_RB_NO_WAKEUP);
	if (!*(volatile __u32 *)&agent_polling) {
		/* It stopped polling meanwhile: it may sleep. */
		struct pfc_event w = { .type = PFC_EV_WAKE };

		bpf_ringbuf_output(&events, &w, sizeof(w), BPF_RB_FORCE_WAKEUP);
	}
}

/* sent: XOFF's "the BPF side sent the PAUSE"; since: RESUMED's crossing. */
static __always_inline void pfc_emit(__u32 type, __u32 slot, __u32 prio,
				     __u32 sent, __u64 since)
{
	struct pfc_event *e = bpf_ringbuf_reserve(&events, sizeof(*e), 0);

	if (!e)
		return; /* the agent's periodic reconcile catches up */
	__builtin_memset(e, 0, sizeof(*e));
	e->type = type;
	e->slot = slot;
	e->prio = prio;
	e->vector = sent;
	e->ts = bpf_ktime_get_ns();
	e->since = since;
	pfc_submit(e);
}

#endif /* __TAGGER_LIB_PFC_GLOBALS_H */
