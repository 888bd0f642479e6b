/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The agent's ports as the kernel sees them: a port that goes away (its
 * veth peer's namespace deleted, a module unloaded, `ip link del`) takes
 * the agent's queues and programs there with it. An agent that went on
 * without it would pause and count for nothing, and one once spun at
 * its real-time priority over a buffer that could never drain. So the
 * loop listens to the kernel's link notifications (RTNLGRP_LINK) and
 * stops with an error when one of its ports is deleted: the normal stop
 * removes what is left on the other ports, and the exit status (3) tells
 * systemd or the operator.
 *
 * API:
 *   pfc_links_open(&nl)            subscribe; the socket's fd (for epoll),
 *                                  or -errno
 *   pfc_links_gone(nl, cfg)        read what is queued: the index in cfg's
 *                                  ports of one that was deleted, -1 if
 *                                  none (or only others' links changed)
 *   pfc_links_close(nl)
 */
#ifndef __TAGGER_PFC_LINKS_H
#define __TAGGER_PFC_LINKS_H

#include "pfc/pfc_config.h"

struct mnl_socket;

int pfc_links_open(struct mnl_socket **nl);
int pfc_links_gone(struct mnl_socket *nl, const struct pfc_config *cfg);
void pfc_links_close(struct mnl_socket *nl);

#endif /* __TAGGER_PFC_LINKS_H */
