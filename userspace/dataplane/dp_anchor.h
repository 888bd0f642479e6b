/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A node's state held by the kernel, so a node is found again without any
 * pin: under "ip netns exec" the mount namespace is private and /sys is
 * remounted, so pins made there die with the command, and pins made by
 * nsenter are out of its sight.
 *
 * The anchor is an array-of-maps "tagger_anchor" of two slots, bound to
 * the node's programs (bpf_prog_bind_map) so it lives as long as they
 * are attached. Its two slots hold state maps; the live one ("state"
 * pin) is the slot whose record is of the kernel's generation (TAGGER_GEN),
 * else slot 0. An update writes its pending record ("state_new") into the
 * other slot before it moves the generation, and that move alone commits
 * it: no anchor write after the swap (each write to an array of maps
 * waits for an RCU grace period, 5-20 ms). The slot it replaced keeps
 * the previous record until the next update. Legacy: slot-0 anchors
 * (dp_state.h) keep the committed record in slot 0 and a pending one in
 * slot 1; both kinds read each other's anchors (tagger 0.1.0 before
 * 2026-11-25 takes a live slot 1 for an interrupted update and commits
 * it). Every state write goes to the pin first and to
 * the anchor second; either order of the two is a state that
 * dp_state_settle repairs by the kernel's generation, so the anchor is
 * the truth and the pins a mirror of it.
 *
 * A later command finds the anchor from the interfaces of its network
 * namespace: the programs attached there (tcx: BPF_PROG_QUERY; cls_bpf:
 * the filter at DP_TC_HANDLE, at DP_TC_PRIO or, for a flower switch's
 * holder, DP_HOLD_PRIO), their map ids, the anchor among them and
 * the name in its state. dp_anchor_sync then pins what it found in the
 * node's directory (a private bpffs when the machine has none).
 *
 * API:
 *   dp_anchor_create(dir, progs, n)   make the anchor, bind it to the n
 *                                     programs, pin it as dir/anchor, put
 *                                     dir/state in slot 0; 0 or -errno
 *   dp_anchor_set(dir, pending, fd)   put map fd in the live slot, or the
 *                                     other one if pending (fd < 0: empty
 *                                     it) if dir has an anchor; 0 or -errno
 *   dp_anchor_idle_fd(dir)            the state map in the slot that is not
 *                                     live (the record an update replaced),
 *                                     or -errno (-ENOENT: none, -EBUSY: the live
 *                                     record's map is in that slot too)
 *   dp_anchor_sync(dir, kind, name, ifname)
 *                                     find the node ("switch" or "host";
 *                                     ifname for a host) in the kernel and
 *                                     make dir's pins mirror it: 1 found,
 *                                     0 not found (stale pins of a node
 *                                     detached elsewhere are removed),
 *                                     -errno
 */
#ifndef __TAGGER_DP_ANCHOR_H
#define __TAGGER_DP_ANCHOR_H

#include <stdbool.h>

#define DP_ANCHOR_NAME "tagger_anchor"
#define DP_ANCHOR_PIN "anchor"

int dp_anchor_create(const char *dir, const int *progs, int n);
int dp_anchor_set(const char *dir, bool pending, int map_fd);
int dp_anchor_idle_fd(const char *dir);
int dp_anchor_sync(const char *dir, const char *kind, const char *name,
		   const char *ifname);

#endif /* __TAGGER_DP_ANCHOR_H */
