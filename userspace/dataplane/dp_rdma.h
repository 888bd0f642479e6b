/* SPDX-License-Identifier: GPL-2.0 */
/*
 * RoCE that bypasses the kernel's stack: a NIC's RDMA engine builds its
 * own packets, which no tc program sees. Where an RDMA device sits on the
 * host's interface, `host attach` gives it the tag another way: the RDMA
 * connection manager's default RoCE type of service (configfs,
 * rdma_cm/<ibdev>/ports/<port>/default_roce_tos = initial tag << 2), and,
 * where the NIC has DCB, trust DSCP (the APP table: each lossless tag to
 * its priority, the rest to the lossy priority) and PFC on the lossless
 * priorities. Detach puts the ToS back; DCB is left as set (the previous
 * DCB configuration is not recorded).
 *
 * Roots: $TAGGER_SYSFS (default /sys) and $TAGGER_CONFIGFS (default
 * /sys/kernel/config), so tests can use a fake tree.
 *
 * API:
 *   dp_rdma_find(ifname, ibdev, len, &port)   1 found, 0 no RDMA device
 *   dp_rdma_attach(ifname, r, tag)   NULL if no RDMA device on ifname, else
 *                                    a record of what was set (and what to
 *                                    restore), for the state and -j
 *   dp_rdma_detach(rec)              restore the ToS from the record; 0 or
 *                                    -errno
 */
#ifndef __TAGGER_DP_RDMA_H
#define __TAGGER_DP_RDMA_H

#include <stddef.h>
#include <jansson.h>

#include "model/rules.h"

int dp_rdma_find(const char *ifname, char *ibdev, size_t len, int *port);
json_t *dp_rdma_attach(const char *ifname, const struct rules *r, int tag);
int dp_rdma_detach(const json_t *rec);

#endif /* __TAGGER_DP_RDMA_H */
