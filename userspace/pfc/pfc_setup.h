/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the agent installs on its node's ports, and removes on its way
 * out: hardware PFC (DCB) where every port has it, else the pause
 * programs (bpf/pfc.bpf.c), the per-priority queues (pfc_backend.h), the
 * PAUSE sockets and the offloads turned off. With DCB, each port's maps
 * and PFC (pfc_dcb_ports.h), its state as found saved before and put
 * back after. Each step is recorded in the agent as it is done, so that
 * teardown undoes a setup that failed half-way as well as a whole one.
 *
 * API:
 *   pfc_setup(a)          0 or -errno (-EBUSY: the ports hold another
 *                         agent's queues); on failure what it made stays
 *                         recorded for teardown
 *   pfc_teardown(a)       remove what is recorded as made
 *   pfc_setup_record(a)   the state record says what the agent runs with:
 *                         its configuration, backend, ports and the
 *                         offloads to restore
 */
#ifndef __TAGGER_PFC_SETUP_H
#define __TAGGER_PFC_SETUP_H

struct pfc_agent;

int pfc_setup(struct pfc_agent *a);
void pfc_teardown(struct pfc_agent *a);
void pfc_setup_record(struct pfc_agent *a);

#endif /* __TAGGER_PFC_SETUP_H */
