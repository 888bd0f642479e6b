/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a port needs around the pause programs: offloads that keep the
 * byte accounting exact, the tc attachment of the programs, and removal.
 *
 * API:
 *   pfc_port_offloads(ifname, off, saved)   GRO/TSO/GSO off (or restore:
 *                                           off 0; or only read into saved:
 *                                           PFC_OFFLOADS_READ)
 *   pfc_port_mtu(ifname)                    MTU, or -errno
 *   pfc_port_attach(ifindex, in_fd, out_fd) cls_bpf ingress+egress, last
 *                                           in chain 0 and in
 *                                           TAGGER_TC_CHAIN_PFC (an fd
 *                                           < 0: not that one)
 *   pfc_port_detach(ifindex)                remove them (absent: ok)
 */
#ifndef __TAGGER_PFC_PORT_H
#define __TAGGER_PFC_PORT_H

#include <stdint.h>

/* cls_bpf preference of the pause programs: after the data plane's. */
#define PFC_TC_PREF 0xc000

struct pfc_offloads {
	uint32_t gro, tso, gso;
	int valid;
};

#define PFC_OFFLOADS_READ 2
int pfc_port_offloads(const char *ifname, int off, struct pfc_offloads *saved);
int pfc_port_mtu(const char *ifname);
int pfc_port_attach(int ifindex, int in_fd, int out_fd);
void pfc_port_detach(int ifindex);

#endif /* __TAGGER_PFC_PORT_H */
