// SPDX-License-Identifier: GPL-2.0
/* A ring buffer's positions, read without a system call; see pfc_ring_pos.h. */
#include <errno.h>
#include <sys/mman.h>
#include <unistd.h>

#include "pfc/pfc_ring_pos.h"

int pfc_ring_pos_map(struct pfc_ring_pos *rp, int map_fd)
{
	long pg = sysconf(_SC_PAGESIZE);
	void *c, *p;

	c = mmap(NULL, pg, PROT_READ, MAP_SHARED, map_fd, 0);
	if (c == MAP_FAILED)
		return -errno;
	p = mmap(NULL, pg, PROT_READ, MAP_SHARED, map_fd, pg);
	if (p == MAP_FAILED) {
		munmap(c, pg);
		return -errno;
	}
	rp->cons = c;
	rp->prod = p;
	return 0;
}

void pfc_ring_pos_unmap(struct pfc_ring_pos *rp)
{
	long pg = sysconf(_SC_PAGESIZE);

	if (rp->cons)
		munmap((void *)rp->cons, pg);
	if (rp->prod)
		munmap((void *)rp->prod, pg);
}
