/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Whether a network device is a port of a switch ASIC: the kernel gives
 * such a device (any switchdev driver: mlxsw, prestera, sparx5, ...) a
 * physical switch id (IFLA_PHYS_SWITCH_ID, `ip -d link` "switchid").
 * Traffic such a port's ASIC forwards never reaches the tc hooks of the
 * device, so the eBPF data plane does not see it.
 *
 * Asked by netlink, in the caller's network namespace (sysfs would show
 * the namespace sysfs was mounted in).
 *
 * API:
 *   link_switch_id(ifindex, id, len)   the id as hex into id (len bytes,
 *                                      at least 2 * 32 + 1); 1 if the
 *                                      device has one, 0 if not, -errno
 *   link_switch_id_parse(nlh, id, len) the same from an RTM_NEWLINK
 *                                      message (1, 0, or -EINVAL)
 */
#ifndef __TAGGER_LINK_SWITCH_H
#define __TAGGER_LINK_SWITCH_H

#include <stddef.h>
#include <linux/netlink.h>

#define LINK_SWITCH_ID_MAX 32 /* MAX_PHYS_ITEM_ID_LEN */

int link_switch_id(int ifindex, char *id, size_t len);
int link_switch_id_parse(const struct nlmsghdr *nlh, char *id, size_t len);

#endif /* __TAGGER_LINK_SWITCH_H */
