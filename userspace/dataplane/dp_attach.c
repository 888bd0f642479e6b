// SPDX-License-Identifier: GPL-2.0
/* Attach tc programs with tcx or cls_bpf; see dp_attach.h. */
#include <errno.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "dataplane/dp_attach.h"

/* uapi values from Linux 6.6; the installed headers predate tcx. */
#define DP_BPF_TCX_INGRESS	46
#define DP_BPF_TCX_EGRESS	47
#define DP_BPF_F_BEFORE		(1U << 3)

/* The head of union bpf_attr's link_create with its tcx member. */
struct dp_tcx_link_create {
	uint32_t prog_fd;
	uint32_t target_ifindex;
	uint32_t attach_type;
	uint32_t flags;
	uint32_t relative_fd;	/* 0 with BPF_F_BEFORE: before all */
	uint32_t pad;
	uint64_t expected_revision;
};

static int tcx_attach(int prog_fd, int ifindex, bool egress)
{
	struct dp_tcx_link_create attr = {
		.prog_fd = prog_fd,
		.target_ifindex = ifindex,
		.attach_type = egress ? DP_BPF_TCX_EGRESS : DP_BPF_TCX_INGRESS,
		.flags = DP_BPF_F_BEFORE,
	};
	long fd = syscall(__NR_bpf, BPF_LINK_CREATE, &attr, sizeof(attr));

	return fd < 0 ? -errno : (int)fd;
}

static int tc_attach(int prog_fd, int ifindex, bool egress, struct dp_attachment *a)
{
	LIBBPF_OPTS(bpf_tc_hook, hook, .ifindex = ifindex,
		    .attach_point = egress ? BPF_TC_EGRESS : BPF_TC_INGRESS);
	LIBBPF_OPTS(bpf_tc_opts, opts, .prog_fd = prog_fd, .priority = DP_TC_PRIO,
		    .handle = DP_TC_HANDLE);
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
	int fd;

	memset(a, 0, sizeof(*a));
	a->ifindex = ifindex;
	a->egress = egress;
	a->link_fd = -1;
	if (mode != DP_MODE_TC) {
		fd = tcx_attach(prog_fd, ifindex, egress);
		if (fd >= 0) {
			a->mode = DP_MODE_TCX;
			a->link_fd = fd;
			return 0;
		}
		/* Kernels before 6.6 reject the attach type. */
		if (mode == DP_MODE_TCX || (fd != -EINVAL && fd != -EOPNOTSUPP))
			return fd;
	}
	a->mode = DP_MODE_TC;
	return tc_attach(prog_fd, ifindex, egress, a);
}

int dp_detach(const struct dp_attachment *a)
{
	LIBBPF_OPTS(bpf_tc_hook, hook, .ifindex = a->ifindex,
		    .attach_point = a->egress ? BPF_TC_EGRESS : BPF_TC_INGRESS);
	LIBBPF_OPTS(bpf_tc_opts, opts, .handle = a->handle, .priority = a->prio);

	if (a->mode == DP_MODE_TCX)
		return bpf_link_detach(a->link_fd) ? -errno : 0;
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
