/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Running tagger on a switch of the inventory, through its transport:
 *
 *   netns   a child enters the network namespace /run/netns/NS (setns,
 *           as nsenter --net does: "ip netns exec" would remount /sys
 *           and hide the pins under /sys/fs/bpf) and executes tagger
 *           (tagger_path, else this very binary) with the words as argv
 *   ssh     ssh -o BatchMode=yes -o ConnectTimeout=T [-l USER] [-p PORT]
 *           -- HOST tagger WORDS...: the remote shell joins the words, so
 *           every word is checked (fabric_inv.h) before it gets here
 *
 * Either way no shell runs here, stdin is /dev/null, and the command is
 * killed after the host's timeout. Its stdout is kept (up to
 * FABRIC_RUN_MAX_OUT bytes), and the last line of its stderr (the
 * "Error: ..." of tagger) for the report. Several threads may run
 * commands at once (tagger paths from-fib asks its switches in parallel).
 *
 * API:
 *   fabric_run(h, words, &res)   0 if the command ran to its end (its
 *                                exit code in res.status), else -1 with
 *                                res.err saying why it could not be run
 *                                or finished: no namespace, ssh failed
 *                                (exit 255), timed out, killed, output
 *                                too long
 *   fabric_run_prog(h, prog, words, &res)
 *                                the same for another program than
 *                                tagger (lldpcli): prog, a name found in
 *                                the PATH or an absolute path, checked
 *                                as the inventory's paths are
 *   fabric_run_free(&res)
 */
#ifndef __TAGGER_FABRIC_RUN_H
#define __TAGGER_FABRIC_RUN_H

#include <stddef.h>

#include "fabric/fabric_inv.h"

#define FABRIC_RUN_MAX_OUT (768UL << 20)
#define FABRIC_RUN_MAX_WORDS 32

struct fabric_run {
	int status; /* the command's exit code */
	char *out; /* its stdout, NUL ended */
	size_t len;
	char err[512]; /* the last line of its stderr, or why it failed */
};

int fabric_run(const struct fabric_host *h, const char *const *words,
	       struct fabric_run *res);
int fabric_run_prog(const struct fabric_host *h, const char *prog,
		    const char *const *words, struct fabric_run *res);
void fabric_run_free(struct fabric_run *res);

#endif /* __TAGGER_FABRIC_RUN_H */
