/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tc shared blocks for the flower data path's --shared-blocks: ports
 * whose lists of a direction are alike (model/flower_share.h) have that
 * clsact hook bound to one block, whose filters flower_nl.h installs once
 * (FLOWER_NL_BLOCK). A hook's binding is made when its clsact is created
 * and the kernel refuses to change it ("Change of blocks is not
 * supported"): binding a port means creating its clsact, unbinding it
 * deleting the clsact, and the last port unbound takes the block and its
 * filters with it.
 *
 * Blocks are a network namespace's, numbered by whoever binds one. tagger
 * takes indices from FLOWER_BLOCK_BASE up, skipping every index any qdisc
 * of the namespace is bound to (another switch's, an operator's), so the
 * number says whose a block is; the netns lock of dp_pin.h serializes the
 * scan and the bind of two attaches.
 *
 * API:
 *   flower_block_scan(tc, &used, &n)   every qdisc of the namespace bound
 *                                      to a block: its device and blocks
 *                                      (*used malloc'd); 0 or -errno
 *   flower_block_of(used, n, ifindex, &in, &eg)
 *                                      a device's clsact (or ingress)
 *                                      blocks, 0 for none; false if it
 *                                      has no such qdisc bound
 *   flower_block_pick(used, n, out, k)
 *                                      the k lowest indices from the base
 *                                      no qdisc is bound to, into out;
 *                                      -ENOSPC when the range is full
 *   flower_block_ours(index)           whether index is in tagger's range
 *   flower_block_bind(tc, ifindex, in, eg)   a new clsact bound to blocks
 *                                      in and eg (0: the hook's own);
 *                                      -EEXIST if the device has one
 *   flower_block_unbind(tc, ifindex)   delete the device's clsact; 0 or
 *                                      -errno (-ENOENT, -EINVAL: none)
 */
#ifndef __TAGGER_FLOWER_BLOCK_H
#define __TAGGER_FLOWER_BLOCK_H

#include <stdbool.h>
#include <stdint.h>

#include "lib/tc_nl.h"

#define FLOWER_BLOCK_BASE 0x74670000u /* "tg" */
#define FLOWER_BLOCK_RANGE 0x10000u

struct flower_block_use {
	int ifindex;
	uint32_t in, eg; /* 0: the hook's own */
};

int flower_block_scan(struct tc *tc, struct flower_block_use **used, int *n);
bool flower_block_of(const struct flower_block_use *used, int n, int ifindex,
		     uint32_t *in, uint32_t *eg);
int flower_block_pick(const struct flower_block_use *used, int n, uint32_t *out,
		      int k);
bool flower_block_ours(uint32_t index);
int flower_block_bind(struct tc *tc, int ifindex, uint32_t in, uint32_t eg);
int flower_block_unbind(struct tc *tc, int ifindex);

#endif /* __TAGGER_FLOWER_BLOCK_H */
