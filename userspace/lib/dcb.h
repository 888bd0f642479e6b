/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Hardware PFC through DCB netlink (what iproute2's `dcb pfc` and `dcb app`
 * do): where a port's driver has IEEE DCB operations, PFC and the DSCP ->
 * priority map are configured there and no software pause is needed.
 * veth and lo have none: the probe says "unsupported". The whole IEEE
 * state of a port (app and rewr tables, PFC with delay, ETS, buffers),
 * its JSON and its restore are lib/dcb_port.h's.
 *
 * API:
 *   pfc_dcb_probe(ifname, msg, len)      1 supported, 0 not, <0 -errno
 *   pfc_dcb_apply(ifname, mask, dscp)    enable PFC on mask, DSCP app table
 */
#ifndef __TAGGER_PFC_DCB_H
#define __TAGGER_PFC_DCB_H

#include <stddef.h>
#include <stdint.h>

int pfc_dcb_probe(const char *ifname, char *msg, size_t len);
int pfc_dcb_apply(const char *ifname, uint8_t lossless_mask,
		  const uint8_t dscp_prio[64]);

#endif /* __TAGGER_PFC_DCB_H */
