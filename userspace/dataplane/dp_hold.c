// SPDX-License-Identifier: GPL-2.0
/* The holder programs of data paths without programs; see dp_hold.h. */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "dataplane/dp_anchor.h"
#include "dataplane/dp_attach.h"
#include "dataplane/dp_hold.h"
#include "dataplane/dp_job.h"
#include "dataplane/dp_pin_path.h"
#include "dataplane/dp_settle.h"
#include "dataplane/dp_table.h"
#include "tagger_hold.skel.h"
#include "tagger_maps.h"

static json_t *hold_handle(void)
{
	return json_pack("[i,i]", DP_TC_HANDLE, DP_HOLD_PRIO);
}

static int hold_attach(int prog, int ifindex, bool egress)
{
	LIBBPF_OPTS(bpf_tc_hook, hook, .ifindex = ifindex,
		    .attach_point = egress ? BPF_TC_EGRESS : BPF_TC_INGRESS);
	LIBBPF_OPTS(bpf_tc_opts, opts, .prog_fd = prog, .handle = DP_TC_HANDLE,
		    .priority = DP_HOLD_PRIO);
	int err = bpf_tc_hook_create(&hook);

	if (err && err != -EEXIST)
		return err;
	return bpf_tc_attach(&hook, &opts);
}

/* Load, pin, anchor and attach the holders on ifindex; 0 or -errno. */
int dp_hold_setup(const char *dir, int ifindex, int64_t gen)
{
	LIBBPF_OPTS(bpf_object_open_opts, oo, .pin_root_path = dir);
	struct tagger_hold_bpf *skel = tagger_hold_bpf__open_opts(&oo);
	char path[PATH_MAX + 64];
	uint32_t zero = 0, g = gen;
	int err, fds[2];

	if (!skel)
		return -errno;
	err = tagger_hold_bpf__load(skel);
	fds[0] = bpf_program__fd(skel->progs.hold_ingress);
	fds[1] = bpf_program__fd(skel->progs.hold_egress);
	if (!err && bpf_map_update_elem(bpf_map__fd(skel->maps.tagger_gen),
					&zero, &g, BPF_ANY))
		err = -errno;
	if (!err)
		err = dp_pin_path(path, sizeof(path), dir, "prog_ingress") ?:
			      bpf_program__pin(skel->progs.hold_ingress, path);
	if (!err)
		err = dp_pin_path(path, sizeof(path), dir, "prog_egress") ?:
			      bpf_program__pin(skel->progs.hold_egress, path);
	if (!err)
		err = dp_anchor_create(dir, fds, 2);
	if (!err)
		err = hold_attach(fds[0], ifindex, false);
	if (!err)
		err = hold_attach(fds[1], ifindex, true);
	tagger_hold_bpf__destroy(skel); /* pins and filters keep them */
	return err;
}

json_t *dp_hold_ports_json(const struct dp_port *ports, int n)
{
	json_t *arr = dp_ports_json(ports, n), *p = json_array_get(arr, 0);

	if (p) { /* a hook's [handle, prio], as the eBPF data plane's */
		json_object_set_new(p, "ingress", hold_handle());
		json_object_set_new(p, "egress", hold_handle());
	}
	return arr;
}

/* They sit at known places: an "attaching" record's too. */
int dp_hold_teardown(const char *dir, json_t *state)
{
	json_t *port = json_array_get(json_object_get(state, "ports"), 0);
	const char *ifname = json_string_value(json_object_get(port, "ifname"));
	json_t *hold = hold_handle();
	int k, err = 0;

	for (k = 0; ifname && k < 2; k++) {
		/* no link pin: the holders are cls_bpf filters */
		int e = dp_hook_teardown(dir, ifname, k, "no_link", hold,
					 DP_MODE_TC);

		err = err ?: e;
	}
	json_decref(hold);
	return err;
}

int dp_hold_flux_set(int gen_fd, bool on)
{
	uint32_t k = TAGGER_HOLD_FLUX, v = on;

	return bpf_map_update_elem(gen_fd, &k, &v, BPF_ANY) ? -errno : 0;
}

int dp_hold_flux(const char *dir)
{
	int fd = dp_pin_open(dir, tagger_str(TAGGER_GEN)), err;
	uint32_t k = TAGGER_HOLD_FLUX, v = 0;

	if (fd < 0)
		return fd;
	err = bpf_map_lookup_elem(fd, &k, &v) ? -errno : 0;
	close(fd);
	return err ? err : v != 0;
}
