/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A port's IEEE DCB settings, read and changed through DCB netlink
 * (lib/dcb_nl.h) as iproute2's `dcb app`, `dcb rewr`, `dcb pfc` and
 * `dcb buffer` do, request for request: a switch data path that programs
 * its DSCP -> priority map, lossless priorities and buffers into the
 * ASIC's driver (mlxsw, sparx5, mlx5, ...), and puts back what it found.
 *
 * Every function takes the device's name (dcb_ifname() turns an ifindex
 * into it) and returns 0 or -errno with d->err saying why: the kernel's
 * extack message where it gave one, "X does not support DCB" for a
 * device without DCB operations (veth, lo), and for a driver that lacks
 * one setting which setting it refused.
 *
 * The app and rewr tables are multimaps (a DSCP may have several
 * priorities; the driver picks one): the _dscp and _rewr calls replace,
 * adding the new entries before deleting the old ones (`dcb app
 * replace`'s order), so no DSCP is left without a priority meanwhile.
 * Entries of other selectors are never touched. PFC and the buffer are
 * read, changed and written back whole, as dcb does.
 *
 * API:
 *   dcb_port_read(d, ifname, s)          the port's state into s
 *   dcb_port_apps(d, ifname, cmd, table, apps, n)
 *                                        DCB_CMD_IEEE_SET or _DEL of n
 *                                        entries of the app table
 *                                        (DCB_ATTR_IEEE_APP_TABLE) or of
 *                                        the rewr table (DCB_NL_REWR_TABLE:
 *                                        -EOPNOTSUPP before 6.3)
 *   dcb_port_dscp(d, ifname, prio)       DSCP d -> prio[d] for each
 *                                        prio[d] >= 0 (64 entries), the
 *                                        DSCP's other priorities deleted
 *   dcb_port_rewr(d, ifname, dscp)       priority p leaves with DSCP
 *                                        dscp[p] for each dscp[p] >= 0
 *                                        (8 entries); kernel 6.3+
 *   dcb_port_pfc(d, ifname, en, delay)   PFC on the priorities of mask
 *                                        en, and the cable's round trip
 *                                        in bits (delay < 0 keeps it)
 *   dcb_port_buffer(d, ifname, prio2buffer, size)
 *                                        priority -> buffer and buffer
 *                                        sizes in bytes (8 each; NULL
 *                                        keeps them)
 *   dcb_port_restore(d, ifname, saved)   put saved back (dcb_plan's
 *                                        changes); how many changes made
 *   dcb_pfc_delay_bits(rate, t_wire, &bits)
 *                                        PFC's delay for a link of rate
 *                                        bit/s and a cable of t_wire ns
 *                                        (the headroom model's r t_wire,
 *                                        up and back); -ERANGE if it
 *                                        exceeds the 16 bits of the field
 */
#ifndef __TAGGER_DCB_PORT_H
#define __TAGGER_DCB_PORT_H

#include <stdint.h>

#include "lib/dcb_msg.h"
#include "lib/dcb_nl.h"

int dcb_port_read(struct dcb_nl *d, const char *ifname, struct dcb_state *s);
int dcb_port_apps(struct dcb_nl *d, const char *ifname, int cmd, int table,
		  const struct dcb_app *apps, int n);
int dcb_port_dscp(struct dcb_nl *d, const char *ifname,
		  const int8_t prio[DCB_DSCPS]);
int dcb_port_rewr(struct dcb_nl *d, const char *ifname,
		  const int8_t dscp[DCB_PRIOS]);
int dcb_port_pfc(struct dcb_nl *d, const char *ifname, uint8_t en, int delay);
int dcb_port_buffer(struct dcb_nl *d, const char *ifname,
		    const uint8_t *prio2buffer, const uint32_t *size);
int dcb_port_restore(struct dcb_nl *d, const char *ifname,
		     const struct dcb_state *saved);
int dcb_pfc_delay_bits(uint64_t rate_bps, uint64_t t_wire_ns, uint16_t *bits);

#endif /* __TAGGER_DCB_PORT_H */
