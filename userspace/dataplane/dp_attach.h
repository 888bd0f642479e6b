/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Attach a tc program first on a port's ingress or egress hook, and detach
 * it again. tcx (BPF_PROG_ATTACH with BPF_F_BEFORE: no link, so nothing
 * has to hold an fd or a pin for the program to stay) where the kernel has
 * it, else cls_bpf
 * in direct-action mode at the lowest preference (bpf_tc_attach) with
 * handle DP_TC_HANDLE: a known handle, so a loader killed before it
 * recorded the filter can still detach it, and a second tagger on the
 * same hook is refused (EEXIST) instead of stacked. Both live until
 * detached. A link_fd given to dp_detach detaches a tcx link instead
 * (legacy: link pins, dp_state.h).
 *
 * API:
 *   enum dp_mode                 auto, tcx, tc
 *   dp_attach(prog, ifindex, egress, mode, &a)    0 or -errno; a->mode says
 *                                which mechanism was used
 *   dp_detach(&a)                0 or -errno; tcx by a->prog_fd, or a
 *                                link by a->link_fd (>= 0)
 *   dp_tcx_type(egress)          BPF_TCX_INGRESS or BPF_TCX_EGRESS
 *   dp_mode_name(mode), dp_mode_parse(name)
 */
#ifndef __TAGGER_DP_ATTACH_H
#define __TAGGER_DP_ATTACH_H

#include <stdbool.h>
#include <stdint.h>

#define DP_TC_PRIO 1
#define DP_TC_HANDLE 0x7467 /* "tg" */
/*
 * The flower data path's holder programs (bpf/tagger_hold.bpf.c): chain
 * 0 of the first port, behind the flower entry filter at pref 1.
 */
#define DP_HOLD_PRIO 0xfff0

enum dp_mode {
	DP_MODE_AUTO,
	DP_MODE_TCX,
	DP_MODE_TC,
};

struct dp_attachment {
	int ifindex;
	bool egress;
	enum dp_mode mode;
	int prog_fd; /* tcx */
	int link_fd; /* legacy: link pins (dp_state.h); else < 0 */
	uint32_t handle; /* tc */
	uint32_t prio; /* tc */
};

int dp_attach(int prog_fd, int ifindex, bool egress, enum dp_mode mode,
	      struct dp_attachment *a);
int dp_detach(const struct dp_attachment *a);
int dp_tcx_type(bool egress);
const char *dp_mode_name(enum dp_mode mode);
int dp_mode_parse(const char *name);

#endif /* __TAGGER_DP_ATTACH_H */
