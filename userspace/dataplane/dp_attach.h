/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Attach a tc program first on a port's ingress or egress hook, and detach
 * it again. tcx (BPF_LINK_CREATE with BPF_F_BEFORE, through the raw bpf()
 * syscall: libbpf 1.1 has no tcx API) where the kernel has it, else cls_bpf
 * in direct-action mode at the lowest preference (bpf_tc_attach) with
 * handle DP_TC_HANDLE: a known handle, so a loader killed before it
 * recorded the filter can still detach it, and a second tagger on the
 * same hook is refused (EEXIST) instead of stacked. A tcx
 * link survives the loader once pinned; a cls_bpf filter lives in the
 * qdisc until detached.
 *
 * API:
 *   enum dp_mode                 auto, tcx, tc
 *   dp_attach(prog, ifindex, egress, mode, &a)    0 or -errno; a->mode says
 *                                which mechanism was used
 *   dp_detach(&a)                0 or -errno; a tcx link by a->link_fd
 *   dp_mode_name(mode), dp_mode_parse(name)
 */
#ifndef __TAGGER_DP_ATTACH_H
#define __TAGGER_DP_ATTACH_H

#include <stdbool.h>
#include <stdint.h>

#define DP_TC_PRIO	1
#define DP_TC_HANDLE	0x7467	/* "tg" */

enum dp_mode {
	DP_MODE_AUTO,
	DP_MODE_TCX,
	DP_MODE_TC,
};

struct dp_attachment {
	int ifindex;
	bool egress;
	enum dp_mode mode;
	int link_fd;		/* tcx */
	uint32_t handle;	/* tc */
	uint32_t prio;		/* tc */
};

int dp_attach(int prog_fd, int ifindex, bool egress, enum dp_mode mode,
	      struct dp_attachment *a);
int dp_detach(const struct dp_attachment *a);
const char *dp_mode_name(enum dp_mode mode);
int dp_mode_parse(const char *name);

#endif /* __TAGGER_DP_ATTACH_H */
