/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A BPF ring buffer's consumer and producer positions, mapped read-only
 * (the kernel's layout: the consumer page, then the producer page), so that
 * a polling agent sees a new record without a system call; libbpf 1.1 has
 * no API for it.
 *
 * API:
 *   pfc_ring_pos_map(&rp, map_fd)   0 or -errno
 *   pfc_ring_pos_unmap(&rp)         (also of a zeroed, never mapped rp)
 *   pfc_ring_ready(&rp)             is a record waiting?
 */
#ifndef __TAGGER_PFC_RING_POS_H
#define __TAGGER_PFC_RING_POS_H

#include <stdbool.h>

struct pfc_ring_pos {
	const unsigned long *cons, *prod;
};

int pfc_ring_pos_map(struct pfc_ring_pos *rp, int map_fd);
void pfc_ring_pos_unmap(struct pfc_ring_pos *rp);

static inline bool pfc_ring_ready(const struct pfc_ring_pos *rp)
{
	return __atomic_load_n(rp->prod, __ATOMIC_ACQUIRE) !=
	       __atomic_load_n(rp->cons, __ATOMIC_RELAXED);
}

#endif /* __TAGGER_PFC_RING_POS_H */
