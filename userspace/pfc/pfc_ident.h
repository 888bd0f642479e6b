/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Who a pause agent's state belongs to: the network namespace it runs in
 * (device and inode of /proc/self/ns/net; ifindexes mean nothing outside
 * it) and the process that runs it (pid plus the start time the kernel
 * gives it, so a pid reused by another process is not taken for the
 * agent). Commands refuse to act on a record of another namespace and
 * never signal a process whose start time differs.
 *
 * API:
 *   struct pfc_netns                    { dev, ino }
 *   pfc_netns_self(&ns)                 this process's (0 or -errno)
 *   pfc_netns_eq(a, b)
 *   pfc_netns_exists(ns)                held by a process or a /run/netns name
 *   pfc_netns_str(ns, buf, len)         "net:[4026532000]"
 *   pfc_proc_start(pid)                 start time in clock ticks, 0 if gone
 *   pfc_proc_signal(pid, start, sig)    signal only that very process
 *                                       (pidfd): 0, -ESRCH when it is gone
 */
#ifndef __TAGGER_PFC_IDENT_H
#define __TAGGER_PFC_IDENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct pfc_netns {
	uint64_t dev, ino;
};

int pfc_netns_self(struct pfc_netns *ns);
bool pfc_netns_eq(const struct pfc_netns *a, const struct pfc_netns *b);
bool pfc_netns_exists(const struct pfc_netns *ns);
const char *pfc_netns_str(const struct pfc_netns *ns, char *buf, size_t len);
uint64_t pfc_proc_start(int pid);
int pfc_proc_signal(int pid, uint64_t start, int sig);

#endif /* __TAGGER_PFC_IDENT_H */
