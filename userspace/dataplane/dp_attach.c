// SPDX-License-Identifier: GPL-2.0
/* Attach tc programs with tcx or cls_bpf; see dp_attach.h. */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "dataplane/dp_attach.h"

/* uapi values from Linux 6.6; the installed headers predate tcx. */
#define DP_BPF_TCX_INGRESS 46
#define DP_BPF_TCX_EGRESS 47
#define DP_BPF_F_BEFORE (1U << 3)

int dp_tcx_type(bool egress)
{
	return egress ? DP_BPF_TCX_EGRESS : DP_BPF_TCX_INGRESS;
}

/*
 * BPF_PROG_ATTACH, not a link: the hook holds the program until it is
 * detached, with no fd or pin to keep (under "ip netns exec" no pin
 * outlives the command). libbpf 1.1's attr fields sit where tcx reads
 * target_ifindex and relative_fd (0 with BPF_F_BEFORE: before all).
 */
static int tcx_attach(int prog_fd, int ifindex, bool egress)
{
	LIBBPF_OPTS(bpf_prog_attach_opts, opts, .flags = DP_BPF_F_BEFORE);

	return bpf_prog_attach_opts(prog_fd, ifindex, dp_tcx_type(egress),
				    &opts);
}

static int tc_attach(int prog_fd, int ifindex, bool egress,
		     struct dp_attachment *a)
{
	LIBBPF_OPTS(bpf_tc_hook, hook, .ifindex = ifindex,
		    .attach_point = egress ? BPF_TC_EGRESS : BPF_TC_INGRESS);
	LIBBPF_OPTS(bpf_tc_opts, opts, .prog_fd = prog_fd,
		    .priority = DP_TC_PRIO, .handle = DP_TC_HANDLE);
	int err;

	/* The clsact qdisc may be there already (the pause machinery). */
	err = bpf_tc_hook_create(&hook);
	if (err && err != -EEXIST)
		return err;
	err = bpf_tc_attach(&hook, &opts);
	if (err)
		return err;
	a->handle = opts.handle;
	a->prio = opts.priority;
	return 0;
}

int dp_attach(int prog_fd, int ifindex, bool egress, enum dp_mode mode,
	      struct dp_attachment *a)
{
	int err;

	memset(a, 0, sizeof(*a));
	a->ifindex = ifindex;
	a->egress = egress;
	a->link_fd = -1;
	a->prog_fd = prog_fd;
	if (mode != DP_MODE_TC) {
		err = tcx_attach(prog_fd, ifindex, egress);
		if (!err) {
			a->mode = DP_MODE_TCX;
			return 0;
		}
		/* Kernels before 6.6 reject the attach type. */
		if (mode == DP_MODE_TCX ||
		    (err != -EINVAL && err != -EOPNOTSUPP))
			return err;
	}
	a->mode = DP_MODE_TC;
	return tc_attach(prog_fd, ifindex, egress, a);
}

int dp_detach(const struct dp_attachment *a)
{
	LIBBPF_OPTS(bpf_tc_hook, hook, .ifindex = a->ifindex,
		    .attach_point = a->egress ? BPF_TC_EGRESS : BPF_TC_INGRESS);
	LIBBPF_OPTS(bpf_tc_opts, opts, .handle = a->handle,
		    .priority = a->prio);

	/* A link: pinned by taggers before the kernel-held attachments. */
	if (a->mode == DP_MODE_TCX && a->link_fd >= 0)
		return bpf_link_detach(a->link_fd) ? -errno : 0;
	if (a->mode == DP_MODE_TCX)
		return bpf_prog_detach2(a->prog_fd, a->ifindex,
					dp_tcx_type(a->egress)) ?
			       -errno :
			       0;
	/* Only our filter: the clsact qdisc may carry other programs. */
	return bpf_tc_detach(&hook, &opts);
}

const char *dp_mode_name(enum dp_mode mode)
{
	return mode == DP_MODE_TCX ? "tcx" : mode == DP_MODE_TC ? "tc" : "auto";
}

int dp_mode_parse(const char *name)
{
	if (!strcmp(name, "tcx"))
		return DP_MODE_TCX;
	if (!strcmp(name, "tc"))
		return DP_MODE_TC;
	if (!strcmp(name, "auto"))
		return DP_MODE_AUTO;
	return -1;
}
